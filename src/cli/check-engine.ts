// The engine as `sources check` and `sources debug` run it: Node's checking fetch, a QuickJS
// sandbox, the store's cookies and caches; flows opened per check, their fetches tied to the
// check's signal and their lines to the debug log.
import { nodeFetch } from '../node/net-fetch.js';
import type { BookSource, DebugLog, EngineHost, SourceFlows } from '../sources/engine/types.js';
import { QuickJsEngine } from '../sources/js/index.js';
import { openSource } from '../sources/engine/session.js';
import { parseBookSource } from '../sources/engine/source.js';
import type { AnyStore } from '../store/store.js';
import { ALLOW_PRIVATE_ENV } from './commands/serve.js';

export const allowPrivateHosts = (flag: boolean | undefined, env: Readonly<Record<string, string | undefined>>): boolean =>
  flag === true || env[ALLOW_PRIVATE_ENV] === '1';

export const ALLOW_PRIVATE_OPTION = [
  '--allow-private-hosts',
  `let sources reach loopback, private and link-local addresses, as on a LAN (or ${ALLOW_PRIVATE_ENV}=1); refused by default`,
] as const;

export interface CheckEngine {
  parse(row: Readonly<Record<string, unknown>>): BookSource;
  open(source: BookSource, signal?: AbortSignal, log?: DebugLog): SourceFlows;
  dispose(): void;
}

export function cliEngine(store: AnyStore, options: { readonly allowPrivateHosts: boolean }): CheckEngine {
  const js = new QuickJsEngine();
  const host: EngineHost = {
    fetch: nodeFetch(),
    allowPrivateHosts: options.allowPrivateHosts,
    js,
    storage: { cookies: store.cookies, cache: store.cache } as unknown as EngineHost['storage'],
    now: store.clock,
  };
  return {
    parse: (row) => parseBookSource(row),
    open: (source, signal, log) => openSource(source, log ? { ...host, log } : host, signal ? { signal } : {}),
    dispose: () => js.dispose(),
  };
}
