// The fixture site: one pure `(Request) => Promise<Response>` serving the model in every shape,
// each under its own path prefix, so the same site runs under node:http and inside workerd.
import { model as makeModel, type Model, type ModelOptions } from './model.js';
import { htmlPage, notFound, type Ctx, type Handler } from './page.js';
import { aioShape } from './shape-aio.js';
import { apiShape } from './shape-api.js';
import { gbkShape } from './shape-gbk.js';
import { cookieShape, DEFAULT_RATE, loginShape, rateShape, type RateLimit } from './shape-guarded.js';
import { jsShape } from './shape-js.js';
import { pagedShape } from './shape-paged.js';
import { safetyShape, Timers } from './shape-safety.js';
import { xpathShape } from './shape-xpath.js';

export interface SiteOptions {
  readonly model?: ModelOptions;
  /** The clock of the rate limit (ms); Date.now by default, a counter in tests. */
  readonly now?: () => number;
  readonly rateLimit?: RateLimit;
}

export interface Site {
  (request: Request): Promise<Response>;
  readonly model: Model;
  /** How many requests each `METHOD path?query` got (what a test counts: one java.ajax per part, a cached chapter fetched once). */
  readonly hits: ReadonlyMap<string, number>;
  /** Ends every slow answer still waiting. */
  dispose(): void;
}

/** A cover: a few bytes of JPEG framing, enough for a content type and a size. */
const COVER = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);

const INDEX = ['gbk', 'paged', 'api', 'xpath', 'aio', 'js', 'guard', 'rate', 'login', 'safety'];

export function fixtureSite(seed: number, options: SiteOptions = {}): Site {
  const model = makeModel(seed, options.model);
  const timers = new Timers();
  const now = options.now ?? Date.now;
  const hits = new Map<string, number>();
  const shapes: Handler[] = [
    gbkShape,
    pagedShape,
    apiShape,
    xpathShape,
    aioShape,
    jsShape,
    cookieShape,
    rateShape(options.rateLimit ?? DEFAULT_RATE),
    loginShape,
    safetyShape(timers),
    (ctx) => (/^\/covers\/\d+\.jpg$/.test(ctx.url.pathname) ? new Response(COVER, { headers: { 'Content-Type': 'image/jpeg' } }) : undefined),
    (ctx) => (ctx.url.pathname === '/' ? htmlPage('fixture', INDEX.map((s) => `<a href="/${s}/">${s}</a>`).join('\n')) : undefined),
  ];
  const site = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const key = `${req.method} ${url.pathname}${url.search}`;
    hits.set(key, (hits.get(key) ?? 0) + 1);
    const ctx: Ctx = { model, req, url, now };
    for (const shape of shapes) {
      const res = await shape(ctx);
      if (res) return res;
    }
    return notFound();
  };
  return Object.assign(site, { model, hits, dispose: () => timers.dispose() });
}
