// A source's HTTP client (AnalyzeUrl's requests through HttpHelper's client), built for one
// source on one host: every fetch goes through the network policy (src/net/fetch.ts), under the
// source's concurrentRate, with its cookies merged in and, with enabledCookieJar, every answer's
// Set-Cookie kept. Non-2xx answers are answers (the flows judge them); failures are typed errors.
import { FetchFailedError } from '../../net/errors.js';
import { fetchWithPolicy, type FetchedBody, type FetchPolicy } from '../../net/fetch.js';
import type { BookSource, EngineHost, SourceHttp, StrResponse, UrlScript, UrlVars } from '../engine/types.js';
import { SourceCookieJar, mergeCookies } from './cookies.js';
import { decodeAnswer, toHex, withXmlDeclaration } from './decode.js';
import { cookieDomain } from './domain.js';
import { UrlRuleError } from './errors.js';
import { sharedLimiter } from './rate.js';
import { DEFAULT_USER_AGENT, HeaderMap, workOutUrl, type RuleEnv } from './url-rule.js';

interface Outgoing {
  readonly url: string;
  readonly method: string;
  readonly body: string | Uint8Array | null;
  readonly headers: Readonly<Record<string, string>>;
  readonly retry: number;
  readonly redirect: 'follow' | 'manual';
  readonly signal?: AbortSignal | undefined;
  /** The rule it came from, for errors. */
  readonly rule: string;
}

/** A `data:` URL's bytes and media type (base64 or percent-encoded), decoded here, never fetched. */
export function dataUrl(url: string): { bytes: Uint8Array; type: string } | undefined {
  const m = /^data:([^,]*),([\s\S]*)$/i.exec(url);
  if (!m) return undefined;
  const meta = m[1]!;
  const base64 = /;base64$/i.test(meta);
  const type = base64 ? meta.slice(0, -7) : meta;
  if (base64) {
    const bin = atob(m[2]!.replace(/\s+/g, ''));
    return { bytes: Uint8Array.from(bin, (c) => c.charCodeAt(0)), type };
  }
  const raw = m[2]!;
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === '%' && /^[0-9a-fA-F]{2}$/.test(raw.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(raw.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...new TextEncoder().encode(raw[i]!));
  }
  return { bytes: Uint8Array.from(bytes), type };
}

/**
 * Headers never sent from a rule: the platform's fetch sets them itself or refuses them
 * (`Keep-Alive`, `Transfer-Encoding`, `Upgrade`, `Expect` fail a Node fetch), and `Cookie` is
 * merged with the jar's below.
 */
const PLATFORM_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'host',
  'content-length',
  'cookie',
]);

export function createSourceHttp(source: BookSource, host: EngineHost, script: UrlScript): SourceHttp {
  const env: RuleEnv = { source, host, script };
  const jar = new SourceCookieJar(host);
  const jarOn = source.enabledCookieJar !== false;
  const key = source.bookSourceUrl;
  // The host's caps, those it leaves out at the policy's defaults.
  const policy: FetchPolicy = {
    fetch: host.fetch,
    allowPrivateHosts: host.allowPrivateHosts,
    reachableHosts: host.reachableHosts,
    ...(host.maxBytes !== undefined ? { maxBytes: host.maxBytes } : {}),
    ...(host.maxRedirects !== undefined ? { maxRedirects: host.maxRedirects } : {}),
    ...(host.timeoutMs !== undefined ? { timeoutMs: host.timeoutMs } : {}),
  };
  const fail = (rule: string, reason: string): never => {
    throw new UrlRuleError(key, rule, reason);
  };

  async function send(out: Outgoing): Promise<FetchedBody> {
    if (/^data:/i.test(out.url)) {
      let data: ReturnType<typeof dataUrl>;
      try {
        data = dataUrl(out.url);
      } catch {
        data = undefined;
      }
      if (!data) return fail(out.rule, 'a data: URL that cannot be decoded');
      const headers = new Headers(data.type ? { 'Content-Type': data.type } : {});
      return { url: out.url, status: 200, statusText: 'OK', headers, bytes: data.bytes, redirects: [] };
    }
    const headers = new Headers();
    const given = new HeaderMap();
    given.putAll(out.headers);
    try {
      for (const [k, v] of Object.entries(given.record())) if (!PLATFORM_HEADERS.has(k.toLowerCase())) headers.set(k, v);
    } catch {
      const bad = Object.entries(given.record()).find(([k, v]) => !/^[\t\x20-\x7e]*$/.test(v) || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(k));
      return fail(out.rule, `the header ${JSON.stringify(bad?.[0] ?? '?')} is not a valid HTTP header (name or value not plain ASCII)`);
    }
    if (!headers.has('Cache-Control')) headers.set('Cache-Control', 'no-cache');
    /** The Cookie header as it stands when the request goes (after a rate wait, another request may have set some). */
    const withCookies = (): Headers => {
      // The source's own domain's cookies always (AnalyzeUrl.setCookie), the URL's own with the jar
      // on (CookieManager.loadRequest); a Cookie header the rule gave wins over both.
      const cookie = mergeCookies(jar.getCookie(key), jarOn && cookieDomain(out.url) !== cookieDomain(key) ? jar.getCookie(out.url) : '', given.get('Cookie'));
      const h = new Headers(headers);
      if (cookie) {
        if (!/^[\t\x20-\x7e]*$/.test(cookie)) fail(out.rule, 'a stored cookie is not plain ASCII');
        h.set('Cookie', cookie);
      }
      return h;
    };
    const release = await sharedLimiter(host, key, source.concurrentRate).acquire(out.signal);
    try {
      for (let attempt = 0; ; attempt++) {
        let answer: FetchedBody;
        try {
          answer = await fetchWithPolicy(
            out.url,
            {
              method: out.method,
              headers: withCookies(),
              body: out.method === 'GET' || out.method === 'HEAD' ? null : (out.body ?? ''),
              signal: out.signal ?? null,
            },
            { ...policy, redirect: out.redirect, ...(jarOn ? jarHooks() : {}) },
          );
        } catch (e) {
          // `retry` tries again after a connection failure; a refusal by the policy is final.
          if (e instanceof FetchFailedError && attempt < out.retry) continue;
          throw e;
        }
        // As OkHttpUtils.newCallResponse: an answer that is not 2xx is asked again, `retry` times.
        if ((answer.status >= 200 && answer.status < 300) || attempt >= out.retry) return answer;
      }
    } finally {
      release();
    }
  }

  /**
   * With the jar on, each hop's answer is saved, and each redirect hop gets its own URL's cookies
   * merged over what it carries (CookieManager, an OkHttp network interceptor, runs per hop).
   */
  const jarHooks = () => {
    let hop = 0;
    return {
      onAnswer: (url: string, h: Headers) => jar.saveAnswer(url, h),
      onRequest: (url: string, h: Headers) => {
        if (hop++ === 0) return; // the first hop's cookies are already merged
        const cookie = mergeCookies(h.get('Cookie'), jar.getCookie(url));
        if (cookie && /^[\t\x20-\x7e]*$/.test(cookie)) h.set('Cookie', cookie);
      },
    };
  };

  const respond = (answer: FetchedBody, requestUrl: string, type: string | null): StrResponse => {
    const contentType = answer.headers.get('content-type');
    const body = type !== null ? toHex(answer.bytes) : withXmlDeclaration(decodeAnswer(answer.bytes, contentType), contentType);
    const prior = answer.redirectStatus === undefined ? {} : { redirectCode: answer.redirectStatus };
    return { url: answer.url, requestUrl, code: answer.status, ...prior, headers: answer.headers, body };
  };

  return {
    cookies: jar,
    request: (urlRule, vars) => workOutUrl(urlRule, env, vars),
    async fetch(urlRule: string, vars: UrlVars = {}): Promise<StrResponse> {
      const req = await workOutUrl(urlRule, env, vars);
      if (req.webView) host.log?.(`webView 未运行：按普通请求获取 (webView is not run here; fetched plainly): ${req.url}`);
      const answer = await send({ ...req, redirect: 'follow', signal: vars.signal, rule: urlRule });
      return respond(answer, req.url, req.type);
    },
    async direct(method, url, body, headers): Promise<StrResponse> {
      const map = new HeaderMap();
      map.putAll(headers);
      if (!map.has('User-Agent')) map.set('User-Agent', DEFAULT_USER_AGENT);
      if (map.get('User-Agent') === 'null') map.delete('User-Agent');
      // Jsoup's default for a request body.
      if (method === 'POST' && !map.has('Content-Type')) map.set('Content-Type', 'application/x-www-form-urlencoded; charset=UTF-8');
      const answer = await send({ url, method, body, headers: map.record(), retry: 0, redirect: 'manual', rule: url });
      return respond(answer, url, null);
    },
  };
}
