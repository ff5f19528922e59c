// A stand-in SourceHttp until src/sources/http lands (then it goes): `{{key}}`/`{{page}}`, POST
// forms, a GBK keyword, the response charset from the header or <meta>, the platform fetch.
import { gbkPercentEncode } from './fixture-site/index.js';
import type { BookSource, SourceHttp, StrResponse, UrlVars } from '../../src/sources/engine/types.js';

export function standIn(source: BookSource): SourceHttp {
  const decode = (bytes: ArrayBuffer, type: string | null): string => {
    let cs = /charset=([\w-]+)/i.exec(type ?? '')?.[1];
    if (!cs) cs = /<meta[^>]+charset=["']?([\w-]+)/i.exec(new TextDecoder('latin1').decode(bytes))?.[1];
    return new TextDecoder(cs ?? 'utf-8').decode(bytes);
  };
  const fetchRule = async (rule: string, vars: UrlVars = {}): Promise<StrResponse> => {
    const at = rule.search(/,\s*\{/);
    const options = at < 0 ? {} : (JSON.parse(rule.slice(at + 1).trim()) as { method?: string; body?: string; charset?: string });
    const gbk = options.charset === 'gbk';
    const enc = (s: string) => (gbk ? gbkPercentEncode(s) : encodeURIComponent(s));
    const fill = (s: string) => s.replace(/\{\{key\}\}/g, enc(vars.key ?? '')).replace(/\{\{page\}\}/g, String(vars.page ?? 1));
    const url = new URL(fill(at < 0 ? rule : rule.slice(0, at)), vars.baseUrl ?? source.bookSourceUrl).href;
    const post = options.method?.toUpperCase() === 'POST';
    const res = await fetch(url, {
      method: post ? 'POST' : 'GET',
      ...(post ? { body: fill(options.body ?? ''), headers: { 'content-type': 'application/x-www-form-urlencoded' } } : {}),
    });
    return { url: res.url, requestUrl: url, code: res.status, headers: res.headers, body: decode(await res.arrayBuffer(), res.headers.get('content-type')) };
  };
  return {
    fetch: fetchRule,
    request: () => Promise.reject(new Error('not in the stand-in')),
    direct: () => Promise.reject(new Error('not in the stand-in')),
    cookies: { getCookie: () => '', getKey: () => '', setCookie: () => {}, replaceCookie: () => {}, removeCookie: () => {} },
  };
}
