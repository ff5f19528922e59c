// The fixture site checked against its model over real HTTP on 127.0.0.1, with no rule engine:
// GBK bytes decoded by the host's TextDecoder, tokens made by node:crypto, chapter HTML formatted
// by the app's steps spelled out below (rule-engine.md §4), pages followed link by link.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { startFixtureSite } from './helpers/fixture-site/node.js';
import {
  bookById,
  checkPlan,
  encodeGbk,
  expectedExplore,
  expectedSearch,
  expectedToc,
  fixtureSources,
  manySources,
  model,
  pagesOf,
  safetySources,
  searchBooks,
  COOKIE_NAME,
  CLIENT_HEADER,
  LOGIN_USER,
  type Book,
  type Chapter,
} from './helpers/fixture-site/index.js';
import { detectKind } from '../src/backup/detect-kind.js';
import { isColumnAtAnyVersion } from '../src/schema/index.js';

const SEED = 20261207;
const running = await startFixtureSite(SEED);
after(() => running.close());
const base = running.url;
const m = running.site.model;

const get = (path: string, init: RequestInit = {}) => fetch(base + path, { redirect: 'manual', ...init });
const gbkText = async (res: Response) => new TextDecoder('gbk').decode(await res.arrayBuffer());
const readableOf = (b: Book) => b.chapters.filter((c) => !c.isVolume);
const volumeBook = m.books.find((b) => b.chapters.some((c) => c.isVolume))!;

/** The app's content formatting (HtmlFormatter.formatKeepImg, then entity decoding), spelled out from rule-engine.md §4. */
function appFormat(html: string): string {
  const text = html
    .replace(/(&nbsp;)+/g, ' ')
    .replace(/<\/?(?:div|p|br|hr|h\d|article|dd|dl)[^>]*>/g, '\n')
    .replace(/<\/?[a-zA-Z]+(?=[ >])[^<>]*>/g, '')
    .replace(/\s*\n+\s*/g, '\n\u3000\u3000')
    .replace(/^[\n\s]+/, '\u3000\u3000')
    .replace(/[\n\s]+$/, '');
  return text.replace(/&(amp|lt|gt|quot);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"' })[e]!);
}

/** The inner HTML of the element that opens with `open` (no nesting of the same tag inside). */
function inner(html: string, open: RegExp, tag = 'div'): string {
  const at = html.search(open);
  assert.ok(at >= 0, `${open} on the page`);
  const start = html.indexOf('>', at) + 1;
  return html.slice(start, html.indexOf(`</${tag}>`, start));
}

const hrefOf = (html: string, id: string) => new RegExp(`id="${id}" href="([^"]+)"`).exec(html)?.[1];
const displayText = (c: Chapter) => c.paragraphs.map((p) => '\u3000\u3000' + p).join('\n');

test('the model is fixed by its seed, its keywords find one, several and no books, and every character fits GBK', () => {
  assert.deepEqual(JSON.stringify(model(SEED)), JSON.stringify(m));
  assert.notDeepEqual(JSON.stringify(model(SEED + 1)), JSON.stringify(m));
  assert.equal(searchBooks(m, m.keywords.one).length, 1);
  assert.ok(searchBooks(m, m.keywords.many).length >= 2);
  assert.equal(searchBooks(m, m.keywords.none).length, 0);
  assert.ok(volumeBook, 'a book with volumes');
  assert.ok(m.books.some((b) => b.chapters.some((c) => c.isVip) && b.chapters.some((c) => c.isPay)));
  const all = m.books.flatMap((b) => [b.name, b.author, b.intro, b.kind, ...b.chapters.flatMap((c) => [c.title, ...c.paragraphs])]).join('');
  assert.equal(new TextDecoder('gbk').decode(encodeGbk(all)), all);
  assert.match(all, /&/);
  assert.match(all, /</);
  // Known GBK codes (GB 2312 table): 青 C7E0, 云 D4C6.
  assert.deepEqual([...encodeGbk('青云&')], [0xc7, 0xe0, 0xd4, 0xc6, 0x26]);
});

test('GBK pages: bytes in GBK, charset only in <meta>, the book and its chapters as the model has them', async () => {
  const book = m.books[1]!;
  const res = await get(`/gbk/book/${book.id}/`);
  assert.equal(res.headers.get('content-type'), 'text/html');
  const bytes = new Uint8Array(await res.arrayBuffer());
  assert.throws(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  const html = new TextDecoder('gbk').decode(bytes);
  assert.match(html, /<meta http-equiv="Content-Type" content="text\/html; charset=gbk" \/>/);
  assert.equal(/property="og:novel:book_name" content="([^"]*)"/.exec(html)?.[1], book.name);
  assert.equal(/property="og:novel:author" content="([^"]*)"/.exec(html)?.[1], book.author);
  const titles = [...html.matchAll(/<dd><a href="(\d+)\.html">([^<]+)<\/a><\/dd>/g)].slice(3);
  assert.deepEqual(
    titles.map((t) => t[2]),
    readableOf(book).map((c) => c.title),
  );
  const c = readableOf(book)[2]!;
  const page = await gbkText(await get(`/gbk/book/${book.id}/${titles[2]![1]}.html`));
  const content = inner(page, /<div id="content">/).replace(/请记住本书首发域名[^<]*/, '');
  assert.equal(appFormat(content), displayText(c));
});

test('the POST search takes a GBK-encoded keyword: one hit redirects to the detail page, several give the list', async () => {
  const post = (key: Uint8Array) => {
    const pct = [...key].map((b) => '%' + b.toString(16).toUpperCase().padStart(2, '0')).join('');
    return get('/gbk/modules/article/search.php', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `searchkey=${pct}&searchtype=articlename`,
    });
  };
  const one = await post(encodeGbk(m.keywords.one));
  assert.equal(one.status, 302);
  assert.equal(one.headers.get('location'), `${base}/gbk/book/${searchBooks(m, m.keywords.one)[0]!.id}/`);
  const many = await gbkText(await post(encodeGbk(m.keywords.many)));
  const rows = [...many.matchAll(/<span class="s2"><a href="([^"]+)">([^<]+)<\/a>/g)];
  assert.deepEqual(
    rows.map((r) => r[2]),
    searchBooks(m, m.keywords.many).map((b) => b.name),
  );
  // The same keyword as UTF-8 bytes means other characters to a GBK site: no hit.
  const utf8 = await post(new TextEncoder().encode(m.keywords.one));
  assert.equal(utf8.status, 200);
  assert.doesNotMatch(await gbkText(utf8), /class="s2"><a/);
  assert.equal((await get('/gbk/modules/article/search.php?searchkey=x')).status, 405);
});

test('paged TOC: the 下一页 chain and the page list both give the model TOC with volumes and VIP marks', async () => {
  const book = volumeBook;
  const items: { title: string; volume: boolean; vip: boolean; pay: boolean; href?: string }[] = [];
  let path: string | undefined = `/paged/book/${book.id}/toc_1.html`;
  const seen: string[] = [];
  let options: string[] = [];
  while (path && !seen.includes(path)) {
    seen.push(path);
    const html: string = await (await get(path)).text();
    if (seen.length === 1) options = [...html.matchAll(/<option value="([^"]+)"/g)].map((o) => o[1]!);
    for (const li of html.matchAll(/<li( class="volume")?>(.*?)<\/li>/g)) {
      const a = /<a href="([^"]+)">([^<]+)<\/a>/.exec(li[2]!);
      items.push({
        title: a ? a[2]! : li[2]!,
        volume: Boolean(li[1]),
        vip: li[2]!.includes('class="vip"'),
        pay: li[2]!.includes('class="pay"'),
        ...(a ? { href: a[1]! } : {}),
      });
    }
    const next: string | undefined = /<a href="(toc_\d+\.html)">下一页<\/a>/.exec(html)?.[1];
    path = next && new URL(next, base + path).pathname;
  }
  assert.ok(seen.length >= 2, 'the TOC spans pages');
  assert.deepEqual(options, seen);
  assert.deepEqual(
    items.map(({ href: _, ...i }) => i),
    book.chapters.map((c) => ({ title: c.title, volume: c.isVolume, vip: c.isVip, pay: c.isPay })),
  );
});

test('paged content: 2-3 pages a chapter, joined they are the model text, the last next link is the next chapter', async () => {
  const book = m.books[0]!;
  const list = readableOf(book);
  for (const [i, c] of list.entries()) {
    let url = `${base}/paged/read/${book.id}/${c.id}.html`;
    const parts: string[] = [];
    const stop = list[i + 1] ? `${base}/paged/read/${book.id}/${list[i + 1]!.id}.html` : `${base}/paged/book/${book.id}.html`;
    while (url !== stop) {
      const html = await (await fetch(url)).text();
      parts.push(inner(html, /<div id="chaptercontent">/));
      url = new URL(hrefOf(html, 'next_url')!, url).href;
      assert.ok(parts.length <= 3, `chapter ${c.title} ends`);
    }
    assert.ok(parts.length >= 2, `chapter ${c.title} spans pages`);
    assert.equal(parts.length, pagesOf(c).length);
    assert.equal(appFormat(parts.join('\n')), displayText(c));
  }
});

type Json = Record<string, unknown>;

test('the JSON API answers the model: search pages, book, chapter list, chapter text', async () => {
  const api = async <T>(path: string) => ((await (await get(path)).json()) as { code: number; data: T }).data;
  const hits = searchBooks(m, m.keywords.many);
  const found = await api<{ list: Json[] }>(`/api/search?keyword=${encodeURIComponent(m.keywords.many)}&page=1`);
  assert.deepEqual(
    found.list.map((b) => [b['id'], b['name'], b['author'], b['category'], b['intro'], b['cover'], b['words'], b['lastChapter']]),
    hits.map((b) => [b.id, b.name, b.author, b.kind, b.intro, b.coverPath, b.wordCount, b.latestChapter]),
  );
  assert.deepEqual((await api<{ list: Json[] }>(`/api/search?keyword=${encodeURIComponent(m.keywords.many)}&page=2`)).list, []);
  const book = volumeBook;
  assert.equal((await api<Json>(`/api/book/${book.id}`))['name'], book.name);
  const toc = await api<Json[]>(`/api/book/${book.id}/chapters`);
  assert.deepEqual(
    toc.map((c) => [c['title'], c['volume'], c['vip'], c['pay']]),
    book.chapters.map((c) => [c.title, c.isVolume, c.isVip, c.isPay]),
  );
  const c = readableOf(book)[3]!;
  assert.deepEqual((await api<{ content: string }>(`/api/chapter?book=${book.id}&id=${c.id}`)).content.split('\n'), c.paragraphs);
  assert.equal((await get('/api/book/1')).status, 404);
});

test('XPath pages are tables without <tbody>, three chapters a row', async () => {
  const hits = searchBooks(m, m.keywords.many);
  const html = await (await get(`/xpath/search?searchkey=${encodeURIComponent(m.keywords.many)}`)).text();
  assert.doesNotMatch(html, /<tbody/);
  assert.deepEqual(
    [...html.matchAll(/<tr><td class="odd"><a href="[^"]+">([^<]+)<\/a>/g)].map((r) => r[1]),
    hits.map((b) => b.name),
  );
  const book = m.books[2]!;
  const list = await (await get(`/xpath/book/${book.id}/list.html`)).text();
  assert.doesNotMatch(list, /<tbody/);
  const rows = [...list.matchAll(/<tr>(.*?)<\/tr>/g)].map((r) => [...r[1]!.matchAll(/<td>(?:<a href="\d+\.html">([^<]+)<\/a>)?<\/td>/g)].map((x) => x[1]));
  assert.ok(rows.every((r) => r.length === 3));
  assert.deepEqual(
    rows.flat().filter(Boolean),
    readableOf(book).map((c) => c.title),
  );
});

test('AllInOne pages: the source list regex reads every hit and the TOC regex every chapter', async () => {
  const aio = fixtureSources(base, SEED).find((f) => f.id === 'aio')!;
  const hits = searchBooks(m, m.keywords.many);
  const html = await (await get(`/aio/search?wd=${encodeURIComponent(m.keywords.many)}`)).text();
  const re = new RegExp(aio.source.ruleSearch!['bookList']!.slice(1), 'g');
  assert.deepEqual(
    [...html.matchAll(re)].map((x) => [x[1], x[2], x[3], x[4], x[5]]),
    hits.map((b) => [`/aio/book/${b.id}.html`, b.name, b.author, b.kind, b.latestChapter]),
  );
  const book = hits[0]!;
  const info = await (await get(`/aio/book/${book.id}.html`)).text();
  const toc = new RegExp(aio.source.ruleToc!['chapterList']!.slice(1), 'g');
  assert.deepEqual(
    [...info.matchAll(toc)].map((x) => x[2]),
    readableOf(book).map((c) => c.title),
  );
  const c = readableOf(book)[0]!;
  const page = await (await get(`/aio/book/${book.id}/${c.id}.html`)).text();
  assert.equal(appFormat(inner(page, /<div id="c1">/) + '\n' + inner(page, /<div id="c2">/)), displayText(c));
});

test('JS-built URLs: an md5 sign and a base64 keyword, a plain-JS token, a TOC in parts, packed chapter text', async () => {
  const key = m.keywords.many;
  const hits = searchBooks(m, key);
  const k = encodeURIComponent(Buffer.from(key, 'utf8').toString('base64'));
  const sign = createHash('md5')
    .update(key + 'fixture', 'utf8')
    .digest('hex');
  const xhr = { headers: { 'X-Requested-With': 'XMLHttpRequest' } };
  const ok = (await (await get(`/js/search?k=${k}&sign=${sign}`, xhr)).json()) as { list: { name: string; url: string }[] };
  assert.deepEqual(
    ok.list.map((b) => b.name),
    hits.map((b) => b.name),
  );
  assert.equal((await get(`/js/search?k=${k}&sign=${sign.replace(/^./, (d) => (d === '0' ? '1' : '0'))}`, xhr)).status, 403);
  assert.equal((await get(`/js/search?k=${k}&sign=${sign}`)).status, 403);

  let sum = 0;
  for (const ch of key) sum += ch.charCodeAt(0);
  const jsonp = async (t: number) =>
    JSON.parse((await (await get(`/js/s?wd=${encodeURIComponent(key)}&t=${t}`)).text()).replace(/^searchCallback\((.*)\);$/s, '$1'));
  assert.deepEqual(
    (await jsonp(sum % 9973)).data.map((b: { name: string }) => b.name),
    hits.map((b) => b.name),
  );
  assert.equal((await jsonp((sum + 1) % 9973)).code, 1);

  const book = m.books[3]!;
  const page = await (await get(`/js/book?id=${book.id}`)).text();
  const parts = /data-parts="([^"]+)"/.exec(page)![1]!.split(',');
  const chapters: { title: string; url: string }[] = [];
  for (const n of parts) chapters.push(...((await (await get(`/js/part?book=${book.id}&n=${n}`)).json()) as { chapters: typeof chapters }).chapters);
  assert.deepEqual(
    chapters.map((c) => c.title),
    readableOf(book).map((c) => c.title),
  );
  const c = readableOf(book)[1]!;
  const read = await (await get(chapters[1]!.url)).text();
  const packed = Buffer.from(/var chapterData = "([^"]+)"/.exec(read)![1]!, 'base64').toString('utf8');
  assert.equal(appFormat(packed), displayText(c));
  const plain = await (await get(`/js/c/${book.id}/${c.id}`)).text();
  assert.equal(appFormat(inner(plain, /<div id="content">/).replace(/<span class="hide">[^<]*<\/span>/g, '')), displayText(c));
});

test('cookies: the search sets the session cookie, and the book pages answer only with it', async () => {
  const book = m.books[0]!;
  assert.equal((await get(`/guard/book/${book.id}`)).status, 403);
  const search = await get(`/guard/search?kw=${encodeURIComponent(book.name)}`);
  const cookie = search.headers.get('set-cookie')!;
  assert.match(cookie, new RegExp(`^${COOKIE_NAME}=`));
  const jar = { headers: { Cookie: cookie.split(';')[0]! } };
  const again = await get(`/guard/search?kw=x`, jar);
  assert.equal(again.headers.get('set-cookie'), null);
  const info = await get(`/guard/book/${book.id}`, jar);
  assert.equal(info.status, 200);
  assert.match(await info.text(), new RegExp(`<h1>${book.name}</h1>`));
  const c = readableOf(book)[0]!;
  assert.equal(appFormat(inner(await (await get(`/guard/read/${book.id}/${c.id}`, jar)).text(), /<div class="text">/)), displayText(c));
});

test('the rate limit counts per client in a sliding window on the injected clock', async () => {
  let now = 1_000_000;
  const site = await startFixtureSite(SEED, { now: () => now, rateLimit: { max: 3, windowMs: 1000 } });
  try {
    const hit = (client?: string) => fetch(`${site.url}/rate/search?kw=x`, { headers: client ? { [CLIENT_HEADER]: client } : {} }).then((r) => r.status);
    assert.deepEqual([await hit(), await hit(), await hit(), await hit()], [200, 200, 200, 429]);
    assert.equal(await hit('other'), 200);
    now += 999;
    assert.equal(await hit(), 429);
    now += 1;
    assert.equal(await hit(), 200);
  } finally {
    await site.close();
  }
});

test('the login: /login/auth trades the user for a token, the pages want it as a bearer header', async () => {
  const book = m.books[0]!;
  assert.equal((await get(`/login/book/${book.id}`)).status, 401);
  const auth = (user: object) => get('/login/auth', { method: 'POST', body: JSON.stringify(user), headers: { 'Content-Type': 'application/json' } });
  assert.equal((await auth({ ...LOGIN_USER, password: 'wrong' })).status, 401);
  const { token } = (await (await auth(LOGIN_USER)).json()) as { token: string };
  const header = fixtureSources(base, SEED).find((f) => f.id === 'login')!.expect.loginHeader!;
  assert.deepEqual(header, { Authorization: `Bearer ${token}` });
  assert.equal((await get(`/login/book/${book.id}`, { headers: header })).status, 200);
  assert.equal((await get(`/login/book/${book.id}`, { headers: { Authorization: 'Bearer nope' } })).status, 401);
});

test('safety pages: redirect loops, redirects to private addresses, a huge body, a slow answer', async () => {
  assert.equal((await get('/safety/loop')).headers.get('location'), `${base}/safety/loop?n=1`);
  assert.equal((await get('/safety/loop?n=41')).headers.get('location'), `${base}/safety/loop?n=42`);
  assert.equal((await get('/safety/ping')).headers.get('location'), `${base}/safety/pong`);
  assert.equal((await get('/safety/pong')).headers.get('location'), `${base}/safety/ping`);
  const port = new URL(base).port;
  assert.equal((await get('/safety/to/loopback')).headers.get('location'), `http://127.0.0.1:${port}/gbk/`);
  assert.equal((await get('/safety/to/private')).headers.get('location'), 'http://10.0.0.1/gbk/');
  assert.equal((await get('/safety/to/metadata')).headers.get('location'), 'http://169.254.169.254/latest/meta-data/');
  const huge = (await get('/safety/huge?mb=64')).body!.getReader();
  let size = 0;
  while (size <= 8 * 1024 * 1024) size += (await huge.read()).value!.length;
  await huge.cancel();
  assert.ok(size > 8 * 1024 * 1024);
  await assert.rejects(get('/safety/slow?ms=600000', { signal: AbortSignal.timeout(300) }), { name: 'TimeoutError' });
});

// The BookSource rule objects' fields (rule-engine.md §1, the app's entities/rule/*.kt).
const RULE_FIELDS: Record<string, readonly string[]> = {
  ruleSearch: ['bookList', 'name', 'author', 'intro', 'kind', 'lastChapter', 'updateTime', 'bookUrl', 'coverUrl', 'wordCount', 'checkKeyWord'],
  ruleExplore: ['bookList', 'name', 'author', 'intro', 'kind', 'lastChapter', 'updateTime', 'bookUrl', 'coverUrl', 'wordCount'],
  ruleBookInfo: ['init', 'name', 'author', 'intro', 'kind', 'lastChapter', 'updateTime', 'coverUrl', 'tocUrl', 'wordCount', 'canReName', 'downloadUrls'],
  ruleToc: ['preUpdateJs', 'chapterList', 'chapterName', 'chapterUrl', 'formatJs', 'isVolume', 'isVip', 'isPay', 'updateTime', 'nextTocUrl'],
  ruleContent: ['content', 'title', 'nextContentUrl', 'webJs', 'sourceRegex', 'replaceRegex', 'imageStyle', 'imageDecode', 'payAction'],
};

test('every fixture source is a book source in the app shape: its fields, its rule objects, its tiers', () => {
  const all = [...fixtureSources(base, SEED).map((f) => f.source), ...safetySources(base)];
  for (const s of JSON.parse(JSON.stringify(all)) as Record<string, unknown>[]) {
    assert.equal(detectKind(s), 'bookSource');
    for (const key of Object.keys(s)) {
      if (key in RULE_FIELDS) {
        const rules = s[key] as Record<string, unknown>;
        for (const [field, value] of Object.entries(rules)) {
          assert.ok(RULE_FIELDS[key]!.includes(field), `${s['bookSourceName']}: ${key}.${field}`);
          assert.equal(typeof value, 'string', `${key}.${field} is a string`);
        }
      } else assert.ok(isColumnAtAnyVersion('book_sources', key), `${s['bookSourceName']}: ${key} is a BookSource field`);
    }
    assert.equal(typeof s['bookSourceType'], 'number');
    assert.ok(String(s['bookSourceUrl']).startsWith(base) || String(s['bookSourceUrl']).startsWith('http'));
    if (typeof s['concurrentRate'] !== 'undefined') assert.equal(typeof s['concurrentRate'], 'string');
  }
  assert.equal(new Set(all.map((s) => s.bookSourceUrl)).size, all.length);
  const tiers = new Set(fixtureSources(base, SEED).map((f) => f.tier));
  for (const t of ['T0', 'T1', 'T2'] as const) assert.ok(tiers.has(t), t);
  const gen = manySources(base, SEED, 500);
  assert.equal(new Set(gen.map((f) => f.source.bookSourceUrl)).size, 500);
  assert.ok(new Set(gen.map((f) => f.shape)).size >= 6);
});

test('each plain-template search URL of the sources reaches its page, and the expected hits are the model hits', async () => {
  const key = m.keywords.many;
  for (const f of fixtureSources(base, SEED)) {
    const url = f.source.searchUrl!;
    if (url.startsWith('@js:') || url.includes(',{') || /\{\{(?!key\}\}|page\}\})/.test(url)) continue;
    const res = await get(
      url.replace('{{key}}', encodeURIComponent(key)).replace('{{page}}', '1'),
      f.expect.loginHeader ? { headers: f.expect.loginHeader } : {},
    );
    assert.equal(res.status, 200, f.id);
    const text = await res.text();
    for (const b of searchBooks(m, key)) assert.ok(text.includes(b.name), `${f.id} lists ${b.name}`);
    assert.deepEqual(
      expectedSearch(m, f, key).map((h) => h.bookUrl),
      searchBooks(m, key).map((b) => f.expect.bookUrl(b)),
    );
  }
  const paged = fixtureSources(base, SEED).find((f) => f.id === 'paged')!;
  assert.deepEqual(
    expectedToc(paged, volumeBook).map((c) => c.index),
    volumeBook.chapters.map((_, i) => i),
  );
  const gbk = fixtureSources(base, SEED).find((f) => f.id === 'gbk')!;
  assert.equal(expectedToc(gbk, volumeBook).length, readableOf(volumeBook).length);
  assert.equal(expectedSearch(m, gbk, m.keywords.one)[0]!.intro, bookById(m, searchBooks(m, m.keywords.one)[0]!.id)!.intro);
});

test('explore: every entry of the paged and API sources lists the books of its kind', async () => {
  for (const f of fixtureSources(base, SEED).filter((x) => x.source.exploreUrl)) {
    const raw = f.source.exploreUrl!;
    const entries = raw.startsWith('[')
      ? (JSON.parse(raw) as { title: string; url: string }[]).map((e) => [e.title, e.url] as const)
      : raw.split('\n').map((line) => line.split('::') as [string, string]);
    assert.equal(entries.length, new Set(m.books.map((b) => b.kind)).size, f.id);
    for (const [kind, url] of entries) {
      const text = await (await fetch(new URL(url.replace('{{page}}', '1'), base))).text();
      const names = expectedExplore(m, f, kind).map((h) => h.name);
      assert.ok(names.length > 0, `${f.id} ${kind}`);
      for (const b of m.books) assert.equal(text.includes(b.name), names.includes(b.name), `${f.id} ${kind}: ${b.name}`);
    }
  }
});

test('the check plan of every benchmark source is requests the site answers, ending on the first chapter', async () => {
  const shapes = new Set(manySources(base, SEED, 20).map((f) => f.id));
  for (const f of fixtureSources(base, SEED).filter((x) => shapes.has(x.id))) {
    const plan = checkPlan(m, f, m.keywords.many);
    for (const r of plan) assert.equal((await fetch(r.url, { redirect: 'manual', ...r.init })).status, 200, `${f.id} ${r.url}`);
    const first = searchBooks(m, m.keywords.many)[0]!;
    assert.ok(plan.at(-1)!.url.startsWith(f.expect.chapterUrl(first, readableOf(first)[0]!).replace(/\.html$/, '')), f.id);
  }
});

test('the site itself imports nothing from node:* (it runs inside workerd), only node.ts does', () => {
  const dir = fileURLToPath(new URL('../../test/helpers/fixture-site/', import.meta.url));
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'node.ts');
  assert.ok(files.includes('site.ts'));
  for (const f of files) {
    const specs = ts.preProcessFile(readFileSync(dir + f, 'utf8'), true, true).importedFiles.map((i) => i.fileName);
    for (const s of specs) assert.ok(s.startsWith('./') || s.startsWith('@noble/'), `${f} imports ${s}`);
  }
});
