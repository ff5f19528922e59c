// The flows' own scripts run in the sandbox (QuickJS) over 127.0.0.1: formatJs renames chapters
// (`index` from 1, `title`), a JS exploreUrl gives the entries, loginCheckJs runs on each flow's
// response, preUpdateJs before the TOC; a script that throws fails the step, named.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFixtureSite } from './helpers/fixture-site/node.js';
import { expectedToc, fixtureSources, type BookSourceJson } from './helpers/fixture-site/index.js';
import { openSource } from '../src/sources/engine/session.js';
import { SourceStepError } from '../src/sources/book/index.js';
import { QuickJsEngine } from '../src/sources/js/index.js';
import { fixtureHost } from './helpers/source-flows.js';

const SEED = 20261207;
const running = await startFixtureSite(SEED);
const engine = new QuickJsEngine({ lanes: 1 });
after(async () => {
  engine.dispose();
  await running.close();
});
const m = running.site.model;
const f = fixtureSources(running.url, SEED).find((x) => x.id === 'paged')!;
const host = fixtureHost({ js: engine });
const flowsOf = (s: BookSourceJson & { loginCheckJs?: string }) => openSource(s as unknown as Record<string, unknown>, host);
const withToc = (rules: Record<string, string>): BookSourceJson => ({ ...f.source, ruleToc: { ...f.source.ruleToc, ...rules } });

async function tocOf(s: BookSourceJson) {
  const flows = flowsOf(s);
  const [hit] = await flows.search(m.keywords.one);
  return { flows, toc: await flows.toc(await flows.bookInfo(hit!)) };
}

test('formatJs renames every chapter with its 1-based index and title; a value-less script keeps the title', async () => {
  const { toc } = await tocOf(withToc({ formatJs: '"第" + index + "节 " + title' }));
  const b = m.books.find((x) => x.name === m.keywords.one)!;
  assert.deepEqual(
    toc.map((c) => c.title),
    expectedToc(f, b).map((c, i) => `第${i + 1}节 ${c.title}`),
  );
  const kept = await tocOf(withToc({ formatJs: 'var x = 1;' }));
  assert.deepEqual(
    kept.toc.map((c) => c.title),
    expectedToc(f, b).map((c) => c.title),
  );
});

test('formatJs shares gInt across the chapters: `gInt++` numbers them 1, 2, 3… as in the app', async () => {
  // BookChapterList binds gInt = 0 once into the scope every chapter's call runs in.
  const { toc } = await tocOf(withToc({ formatJs: 'gInt++; "第" + gInt + "章 " + title' }));
  const b = m.books.find((x) => x.name === m.keywords.one)!;
  const want = expectedToc(f, b);
  assert.ok(want.length > 2);
  assert.deepEqual(
    toc.map((c) => c.title),
    want.map((c, i) => `第${i + 1}章 ${c.title}`),
  );
  // A call that throws after its increment keeps it (the app's scope was changed before the throw).
  const odd = await tocOf(withToc({ formatJs: 'gInt++; if (index == 1) throw new Error("x"); gInt + ":" + title' }));
  assert.deepEqual(
    odd.toc.map((c) => c.title),
    want.map((c, i) => (i === 0 ? c.title : `${i + 1}:${c.title}`)),
  );
});

test('a formatJs that throws leaves the titles and logs the app’s line', async () => {
  const lines: string[] = [];
  const flows = openSource(withToc({ formatJs: 'throw new Error("boom")' }), fixtureHost({ js: engine, log: (l) => void lines.push(l) }));
  const [hit] = await flows.search(m.keywords.one);
  const toc = await flows.toc(await flows.bookInfo(hit!));
  const b = m.books.find((x) => x.name === m.keywords.one)!;
  assert.deepEqual(
    toc.map((c) => c.title),
    expectedToc(f, b).map((c) => c.title),
  );
  assert.ok(lines.some((l) => l.startsWith('格式化标题出错, ') && l.includes('boom')));
});

test('a JS exploreUrl gives the entries, as JSON or as lines', async () => {
  const json = await flowsOf({ ...f.source, exploreUrl: '@js:JSON.stringify([{title:"甲",url:"/a"},{title:"乙",url:"/b"}])' }).exploreKinds();
  assert.deepEqual(json, [
    { title: '甲', url: '/a' },
    { title: '乙', url: '/b' },
  ]);
  const lines = await flowsOf({ ...f.source, exploreUrl: '<js>["丙::/c", "丁::/d"].join("\\n")</js>' }).exploreKinds();
  assert.deepEqual(lines, [
    { title: '丙', url: '/c' },
    { title: '丁', url: '/d' },
  ]);
});

test('loginCheckJs runs on the response: its value stands, a throw fails the flow naming loginCheckJs', async () => {
  // A check that fetches another page (as login checks re-fetch after logging in): that page is
  // read instead, here the search for a keyword with no hit.
  const swapped = flowsOf({
    ...f.source,
    loginCheckJs: `String(result.body()).indexOf("book-item") > -1 ? java.connect(String(result.url()).replace(/q=[^&]*/, "q=${encodeURIComponent(m.keywords.none)}")) : result`,
  });
  const noneKey = `GET /paged/search?q=${encodeURIComponent(m.keywords.none)}&page=1`;
  const before = running.site.hits.get(noneKey) ?? 0;
  assert.deepEqual(await swapped.search(m.keywords.one), []);
  assert.equal(running.site.hits.get(noneKey), before + 1, 'the page the check fetched');
  const kept = flowsOf({ ...f.source, loginCheckJs: 'result' });
  assert.equal((await kept.search(m.keywords.one)).length, 1);
  const failing = flowsOf({ ...f.source, loginCheckJs: 'throw new Error("请登录")' });
  await assert.rejects(failing.search(m.keywords.one), (e: unknown) => e instanceof SourceStepError && e.rule === 'loginCheckJs' && /请登录/.test(e.message));
});

test('preUpdateJs runs before the TOC; a throw fails it naming ruleToc.preUpdateJs', async () => {
  const ok = await tocOf(withToc({ preUpdateJs: 'java.put("seen", "1")' }));
  assert.ok(ok.toc.length > 0);
  const flows = flowsOf(withToc({ preUpdateJs: 'throw new Error("pre")' }));
  const [hit] = await flows.search(m.keywords.one);
  const book = await flows.bookInfo(hit!);
  await assert.rejects(flows.toc(book), (e: unknown) => e instanceof SourceStepError && e.rule === 'ruleToc.preUpdateJs');
});

test('preUpdateJs: java.refreshTocUrl() re-reads the TOC URL from the book page; java.reGetBook() finds the book by name and author first', async () => {
  const flows = flowsOf(withToc({ preUpdateJs: 'java.refreshTocUrl()' }));
  const [hit] = await flows.search(m.keywords.one);
  const { infoHtml: _i, tocHtml: _t, ...book } = await flows.bookInfo(hit!);
  const want = expectedToc(f, m.books.find((x) => x.name === m.keywords.one)!).map((c) => c.title);
  // A shelf book whose TOC URL has moved: read as it is, it gives no TOC.
  const stale = { ...book, tocUrl: `${running.url}/paged/moved-away` };
  await assert.rejects(flowsOf(f.source).toc(stale));
  const info = new URL(book.bookUrl);
  const infoKey = `GET ${info.pathname}${info.search}`;
  const before = running.site.hits.get(infoKey) ?? 0;
  assert.deepEqual(
    (await flows.toc(stale)).map((c) => c.title),
    want,
  );
  assert.equal(running.site.hits.get(infoKey), before + 1, 'the book page read again');
  // A book whose own URL has moved too: found again by a search for its name, then read.
  const re = flowsOf(withToc({ preUpdateJs: 'java.reGetBook()' }));
  const lost = { ...stale, bookUrl: `${running.url}/paged/gone` };
  const chapters = await re.toc(lost);
  assert.deepEqual(
    chapters.map((c) => c.title),
    want,
  );
  assert.equal(chapters[0]!.bookUrl, book.bookUrl);
  await assert.rejects(
    re.toc({ ...lost, author: `${book.author}x` }),
    (e: unknown) => e instanceof SourceStepError && e.rule === 'ruleToc.preUpdateJs' && e.message.includes('未搜索到'),
  );
  // Elsewhere the helpers refuse, as the app's (只能在 preUpdateJs 中调用).
  const bad = flowsOf(withToc({ chapterName: '@js:java.refreshTocUrl()' }));
  await assert.rejects(bad.toc(book), /preUpdateJs/);
});

test('jsLib, as script text or as a JSON map of script URLs (fetched once), is in scope of every script', async () => {
  const b = m.books.find((x) => x.name === m.keywords.one)!;
  const want = expectedToc(f, b).map((c, i) => `${i + 1}:${c.title}`);
  const text = await tocOf({ ...withToc({ formatJs: 'fmt(index, title)' }), jsLib: 'function fmt(i, t) { return i + ":" + t; }' } as BookSourceJson);
  assert.deepEqual(
    text.toc.map((c) => c.title),
    want,
  );
  let served = 0;
  const lib = createServer((_req, res) => {
    served++;
    res.writeHead(200, { 'content-type': 'application/javascript' }).end('function fmt(i, t) { return i + "-" + t; }');
  });
  await new Promise<void>((resolve) => lib.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(lib.address() as AddressInfo).port}/lib.js`;
    const mapped = await tocOf({ ...withToc({ formatJs: 'fmt(index, title)' }), jsLib: JSON.stringify({ fmt: url, note: 'not a URL' }) } as BookSourceJson);
    assert.deepEqual(
      mapped.toc.map((c) => c.title),
      want.map((t) => t.replace(':', '-')),
    );
    assert.equal(served, 1, 'the script fetched once for the opened source');
  } finally {
    lib.close();
  }
});
