// A store served over real HTTP on 127.0.0.1 (the Node shell, port 0), for the serve contract
// tests: `get`/`post` send with Node's fetch and give the status, headers and exact body text.
import './engine.js'; // Node's engines, as the package's entry installs them
import { join } from 'node:path';
import { after } from 'node:test';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import { startServer, type NodeServeOptions, type RunningServer } from '../../src/node/server.js';
import { tempDir } from './files.js';

export interface Served {
  readonly store: Store<62>;
  readonly server: RunningServer;
  readonly path: string;
  get(path: string, headers?: Record<string, string>): Promise<Answer>;
  post(path: string, body: string | Uint8Array, headers?: Record<string, string>): Promise<Answer>;
  /** One value by raw SQL (the file's own truth, not our API). */
  sql(text: string, ...params: unknown[]): unknown;
  rows(text: string, ...params: unknown[]): Record<string, unknown>[];
}

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  json(): unknown;
}

export async function served(options: NodeServeOptions = {}, fill?: (store: Store<62>) => void, schema: 62 | 75 = 62): Promise<Served> {
  const path = join(tempDir('legado-serve-'), 'store.db');
  const store = openStore(path, { schema }) as unknown as Store<62>;
  fill?.(store);
  const server = await startServer(store, { port: 0, ...options });
  after(async () => {
    await server.close();
    store.close();
  });
  const answer = async (res: Response): Promise<Answer> => {
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
  };
  return {
    store,
    server,
    path,
    get: async (p, headers = {}) => answer(await fetch(server.url + p.replace(/^\//, ''), { headers })),
    post: async (p, body, headers = { 'Content-Type': 'application/json' }) =>
      answer(await fetch(server.url + p.replace(/^\//, ''), { method: 'POST', body, headers })),
    sql: (text, ...params) =>
      store.db
        .prepare(text)
        .pluck()
        .get(...params),
    rows: (text, ...params) => store.db.prepare(text).all(...params) as Record<string, unknown>[],
  };
}

/** The envelope text the app's Gson writes, spelled out for the tests (2-space pretty print, no data when null). */
export const envelopeText = (isSuccess: boolean, errorMsg: string, dataJson?: string): string =>
  `{\n  "isSuccess": ${isSuccess},\n  "errorMsg": ${JSON.stringify(errorMsg)}` +
  (dataJson === undefined ? '\n}' : `,\n  "data": ${dataJson.replace(/\n/g, '\n  ')}\n}`);
