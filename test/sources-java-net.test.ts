// The network helpers against the fixture site on 127.0.0.1: the `js-java` source's own scripts
// (a signed, Base64 search URL; a TOC fetched one java.ajax per part in a loop), java.ajax's
// error text, connect, ajaxAll, get/post/head without redirects, cookies of a response, jsLib
// URLs fetched once. Expected values come from the site's model.
import { test } from 'node:test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import assert from 'node:assert/strict';
import { startFixtureSite, type RunningSite } from './helpers/fixture-site/node.js';
import { COOKIE_NAME, expectedSearch, expectedToc, fixtureSources, LOGIN_USER } from './helpers/fixture-site/index.js';
import { searchBooks } from './helpers/fixture-site/model.js';
import { jsBookPath, partsOf } from './helpers/fixture-site/shape-js.js';
import { gbkBookPath } from './helpers/fixture-site/shape-gbk.js';
import { harness } from './helpers/java-harness.js';
import type { BookSource } from '../src/sources/engine/types.js';

let site: RunningSite;
test.before(async () => {
  site = await startFixtureSite(11);
});
test.after(() => site.close());

function jsJava() {
  const f = fixtureSources(site.url, 11).find((s) => s.id === 'js-java')!;
  return { fixture: f, source: f.source as unknown as BookSource };
}

test('js-java: the search URL script, java.ajax with the source header, the TOC loop of java.ajax', async () => {
  const { fixture, source } = jsJava();
  const h = harness({ source, http: 'real' });
  try {
    const model = site.site.model;
    const key = model.keywords.many;
    const code = source.searchUrl!.replace(/^@js:/, '');
    const url = (await h.bindings.urlScript(code, { key, page: 1 }, 'searchUrl')) as string;
    const ctx = h.rule('', site.url);
    const body = await ctx.getString(`@js:java.ajax(${JSON.stringify(url)})`);
    const names = (JSON.parse(body) as { list: { name: string }[] }).list.map((b) => b.name);
    assert.deepEqual(
      names,
      expectedSearch(model, fixture, key).map((b) => b.name),
    );
    // the TOC rule: java.getString on the page, then java.ajax per part inside a loop
    const book = model.books[0]!;
    const page = await (await fetch(site.url + jsBookPath(book))).text();
    const toc = h.rule(page, site.url + jsBookPath(book));
    const before = site.site.hits.get(`GET /js/part?book=${book.id}&n=1`) ?? 0;
    const items = await toc.getElements(source.ruleToc!.chapterList!);
    assert.deepEqual(
      await Promise.all(items.map((item) => h.rule(item).getString('$.title'))),
      expectedToc(fixture, book)
        .filter((c) => !c.isVolume)
        .map((c) => c.title),
    );
    assert.equal((site.site.hits.get(`GET /js/part?book=${book.id}&n=1`) ?? 0) - before, 1, 'one request per part');
    assert.ok(partsOf(book) > 1, 'the loop ran more than once');
  } finally {
    h.dispose();
  }
});

test('scripts inside scripts: a JavaScript header and a {{js}} URL fetched by java.ajax run beside the waiting script', async () => {
  const { source } = jsJava();
  const model = site.site.model;
  const key = model.keywords.many;
  // the header is worked out by a script for every request, java.ajax's too
  const jsHeader: BookSource = { ...source, bookSourceUrl: `${site.url}#js-header`, header: '@js:JSON.stringify({"X-Requested-With": "XMLHttpRequest"})' };
  const h = harness({ source: jsHeader, http: 'real' });
  try {
    const ctx = h.rule('', site.url);
    // the URL rule's {{…}} are scripts of their own (built from halves: a rule's own {{ }} is a template)
    const url = `"/js/search?k={" + "{java.base64Encode('${key}')}" + "}&sign={" + "{java.md5Encode('${key}fixture')}" + "}"`;
    const body = await ctx.getString(`@js:var out = []; for (var i = 0; i < 2; i++) out.push(JSON.parse(java.ajax(${url})).list.length); out.join(",")`);
    const n = searchBooks(model, key).length;
    assert.equal(body, `${n},${n}`);
  } finally {
    h.dispose();
  }
});

test('java.ajax answers the error text on failure, connect and ajaxAll give responses', async () => {
  const { source } = jsJava();
  const h = harness({ source, http: 'real' });
  try {
    const ctx = h.rule('', site.url);
    const dead = 'http://127.0.0.1:1/none';
    const text = await ctx.getString(`@js:java.ajax(${JSON.stringify(dead)})`);
    assert.match(text, /fetch failed/, 'the error’s text, as the app gives its stack trace');
    assert.equal(h.logs.at(-1)?.startsWith(`ajax(${dead}) error\n`), true);
    const book = site.site.model.books[1]!;
    const r = await ctx.getString(
      `@js:var r = java.connect("/js/book?id=${book.id}"); r.code() + "|" + r.header("Content-Type") + "|" + (r.body().indexOf(${JSON.stringify(book.name)}) >= 0) + "|" + r.url()`,
    );
    assert.equal(r, `200|text/html; charset=utf-8|true|${site.url}/js/book?id=${book.id}`);
    const failed = await ctx.getString(`@js:var r = java.connect(${JSON.stringify(dead)}); r.code() + "|" + r.body()`);
    assert.match(failed, /^200\|.*fetch failed/, 'connect on failure: a StrResponse holding the error text');
    const all = await ctx.getString(
      `@js:java.ajaxAll(["/js/book?id=${book.id}", "/js/part?book=${book.id}&n=1"]).map(function (r) { return r.code() + ":" + r.body().length; }).join(",")`,
    );
    assert.match(all, /^200:\d+,200:\d+$/);
  } finally {
    h.dispose();
  }
});

test('java.post/get/head: no redirect following, Location and cookies read from the response', async () => {
  const { source } = jsJava();
  const h = harness({ source, http: 'real' });
  try {
    const model = site.site.model;
    const book = model.books.find((b) => b.name === model.keywords.one)!;
    const js = (code: string) => h.bindings.sourceScript(code, {}, 'searchUrl');
    // the GBK POST search answers 302 to the detail page on one hit
    const post = await js(
      `var r = java.post(${JSON.stringify(`${site.url}/gbk/modules/article/search.php`)}, "searchkey=" + java.encodeURI(${JSON.stringify(model.keywords.one)}, "gbk"), {"Content-Type": "application/x-www-form-urlencoded"});
       r.statusCode() + " " + r.header("Location") + " " + r.headers("location")[0]`,
    );
    assert.equal(post, `302 ${site.url}${gbkBookPath(book)} ${site.url}${gbkBookPath(book)}`);
    const cookie = await js(
      `var r = java.get(${JSON.stringify(`${site.url}/guard/search?q=x`)}, {}); r.cookie(${JSON.stringify(COOKIE_NAME)}).length > 0 && String(r.cookies()).indexOf("${COOKIE_NAME}=") === 1`,
    );
    assert.equal(cookie, true, 'cookies() prints as a Java map: {name=value}');
    assert.equal(await js(`java.head(${JSON.stringify(`${site.url}/js/book?id=${book.id}`)}, {}).statusCode()`), 200);
    await assert.rejects(js(`java.get(${JSON.stringify(`${site.url}/guard/book/${book.id}`)}, {})`), {
      code: 'HELPER_FAILED',
      message: /java\.get: HTTP error fetching URL\. Status=403/,
    });
  } finally {
    h.dispose();
  }
});

test('jsLib as a JSON map of URLs: fetched once and joined; a failed download fails every script', async () => {
  const hits: string[] = [];
  const libs = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/a.js') res.end('function libA() { return "A" + libB(); }');
    else if (req.url === '/b.js') res.end('function libB() { return java.md5Encode16("b"); }');
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => libs.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(libs.address() as AddressInfo).port}`;
  const { source } = jsJava();
  try {
    const lib: BookSource = {
      ...source,
      bookSourceUrl: `${base}#lib`,
      jsLib: JSON.stringify({ a: `${base}/a.js`, b: `${base}/b.js`, note: 'not a URL: ignored' }),
    };
    const h = harness({ source: lib, http: 'real' });
    try {
      assert.equal(await h.bindings.sourceScript('libA()'), `A${createHash('md5').update('b').digest('hex').slice(8, 24)}`);
      assert.equal(await h.bindings.sourceScript('libA()'), await h.bindings.sourceScript('libA()'));
      assert.deepEqual(hits, ['/a.js', '/b.js'], 'each URL fetched once for the source');
      assert.equal(await h.bindings.sourceScript('libA = null; typeof libA'), 'function', 'jsLib globals are sealed');
    } finally {
      h.dispose();
    }
    const broken: BookSource = { ...lib, bookSourceUrl: `${base}#broken`, jsLib: JSON.stringify({ a: `${base}/a.js`, x: `${base}/missing.js` }) };
    const h2 = harness({ source: broken, http: 'real' });
    try {
      await assert.rejects(h2.bindings.sourceScript('1'), {
        code: 'HELPER_FAILED',
        source: source.bookSourceName,
        rule: 'jsLib',
        message: /source\.jsLib: could not fetch .*missing\.js/,
      });
      await assert.rejects(h2.bindings.sourceScript('1'), { code: 'HELPER_FAILED' }, 'tried again, failed again');
    } finally {
      h2.dispose();
    }
  } finally {
    await new Promise((resolve) => libs.close(resolve));
  }
});

test('no secret in errors or logs: the login header and cookie values stay out', async () => {
  const { source } = jsJava();
  const h = harness({ source, http: 'real' });
  try {
    const book = site.site.model.books[0]!;
    const ctx = h.rule('', site.url, { rule: 'ruleSearch.bookList' });
    await ctx.getString('@js:source.putLoginHeader(JSON.stringify({Authorization: "Bearer sekrit-token", Cookie: "sid=sekrit-cookie"})); "ok"');
    const dead = await ctx.getString('@js:java.ajax("http://127.0.0.1:1/s?q=1")');
    const failed = await ctx
      .getString(`@js:java.get("${site.url}/guard/book/${book.id}", {Authorization: "Bearer sekrit-token", Cookie: "sid=sekrit-cookie"})`)
      .catch((e: Error) => e);
    assert.ok(failed instanceof Error && /Status=403/.test(failed.message), String(failed));
    const caught = await ctx.getString(`@js:try { java.get("${site.url}/guard/book/${book.id}", {Authorization: "x"}) } catch (e) { e.message }`);
    for (const text of [dead, failed.message, caught, ...h.logs]) assert.ok(!/sekrit/.test(text), text);
    assert.ok(h.logs.length > 0, 'the failed ajax was logged');
  } finally {
    h.dispose();
  }
});

test('login: source.login() runs loginUrl’s login(), which stores the login header the site then accepts', async () => {
  const f = fixtureSources(site.url, 11).find((s) => s.id === 'login')!;
  const source = f.source as unknown as BookSource;
  const h = harness({ source, http: 'real' });
  try {
    const book = site.site.model.books[0]!;
    const page = `${site.url}/login/book/${book.id}`;
    const js = (code: string) => h.bindings.sourceScript(code, {}, 'loginUrl');
    assert.equal(await js(`java.connect("${page}").code()`), 401, 'refused before the login');
    await js(`source.putLoginInfo(JSON.stringify({"用户名": "${LOGIN_USER.username}", "密码": "${LOGIN_USER.password}"}))`);
    await js('source.login(); "done"');
    assert.equal(h.cache.get(`loginHeader_${source.bookSourceUrl}`), JSON.stringify(f.expect.loginHeader));
    assert.equal(await js(`java.connect("${page}").code()`), 200, 'the stored login header goes with every request');
    const headers = (await js('var m = source.getHeaderMap(true); [m.get("Authorization"), typeof m.get("User-Agent")].join("|")')) as string;
    assert.equal(headers, `${f.expect.loginHeader!.Authorization}|string`);
    assert.ok(!h.logs.join('\n').includes(LOGIN_USER.password));
  } finally {
    h.dispose();
  }
});

test('source.getHeaderMap works a JavaScript header out beside the calling script', async () => {
  const { source } = jsJava();
  const jsHeader: BookSource = {
    ...source,
    bookSourceUrl: `${site.url}#hdr`,
    header: '<js>JSON.stringify({"X-A": java.md5Encode16("a"), "User-Agent": "UA/1"})</js>',
  };
  const h = harness({ source: jsHeader, http: 'real' });
  try {
    assert.equal(
      await h.bindings.sourceScript('var m = source.getHeaderMap(); m.get("X-A") + "|" + m.get("User-Agent") + "|" + m.size()'),
      `${createHash('md5').update('a').digest('hex').slice(8, 24)}|UA/1|2`,
    );
  } finally {
    h.dispose();
  }
});
