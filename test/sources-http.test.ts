// The book-source HTTP client (src/sources/http) against the fixture site on 127.0.0.1: URL rules
// worked out as the app's AnalyzeUrl does (JS pieces, templates, page lists, options), the GBK
// POST search whose keyword the site reads as GBK and answers with a redirect (the final URL),
// pages declared GBK only in <meta>, `direct` reading a redirect unfollowed, data: URLs, and the
// network policy on every hop. Scripts run in the real sandbox; the store is a real store file.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { NetworkPolicyError } from '../src/net/errors.js';
import type { BookSource, EngineHost, UrlScript } from '../src/sources/engine/types.js';
import { createSourceHttp, UrlRuleError } from '../src/sources/http/index.js';
import { QuickJsEngine } from '../src/sources/js/index.js';
import { startFixtureSite } from './helpers/fixture-site/node.js';
import { fixtureSources, safetySources } from './helpers/fixture-site/index.js';
import { newStore } from './helpers/domain.js';

const SEED = 20261208;
const running = await startFixtureSite(SEED);
const engine = new QuickJsEngine({ lanes: 1, limits: { timeMs: 500, wallMs: 5_000 } });
after(async () => {
  engine.dispose();
  await running.close();
});
const base = running.url;
const port = new URL(base).port;
const m = running.site.model;
const store = newStore();
const host: EngineHost = { storage: store, allowPrivateHosts: true, timeoutMs: 5_000 };
const script: UrlScript = (code, bindings, rule) => engine.run(code, bindings, { source: { key: 'test' }, rule });

const fixture = (id: string): BookSource => {
  const f = fixtureSources(base, SEED).find((s) => s.id === id);
  assert.ok(f, id);
  return f.source as unknown as BookSource;
};
const plain = (fields: Partial<BookSource> = {}): BookSource => ({ bookSourceUrl: `${base}#plain`, bookSourceName: 'plain', ...fields });
const hits = (key: string): number => running.site.hits.get(key) ?? 0;

test('GBK POST search: the keyword reaches the site as GBK, the one-hit redirect is followed, the final URL is the detail page', async () => {
  const gbk = fixture('gbk');
  const http = createSourceHttp(gbk, host, script);
  const book = m.books.find((b) => b.name === m.keywords.one)!;
  const res = await http.fetch(gbk.searchUrl!, { key: m.keywords.one, page: 1 });
  assert.equal(res.code, 200);
  assert.equal(res.requestUrl, `${base}/gbk/modules/article/search.php`);
  assert.equal(res.url, `${base}/gbk/book/${book.id}/`);
  // The detail page is GBK declared only in <meta http-equiv>: decoded, its name reads right.
  assert.match(res.body, new RegExp(`content="${book.name}"`));
  assert.equal(res.headers.get('content-type'), 'text/html');

  // Several hits: a list page at the search URL itself, every hit's name on it.
  const many = await http.fetch(gbk.searchUrl!, { key: m.keywords.many, page: 1 });
  assert.equal(many.url, `${base}/gbk/modules/article/search.php`);
  const names = m.books.filter((b) => b.name.includes(m.keywords.many) || b.author.includes(m.keywords.many)).map((b) => b.name);
  assert.ok(names.length > 1);
  for (const name of names) assert.ok(many.body.includes(name), name);
});

test('the request a GBK form makes: body percent-encoded in GBK, form content type, GET query in UTF-8 by default', async () => {
  const http = createSourceHttp(fixture('gbk'), host, script);
  const req = await http.request('/gbk/modules/article/search.php,{"method":"POST","body":"searchkey={{key}}&searchtype=articlename","charset":"gbk"}', {
    key: '你好 世界',
  });
  assert.equal(req.method, 'POST');
  // 你 C4E3, 好 BAC3, 世 CAC0, 界 BDE7 in GBK; a space is `+` in a form.
  assert.equal(req.body, 'searchkey=%C4%E3%BA%C3+%CA%C0%BD%E7&searchtype=articlename');
  assert.equal(req.headers['Content-Type'], 'application/x-www-form-urlencoded');
  assert.equal(req.charset, 'gbk');
  const get = await http.request('/s?q={{key}}&p={{page}}', { key: '你好 a', page: 3 });
  assert.equal(get.url, `${base}/s?q=%E4%BD%A0%E5%A5%BD%20a&p=3`);
  assert.equal(get.method, 'GET');
  assert.equal(get.body, null);
  // An already encoded query is kept as it is; `escape` is JS escape().
  assert.equal((await http.request('/s?q=%E4%BD%A0')).url, `${base}/s?q=%E4%BD%A0`);
  assert.equal((await http.request('/s?q={{key}},{"charset":"escape"}', { key: '你a b' })).url, `${base}/s?q=%u4f60a%20b`);
  // GBK query: the keyword's bytes in GBK.
  assert.equal((await http.request('/s?q={{key}},{"charset":"gbk"}', { key: '你好' })).url, `${base}/s?q=%C4%E3%BA%C3`);
});

test('a page declared GBK only in <meta> is decoded; read as UTF-8 it would not be', async () => {
  const book = m.books[2]!;
  const raw = new Uint8Array(await (await fetch(`${base}/gbk/book/${book.id}/`)).arrayBuffer());
  assert.ok(!new TextDecoder().decode(raw).includes(book.name), 'the fixture page is not UTF-8');
  const http = createSourceHttp(fixture('gbk'), host, script);
  const res = await http.fetch(`/gbk/book/${book.id}/`);
  assert.ok(res.body.includes(book.name));
  assert.ok(res.body.includes(book.author));
});

test('options: strict and lenient JSON, headers as a map or JSON text, body as JSON, type, retry, webView, origin; proxy ignored', async () => {
  const http = createSourceHttp(plain(), host, script);
  const strict = await http.request(
    `/api/x,{"method":"post","body":{"a":1,"b":"二"},"headers":{"X-A":"1"},"retry":2,"type":"zip","webView":"true","origin":"${base}"}`,
  );
  assert.equal(strict.method, 'POST');
  assert.equal(strict.body, '{"a":1,"b":"二"}');
  assert.equal(strict.headers['Content-Type'], 'application/json; charset=UTF-8');
  assert.equal(strict.headers['X-A'], '1');
  assert.deepEqual([strict.retry, strict.type, strict.webView], [2, 'zip', true]);
  // Gson's lenient reading: single quotes, bare keys; headers given as JSON text.
  const lenient = await http.request(
    `/api/y?k={{key}} , {method:'POST', body:'a=1&b=你', headers:'{"Content-Type":"text/plain; charset=gbk"}', webView:false}`,
    {
      key: 'k',
    },
  );
  assert.equal(lenient.url, `${base}/api/y?k=k`);
  assert.equal(lenient.method, 'POST');
  // An explicit Content-Type sends the body raw, in the charset it names.
  assert.equal(lenient.headers['Content-Type'], 'text/plain; charset=gbk');
  assert.deepEqual(lenient.body, Uint8Array.from([0x61, 0x3d, 0x31, 0x26, 0x62, 0x3d, 0xc4, 0xe3]));
  assert.equal(lenient.webView, false);
  // Not JSON at all: the options are ignored (the app logs and goes on).
  const broken = await http.request('/api/z,{method:');
  assert.deepEqual([broken.url, broken.method], [`${base}/api/z`, 'GET']);
});

test('templates, page lists, JS pieces and the js option run in the app order', async () => {
  const http = createSourceHttp(plain({ header: '@js:JSON.stringify({"X-Base": baseUrl})' }), host, script);
  const key = '斗破';
  // {{…}} is JS: the fixture's T1 search URL sums the keyword's UTF-16 units.
  const js1 = fixture('js-plain');
  const t = [...key].reduce((s, c) => s + c.charCodeAt(0), 0) % 9973;
  assert.equal((await http.request(js1.searchUrl!, { key })).url, `${base}/js/s?wd=%E6%96%97%E7%A0%B4&t=${t}`);
  // `<a,b,c>`: the page-th item, or the last; page arithmetic without JS.
  assert.equal((await http.request('/p/<a,b,c>/{{(page-1)*20}}.html', { page: 2 })).url, `${base}/p/b/20.html`);
  assert.equal((await http.request('/p/<a,b,c>/{{(page-1)*20}}.html', { page: 7 })).url, `${base}/p/c/120.html`);
  // JS pieces: `@js:` to the end, `<js>` inline, each given the URL so far as `result`.
  assert.equal((await http.request('@js:"/q?k=" + key + "&p=" + page', { key: 'ab', page: 4 })).url, `${base}/q?k=ab&p=4`);
  assert.equal((await http.request('/first<js>result + "/second"</js>@result/third', {})).url, `${base}/first/second/third`);
  // The js option sees the finished URL and may change it and the headers.
  const withJs = await http.request('/o?x=1,{"js":"headerMap.put(\\"X-Js\\", \\"on\\"); result + \\"&y=2\\""}');
  assert.equal(withJs.url, `${base}/o?x=1&y=2`);
  assert.equal(withJs.headers['X-Js'], 'on');
  // A JS `header` gives JSON; its baseUrl is the source URL.
  assert.equal(withJs.headers['X-Base'], `${base}#plain`);
  // Relative against vars.baseUrl when given.
  assert.equal((await http.request('next.html', { baseUrl: `${base}/dir/page.html` })).url, `${base}/dir/next.html`);
});

test('headers, later over earlier: source header, default User-Agent, login header from caches, options; User-Agent null removes it', async () => {
  const source = plain({
    bookSourceUrl: `${base}#headers`,
    header: '{"User-Agent":"SourceUA","X-1":"source","X-2":"source","proxy":"socks5://127.0.0.1:1080","Keep-Alive":"300"}',
  });
  store.cache.put(`loginHeader_${source.bookSourceUrl}`, JSON.stringify({ 'X-2': 'login', Authorization: 'Bearer t' }));
  const http = createSourceHttp(source, host, script);
  const req = await http.request('/h,{"headers":{"X-1":"option"}}');
  // `proxy` is the app's proxy setting, never sent; hop-by-hop headers a fetch refuses are dropped when sending.
  assert.deepEqual(req.headers, { 'User-Agent': 'SourceUA', 'X-1': 'option', 'X-2': 'login', 'Keep-Alive': '300', Authorization: 'Bearer t' });
  assert.equal((await http.fetch(`/gbk/book/${m.books[0]!.id}/`)).code, 200);
  const none = await createSourceHttp(plain(), host, script).request('/h');
  assert.match(none.headers['User-Agent']!, /^Mozilla\/5\.0 .*Chrome\/[\d.]+ Safari\/537\.36$/);
  const removed = await http.request('/h,{"headers":{"User-Agent":"null"}}');
  assert.equal(removed.headers['User-Agent'], undefined);
});

test('data: URLs are decoded here; `type` gives hex bytes', async () => {
  const http = createSourceHttp(plain(), host, script);
  const b64 = await http.fetch('data:text/plain;base64,5L2g5aW9');
  assert.deepEqual([b64.code, b64.body, b64.url], [200, '你好', 'data:text/plain;base64,5L2g5aW9']);
  assert.equal((await http.fetch('data:text/html;charset=gbk,%C4%E3%BA%C3')).body, '你好');
  assert.equal((await http.fetch('data:,a?b=你')).body, 'a?b=你', 'a data: URL has no query to encode');
  assert.equal((await http.fetch('data:text/plain;base64,5L2g5aW9,{"type":"bin"}')).body, 'e4bda0e5a5bd');
  await assert.rejects(http.fetch('data:text/plain;base64,***'), (e: unknown) => e instanceof UrlRuleError && e.code === 'BAD_URL_RULE');
});

test('direct: no redirect following, the 3xx answer and its Location come back', async () => {
  const http = createSourceHttp(fixture('gbk'), host, script);
  const book = m.books.find((b) => b.name === m.keywords.one)!;
  // The keyword in GBK, as the rule's query encoding writes it (checked byte for byte above).
  const form = `searchkey=${(await http.request('/x?q={{key}},{"charset":"gbk"}', { key: book.name })).url.split('q=')[1]}`;
  const before = hits(`GET /gbk/book/${book.id}/`);
  const res = await http.direct('POST', `${base}/gbk/modules/article/search.php`, form, {});
  assert.equal(res.code, 302);
  assert.equal(res.headers.get('location'), `${base}/gbk/book/${book.id}/`);
  assert.equal(res.url, `${base}/gbk/modules/article/search.php`);
  assert.equal(hits(`GET /gbk/book/${book.id}/`), before, 'the redirect was not followed');
  const get = await http.direct('GET', `${base}/safety/ping`, null, { 'User-Agent': 'null' });
  assert.deepEqual([get.code, get.headers.get('location')], [302, `${base}/safety/pong`]);
});

test('safety: with private hosts refused, the fixture reached only by name, every redirect to a private place is refused unreached', async () => {
  const refusedHost: EngineHost = { storage: store, reachableHosts: [`127.0.0.1:${port}`], timeoutMs: 3_000 };
  // (`to/loopback` points back at the fixture's own listed address, so it is reached: left out.)
  for (const s of safetySources(base).filter((s) => /to-(private|metadata)|direct-/.test(s.bookSourceUrl))) {
    const source = s as unknown as BookSource;
    const e = await createSourceHttp(source, refusedHost, script)
      .fetch(source.searchUrl!, { key: 'k' })
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    assert.ok(e instanceof NetworkPolicyError && e.code === 'ADDRESS_REFUSED', `${source.bookSourceUrl}: ${e}`);
  }
  for (const to of ['private', 'metadata']) assert.equal(hits(`GET /safety/to/${to}?q=k`), 1, to);
  // Without the listing the fixture itself is loopback; the default host reaches nothing private.
  const bare = createSourceHttp(plain(), { storage: store }, script);
  await assert.rejects(bare.fetch('/gbk/'), (e: unknown) => e instanceof NetworkPolicyError && e.reason === 'loopback');
  await assert.rejects(bare.fetch('http://10.0.0.1/x'), (e: unknown) => e instanceof NetworkPolicyError && e.reason === 'private');
  await assert.rejects(bare.fetch('http://169.254.169.254/latest/meta-data/'), (e: unknown) => e instanceof NetworkPolicyError && e.reason === 'metadata');
  await assert.rejects(bare.direct('GET', 'http://10.0.0.1/x', null, {}), (e: unknown) => e instanceof NetworkPolicyError && e.code === 'ADDRESS_REFUSED');
  // Caps: a redirect loop, a body past the cap, a slow site.
  const capped = (caps: Partial<EngineHost>) => createSourceHttp(plain(), { ...refusedHost, ...caps }, script);
  const code = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (e: { code?: string }) => e.code,
    );
  assert.equal(await code(capped({ maxRedirects: 3 }).fetch('/safety/loop')), 'TOO_MANY_REDIRECTS');
  assert.equal(await code(capped({ maxBytes: 64 << 10 }).fetch('/safety/huge?mb=8')), 'BODY_TOO_LARGE');
  assert.equal(await code(capped({ timeoutMs: 300 }).fetch('/safety/slow?ms=20000')), 'FETCH_TIMEOUT');
});

test('a URL rule that cannot become a request is a typed error naming the source and the rule, no header value in it', async () => {
  const http = createSourceHttp(plain({ bookSourceUrl: `${base}#named` }), host, script);
  const bad = await http.request('/s?q={{key}},{"charset":"no-such-charset"}', { key: '字' }).catch((e: unknown) => e);
  assert.ok(bad instanceof UrlRuleError && bad.code === 'BAD_URL_RULE');
  assert.match(bad.message, /#named/);
  assert.match(bad.message, /no-such-charset/);
  // The options (headers, bodies) are left out of the rule an error prints.
  const secret = 'Bearer 秘密-token';
  const header = await http.fetch(`/gbk/,{"headers":{"Authorization":"${secret}"}}`).catch((e: unknown) => e);
  assert.ok(header instanceof UrlRuleError, String(header));
  assert.match(header.message, /Authorization/);
  assert.ok(!header.message.includes('秘密'));
  // A script's failure names the rule the same way.
  const thrown = await http.request(`/s?q={{(function(){throw new Error("boom")})()}},{"headers":{"Authorization":"${secret}"}}`).catch((e: unknown) => e);
  assert.ok(thrown instanceof Error && /boom/.test(thrown.message), String(thrown));
  assert.ok(!thrown.message.includes('秘密'), thrown.message);
  const relative = await createSourceHttp({ bookSourceUrl: 'not a url', bookSourceName: 'x' }, host, script)
    .request('/s')
    .catch((e: unknown) => e);
  assert.ok(relative instanceof UrlRuleError, String(relative));
});
