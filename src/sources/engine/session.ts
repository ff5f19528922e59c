// One source opened on one host: its HTTP client (src/sources/http) and its scripts (the host's
// sandbox) put under the four flows (src/sources/book). Everything platform-bound comes in
// through the host: fetch and the network policy, the sandbox, the store's cookies and caches.
import type { RuleVariables } from '../analyze.js';
import { bookFlows, type RuleJsFactory } from '../book/index.js';
import { JsUnavailableError } from '../errors.js';
import { createSourceHttp } from '../http/index.js';
import type { JsSource } from '../js/types.js';
import { parseBookSource } from './source.js';
import type { BookSource, EngineHost, SourceFlows, SourceHttp, UrlScript } from './types.js';

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
 * The jsLib as the sandbox takes it: JS text as it is, or (SharedJsScope) a JSON map whose
 * absolute-URL values are scripts fetched and run in the map's order.
 */
async function jsLibText(jsLib: string, http: SourceHttp): Promise<string> {
  const t = jsLib.trim();
  if (!(t.startsWith('{') && t.endsWith('}'))) return jsLib;
  let map: unknown;
  try {
    map = JSON.parse(t);
  } catch {
    return jsLib;
  }
  if (!map || typeof map !== 'object') return jsLib;
  const urls = Object.values(map).filter((v): v is string => typeof v === 'string' && /^https?:\/\//i.test(v));
  const parts: string[] = [];
  for (const url of urls) parts.push((await http.fetch(url)).body);
  return parts.join('\n;\n');
}

/**
 * The flows of a book source: a BookSource, its 3.x JSON (object or text), or the store's
 * `book_sources` row (rule columns as JSON text). Each flow fails with a typed error naming the
 * source and the rule.
 */
export function openSource(input: BookSource | Readonly<Record<string, unknown>> | string, host: EngineHost, options: OpenOptions = {}): SourceFlows {
  const source = parseBookSource(input);
  const js = host.js;
  // The jsLib is worked out on the first script (a map of URLs is fetched then, once).
  let lib: Promise<JsSource> | undefined;
  const jsSource = (): Promise<JsSource> =>
    (lib ??= (async () => {
      const text = source.jsLib ? await jsLibText(source.jsLib, http) : '';
      return { key: source.bookSourceUrl, name: source.bookSourceName, ...(text ? { jsLib: text } : {}) };
    })());
  const urlScript: UrlScript = async (code, bindings, rule) => {
    if (!js) throw new JsUnavailableError(code);
    return js.run(code, { source, ...bindings }, { source: await jsSource(), rule });
  };
  const http = createSourceHttp(source, host, urlScript);
  const ruleJs: RuleJsFactory | undefined = js
    ? (_ctx, extra) => ({ eval: async (code, bindings) => js.run(code, { ...extra, ...bindings }, { source: await jsSource() }) })
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
