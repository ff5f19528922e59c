// The debug lines of the flows, as model/webBook/*.kt passes them to Debug.log (the lines the
// app's source debugger prints, state 10-40 bodies left out), spelled out from the Kotlin for the
// paged fixture source and checked line by line over 127.0.0.1.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFixtureSite } from './helpers/fixture-site/node.js';
import { fixtureSources, pagesOf, type Book } from './helpers/fixture-site/index.js';
import { openSource } from '../src/sources/engine/session.js';
import { fixtureHost } from './helpers/source-flows.js';

const SEED = 20261207;
const running = await startFixtureSite(SEED);
after(() => running.close());
const m = running.site.model;
const base = running.url;
const f = fixtureSources(base, SEED).find((x) => x.id === 'paged')!;

test('search, book info, TOC and content print the app’s debug lines in the app’s order', async () => {
  const lines: string[] = [];
  const flows = openSource(f.source, fixtureHost({ log: (l) => void lines.push(l) }));
  const key = m.keywords.one;
  const b: Book = m.books.find((x) => x.name === key)!;
  const bookUrl = `${base}/paged/book/${b.id}.html`;

  const [hit] = await flows.search(key);
  assert.deepEqual(lines.splice(0), [
    `≡获取成功:${base}/paged/search?q=${encodeURIComponent(key)}&page=1`,
    '┌获取书籍列表',
    '└列表大小:1',
    '┌获取书名',
    `└${b.name}`,
    '┌获取作者',
    `└${b.author}`,
    '┌获取分类',
    `└${b.kind}`,
    '┌获取字数',
    `└${b.wordCount}`,
    '┌获取最新章节',
    `└${b.latestChapter}`,
    '┌获取简介',
    `└${b.intro}`,
    '┌获取封面链接',
    `└${base}${b.coverPath}`,
    '┌获取详情页链接',
    `└${bookUrl}`,
    '◇书籍总数:1',
  ]);

  const book = await flows.bookInfo(hit!);
  const tocUrl = `${base}/paged/book/${b.id}/toc_1.html`;
  assert.deepEqual(lines.splice(0), [
    `≡获取成功:${bookUrl}`,
    '┌获取书名',
    `└${b.name}`,
    '┌获取作者',
    `└${b.author}`,
    '┌获取分类',
    `└${b.kind}`,
    '┌获取字数',
    `└${b.wordCount}`,
    '┌获取最新章节',
    `└${b.latestChapter}`,
    '┌获取简介',
    `└${b.intro}`,
    '┌获取封面链接',
    // The raw value, before it is made absolute.
    `└${b.coverPath}`,
    '┌获取目录链接',
    `└${tocUrl}`,
  ]);

  const toc = await flows.toc(book);
  const pages = Math.ceil(b.chapters.length / 5);
  const volumeLines = (p: number): string[] =>
    b.chapters.slice((p - 1) * 5, p * 5).flatMap((c, j) => (c.isVolume ? [`⇒一级目录${j}未获取到url,使用标题替代`] : []));
  const first = b.chapters[0]!;
  const firstUrl = first.isVolume ? `${first.title}0` : `/paged/read/${b.id}/${first.id}.html`;
  const expectedToc = [
    `≡获取成功:${tocUrl}`,
    '┌获取目录列表',
    `└列表大小:${Math.min(5, b.chapters.length)}`,
    '┌获取目录下一页列表',
    pages > 1 ? `└${base}/paged/book/${b.id}/toc_2.html` : '└',
    '┌解析目录列表',
    ...volumeLines(1),
    '└目录列表解析完成',
    '≡首章信息',
    `◇章节名称:${first.title}`,
    `◇章节链接:${firstUrl}`,
    '◇章节信息:',
    `◇是否VIP:${first.isVip}`,
    `◇是否购买:${first.isPay}`,
    ...Array.from({ length: pages - 1 }, (_, i) => volumeLines(i + 2)).flat(),
    ...(pages > 1 ? [`◇目录总页数:${pages}`] : []),
    `◇目录总数:${b.chapters.length}`,
  ];
  assert.deepEqual(lines.splice(0), expectedToc);

  const readable = toc.filter((c) => !c.isVolume);
  const c = readable[0]!;
  const modelChapter = b.chapters[c.index]!;
  const text = await flows.content(book, c, readable[1]?.url);
  const n = pagesOf(modelChapter).length;
  const chapterUrl = `${base}/paged/read/${b.id}/${modelChapter.id}.html`;
  assert.deepEqual(lines.splice(0), [
    `≡获取成功:${chapterUrl}`,
    '┌获取正文下一页链接',
    `└${base}/paged/read/${b.id}/${modelChapter.id}_2.html`,
    ...Array.from({ length: n - 1 }, (_, i) => `第${i + 2}页完成`),
    `◇本章总页数:${n}`,
    '┌获取章节名称',
    `└${modelChapter.title}`,
    '┌获取正文内容',
    `└\n${text}`,
  ]);
});

test('a POST search redirected to a detail page prints the redirect and detail-page lines, then the info lines', async () => {
  const lines: string[] = [];
  const gbk = fixtureSources(base, SEED).find((x) => x.id === 'gbk')!;
  const flows = openSource(gbk.source, fixtureHost({ log: (l) => void lines.push(l) }));
  const b = m.books.find((x) => x.name === m.keywords.one)!;
  const bookUrl = `${base}/gbk/book/${b.id}/`;
  const [hit] = await flows.search(b.name);
  assert.equal(hit?.bookUrl, bookUrl);
  // WebBook.checkRedirect prints the status of the redirect (OkHttp's priorResponse.code).
  assert.equal(lines[0], '≡检测到重定向(302)');
  assert.deepEqual(lines.slice(1, 6), ['┌重定向后地址', `└${bookUrl}`, `≡获取成功:${base}/gbk/modules/article/search.php`, '≡链接为详情页', '┌获取书名']);
  assert.ok(!lines.some((l) => l.startsWith('◇书籍总数')), 'the detail-page branch returns before the count');
  assert.equal(lines.at(-1), `└${bookUrl}`, 'the TOC URL defaults to the book URL');
});

test('the redirect line gives the status of the last redirect of a chain; a page not redirected prints none', async () => {
  // 301 to /b, 307 from /b to the page: the app's priorResponse is the 307.
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/a')) res.writeHead(301, { location: '/b' }).end();
    else if (req.url === '/b') res.writeHead(307, { location: '/page' }).end();
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><p class="x">1</p></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const source = (searchUrl: string) => ({
      bookSourceUrl: origin,
      bookSourceName: 'redirects',
      searchUrl,
      ruleSearch: { bookList: 'class.none', name: 'class.x@text' },
    });
    const lines: string[] = [];
    await openSource(source('/a?q={{key}}'), fixtureHost({ log: (l) => void lines.push(l) })).search('k');
    assert.deepEqual(lines.slice(0, 3), ['≡检测到重定向(307)', '┌重定向后地址', `└${origin}/page`]);
    const plain: string[] = [];
    await openSource(source('/page?q={{key}}'), fixtureHost({ log: (l) => void plain.push(l) })).search('k');
    assert.ok(plain.length > 0);
    assert.ok(!plain.some((l) => l.includes('重定向')));
  } finally {
    server.close();
  }
});
