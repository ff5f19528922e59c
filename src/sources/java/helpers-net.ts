// The network helpers, through the source's SourceHttp: `java.ajax` (the body, or the error's
// text as the app answers), `ajaxAll`, `connect` (a StrResponse; on failure one holding the
// error's text), `get/post/head` (Jsoup's Connection.Response: no redirect following, 4xx and 5xx
// thrown), `importScript`/`cacheFile`, and `getZipStringContent`.
import { unzipSync } from 'fflate';
import type { SourceHttp, StrResponse, UrlVars } from '../engine/types.js';
import { decodeText } from './bytes.js';
import { hexDecode } from './codec.js';
import { HelperError, HelperUnsupportedError } from './errors.js';

type Helper = (...args: unknown[]) => unknown;

const text = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'string' ? v : String(v));
const reason = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** A StrResponse as the prelude shapes it (body(), code(), header(), url()). */
export function strResponseOut(r: Pick<StrResponse, 'url' | 'code' | 'body'> & { headers?: Headers }, message = 'OK') {
  return { __t: 'str', url: r.url, code: r.code, message, body: r.body, headers: r.headers ? [...r.headers] : [] };
}

function setCookies(headers: Headers): [string, string][] {
  const list = typeof headers.getSetCookie === 'function' ? headers.getSetCookie() : (headers.get('set-cookie') ?? '').split(/,(?=\s*[^;,=\s]+=)/);
  const out: [string, string][] = [];
  for (const c of list) {
    const pair = c.split(';', 1)[0]!;
    const at = pair.indexOf('=');
    if (at > 0) out.push([pair.slice(0, at).trim(), pair.slice(at + 1).trim()]);
  }
  return out;
}

/** Headers given as a JS object (or JSON text) → a string map. */
function headerMap(v: unknown, helper: string): Record<string, string> {
  if (v === null || v === undefined) return {};
  let o = v;
  if (typeof v === 'string') {
    try {
      o = JSON.parse(v);
    } catch {
      throw new HelperError(helper, 'headers are not a JSON object');
    }
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw new HelperError(helper, 'headers must be an object');
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, text(x)]));
}

/** A URL rule with headers added to its options (`url,{"headers":…}`), as AnalyzeUrl's headerMapF does. */
export function withHeaders(urlRule: string, headers: Record<string, string>): string {
  if (Object.keys(headers).length === 0) return urlRule;
  const at = /,\s*(?=\{)/.exec(urlRule);
  if (!at) return `${urlRule},${JSON.stringify({ headers })}`;
  const head = urlRule.slice(0, at.index);
  let options: Record<string, unknown>;
  try {
    options = JSON.parse(urlRule.slice(at.index + at[0].length)) as Record<string, unknown>;
  } catch {
    return urlRule; // options the HTTP client reads leniently: left as they are
  }
  const given =
    typeof options.headers === 'string'
      ? (JSON.parse(options.headers) as Record<string, string>)
      : ((options.headers as Record<string, string> | undefined) ?? {});
  return `${head},${JSON.stringify({ ...options, headers: { ...given, ...headers } })}`;
}

export interface NetContext {
  readonly http: SourceHttp;
  /** The variables a URL rule fetched from a script sees (the book as rule data). */
  vars(): UrlVars;
  log(line: string): void;
}

export function netHelpers(net: NetContext): Record<string, Helper> {
  const { http } = net;
  const files = new Map<string, Promise<string>>();

  const jsoup = async (method: 'GET' | 'POST' | 'HEAD', url: unknown, body: unknown, headers: unknown) => {
    const helper = method.toLowerCase();
    const r = await http.direct(method, text(url), method === 'POST' ? text(body) : null, headerMap(headers, helper));
    // Jsoup's execute() throws for an error status unless told to ignore it; the app does not tell it.
    if (r.code >= 400) throw new HelperError(helper, `HTTP error fetching URL. Status=${r.code}, URL=[${r.url}]`);
    return {
      __t: 'jsoup',
      url: r.url,
      code: r.code,
      message: '',
      body: method === 'HEAD' ? '' : r.body,
      headers: [...r.headers],
      cookies: setCookies(r.headers),
    };
  };

  const fetchText = (url: string, helper: string): Promise<string> => {
    let p = files.get(url);
    if (!p) {
      p = http.fetch(url, net.vars()).then(
        (r) => {
          if (r.code >= 400) throw new HelperError(helper, `${url}: could not fetch (HTTP ${r.code})`);
          if (r.body.trim() === '') throw new HelperError(helper, `${url}: the content is empty`);
          return r.body;
        },
        (e) => {
          throw new HelperError(helper, `${url}: could not fetch (${reason(e)})`);
        },
      );
      p.catch(() => files.delete(url));
      files.set(url, p);
    }
    return p;
  };

  const zipBytes = async (url: string, path: string, helper: string): Promise<Uint8Array | null> => {
    const bytes = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? hexDecode((await http.fetch(withType(url), net.vars())).body, helper) : hexDecode(url, helper);
    let files: Record<string, Uint8Array>;
    try {
      files = unzipSync(bytes, { filter: (f) => f.name === path });
    } catch (e) {
      throw new HelperError(helper, `not a zip archive (${reason(e)})`);
    }
    const found = files[path];
    if (!found) net.log('getZipContent 未发现内容');
    return found ?? null;
  };

  return {
    ajax: async (url) => {
      const rule = text(Array.isArray(url) ? url[0] : url);
      try {
        return (await http.fetch(rule, net.vars())).body;
      } catch (e) {
        // The app answers the error's text as the body and logs it.
        net.log(`ajax(${rule}) error\n${reason(e)}`);
        return reason(e);
      }
    },
    ajaxAll: async (urls) => {
      const list = Array.isArray(urls) ? urls.map(text) : [text(urls)];
      const responses = await Promise.all(list.map((u) => http.fetch(u, net.vars())));
      return responses.map((r) => strResponseOut(r));
    },
    connect: async (url, header) => {
      const rule = withHeaders(text(url), header === undefined ? {} : headerMap(header, 'connect'));
      try {
        return strResponseOut(await http.fetch(rule, net.vars()));
      } catch (e) {
        net.log(`connect(${text(url)}) error\n${reason(e)}`);
        return strResponseOut({ url: text(url), code: 200, body: reason(e) });
      }
    },
    // get(url, headers) here; get(key) is a variable (the caller routes by argument count).
    httpGet: (url, headers) => jsoup('GET', url, null, headers),
    head: (url, headers) => jsoup('HEAD', url, null, headers),
    post: (url, body, headers) => jsoup('POST', url, body, headers),
    importScript: (path) => {
      const p = text(path);
      if (!p.startsWith('http')) throw new HelperUnsupportedError('importScript', 'reads a file of the app’s cache, which this engine does not have');
      return fetchText(p, 'importScript');
    },
    cacheFile: (url) => fetchText(text(url), 'cacheFile'),
    getZipByteArrayContent: async (url, path) => {
      const bytes = await zipBytes(text(url), text(path), 'getZipByteArrayContent');
      return bytes ? Array.from(bytes, (b) => (b << 24) >> 24) : null;
    },
    getZipStringContent: async (url, path, charset) => {
      const bytes = await zipBytes(text(url), text(path), 'getZipStringContent');
      if (!bytes) return '';
      if (charset !== undefined && charset !== null) return decodeText(bytes, text(charset), 'getZipStringContent');
      // The app detects the charset (ICU); here UTF-8 when the bytes are valid UTF-8, else GB18030.
      try {
        return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        return new TextDecoder('gb18030').decode(bytes);
      }
    },
  };
}

/** The URL rule asking for the response as hex bytes (`type`), for archives. */
function withType(url: string): string {
  return /,\s*\{/.test(url) ? url : `${url},{"type":"zip"}`;
}
