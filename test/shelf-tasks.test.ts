// The web-book tasks around the engine, with sources stubbed as the seam (SourceFlows) allows:
// what reaches the store when a source fails, how many sources run at once, what a read asks
// the source for. The engine itself is tested against the fixture site (web-book-e2e).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addWebBook, MemoryChapterCache, readWebChapter, searchSources, type ShelfEngine } from '../src/sources/shelf/index.js';
import type { BookSource, SearchBook, SourceFlows, WebBook, WebChapter } from '../src/sources/engine/types.js';
import { FakeClock, newStore, source } from './helpers/domain.js';
import { searchHit } from './helpers/web-books.js';

const src = (url: string): BookSource => ({ bookSourceUrl: url, bookSourceName: url, customOrder: 0 });

const hit = (origin: string, name: string): SearchBook => ({ ...searchHit(origin, name), bookUrl: `${origin}/${name}` });

/** Stub flows: search answers from `hits` (a function may throw), the rest from the given parts. */
function engine(parts: {
  search?: (s: BookSource, key: string) => Promise<SearchBook[]>;
  info?: (b: WebBook | SearchBook) => WebBook;
  toc?: (b: WebBook) => WebChapter[];
  content?: (b: WebBook, c: WebChapter, next?: string) => string;
}): ShelfEngine & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    source: (url) => (url.startsWith('ghost') ? undefined : src(url)),
    open: (s): SourceFlows => ({
      source: s,
      search: (key) => (calls.push(`search ${s.bookSourceUrl}`), parts.search!(s, key)),
      exploreKinds: () => Promise.resolve([]),
      explore: () => Promise.resolve([]),
      bookInfo: (b) => (calls.push(`info ${b.bookUrl}`), Promise.resolve(parts.info!(b))),
      toc: (b) => (calls.push(`toc ${b.bookUrl}`), Promise.resolve(parts.toc!(b))),
      content: (b, c, next) => (calls.push(`content ${c.url} next=${next}`), Promise.resolve(parts.content!(b, c, next))),
    }),
  };
}

test('search: a failing source stores nothing, the others are stored and merged in source order', async () => {
  const s = newStore();
  for (const u of ['a', 'b', 'c']) s.tables.book_sources.insert(source(u));
  let inFlight = 0;
  let most = 0;
  const e = engine({
    search: async (so, key) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setImmediate(r));
      inFlight--;
      if (so.bookSourceUrl === 'b') throw new Error('b is down');
      // c answers with a hit of a source the store lacks: its batch fails as a whole.
      if (so.bookSourceUrl === 'c') return [hit('c', `${key}1`), hit('ghost', `${key}2`)];
      return [hit('a', `${key}1`), hit('a', 'other')];
    },
  });
  const r = await searchSources(s, [src('a'), src('b'), src('c'), src('a')], 'k', e, { concurrency: 2 });
  assert.equal(most, 2);
  assert.deepEqual(
    r.sources.map((x) => [x.source, x.hits, x.error === undefined ? null : ((x.error as { code?: string }).code ?? (x.error as Error).message)]),
    [
      ['a', 2, null],
      ['b', 0, 'b is down'],
      ['c', 0, 'FOREIGN_KEY_VIOLATION'],
      ['a', 2, null],
    ],
  );
  assert.deepEqual(s.db.prepare('SELECT bookUrl FROM searchBooks ORDER BY bookUrl').pluck().all(), ['a/k1', 'a/other']);
  assert.deepEqual(
    r.books.map((b) => [b.name, b.origins]),
    [
      ['k1', ['a']],
      ['other', ['a']],
    ],
  );
  s.close();
});

test('add: the search hit names the source and is the book the info step starts from; read asks up to the next chapter once', async () => {
  const clock = new FakeClock();
  const s = newStore({ clock: clock.read });
  s.tables.book_sources.insert(source('a', { customOrder: 3 }));
  s.db
    .prepare(
      "INSERT INTO searchBooks (bookUrl, origin, originName, type, name, author, tocUrl, time, originOrder, intro) VALUES ('a/1', 'a', 'A', 8, 'N', 'W', '', 0, 3, 'from search')",
    )
    .run();
  const chapters = (b: WebBook): WebChapter[] =>
    [0, 1].map((i) => ({
      url: `${b.bookUrl}/${i}`,
      title: `c${i}`,
      isVolume: false,
      baseUrl: b.bookUrl,
      bookUrl: b.bookUrl,
      index: i,
      isVip: false,
      isPay: false,
      tag: null,
      variable: null,
    }));
  const e = engine({
    info: (b) => ({ ...(b as WebBook), tocUrl: `${b.bookUrl}/toc`, kind: 'k' }),
    toc: chapters,
    content: (_b, c) => `text of ${c.title}`,
  });
  const r = await addWebBook(s, 'a/1', e, {});
  assert.deepEqual(r, { action: 'added', bookUrl: 'a/1', chapters: 2, name: 'N', author: 'W' });
  assert.deepEqual(s.db.prepare('SELECT intro, kind, tocUrl, originOrder FROM books').get(), {
    intro: 'from search',
    kind: 'k',
    tocUrl: 'a/1/toc',
    originOrder: 3,
  });
  const cache = new MemoryChapterCache();
  const first = await readWebChapter(s, 'N', 0, e, cache);
  const second = await readWebChapter(s, 'a/1', 0, e, cache);
  const last = await readWebChapter(s, 'N', 1, e, cache);
  assert.deepEqual([first.text, first.cached, second.cached, last.text], ['text of c0', false, true, 'text of c1']);
  assert.deepEqual(e.calls, ['info a/1', 'toc a/1', 'content a/1/0 next=a/1/1', 'content a/1/1 next=undefined']);
  s.close();
});
