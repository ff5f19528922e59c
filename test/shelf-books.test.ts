// Web books on the shelf as the app writes them, read back with raw SQL. The fields are spelled
// out from the app's code: SearchBook.toBook and Book's defaults, WebBook.getBookInfoAwait
// (type bits from the source), BookChapterList (durChapterTitle, totalChapterNum, lastCheckCount
// and latestChapterTime when the TOC grew, lastCheckTime, latestChapterTitle),
// BookInfoViewModel.addToBookshelf (order = min - 1, progress copied from a book of the same
// name and author) and MainViewModel.updateToc (updateError cleared, chapters replaced).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DuplicateKeyError } from 'legado-store/errors';
import { BookExistsError, shelveWebBook, storeWebToc, UnknownWebBookError } from '../src/sources/shelf/index.js';
import type { BookSource, WebBook, WebChapter } from '../src/sources/engine/types.js';
import { book, chapter, FakeClock, newStore, newStore49, source, T0 } from './helpers/domain.js';

const SRC = 'https://site.example#img';
const bookSource: BookSource = { bookSourceUrl: SRC, bookSourceName: '图站', bookSourceType: 2, customOrder: 7 };

/** What the info step found, stored as it is. */
const INFO = {
  bookUrl: 'https://site.example/book/1',
  tocUrl: 'https://site.example/book/1/toc',
  origin: SRC,
  originName: '图站',
  name: '三体',
  author: '刘慈欣',
  kind: '科幻,长篇',
  coverUrl: 'https://site.example/c/1.jpg',
  intro: '简介',
  wordCount: '88万字',
};

function web(fields: Partial<WebBook> = {}): WebBook {
  return {
    ...INFO,
    latestChapterTitle: '从详情页',
    type: 8,
    variable: '{"a":"1"}',
    ...fields,
  };
}

function toc(n: number, bookUrl = 'https://site.example/book/1', prefix = ''): WebChapter[] {
  return Array.from({ length: n }, (_, i) => ({
    url: `${bookUrl}/${i}.html`,
    title: `${prefix}第${i + 1}章${i === n - 1 ? '\r\n终' : ''}`,
    isVolume: i === 0,
    baseUrl: `${bookUrl}/toc`,
    bookUrl,
    index: i,
    isVip: i === n - 1,
    isPay: false,
    tag: i === 1 ? '2024-01-01' : null,
    variable: null,
  }));
}

function storeWithSource(clock: FakeClock) {
  const s = newStore({ clock: clock.read });
  s.tables.book_sources.insert(source(SRC, { bookSourceName: '图站', bookSourceType: 2, customOrder: 7 }));
  return s;
}

const BOOK_FIELDS =
  'bookUrl, tocUrl, origin, originName, name, author, kind, coverUrl, intro, wordCount, type, `group`, latestChapterTitle, latestChapterTime, lastCheckTime, lastCheckCount, totalChapterNum, durChapterTitle, durChapterIndex, durChapterPos, durChapterTime, canUpdate, `order`, originOrder, variable, readConfig, customCoverUrl';

test('a new web book: the books row and its chapters as add-to-shelf writes them', () => {
  const clock = new FakeClock();
  const s = storeWithSource(clock);
  s.books.save(book('other', { order: -3, name: 'x' }));
  clock.advance(1000);
  const r = shelveWebBook(s, web(), toc(3), bookSource, { originOrder: 9 });
  assert.deepEqual(r, { action: 'added', bookUrl: 'https://site.example/book/1', chapters: 3 });
  const now = T0 + 1000;
  assert.deepEqual(s.db.prepare(`SELECT ${BOOK_FIELDS} FROM books WHERE bookUrl = ?`).get('https://site.example/book/1'), {
    ...INFO,
    // An image source (bookSourceType 2): the text bit goes, the image bit (64) comes.
    type: 64,
    group: 0,
    // The TOC's last chapter, line breaks dropped (getDisplayTitle), not the detail page's.
    latestChapterTitle: '第3章终',
    latestChapterTime: now,
    lastCheckTime: now,
    // 0 chapters before, 3 now.
    lastCheckCount: 3,
    totalChapterNum: 3,
    durChapterTitle: '第1章',
    durChapterIndex: 0,
    durChapterPos: 0,
    durChapterTime: now,
    canUpdate: 1,
    // One below the shelf's lowest.
    order: -4,
    originOrder: 9,
    variable: '{"a":"1"}',
    readConfig: null,
    customCoverUrl: null,
  });
  assert.deepEqual(
    s.db
      .prepare('SELECT url, title, isVolume, baseUrl, bookUrl, `index`, isVip, isPay, resourceUrl, tag, start, end, variable FROM chapters ORDER BY `index`')
      .all(),
    toc(3).map((c, i) => ({
      url: c.url,
      title: c.title,
      isVolume: i === 0 ? 1 : 0,
      baseUrl: c.baseUrl,
      bookUrl: c.bookUrl,
      index: i,
      isVip: i === 2 ? 1 : 0,
      isPay: 0,
      resourceUrl: null,
      tag: c.tag,
      start: null,
      end: null,
      variable: null,
    })),
  );
  s.close();
});

test('a book on the shelf is refused without force, and nothing is written', () => {
  const clock = new FakeClock();
  const s = storeWithSource(clock);
  shelveWebBook(s, web(), toc(3), bookSource);
  const before = JSON.stringify([s.db.prepare('SELECT * FROM books').all(), s.db.prepare('SELECT * FROM chapters').all()]);
  assert.throws(
    () => shelveWebBook(s, web({ intro: 'new' }), toc(5), bookSource),
    (e: unknown) => e instanceof BookExistsError && e.code === 'BOOK_EXISTS',
  );
  // Another bookUrl with the same name and author (another source's copy) is on the shelf too.
  assert.throws(
    () => shelveWebBook(s, web({ bookUrl: 'https://mirror.example/9' }), toc(2, 'https://mirror.example/9'), bookSource),
    /has the name and author of "https:\/\/site.example\/book\/1"/,
  );
  assert.equal(JSON.stringify([s.db.prepare('SELECT * FROM books').all(), s.db.prepare('SELECT * FROM chapters').all()]), before);
  s.close();
});

test('force on the same bookUrl refreshes it: progress, group, order and own fields kept, TOC counted against the old total', () => {
  const clock = new FakeClock();
  const s = storeWithSource(clock);
  shelveWebBook(s, web(), toc(3), bookSource);
  s.db
    .prepare(
      "UPDATE books SET durChapterIndex = 1, durChapterPos = 50, durChapterTime = 123, `group` = 4, `order` = 17, customCoverUrl = 'mine', type = type | 16 WHERE bookUrl = ?",
    )
    .run('https://site.example/book/1');
  clock.advance(5000);
  const r = shelveWebBook(s, web({ intro: '新简介', name: '三体' }), toc(5, undefined, '新'), bookSource, { force: true });
  assert.equal(r.action, 'refreshed');
  const row = s.db
    .prepare(
      'SELECT intro, durChapterIndex, durChapterPos, durChapterTime, durChapterTitle, `group`, `order`, customCoverUrl, totalChapterNum, lastCheckCount, latestChapterTime, lastCheckTime, latestChapterTitle, type FROM books',
    )
    .get();
  assert.deepEqual(row, {
    intro: '新简介',
    durChapterIndex: 1,
    durChapterPos: 50,
    durChapterTime: 123,
    // The title of the chapter at the kept index, in the new list.
    durChapterTitle: '新第2章',
    group: 4,
    order: 17,
    customCoverUrl: 'mine',
    totalChapterNum: 5,
    lastCheckCount: 2,
    latestChapterTime: T0 + 5000,
    lastCheckTime: T0 + 5000,
    latestChapterTitle: '新第5章终',
    // The info step keeps bits other than the kind (the failed-update mark stays on this path).
    type: 64 | 16,
  });
  assert.deepEqual(
    s.db.prepare('SELECT title FROM chapters ORDER BY `index`').pluck().all(),
    toc(5, undefined, '新').map((c) => c.title),
  );
  s.close();
});

test('force on another book of the same name and author: it gives way, the new book takes its reading position', () => {
  const clock = new FakeClock();
  const s = storeWithSource(clock);
  s.books.save(
    book('https://old.example/1', { name: '三体', author: '刘慈欣', origin: SRC, durChapterIndex: 2, durChapterPos: 9, durChapterTitle: '旧第3章' }),
  );
  s.chapters.replaceToc('https://old.example/1', [chapter('https://old.example/1', 0)]);
  const r = shelveWebBook(s, web(), toc(4), bookSource, { force: true });
  assert.deepEqual(r, { action: 'replaced', bookUrl: 'https://site.example/book/1', chapters: 4, replaced: 'https://old.example/1' });
  assert.deepEqual(s.db.prepare('SELECT bookUrl, durChapterIndex, durChapterPos, durChapterTitle FROM books').all(), [
    { bookUrl: 'https://site.example/book/1', durChapterIndex: 2, durChapterPos: 9, durChapterTitle: '旧第3章' },
  ]);
  assert.deepEqual(s.db.prepare('SELECT DISTINCT bookUrl FROM chapters').pluck().all(), ['https://site.example/book/1']);
  s.close();
});

test('a TOC refresh: the stored total decides the new-chapter count, updateError is cleared, the old chapters go', () => {
  const clock = new FakeClock();
  const s = storeWithSource(clock);
  shelveWebBook(s, web(), toc(4), bookSource);
  s.db.prepare('UPDATE books SET durChapterIndex = 9, lastCheckCount = 4, type = type | 16').run();
  clock.advance(60_000);
  // The same number of chapters: nothing new, so lastCheckCount and latestChapterTime stay.
  storeWebToc(s, 'https://site.example/book/1', undefined, toc(4, undefined, 'R'), bookSource);
  assert.deepEqual(s.db.prepare('SELECT lastCheckCount, latestChapterTime, lastCheckTime, totalChapterNum, durChapterTitle, type, intro FROM books').get(), {
    lastCheckCount: 4,
    latestChapterTime: T0,
    lastCheckTime: T0 + 60_000,
    totalChapterNum: 4,
    // The reading index is past the end: the last chapter's title.
    durChapterTitle: 'R第4章终',
    type: 64,
    intro: '简介',
  });
  assert.deepEqual(s.db.prepare('SELECT title FROM chapters ORDER BY `index`').pluck().all(), ['R第1章', 'R第2章', 'R第3章', 'R第4章\r\n终']);
  assert.throws(() => storeWebToc(s, 'https://nowhere.example/', undefined, toc(1), bookSource), UnknownWebBookError);
  s.close();
});

test('a failed write stores nothing: a TOC with a repeated chapter URL leaves book and chapters as they were', () => {
  const clock = new FakeClock();
  const s = storeWithSource(clock);
  shelveWebBook(s, web(), toc(2), bookSource);
  const before = JSON.stringify([s.db.prepare('SELECT * FROM books').all(), s.db.prepare('SELECT * FROM chapters').all()]);
  const bad = toc(3);
  bad[2] = { ...bad[2]!, url: bad[0]!.url };
  clock.advance(10);
  assert.throws(() => storeWebToc(s, 'https://site.example/book/1', web({ intro: 'x' }), bad, bookSource), DuplicateKeyError);
  assert.throws(() => shelveWebBook(s, web({ bookUrl: 'https://site.example/2', name: 'n' }), bad, bookSource), DuplicateKeyError);
  assert.equal(JSON.stringify([s.db.prepare('SELECT * FROM books').all(), s.db.prepare('SELECT * FROM chapters').all()]), before);
  s.close();
});

test('a schema-49 store keeps the source type code in books.type', () => {
  const s = newStore49();
  s.tables.book_sources.insert(source(SRC, { bookSourceType: 2 }) as never);
  shelveWebBook(s as never, web(), toc(1), bookSource);
  assert.equal(s.db.prepare('SELECT type FROM books').pluck().get(), 2);
  s.close();
});
