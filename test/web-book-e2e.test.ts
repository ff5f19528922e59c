// search, book add, book toc and book read end to end: the real engine against the fixture site
// on 127.0.0.1, the store read back with raw SQL, the values expected from the site's model.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from './helpers/cli.js';
import { openDb } from './helpers/engine.js';
import { snapshot, tempDir } from './helpers/files.js';
import { expectedInfo, expectedText, expectedToc, fixtureSources, type FixtureSource } from './helpers/fixture-site/index.js';
import { startFixtureSite, type RunningSite } from './helpers/fixture-site/node.js';
import { searchBooks } from './helpers/fixture-site/model.js';

const SEED = 7;
const dir = tempDir();
let site: RunningSite;
let paged: FixtureSource;
let api: FixtureSource;
let n = 0;

before(async () => {
  site = await startFixtureSite(SEED);
  const all = fixtureSources(site.url, SEED);
  paged = all.find((f) => f.id === 'paged')!;
  api = all.find((f) => f.id === 'api')!;
});
after(() => site.close());

/** A store holding the two sources, imported as a user imports a source file. */
async function store(): Promise<string> {
  const db = join(dir, `s${n++}.db`);
  const file = join(dir, `sources${n}.json`);
  writeFileSync(file, JSON.stringify([paged.source, api.source]));
  const r = await cli('import', db, file);
  assert.equal(r.code, 0, r.stderr);
  return db;
}

const rows = (db: string, sql: string, ...params: unknown[]): Record<string, unknown>[] => {
  const c = openDb(db);
  try {
    return c.prepare(sql).all(...params) as Record<string, unknown>[];
  } finally {
    c.close();
  }
};

const P = '--allow-private-hosts';

test('search: every hit in searchBooks, the same book of two sources merged into one entry', async () => {
  const db = await store();
  const key = site.site.model.keywords.many;
  const r = await cli('search', db, key, '--source', paged.source.bookSourceUrl, '--source', api.source.bookSourceUrl, P, '--json');
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { books: { name: string; author: string; bookUrl: string; origins: string[] }[]; stored: number };
  const found = searchBooks(site.site.model, key);
  assert.ok(found.length > 1);
  // No name or author equals the stem: all "contain" it, each found by both sources, in the first source's order.
  assert.deepEqual(
    out.books.map((b) => [b.name, b.author, b.bookUrl, b.origins]),
    found.map((b) => [b.name, b.author, paged.expect.bookUrl(b), [paged.source.bookSourceUrl, api.source.bookSourceUrl]]),
  );
  const stored = rows(db, 'SELECT bookUrl, origin, name, author FROM searchBooks ORDER BY origin, bookUrl');
  const want = [api, paged]
    .sort((a, b) => (a.source.bookSourceUrl < b.source.bookSourceUrl ? -1 : 1))
    .flatMap((f) => found.map((b) => ({ bookUrl: f.expect.bookUrl(b), origin: f.source.bookSourceUrl, name: b.name, author: b.author })))
    .sort((a, b) => (a.origin === b.origin ? (a.bookUrl < b.bookUrl ? -1 : 1) : 0));
  assert.deepEqual(stored, want);
  assert.equal(out.stored, found.length * 2);
  assert.deepEqual(rows(db, 'SELECT word, usage FROM search_keywords'), [{ word: key, usage: 1 }]);
});

test('search without --allow-private-hosts: every source refused, nothing stored, exit 1', async () => {
  const db = await store();
  const before = snapshot(db);
  const r = await cli('search', db, site.site.model.keywords.many, '--source', paged.source.bookSourceUrl);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /ADDRESS_REFUSED/);
  assert.deepEqual(snapshot(db), before);
});

test('book add from a search hit, book read twice (fetched once), book toc refetched', async () => {
  const db = await store();
  const book = site.site.model.books[0]!;
  let r = await cli('search', db, book.name, '--source', paged.source.bookSourceUrl, P);
  assert.equal(r.code, 0, r.stderr);
  const bookUrl = paged.expect.bookUrl(book);
  r = await cli('book', 'add', db, bookUrl, P, '--json');
  assert.equal(r.code, 0, r.stderr);
  const toc = expectedToc(paged, book);
  const info = expectedInfo(paged, book);
  const [row] = rows(
    db,
    'SELECT bookUrl, origin, name, author, kind, intro, coverUrl, wordCount, type, totalChapterNum, lastCheckCount, latestChapterTitle, durChapterTitle, durChapterIndex, canUpdate, `order` FROM books',
  );
  assert.deepEqual(row, {
    bookUrl,
    origin: paged.source.bookSourceUrl,
    name: info.name,
    author: info.author,
    kind: info.kind,
    intro: info.intro,
    coverUrl: info.coverUrl,
    wordCount: info.wordCount,
    type: 8,
    totalChapterNum: toc.length,
    lastCheckCount: toc.length,
    latestChapterTitle: toc.at(-1)!.title,
    durChapterTitle: toc[0]!.title,
    durChapterIndex: 0,
    canUpdate: 1,
    order: -1,
  });
  const chapters = rows(db, 'SELECT `index`, title, isVolume, isVip, isPay, url, baseUrl FROM chapters ORDER BY `index`');
  assert.deepEqual(
    chapters.map((c) => [c['index'], c['title'], c['isVolume'], c['isVip'], c['isPay']]),
    toc.map((c) => [c.index, c.title, c.isVolume ? 1 : 0, c.isVip ? 1 : 0, c.isPay ? 1 : 0]),
  );
  // The app keeps the rule's URL as written and resolves it against baseUrl (BookChapter.getAbsoluteURL).
  for (const [i, c] of toc.entries()) if (c.url !== undefined) assert.equal(new URL(String(chapters[i]!['url']), String(chapters[i]!['baseUrl'])).href, c.url);
  // Adding it again is refused before anything is fetched.
  const hitsBefore = total();
  r = await cli('book', 'add', db, bookUrl, P);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /BOOK_EXISTS/);
  assert.equal(total(), hitsBefore);

  const readable = toc.find((c) => !c.isVolume)!;
  const storeBefore = snapshot(db);
  r = await cli('book', 'read', db, book.name, String(readable.index), P, '--json');
  assert.equal(r.code, 0, r.stderr);
  const first = JSON.parse(r.stdout) as { text: string; cached: boolean; title: string };
  assert.deepEqual([first.text, first.cached, first.title], [expectedText(readable.chapter, paged), false, readable.title]);
  const afterFirst = total();
  r = await cli('book', 'read', db, bookUrl, String(readable.index), P, '--json');
  assert.deepEqual(JSON.parse(r.stdout), { ...first, cached: true });
  assert.equal(total(), afterFirst, 'the second read fetched nothing');
  assert.deepEqual(snapshot(db).main, storeBefore.main);

  r = await cli('book', 'toc', db, book.name, P, '--json');
  assert.equal(r.code, 0, r.stderr);
  const listed = JSON.parse(r.stdout) as { totalChapterNum: number; lastCheckCount: number; chapters: { title: string }[] };
  assert.deepEqual(
    listed.chapters.map((c) => c.title),
    toc.map((c) => c.title),
  );
  // Nothing new since the add: the count of new chapters stays what the add found.
  assert.deepEqual([listed.totalChapterNum, listed.lastCheckCount], [toc.length, toc.length]);
});

test('book add --source for a page no search found; the info comes from the page', async () => {
  const db = await store();
  const book = site.site.model.books[1]!;
  const r = await cli('book', 'add', db, api.expect.bookUrl(book), '--source', api.source.bookSourceUrl, P, '--json');
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(rows(db, 'SELECT name, author, totalChapterNum FROM books'), [
    { name: book.name, author: book.author, totalChapterNum: expectedToc(api, book).length },
  ]);
});

test('a failed step stores nothing: a TOC rule that matches nothing is a typed error naming the source and the rule', async () => {
  const db = await store();
  const broken = {
    ...paged.source,
    bookSourceUrl: `${paged.source.bookSourceUrl}-broken`,
    ruleToc: { ...paged.source.ruleToc, chapterList: 'class.no-such-list@tag.li' },
  };
  const file = join(dir, 'broken.json');
  writeFileSync(file, JSON.stringify([broken]));
  assert.equal((await cli('import', db, file)).code, 0);
  const before = snapshot(db);
  const r = await cli('book', 'add', db, paged.expect.bookUrl(site.site.model.books[2]!), '--source', broken.bookSourceUrl, P, '--json');
  assert.equal(r.code, 1);
  const e = (JSON.parse(r.stdout) as { error: { code: string; message: string } }).error;
  assert.equal(e.code, 'TOC_EMPTY');
  assert.match(e.message, /-broken\): ruleToc\.chapterList/);
  assert.deepEqual(snapshot(db), before);
});

test('a source with scripts (java.* helpers in the QuickJS sandbox): search, add and read', async () => {
  const js = fixtureSources(site.url, SEED).find((f) => f.id === 'js-java')!;
  const db = join(dir, `js${n++}.db`);
  const file = join(dir, 'js.json');
  writeFileSync(file, JSON.stringify([js.source]));
  assert.equal((await cli('import', db, file)).code, 0);
  const book = site.site.model.books[3]!;
  let r = await cli('search', db, book.name, P);
  assert.equal(r.code, 0, r.stderr);
  r = await cli('book', 'add', db, js.expect.bookUrl(book), P);
  assert.equal(r.code, 0, r.stderr);
  const toc = expectedToc(js, book);
  assert.deepEqual(rows(db, 'SELECT name, author, totalChapterNum FROM books'), [{ name: book.name, author: book.author, totalChapterNum: toc.length }]);
  const c = toc.find((x) => !x.isVolume)!;
  r = await cli('book', 'read', db, book.name, String(c.index), P, '--json');
  assert.equal(r.code, 0, r.stderr);
  assert.equal((JSON.parse(r.stdout) as { text: string }).text, expectedText(c.chapter, js));
});

function total(): number {
  let t = 0;
  for (const v of site.site.hits.values()) t += v;
  return t;
}
