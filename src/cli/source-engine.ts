// The book-source engine as the command line runs it (search, book, sources check/debug): Node's
// checking fetch (private addresses refused unless --allow-private-hosts or
// LEGADO_ALLOW_PRIVATE_HOSTS=1), a QuickJS sandbox for the sources' scripts, the store's cookies
// and caches, the store's clock. One per command run.
import { nodeFetch } from '../node/net-fetch.js';
import type { BookSource, DebugLog, EngineHost, SourceFlows } from '../sources/engine/types.js';
import { QuickJsEngine } from '../sources/js/index.js';
import { engineStorage, type ShelfEngine } from '../sources/shelf/index.js';
import type { AnyStore } from '../store/store.js';
import { openSource } from '../sources/engine/session.js';
import { parseBookSource } from '../sources/engine/source.js';
import { ALLOW_PRIVATE_ENV } from './commands/serve.js';

export interface CliEngine extends ShelfEngine {
  /** A store row (rule columns as JSON text) as the engine reads it. */
  parse(row: Readonly<Record<string, unknown>>): BookSource;
  /** Flows whose fetches end with `signal` and whose debug lines go to `log` (not kept for reuse). */
  openFor(source: BookSource, signal?: AbortSignal, log?: DebugLog): SourceFlows;
  /** Frees the sandbox. */
  dispose(): void;
}

/** --allow-private-hosts, or LEGADO_ALLOW_PRIVATE_HOSTS=1 (as `serve` reads them). */
export const allowPrivateHosts = (flag: boolean | undefined, env: Readonly<Record<string, string | undefined>>): boolean =>
  flag === true || env[ALLOW_PRIVATE_ENV] === '1';

export const ALLOW_PRIVATE_OPTION = [
  '--allow-private-hosts',
  `let sources reach loopback, private and link-local addresses, as on a LAN (or ${ALLOW_PRIVATE_ENV}=1); refused by default`,
] as const;

export function cliEngine(store: AnyStore, options: { readonly allowPrivateHosts: boolean; readonly log?: DebugLog }): CliEngine {
  const js = new QuickJsEngine();
  const host: EngineHost = {
    fetch: nodeFetch(),
    allowPrivateHosts: options.allowPrivateHosts,
    js,
    storage: engineStorage(store),
    now: store.clock,
    ...(options.log ? { log: options.log } : {}),
  };
  const opened = new Map<string, SourceFlows>();
  return {
    source(url) {
      const row = store.tables.book_sources.get(url);
      return row ? parseBookSource(row) : undefined;
    },
    parse: (row) => parseBookSource(row),
    open(source, signal) {
      if (signal) return openSource(source, host, { signal });
      let flows = opened.get(source.bookSourceUrl);
      if (!flows) opened.set(source.bookSourceUrl, (flows = openSource(source, host)));
      return flows;
    },
    openFor: (source, signal, log) => openSource(source, log ? { ...host, log } : host, signal ? { signal } : {}),
    dispose: () => js.dispose(),
  };
}
