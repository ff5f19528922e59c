// The Node shell around the platform-free app (app.ts): HTTP through @hono/node-server, the
// WebSocket server on port + 1, static files from a folder, the database file through a
// temporary copy, WebDAV progress uploads, and a stop that lets requests in flight finish.
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { serve } from '@hono/node-server';
import type { WebSocketServer } from 'ws';
import { webdavSync } from '../webdav/index.js';
import { defaultBooksDir, folderStorage } from './localbook-files.js';
import type { WebDavOptions } from '../webdav/sync.js';
import { createApp } from '../server/app.js';
import { PortInUseError } from '../errors.js';
import type { AnyStore, ServeOptions } from '../server/context.js';
import { startSockets } from './server-sockets.js';
import { staticFolder } from './static-files.js';
import { nodeFetch } from './net-fetch.js';
import { defaultHosts } from '../server/origin-policy.js';
import { asyncRuleThreads } from './rule-thread.js';
import { cacheDirOf, FileChapterCache } from './chapter-cache.js';
import { QuickJsEngine } from '../sources/js/index.js';
import { openSource } from '../sources/engine/session.js';
import { parseBookSource } from '../sources/engine/source.js';
import { engineStorage, type ShelfEngine } from '../sources/shelf/index.js';

export interface NodeServeOptions
  extends Omit<ServeOptions, 'staticFile' | 'databaseFile' | 'uploadProgress' | 'bookStorage' | 'rules' | 'hostFetch' | 'sources'> {
  readonly host?: string;
  /** HTTP port (default 1122; 0 picks a free one, and the WebSocket port is then free-chosen too). */
  readonly port?: number;
  /** The app's web folder (assets/web). */
  readonly web?: string | undefined;
  /** Where local books are kept (default: `books` beside the store, as `legado-store book` keeps them). */
  readonly booksDir?: string | undefined;
  /** Upload progress to the app's WebDAV folder on every save. */
  readonly webdav?: WebDavOptions | undefined;
  /** Where messages go (default: nowhere). */
  readonly log?: (line: string) => void;
  /** Longest wait for requests in flight at stop, in ms (default 10,000). */
  readonly stopTimeoutMs?: number;
  /** Longest a request waits on a book source, ms (default 30,000: the app's). */
  readonly sourceTimeoutMs?: number | undefined;
}

export interface RunningServer {
  readonly url: string;
  readonly wsUrl: string;
  readonly port: number;
  readonly wsPort: number;
  /** Stops taking requests, waits for those in flight, closes the sockets. The store stays open. */
  close(): Promise<void>;
}

export async function startServer(store: AnyStore, options: NodeServeOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? (() => {});
  const sync = options.webdav ? webdavSync(store, options.webdav) : undefined;
  const rules = asyncRuleThreads(); // the users' rules off the server's thread
  const staticFile = options.web ? await staticFolder(options.web) : undefined;
  // Cover URLs are fetched checking every address a name resolves to (docs/network.md).
  const hostFetch = nodeFetch();
  // Web books' sources run in one QuickJS sandbox, made on first use and freed at close.
  const engine = sourceEngine(store, hostFetch, options);
  // The Host names answered depend on the port, known once listening: the app is made then, and
  // a request before that (none can come: the listen callback runs first) would be refused.
  const hostsFor = (port: number): string[] | undefined =>
    options.auth && !options.allowedHosts?.length ? undefined : defaultHosts(host, port, options.allowedHosts ?? []);
  const appFor = (port: number) =>
    createApp(store, {
      ...options,
      rules,
      allowedHosts: hostsFor(port),
      staticFile,
      databaseFile: () => databaseFile(store),
      hostFetch,
      sources: { engine, cache: new FileChapterCache(cacheDirOf(store.path)), timeoutMs: options.sourceTimeoutMs },
      bookStorage: folderStorage(options.booksDir ?? defaultBooksDir(store.path)),
      uploadProgress: sync
        ? async (p) => {
            try {
              await sync.pushProgress(p);
              return true;
            } catch (e) {
              log(`progress upload failed for ${p.name} / ${p.author}: ${(e as Error).message}`);
              return false;
            }
          }
        : undefined,
    });
  let app: ReturnType<typeof createApp> | undefined;

  let inFlight = 0;
  let drained: (() => void) | undefined;
  const fetch = async (req: Request): Promise<Response> => {
    if (!app) return new Response('Service Unavailable: starting', { status: 503 });
    inFlight++;
    try {
      return await app.fetch(req);
    } finally {
      if (--inFlight === 0) drained?.();
    }
  };

  const inUse = (e: unknown, use: 'HTTP' | 'WebSocket', httpPort: number): unknown =>
    (e as { code?: unknown }).code === 'EADDRINUSE' ? new PortInUseError(host, httpPort, use) : e;
  const asked = options.port ?? 1122;
  const server = await new Promise<Server>((resolvePromise, reject) => {
    const s = serve({ fetch, hostname: host, port: asked }, () => resolvePromise(s as Server)) as Server;
    s.once('error', (e) => reject(inUse(e, 'HTTP', asked)));
  });
  const port = (server.address() as AddressInfo).port;
  app = appFor(port);
  let sockets: WebSocketServer;
  try {
    sockets = await startSockets(host, options.port === 0 ? 0 : port + 1, {
      httpPort: port,
      corsOrigins: new Set(options.corsOrigins ?? []),
      allowedHosts: (wsPort) => hostsFor(wsPort),
    });
  } catch (e) {
    server.close();
    throw inUse(e, 'WebSocket', port);
  }
  const wsPort = (sockets.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      const stopped = new Promise<void>((r) => server.close(() => r()));
      server.closeIdleConnections();
      for (const client of sockets.clients) client.terminate();
      await new Promise<void>((r) => sockets.close(() => r()));
      // Ref'd timers: they also keep the process alive while requests wait on sockets that do
      // not (fetch's pooled connections are unref'd). Answers being written finish too: idle
      // connections are closed as they become idle, all of them only after the time limit.
      const deadline = Date.now() + (options.stopTimeoutMs ?? 10_000);
      const sweep = setInterval(() => {
        server.closeIdleConnections();
        if (Date.now() > deadline) server.closeAllConnections();
      }, 20);
      const limit = new Promise<void>((r) => setTimeout(r, Math.max(0, deadline - Date.now()) + 100).unref());
      if (inFlight > 0) await Promise.race([new Promise<void>((r) => (drained = r)), limit]);
      await Promise.race([stopped, limit]);
      clearInterval(sweep);
      await rules.close();
      engine.dispose();
    })());

  return { url: `http://${shown}:${port}/`, wsUrl: `ws://${shown}:${wsPort}/`, port, wsPort, close };
}

/** The store's sources under the network policy (private hosts as the server's fetches: --allow-private-hosts). */
function sourceEngine(store: AnyStore, fetch: ReturnType<typeof nodeFetch>, options: NodeServeOptions): ShelfEngine & { dispose(): void } {
  let js: QuickJsEngine | undefined;
  const host = () => ({
    fetch,
    allowPrivateHosts: options.allowPrivateHosts === true,
    ...(options.reachableHosts ? { reachableHosts: options.reachableHosts } : {}),
    js: (js ??= new QuickJsEngine()),
    storage: engineStorage(store),
    now: store.clock,
  });
  return {
    source(url) {
      const row = store.tables.book_sources.get(url);
      return row ? parseBookSource(row) : undefined;
    },
    open: (source, signal) => openSource(source, host(), signal ? { signal } : {}),
    dispose: () => js?.dispose(),
  };
}

/** A consistent copy of the database (VACUUM INTO, which reads through the connection), streamed and then removed. */
async function databaseFile(store: AnyStore): Promise<Response> {
  const dir = await mkdtemp(join(tmpdir(), 'legado-serve-'));
  const file = join(dir, 'legado.db');
  try {
    store.db.prepare('VACUUM INTO ?').run(file);
  } catch (e) {
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
  const stream = createReadStream(file);
  stream.once('close', () => void rm(dir, { recursive: true, force: true }));
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, {
    headers: { 'Content-Type': 'application/vnd.sqlite3', 'Content-Disposition': 'attachment; filename="legado.db"' },
  });
}
