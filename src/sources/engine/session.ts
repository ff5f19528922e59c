// One source opened on one host: its HTTP client (src/sources/http) and its scripts (the host's
// sandbox) put under the four flows (src/sources/book). Everything platform-bound comes in
// through the host: fetch and the network policy, the sandbox, the store's cookies and caches.
import type { RuleVariables } from '../analyze.js';
import { bookFlows, type RuleJsFactory } from '../book/index.js';
import { JsUnavailableError } from '../errors.js';
import { createSourceHttp } from '../http/index.js';
import type { JsSource } from '../js/types.js';
import { parseBookSource } from './source.js';
import type { BookSource, EngineHost, SourceFlows, UrlScript } from './types.js';

/** `source.put`/`source.get`: the store's caches under `v_<bookSourceUrl>_<key>`, as the app keeps them. */
function sourceVariables(source: BookSource, host: EngineHost): RuleVariables {
  const key = (k: string): string => `v_${source.bookSourceUrl}_${k}`;
  return {
    get: (k) => host.storage.cache.get(key(k)) ?? undefined,
    put: (k, v) => void host.storage.cache.put(key(k), v),
  };
}

export interface OpenOptions {
  /** Ends every fetch the flows make (a check's time limit); the flow then fails with the abort. */
  readonly signal?: AbortSignal;
}

/**
 * The flows of a book source: a BookSource, its 3.x JSON (object or text), or the store's
 * `book_sources` row (rule columns as JSON text). Each flow fails with a typed error naming the
 * source and the rule.
 */
export function openSource(input: BookSource | Readonly<Record<string, unknown>> | string, host: EngineHost, options: OpenOptions = {}): SourceFlows {
  const source = parseBookSource(input);
  const js = host.js;
  const jsSource: JsSource = { key: source.bookSourceUrl, name: source.bookSourceName, ...(source.jsLib ? { jsLib: source.jsLib } : {}) };
  const urlScript: UrlScript = (code, bindings, rule) => {
    if (!js) return Promise.reject(new JsUnavailableError(code));
    return js.run(code, { source, ...bindings }, { source: jsSource, rule });
  };
  const http = createSourceHttp(source, host, urlScript);
  const ruleJs: RuleJsFactory | undefined = js
    ? (_ctx, extra) => ({ eval: (code, bindings) => js.run(code, { ...extra, ...bindings }, { source: jsSource }) })
    : undefined;
  return bookFlows({
    source,
    http,
    ...(ruleJs ? { js: ruleJs } : {}),
    now: host.now ?? Date.now,
    log: host.log ?? (() => {}),
    sourceVariables: sourceVariables(source, host),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}
