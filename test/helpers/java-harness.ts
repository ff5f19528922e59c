// A source's script bindings over the real QuickJS sandbox, with the store's keyed text as plain
// maps (so tests read the keys the app's tables would hold) and a cookie jar that records calls.
import { QuickJsEngine } from '../../src/sources/js/index.js';
import { javaBindings, type JavaBindingsOptions, type RuleExtra } from '../../src/sources/java/index.js';
import { RuleContext } from '../../src/sources/analyze.js';
import type { BookSource, CookieJar, EngineHost, SourceHttp } from '../../src/sources/engine/types.js';
import { createSourceHttp } from '../../src/sources/http/index.js';

export interface Harness {
  readonly engine: QuickJsEngine;
  readonly cache: Map<string, string>;
  /** The cookies table's rows by domain. */
  readonly cookies: Map<string, string>;
  readonly jarCalls: string[];
  readonly logs: string[];
  readonly bindings: ReturnType<typeof javaBindings>;
  /** A rule context whose JavaScript runs in the sandbox with the helpers. */
  rule(content: unknown, baseUrl?: string, extra?: RuleExtra): RuleContext;
  dispose(): void;
}

export const SOURCE: BookSource = { bookSourceUrl: 'https://book.example/#t', bookSourceName: '测试源' };

/** A SourceHttp answering every request with nothing (for scripts that must not fetch). */
export function noHttp(jar: CookieJar): SourceHttp {
  const refuse = async (): Promise<never> => {
    throw new Error('no network in this test');
  };
  return { cookies: jar, fetch: refuse, request: refuse, direct: refuse };
}

export function recordingJar(calls: string[]): CookieJar {
  const kept = new Map<string, string>();
  return {
    getCookie: (url) => kept.get(url) ?? '',
    getKey: (url, key) => new RegExp(`(?:^|; )${key}=([^;]*)`).exec(kept.get(url) ?? '')?.[1] ?? '',
    setCookie: (url, cookie) => {
      calls.push(`set ${url}`);
      kept.set(url, cookie);
    },
    replaceCookie: (url, cookie) => {
      calls.push(`replace ${url}`);
      kept.set(url, cookie);
    },
    removeCookie: (url) => {
      calls.push(`remove ${url}`);
      kept.delete(url);
    },
  };
}

/** The store's cookies table as a map by domain (`set` merges `k=v` pairs, as the seam says). */
function cookieRows(rows: Map<string, string>): EngineHost['storage']['cookies'] {
  const merge = (old: string, add: string) => {
    const m = new Map<string, string>();
    for (const part of `${old};${add}`.split(';')) {
      const at = part.indexOf('=');
      if (at > 0) m.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
    }
    return [...m].map(([k, v]) => `${k}=${v}`).join('; ');
  };
  return {
    get: (d) => rows.get(d),
    set: (d, c) => rows.set(d, merge(rows.get(d) ?? '', c)),
    replace: (d, c) => void rows.set(d, c),
    delete: (d) => rows.delete(d),
  };
}

/**
 * `http: 'real'` runs the HTTP client (createSourceHttp) made with this composition's urlScript,
 * private addresses allowed for the fixture site; the default refuses every request.
 */
export function harness(options: { source?: BookSource; http?: 'real'; java?: JavaBindingsOptions } = {}): Harness {
  // one lane: a script that waited on itself would show as a timeout within 8 s
  const engine = new QuickJsEngine({ lanes: 1, limits: { wallMs: 8_000 } });
  const cache = new Map<string, string>();
  const cookies = new Map<string, string>();
  const jarCalls: string[] = [];
  const logs: string[] = [];
  const host: EngineHost = {
    storage: {
      cookies: cookieRows(cookies),
      cache: { get: (k) => cache.get(k), put: (k, v) => cache.set(k, v ?? ''), delete: (k) => cache.delete(k) },
    },
    allowPrivateHosts: true,
    timeoutMs: 5_000,
    log: (line) => logs.push(line),
  };
  const source = options.source ?? SOURCE;
  let http: SourceHttp = noHttp(recordingJar(jarCalls));
  const bindings = javaBindings(engine, source, () => http, host, options.java);
  if (options.http === 'real') http = createSourceHttp(source, host, bindings.urlScript);
  return {
    engine,
    cache,
    cookies,
    jarCalls,
    logs,
    bindings,
    rule(content, baseUrl, extra = {}) {
      const ctx: RuleContext = new RuleContext({ js: { eval: (code, b) => bindings.ruleJs(ctx, extra).eval(code, b) } });
      ctx.setContent(content, baseUrl);
      return ctx;
    },
    dispose: () => engine.dispose(),
  };
}
