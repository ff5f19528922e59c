// The app's web API (HttpServer.kt) answered from a store, as one Hono app on Web-standard
// Request/Response only: no node:* import, no file system, so Node (node.ts), Bun and a
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
import type { AnyStore, RouteContext, ServeOptions } from './context.js';

export type { ServeOptions, ProgressUpload } from './context.js';
export { NO_ENGINE } from './context.js';

export const DEFAULT_MAX_BODY = 32 << 20;

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

  // Preflights carry no credentials (browsers never send them there) and reveal nothing.
  app.options('*', (c) => {
    const h: Record<string, string> = { 'Access-Control-Allow-Methods': 'POST', 'Access-Control-Allow-Headers': 'content-type' };
    const origin = c.req.header('origin');
    if (origin !== undefined) h['Access-Control-Allow-Origin'] = origin;
    return c.body('', 200, h);
  });

  if (options.auth) {
    const { user, password } = options.auth;
    // Hono compares both through SHA-256 digests (timingSafeEqual): no early exit on a wrong byte.
    app.use('*', basicAuth({ username: user, password, realm: 'legado-store' }));
  }
  app.use(
    '*',
    bodyLimit({
      maxSize: options.maxBodyBytes ?? DEFAULT_MAX_BODY,
      onError: (c) => envelope(c, fail(`请求体过大: the request body is larger than ${options.maxBodyBytes ?? DEFAULT_MAX_BODY} bytes`), 413),
    }),
  );

  const run = async (c: Context, handler: ApiHandler): Promise<Response> => {
    const req = await apiRequest(c);
    const out = await handler(req);
    if (out instanceof Response) return out;
    return envelope(c, out);
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

const envelope = (c: Context, env: Envelope, status = 200): Response => apiAnswer(c.req.header('origin'), env, status);

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
