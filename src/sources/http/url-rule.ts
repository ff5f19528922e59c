// A URL rule worked out into a request, in AnalyzeUrl's order: `@js:`/`<js>` pieces, `{{…}}`
// templates, `<a,b,c>` page lists, the options after the first `,{`, the URL made absolute, then
// the GET query or the POST form encoded in the option's charset; headers from the source, the
// default User-Agent, the stored login header and the options, later over earlier.
import type { BookSource, EngineHost, UrlRequest, UrlScript, UrlVars } from '../engine/types.js';
import { resolveUrl } from '../url.js';
import { baseOf } from './domain.js';
import { printableRule, UrlRuleError } from './errors.js';
import { charsetName, encodeText } from './charset.js';
import { contentTypeCharset } from './decode.js';
import { parseJsonObject } from './lenient-json.js';
import { encodeParams, UnknownCharset } from './percent.js';
import { simpleTemplate, templateText } from './template.js';

/** The app's default User-Agent (AppConfig.userAgent without a user setting). */
export const DEFAULT_USER_AGENT = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const JS_PIECE = /<js>([\w\W]*?)<\/js>|@js:([\w\W]*)/gi;
/** Where the options start (AnalyzeUrl.paramPattern). */
const OPTIONS = /\s*,\s*(?=\{)/;
const PAGES = /<(.*?)>/;

/** What a worked-out rule carries besides the seam's fields. */
export interface WorkedRequest extends UrlRequest {
  /** The rule's `origin` option (kept for the caller; the app does not send it either). */
  readonly origin: string | null;
}

export interface RuleEnv {
  readonly source: BookSource;
  readonly host: EngineHost;
  readonly script: UrlScript;
}

/** Headers as a map whose keys are matched without regard to case (the later spelling wins). */
export class HeaderMap {
  readonly #map = new Map<string, [string, string]>();
  set(name: string, value: string): void {
    this.#map.set(name.toLowerCase(), [name, value]);
  }
  get(name: string): string | undefined {
    return this.#map.get(name.toLowerCase())?.[1];
  }
  has(name: string): boolean {
    return this.#map.has(name.toLowerCase());
  }
  delete(name: string): void {
    this.#map.delete(name.toLowerCase());
  }
  putAll(map: Record<string, unknown>): void {
    for (const [k, v] of Object.entries(map)) this.set(k, v === null || v === undefined ? 'null' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  record(): Record<string, string> {
    return Object.fromEntries([...this.#map.values()]);
  }
}

const log = (env: RuleEnv, line: string): void => env.host.log?.(line);

/** The source's `header` (JSON, or `@js:`/`<js>` giving JSON), the default User-Agent, then the stored login header (BaseSource.getHeaderMap). */
export async function sourceHeaders(env: RuleEnv): Promise<HeaderMap> {
  const headers = new HeaderMap();
  const header = env.source.header?.trim();
  if (header) {
    let json: string = header;
    const lower = header.slice(0, 4).toLowerCase();
    if (lower === '@js:' || lower === '<js>') {
      const code = lower === '@js:' ? header.slice(4) : header.slice(4, header.lastIndexOf('<'));
      const bindings = { source: env.source, baseUrl: env.source.bookSourceUrl };
      json = templateText(await env.script(code, bindings, 'header'));
    }
    const parsed = parseJsonObject(json);
    if (parsed) {
      if (parsed.lenient) log(env, '请求头规则 JSON 格式不规范，请改为规范格式 (header: not strict JSON)');
      headers.putAll(parsed.value);
    } else log(env, '执行请求头规则出错 (header: not a JSON object; ignored)');
  }
  if (headers.has('proxy')) {
    // The app routes through this http/socks proxy; a server does not reach through a source's proxy.
    headers.delete('proxy');
    log(env, 'header: proxy ignored');
  }
  if (!headers.has('User-Agent')) headers.set('User-Agent', DEFAULT_USER_AGENT);
  const login = env.host.storage.cache.get(`loginHeader_${env.source.bookSourceUrl}`);
  const loginMap = login ? parseJsonObject(login) : null;
  if (loginMap) headers.putAll(loginMap.value);
  return headers;
}

/** The bindings every URL script gets (AnalyzeUrl.evalJS; the composer adds `java`, `cookie`, `cache`). */
function bindings(env: RuleEnv, vars: UrlVars, baseUrl: string, result: unknown): Record<string, unknown> {
  return {
    key: vars.key,
    page: vars.page,
    baseUrl,
    book: vars.book,
    chapter: vars.chapter,
    source: env.source,
    result,
    variables: vars.variables,
  };
}

/** Step 1: the `@js:`/`<js>` pieces as a pipeline, `@result` in the text between them replaced. */
async function runJsPieces(rule: string, env: RuleEnv, vars: UrlVars, baseUrl: string): Promise<string> {
  let result = rule;
  let start = 0;
  const pieces = [...rule.matchAll(JS_PIECE)];
  if (pieces.length === 0) return rule;
  for (const m of pieces) {
    const text = rule.slice(start, m.index).trim();
    if (text) result = text.replaceAll('@result', result);
    const value = await env.script(m[2] ?? m[1] ?? '', bindings(env, vars, baseUrl, result), printableRule(rule));
    result = value === null || value === undefined ? String(value) : templateText(value);
    start = m.index + m[0].length;
  }
  const rest = rule.slice(start).trim();
  if (rest) result = rest.replaceAll('@result', result);
  return result;
}

/** Step 2: `{{…}}` (each up to the first `}}` after it) replaced by its value. */
async function fillTemplates(rule: string, env: RuleEnv, vars: UrlVars, baseUrl: string): Promise<string> {
  if (!rule.includes('{{') || !rule.includes('}}')) return rule;
  let out = '';
  let last = 0;
  for (;;) {
    const open = rule.indexOf('{{', last);
    if (open < 0) break;
    const close = rule.indexOf('}}', open + 2);
    if (close < 0) break;
    const expr = rule.slice(open + 2, close);
    const simple = simpleTemplate(expr, vars.key, vars.page);
    const value = simple ? simple.value : await env.script(expr, bindings(env, vars, baseUrl, null), printableRule(rule));
    out += rule.slice(last, open) + templateText(value);
    last = close + 2;
  }
  return out + rule.slice(last);
}

/** Step 2b: every `<a,b,c>` becomes the page-th item, or the last one. */
function pickPages(rule: string, page: number | undefined): string {
  if (page === undefined) return rule;
  let out = rule;
  for (let m = PAGES.exec(out); m; m = PAGES.exec(out)) {
    const items = m[1]!.split(',');
    const pick = page >= 1 && page < items.length ? items[page - 1]! : items[items.length - 1]!;
    out = out.replaceAll(m[0], pick.trim());
  }
  return out;
}

/** `webView` counts as on unless null, '', false or "false" (UrlOption.useWebView). */
const webViewOn = (v: unknown): boolean => !(v === null || v === undefined || v === '' || v === false || v === 'false');

const str = (v: unknown): string | null => (v === null || v === undefined ? null : typeof v === 'object' ? JSON.stringify(v) : String(v));
const isJsonText = (s: string): boolean => {
  const t = s.trim();
  return (t.startsWith('{') && t.endsWith('}')) || (t.startsWith('[') && t.endsWith(']'));
};
const isXmlText = (s: string): boolean => {
  const t = s.trim();
  return t.startsWith('<') && t.endsWith('>');
};

/** The rule worked out into a request (nothing fetched). */
export async function workOutUrl(rule: string, env: RuleEnv, vars: UrlVars = {}): Promise<WorkedRequest> {
  const sourceUrl = env.source.bookSourceUrl;
  const fail = (reason: string): never => {
    throw new UrlRuleError(sourceUrl, rule, reason);
  };
  let baseUrl = (vars.baseUrl || sourceUrl).split(OPTIONS)[0]!;
  const headers = await sourceHeaders(env);
  let ruleUrl = await runJsPieces(rule, env, vars, baseUrl);
  ruleUrl = pickPages(await fillTemplates(ruleUrl, env, vars, baseUrl), vars.page);

  const cut = OPTIONS.exec(ruleUrl);
  const urlPart = cut ? ruleUrl.slice(0, cut.index) : ruleUrl;
  let url = resolveUrl(baseUrl.split(',')[0], urlPart);
  baseUrl = baseOf(url) ?? baseUrl;
  let method: 'GET' | 'POST' = 'GET';
  let body: string | null = null;
  let charset: string | null = null;
  let retry = 0;
  let type: string | null = null;
  let webView = false;
  let origin: string | null = null;
  if (cut) {
    const optionText = ruleUrl.slice(cut.index + cut[0].length);
    const parsed = parseJsonObject(optionText);
    if (!parsed) log(env, `链接参数不是 JSON，已忽略 (URL options are not JSON; ignored): ${optionText.slice(0, 80)}`);
    else {
      if (parsed.lenient) log(env, '链接参数 JSON 格式不规范，请改为规范格式 (URL options: not strict JSON)');
      const o = parsed.value;
      if (str(o['method'])?.toUpperCase() === 'POST') method = 'POST';
      const h = o['headers'];
      const hm =
        typeof h === 'string' ? parseJsonObject(h)?.value : h && typeof h === 'object' && !Array.isArray(h) ? (h as Record<string, unknown>) : undefined;
      if (hm) headers.putAll(hm);
      body = str(o['body']);
      type = str(o['type']) || null;
      charset = str(o['charset']) || null;
      retry = Math.max(0, Math.trunc(Number(o['retry'] ?? 0)) || 0);
      webView = webViewOn(o['webView']);
      origin = str(o['origin']) || null;
      const js = str(o['js']);
      if (js) {
        const headerMap = {
          get: (k: unknown) => headers.get(String(k)) ?? null,
          put: (k: unknown, v: unknown) => headers.set(String(k), String(v)),
          remove: (k: unknown) => headers.delete(String(k)),
        };
        const value = await env.script(js, { ...bindings(env, vars, baseUrl, url), headerMap }, printableRule(rule));
        if (value !== null && value !== undefined) url = templateText(value);
      }
    }
  }
  if (headers.get('User-Agent') === 'null') headers.delete('User-Agent');

  let finalUrl = url;
  let encodedBody: string | Uint8Array | null = body;
  try {
    if (method === 'GET') {
      // A data: URL has no query: it is decoded as written, never sent.
      const q = /^data:/i.test(url) ? -1 : url.indexOf('?');
      if (q >= 0) finalUrl = `${url.slice(0, q)}?${encodeParams(url.slice(q + 1), charset, true)}`;
    } else {
      const contentType = headers.get('Content-Type');
      const form = body !== null && !isJsonText(body) && !isXmlText(body) && !contentType ? encodeParams(body, charset, false) : null;
      if (form || !body?.trim()) {
        // AnalyzeUrl posts a form when it made one or there is no body; JSON otherwise, unless a Content-Type is given.
        encodedBody = form ?? '';
        headers.set('Content-Type', 'application/x-www-form-urlencoded');
      } else if (contentType) {
        // OkHttp writes a text body in the charset its Content-Type names (UTF-8 when none).
        const named = contentTypeCharset(contentType);
        encodedBody = named && charsetName(named) !== 'utf-8' ? (encodeText(body, named) ?? body) : body;
      } else headers.set('Content-Type', 'application/json; charset=UTF-8');
    }
  } catch (e) {
    if (e instanceof UnknownCharset) fail(`charset ${JSON.stringify(charset)} is not one this platform can encode in`);
    throw e;
  }
  if (!/^data:/i.test(finalUrl)) {
    try {
      new URL(finalUrl);
    } catch {
      fail(`${JSON.stringify(finalUrl.slice(0, 200))} is not an absolute URL`);
    }
  }
  return { url: finalUrl, method, body: method === 'POST' ? encodedBody : null, headers: headers.record(), charset, retry, type, webView, origin };
}
