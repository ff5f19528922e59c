// Web books on the Node server (BookController's refreshToc, getChapterList, getBookContent for a
// book whose origin is a source): the real server on 127.0.0.1, the real fixture site, the store
// read back by raw SQL, the values expected from the site's model, the site's own request counts.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { served, type Served } from './helpers/serve.js';
import { expectedText, expectedToc, fixtureSources, safetySources, type FixtureSource } from './helpers/fixture-site/index.js';
import { startFixtureSite, type RunningSite } from './helpers/fixture-site/node.js';

const SEED = 7;
let site: RunningSite;
let api: FixtureSource;

before(async () => {
  site = await startFixtureSite(SEED);
  api = fixtureSources(site.url, SEED).find((f) => f.id === 'api')!;
});
after(() => site.close());

type Env = { isSuccess: boolean; errorMsg: string; data?: unknown };
const env = async (s: Served, path: string): Promise<Env> => (await s.get(path)).json() as Env;
const q = encodeURIComponent;
/** The site's count of requests for a URL (its `METHOD path?query` key). */
const hitsOf = (url: string): number => {
  const u = new URL(url);
  return site.site.hits.get(`GET ${u.pathname}${u.search}`) ?? 0;
};

/** The app's SearchBook as its search answers it, saved through /saveBook as the web page saves a hit. */
async function saveHit(s: Served, f: FixtureSource, bookIndex: number): Promise<{ bookUrl: string; book: (typeof site.site.model.books)[number] }> {
  const book = site.site.model.books[bookIndex]!;
  const bookUrl = f.expect.bookUrl(book);
  const hit = { bookUrl, origin: f.source.bookSourceUrl, originName: f.source.bookSourceName, name: book.name, author: book.author, type: 0, tocUrl: '' };
  assert.deepEqual(await (await s.post('/saveBook', JSON.stringify(hit))).json(), { isSuccess: true, errorMsg: '', data: '' });
  return { bookUrl, book };
}

test('a saved search hit: getChapterList fetches info and TOC and stores them; a chapter read twice is fetched once, with the replace rules', async () => {
  const s = await served({ allowPrivateHosts: true });
  assert.equal((await env(s, '/getChapterList?url=x')).isSuccess, false);
  await s.post('/saveBookSources', JSON.stringify([api.source]));
  const { bookUrl, book } = await saveHit(s, api, 0);
  const toc = expectedToc(api, book);

  const list = await env(s, `/getChapterList?url=${q(bookUrl)}`);
  assert.equal(list.isSuccess, true, list.errorMsg);
  const want = toc.map((c) => ({ index: c.index, title: c.title, isVolume: c.isVolume ? 1 : 0, isVip: c.isVip ? 1 : 0, isPay: c.isPay ? 1 : 0 }));
  assert.deepEqual(s.rows('SELECT "index", title, isVolume, isVip, isPay FROM chapters WHERE bookUrl = ? ORDER BY "index"', bookUrl), want);
  const urls = s.rows('SELECT url FROM chapters WHERE bookUrl = ? ORDER BY "index"', bookUrl).map((r) => new URL(String(r.url), bookUrl).href);
  assert.deepEqual(
    urls,
    toc.map((c) => c.url ?? urls[c.index]),
  );
  assert.deepEqual(
    (list.data as { title: string }[]).map((c) => c.title),
    toc.map((c) => c.title),
  );
  // The book row as the app updates it after a TOC: its count, latest chapter, the info's intro.
  const row = s.rows('SELECT totalChapterNum, latestChapterTitle, intro, tocUrl FROM books WHERE bookUrl = ?', bookUrl)[0]!;
  assert.equal(row.totalChapterNum, toc.length);
  assert.equal(row.latestChapterTitle, toc.at(-1)!.title);
  assert.equal(row.intro, book.intro);
  assert.notEqual(row.tocUrl, '');

  // A second getChapterList answers from the store: the TOC is not fetched again.
  const tocKeys = [...site.site.hits.keys()].filter((k) => k.includes('/chapters'));
  assert.ok(tocKeys.length > 0);
  const tocHits = tocKeys.map((k) => site.site.hits.get(k));
  assert.equal((await env(s, `/getChapterList?url=${q(bookUrl)}`)).isSuccess, true);
  assert.deepEqual(
    tocKeys.map((k) => site.site.hits.get(k)),
    tocHits,
  );

  const first = toc.find((c) => !c.isVolume)!;
  // The model's text with each line trimmed, as the app's ContentProcessor trims (local books alike).
  const text = expectedText(first.chapter, api)
    .split('\n')
    .map((l) => l.replace(/^\u3000+/, ''))
    .join('\n');
  assert.equal(hitsOf(first.url!), 0);
  const read = await env(s, `/getBookContent?url=${q(bookUrl)}&index=${first.index}`);
  assert.deepEqual(read, { isSuccess: true, errorMsg: '', data: text });
  // Kept in the cache folder beside the store, one .nb file per chapter (the app's book_cache).
  const files = readdirSync(join(`${s.path}.cache`, 'book_cache'), { recursive: true }).map(String);
  assert.equal(files.filter((f) => f.endsWith('.nb')).length, 1);
  // A replace rule saved now applies to the cached text on the next read, and nothing is fetched.
  const ch = text.replace(/[\s，。！？“”&<>]/g, '')[0]!;
  await s.post('/saveReplaceRule', JSON.stringify({ id: 1, name: 'r', pattern: ch, replacement: '@', isRegex: false, isEnabled: true, scopeContent: true }));
  const again = await env(s, `/getBookContent?url=${q(bookUrl)}&index=${first.index}`);
  assert.deepEqual(again, { isSuccess: true, errorMsg: '', data: text.split(ch).join('@') });
  assert.equal(hitsOf(first.url!), 1);

  // Its source deleted: the cached chapter is still read; another one gets the app's message.
  await s.post('/deleteBookSources', JSON.stringify([api.source]));
  assert.equal((await env(s, `/getBookContent?url=${q(bookUrl)}&index=${first.index}`)).isSuccess, true);
  const other = toc.filter((c) => !c.isVolume)[1]!;
  assert.deepEqual(await env(s, `/getBookContent?url=${q(bookUrl)}&index=${other.index}`), { isSuccess: false, errorMsg: '未找到书源' });
  assert.deepEqual(await env(s, `/refreshToc?url=${q(bookUrl)}`), { isSuccess: false, errorMsg: '未找到对应书源,请换源' });
  assert.equal(hitsOf(other.url!), 0);
});

test('refreshToc of a web book fetches the TOC again and stores it; progress is kept', async () => {
  const s = await served({ allowPrivateHosts: true });
  await s.post('/saveBookSources', JSON.stringify([api.source]));
  const { bookUrl, book } = await saveHit(s, api, 1);
  assert.equal((await env(s, `/refreshToc?url=${q(bookUrl)}`)).isSuccess, true);
  s.store.db.prepare('UPDATE books SET durChapterIndex = 2 WHERE bookUrl = ?').run(bookUrl);
  s.store.db.prepare('DELETE FROM chapters WHERE bookUrl = ? AND "index" > 0').run(bookUrl);
  const again = await env(s, `/refreshToc?url=${q(bookUrl)}`);
  assert.equal(again.isSuccess, true, again.errorMsg);
  assert.equal(s.sql('SELECT count(*) FROM chapters WHERE bookUrl = ?', bookUrl), expectedToc(api, book).length);
  assert.equal(s.sql('SELECT durChapterIndex FROM books WHERE bookUrl = ?', bookUrl), 2);
});

test('a site that does not answer: an error envelope at the source time limit, nothing stored', async () => {
  const s = await served({ allowPrivateHosts: true, sourceTimeoutMs: 300 });
  const [slow] = safetySources(site.url);
  await s.post('/saveBookSources', JSON.stringify([slow]));
  const bookUrl = `${site.url}/safety/slow?ms=600000&b=1`;
  await s.post('/saveBook', JSON.stringify({ bookUrl, origin: slow!.bookSourceUrl, name: '慢', author: 'a', tocUrl: '' }));
  const answer = await env(s, `/getChapterList?url=${q(bookUrl)}`);
  assert.equal(answer.isSuccess, false);
  assert.match(answer.errorMsg, /did not answer within 300 ms/);
  assert.equal(s.sql('SELECT count(*) FROM chapters'), 0);
});

test('a source aimed at 10.0.0.1 is refused without --allow-private-hosts, with a clear message', async () => {
  const s = await served();
  const direct = safetySources(site.url).find((x) => x.bookSourceUrl.endsWith('#safety-direct-private'))!;
  await s.post('/saveBookSources', JSON.stringify([direct]));
  const bookUrl = 'http://10.0.0.1/book/1';
  await s.post('/saveBook', JSON.stringify({ bookUrl, origin: direct.bookSourceUrl, name: '私', author: 'a', tocUrl: '' }));
  const answer = await env(s, `/refreshToc?url=${q(bookUrl)}`);
  assert.equal(answer.isSuccess, false);
  assert.match(answer.errorMsg, /10\.0\.0\.1/);
  assert.match(answer.errorMsg, /private|refused/i);
  assert.equal(s.sql('SELECT count(*) FROM chapters'), 0);
});

test('a site that went away: the chapter is an error envelope naming the failed fetch, nothing cached', async () => {
  const gone = await startFixtureSite(SEED);
  const f = fixtureSources(gone.url, SEED).find((x) => x.id === 'api')!;
  const s = await served({ allowPrivateHosts: true });
  await s.post('/saveBookSources', JSON.stringify([f.source]));
  const book = gone.site.model.books[2]!;
  const bookUrl = f.expect.bookUrl(book);
  const hit = { bookUrl, origin: f.source.bookSourceUrl, name: book.name, author: book.author, tocUrl: '' };
  await s.post('/saveBook', JSON.stringify(hit));
  assert.equal((await env(s, `/getChapterList?url=${q(bookUrl)}`)).isSuccess, true);
  await gone.close();
  const index = expectedToc(f, book).find((c) => !c.isVolume)!.index;
  const answer = await env(s, `/getBookContent?url=${q(bookUrl)}&index=${index}`);
  assert.equal(answer.isSuccess, false);
  assert.match(answer.errorMsg, /fetch failed/);
  assert.equal(answer.errorMsg.includes(new URL(gone.url).host), true);
  assert.equal(existsSync(join(`${s.path}.cache`, 'book_cache')), false);
});
