// One reader's Durable Object: that reader's store on the object's SQLite storage, answering
// the app's web API and ours through the same handler `legado-store serve` uses (createApp),
// and the app's WebSocket endpoints on the same origin.
import type { Hono } from 'hono';
import { createApp } from '../server/app.js';
import type { HostFetch } from '../net/fetch.js';
import { parseOriginList } from '../server/origin-policy.js';
import { SOCKET_FINISH, socketReply } from '../server/socket-answer.js';
import type { DurableStorageLike } from '../engine/drivers/durable-object.js';
import type { AnyStore } from '../store/store.js';
import { openDurableStore } from './durable-store.js';
import { databaseResponse } from './database-file.js';
import { SandboxRules } from './sandbox-rules.js';

/** The parts of workerd's DurableObjectState used here. */
export interface ObjectState {
  readonly storage: DurableStorageLike;
  readonly id: { toString(): string };
}

/** The header the Worker names the authenticated reader in (set by it, never by a client). */
export const READER_HEADER = 'x-legado-reader';

interface SocketPair {
  0: WebSocket;
  1: WebSocket & { accept(): void };
}
declare const WebSocketPair: { new (): SocketPair };

export class ReaderStore {
  private store: AnyStore | undefined;
  private app: Hono | undefined;

  constructor(
    private readonly state: ObjectState,
    readonly env: unknown,
  ) {}

  private handler(reader: string): Hono {
    if (this.app) return this.app;
    const store = (this.store = openDurableStore(this.state.storage, { name: `durable-object:${reader}` }));
    // The Worker refused a bad LEGADO_CORS_ORIGINS before asking the object: none is listed then.
    let corsOrigins: string[] = [];
    try {
      corsOrigins = [...parseOriginList((this.env as { LEGADO_CORS_ORIGINS?: string } | undefined)?.LEGADO_CORS_ORIGINS)];
    } catch {
      corsOrigins = [];
    }
    // Covers are fetched with workerd's fetch under the network policy (src/net): literal private
    // addresses and local names refused; names resolve on Cloudflare, which reaches no private address.
    const hostFetch: HostFetch = (url, init) => fetch(url, init);
    // The users' regex rules (testReplaceRule) run in a QuickJS sandbox, made at the first one:
    // its interrupt stops a runaway inside its match, where the object's own thread could not.
    const rules = new SandboxRules();
    return (this.app = createApp(store, { corsOrigins, databaseFile: () => databaseResponse(store), hostFetch, rules }));
  }

  async fetch(request: Request): Promise<Response> {
    const reader = request.headers.get(READER_HEADER) ?? '';
    const app = this.handler(reader);
    const path = new URL(request.url).pathname;
    if (request.headers.get('upgrade')?.toLowerCase() === 'websocket') return socket(path);
    return app.fetch(request);
  }
}

/** The app's socket endpoints, answered as the Node shell answers them on port + 1 (node/server-sockets.ts). */
function socket(path: string): Response {
  const finish = SOCKET_FINISH[path];
  if (finish === undefined) return new Response(`Not Found: ${path}`, { status: 404 });
  const pair = new WebSocketPair();
  const server = pair[1];
  server.accept();
  server.addEventListener('message', (event: MessageEvent) => {
    server.send(socketReply(path, typeof event.data === 'string' ? event.data : new TextDecoder().decode(event.data as ArrayBuffer)));
    server.close(1000, finish);
  });
  return new Response(null, { status: 101, webSocket: pair[0] } as ResponseInit);
}
