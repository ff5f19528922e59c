// One source opened on one host: its HTTP client (src/sources/http) and its scripts (the host's
// sandbox with the `java.*` helpers, src/sources/java) put under the four flows (src/sources/book).
// Everything platform-bound comes in through the host: fetch and the network policy, the sandbox,
// the store's cookies and caches.
import { bookFlows } from '../book/index.js';
import { JsUnavailableError } from '../errors.js';
import { createSourceHttp } from '../http/index.js';
import { javaBindings, sourceVariables, type JavaBindings, type JavaBindingsOptions } from '../java/index.js';
import { parseBookSource } from './source.js';
import type { BookSource, EngineHost, SourceFlows, SourceHttp, UrlScript } from './types.js';

export interface OpenOptions extends JavaBindingsOptions {
  /** Ends every fetch the flows make (a check's time limit); the flow then fails with FETCH_TIMEOUT. */
  readonly signal?: AbortSignal;
}

/**
 * The flows of a book source: a BookSource, its 3.x JSON (object or text), or the store's
 * `book_sources` row (rule columns as JSON text). Each flow fails with a typed error naming the
 * source and the rule. Without `host.js`, rules with JavaScript fail with JS_UNAVAILABLE.
 */
export function openSource(input: BookSource | Readonly<Record<string, unknown>> | string, host: EngineHost, options: OpenOptions = {}): SourceFlows {
  const source = parseBookSource(input);
  let http: SourceHttp | undefined;
  // The client runs URL scripts through the bindings, and the bindings fetch through the client.
  const scripts: JavaBindings | undefined = host.js ? javaBindings(host.js, source, () => http!, host, options) : undefined;
  const noScripts: UrlScript = (code) => Promise.reject(new JsUnavailableError(code));
  http = createSourceHttp(source, host, scripts?.urlScript ?? noScripts);
  return bookFlows({
    source,
    http,
    ...(scripts ? { js: scripts } : {}),
    now: host.now ?? Date.now,
    log: host.log ?? (() => {}),
    sourceVariables: sourceVariables(source, host.storage),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}
