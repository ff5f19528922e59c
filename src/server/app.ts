// The app's web API (HttpServer.kt) answered from a store, as one Hono app on Web-standard
// Request/Response only: no node:* import, no file system, so Node (node/server.ts), Bun and a
// Cloudflare Durable Object can all serve it. What depends on the host (static files, the
// database file, WebDAV uploads) comes in through ServeOptions.
import { Hono, type Context } from 'hono';
import { basicAuth } from 'hono/basic-auth';
import { bodyLimit } from 'hono/body-limit';
import { apiAnswer, fail, type Envelope } from './envelope.js';
import { bookRoutes } from './routes-books.js';
import { localBookRoutes } from './routes-local.js';
import { ourRoutes } from './routes-ours.js';
import { ruleRoutes } from './routes-rules.js';
import { sourceRoutes } from './routes-sources.js';
import { welcomePage } from './page.js';
import { checkHost, checkOrigin, grantHeaders, PREFLIGHT_HEADERS } from './origin-policy.js';
import type { AnyStore, RouteContext, ServeOptions } from './context.js';

export type { ServeOptions, ProgressUpload } from './context.js';
export { NO_ENGINE } from './context.js';

export const DEFAULT_MAX_BODY = 32 << 20;

/** The answer to a body over the limit: 413 with the app's envelope. */
export const tooLarge = (max: number): Response => apiAnswer(fail(`请求体过大: the request body is larger than ${max} bytes`), 413);

/** A handler of the app's API: given the request's query and raw body, an envelope. */
export type ApiHandler = (req: ApiRequest) => Envelope | Response | Promise<Envelope | Response>;

export interface ApiRequest {
  /** The first value of a query parameter, as NanoHTTPD's `parameters[name]?.firstOrNull()`. */
  query(name: string): string | undefined;
  /** The body as the app reads it: UTF-8, trimmed, undefined when empty (NanoHTTPD's postData). */
  readonly body: string | undefined;
  readonly raw: Request;
}

/** Where routes are registered: GET and POST paths of the app's API. */
export interface Routes {
  get(path: string, handler: ApiHandler): void;
  post(path: string, handler: ApiHandler): void;
}

export function createApp(store: AnyStore, options: ServeOptions = {}): Hono {
  const app = new Hono();
  const ctx: RouteContext = { store, options };

  // The front door first: a foreign Host or a foreign origin's write is refused before credentials
  // are asked for (no login prompt on another site's page) and before any body is read.
  const listed = new Set(options.corsOrigins ?? []);
  app.use('*', async (c, next) => {
    const host = checkHost(c.req.raw, options.allowedHosts);
    if (host) return c.text(host.text, host.status);
    const origin = checkOrigin(c.req.raw, listed);
    if (origin.refusal) return c.text(origin.refusal.text, origin.refusal.status);
    await next();
    // Vary: a cache must not hand a listed origin's answer (with its grant) to another one.
    if (origin.grant !== undefined) c.res = withHeaders(c.res, grantHeaders(origin.grant));
    else if (listed.size > 0) c.res = withHeaders(c.res, { Vary: 'Origin' });
  });
  // Preflights carry no credentials (browsers never send them there) and reveal nothing; the
  // front door gave a listed origin its grant and refused the others.
  app.options('*', (c) => c.body('', 200, PREFLIGHT_HEADERS));

  if (options.auth) {
    const { user, password } = options.auth;
    // Hono compares both through SHA-256 digests (timingSafeEqual): no early exit on a wrong byte.
    app.use('*', basicAuth({ username: user, password, realm: 'legado-store' }));
  }
  app.use(
    '*',
    bodyLimit({
      maxSize: options.maxBodyBytes ?? DEFAULT_MAX_BODY,
      onError: () => tooLarge(options.maxBodyBytes ?? DEFAULT_MAX_BODY),
    }),
  );

  const run = async (c: Context, handler: ApiHandler): Promise<Response> => {
    const req = await apiRequest(c);
    const out = await handler(req);
    if (out instanceof Response) return out;
    return apiAnswer(out);
  };
  const routes: Routes = {
    get: (path, handler) => void app.get(path, (c) => run(c, handler)),
    post: (path, handler) => void app.post(path, (c) => run(c, handler)),
  };
  bookRoutes(routes, ctx);
  sourceRoutes(routes, ctx);
  ruleRoutes(routes, ctx);
  localBookRoutes(app, ctx);
  ourRoutes(app, ctx);

  // Every other path is a static file; a path ending in / gets its index.html.
  app.all('*', async (c) => {
    let path: string;
    try {
      path = decodeURIComponent(new URL(c.req.url).pathname);
    } catch {
      return c.text('Bad Request: malformed escape in the path', 400);
    }
    if (path.endsWith('/')) path += 'index.html';
    const file = await options.staticFile?.(path, c.req.raw);
    if (file) return file;
    if (path === '/index.html' && !options.staticFile) return c.html(welcomePage(store, options));
    return c.text(`Not Found: ${path}`, 404);
  });

  // The app answers an exception as plain text, its message; we add the status 500 (see docs/serve.md).
  app.onError((err, c) => {
    if (typeof (err as { getResponse?: unknown }).getResponse === 'function') return (err as unknown as { getResponse(): Response }).getResponse();
    return c.text(err.message || String(err), 500);
  });
  return app;
}

/** The answer with headers added (a copy when its headers are immutable, as a fetched answer's are). */
function withHeaders(res: Response, headers: Record<string, string>): Response {
  const out = new Response(res.body, res);
  for (const [k, v] of Object.entries(headers)) out.headers.set(k, v);
  return out;
}

const decoder = new TextDecoder('utf-8');

async function apiRequest(c: Context): Promise<ApiRequest> {
  let body: string | undefined;
  if (c.req.method === 'POST') {
    const text = decoder.decode(await c.req.arrayBuffer()).trim();
    body = text === '' ? undefined : text;
  }
  const url = new URL(c.req.url);
  return {
    body,
    raw: c.req.raw,
    // URLSearchParams never throws: a malformed escape stays as written, as Java's decoder leaves it.
    query: (name) => url.searchParams.get(name) ?? undefined,
  };
}
