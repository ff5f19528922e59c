// The engine as `sources check` and `sources debug` run it: Node's checking fetch, a QuickJS
// sandbox, the store's cookies and caches; flows opened per check, their fetches tied to the
// check's signal and their lines to the debug log.
import { nodeFetch } from '../node/net-fetch.js';
import type { BookSource, DebugLog, EngineHost, SourceFlows } from '../sources/engine/types.js';
import { QuickJsEngine } from '../sources/js/index.js';
import { openSource } from '../sources/engine/session.js';
import { parseBookSource } from '../sources/engine/source.js';
import type { AnyStore } from '../store/store.js';
import { engineStorage } from '../sources/shelf/index.js';

export { ALLOW_PRIVATE_OPTION, allowPrivateHosts } from './source-engine.js';

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
    storage: engineStorage(store),
    now: store.clock,
  };
  return {
    parse: (row) => parseBookSource(row),
    open: (source, signal, log) => openSource(source, log ? { ...host, log } : host, signal ? { signal } : {}),
    dispose: () => js.dispose(),
  };
}
