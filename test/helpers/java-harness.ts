// A source's script bindings over the real QuickJS sandbox, with the store's keyed text as plain
// maps (so tests read the keys the app's tables would hold) and a cookie jar that records calls.
import { QuickJsEngine } from '../../src/sources/js/index.js';
import { javaBindings, type JavaBindingsOptions, type RuleExtra } from '../../src/sources/java/index.js';
import { RuleContext } from '../../src/sources/analyze.js';
import type { BookSource, CookieJar, EngineHost, SourceHttp, StrResponse } from '../../src/sources/engine/types.js';

export interface Harness {
  readonly engine: QuickJsEngine;
  readonly cache: Map<string, string>;
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

export function harness(options: { source?: BookSource; http?: (jar: CookieJar) => SourceHttp; java?: JavaBindingsOptions } = {}): Harness {
  const engine = new QuickJsEngine({ lanes: 1 });
  const cache = new Map<string, string>();
  const jarCalls: string[] = [];
  const logs: string[] = [];
  const jar = recordingJar(jarCalls);
  const host: EngineHost = {
    storage: {
      cookies: { get: () => undefined, set: () => undefined, replace: () => undefined, delete: () => undefined },
      cache: { get: (k) => cache.get(k), put: (k, v) => cache.set(k, v ?? ''), delete: (k) => cache.delete(k) },
    },
    log: (line) => logs.push(line),
  };
  const http = (options.http ?? noHttp)(jar);
  const bindings = javaBindings(engine, options.source ?? SOURCE, http, host, options.java);
  return {
    engine,
    cache,
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

/**
 * A bare SourceHttp over the host's fetch, standing in for the HTTP client: a URL rule is taken as
 * a plain URL resolved against the source URL, with the source's JSON header; `direct` does not
 * follow redirects.
 */
export function plainHttp(source: BookSource) {
  return (jar: CookieJar): SourceHttp => {
    const headers = source.header ? (JSON.parse(source.header) as Record<string, string>) : {};
    const answer = async (res: Response, requestUrl: string): Promise<StrResponse> => ({
      url: res.url || requestUrl,
      requestUrl,
      code: res.status,
      headers: res.headers,
      body: await res.text(),
    });
    return {
      cookies: jar,
      fetch: async (rule) => {
        const url = new URL(rule, source.bookSourceUrl).href;
        const res = await fetch(url, { headers });
        if (res.status === 404) throw new Error(`HTTP 404 for ${url}`);
        return answer(res, url);
      },
      request: async () => {
        throw new Error('not used');
      },
      direct: async (method, url, body, given) => answer(await fetch(url, { method, body, headers: { ...headers, ...given }, redirect: 'manual' }), url),
    };
  };
}
