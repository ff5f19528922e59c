// Integer columns hold what the app can read: a Kotlin Int's 32 bits, a Long's 64 (a number
// within ±(2^53-1), a bigint past that), and every value reads back as it is in the file. Checked against
// the app's entity declarations, spelled out here, and against the file with raw SQL.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ValueTypeError } from 'legado-store/errors';
import { exportBackup, importBackup } from 'legado-store';
import { strFromU8, unzipSync } from 'fflate';
import { schemas, NEWEST_VERSION } from '../src/schema/index.js';
import { book, chapter, newStore, raw } from './helpers/domain.js';

/** A Long field's type is number (every value the app writes is one); a bigint is taken too, for the 64 bits past 2^53. */
const long = (v: bigint): number => v as unknown as number;

/** The INTEGER fields the app declares `Int` (io.legado.app.data.entities, main line at 75); every other number column is a `Long`. */
const KOTLIN_INT = [
  'books.type',
  'books.lastCheckCount',
  'books.totalChapterNum',
  'books.durChapterIndex',
  'books.durChapterPos',
  'books.order',
  'books.originOrder',
  'book_groups.order',
  'book_groups.bookSort',
  'book_sources.bookSourceType',
  'book_sources.customOrder',
  'book_sources.weight',
  'chapters.index',
  'replace_rules.order',
  'searchBooks.type',
  'searchBooks.originOrder',
  'searchBooks.chapterWordCount',
  'searchBooks.respondTime',
  'search_keywords.usage',
  'rssSources.articleStyle',
  'rssSources.customOrder',
  'bookmarks.chapterIndex',
  'bookmarks.chapterPos',
  'txtTocRules.serialNumber',
  'ruleSubs.type',
  'ruleSubs.customOrder',
  'keyboardAssists.type',
  'keyboardAssists.serialNo',
  'dictRules.sortNumber',
  'servers.sortNumber',
].sort();

test("the schema marks exactly the app's Int fields as 32-bit", () => {
  const schema = schemas[NEWEST_VERSION];
  const int32 = schema.tables.flatMap((t) => t.columns.filter((c) => c.int32).map((c) => `${t.name}.${c.field}`)).sort();
  assert.deepEqual(int32, KOTLIN_INT);
  for (const t of schema.tables) for (const c of t.columns) if (c.int32) assert.equal(c.js, 'number', `${t.name}.${c.field}`);
});

test('positions outside an Int are refused with WRONG_TYPE, in every write; the row is unchanged', () => {
  const s = newStore();
  s.books.save(book('b1', { durChapterPos: 7 }));
  const refused = (field: string, value: unknown) => (e: unknown) =>
    e instanceof ValueTypeError &&
    e.code === 'WRONG_TYPE' &&
    e.table === 'books' &&
    e.fields[0] === field &&
    e.value === value &&
    e.message.endsWith(
      `books.${field}: expected a 32-bit integer (the app's Int: -2147483648 to 2147483647), got ${typeof value} ${value}${typeof value === 'bigint' ? 'n' : ''}`,
    );
  for (const v of [2147483648, -2147483649, 2 ** 53 - 1, 2147483648n]) {
    assert.throws(() => s.books.updateProgress('b1', { durChapterIndex: 1, durChapterPos: v as number }), refused('durChapterPos', v));
    assert.throws(() => s.books.save({ bookUrl: 'b1', durChapterPos: v as number }), refused('durChapterPos', v));
    assert.throws(() => s.books.save(book('b2', { durChapterIndex: v as number })), refused('durChapterIndex', v));
    assert.throws(() => s.tables.books.upsert(book('b1', { durChapterPos: v as number })), refused('durChapterPos', v));
    assert.throws(() => s.tables.books.insertMany([book('b3'), book('b4', { durChapterPos: v as number })]), refused('durChapterPos', v));
  }
  assert.equal(raw(s, 'SELECT durChapterPos FROM books WHERE bookUrl = ?', 'b1'), 7n);
  assert.equal(raw(s, 'SELECT count(*) FROM books'), 1n);
  // The ends of the range are kept as they are.
  s.books.updateProgress('b1', { durChapterIndex: -2147483648, durChapterPos: 2147483647 });
  assert.equal(raw(s, 'SELECT durChapterPos FROM books WHERE bookUrl = ?', 'b1'), 2147483647n);
  assert.equal(raw(s, 'SELECT durChapterIndex FROM books WHERE bookUrl = ?', 'b1'), -2147483648n);
  s.close();
});

test('Long fields take safe integers, and bigints within 64 bits; a number past ±(2^53-1) (already rounded by JavaScript) or a bigint past 64 bits is refused', () => {
  const s = newStore();
  const max = Number.MAX_SAFE_INTEGER;
  s.books.save(book('b1', { durChapterTime: max, latestChapterTime: -max }));
  assert.equal(raw(s, 'SELECT durChapterTime FROM books'), 9007199254740991n);
  assert.equal(s.books.get('b1')!.durChapterTime, max);
  s.books.save({ bookUrl: 'b1', lastCheckTime: long(5n) });
  assert.equal(raw(s, 'SELECT lastCheckTime FROM books'), 5n);
  // The app's Long holds all 64 bits: a bigint is stored as it is, at both ends.
  s.books.save({ bookUrl: 'b1', durChapterTime: long(2n ** 63n - 1n), latestChapterTime: long(-(2n ** 63n)) });
  assert.equal(raw(s, 'SELECT durChapterTime FROM books'), 9223372036854775807n);
  assert.equal(raw(s, 'SELECT latestChapterTime FROM books'), -9223372036854775808n);
  for (const v of [2 ** 53, -(2 ** 53), 2 ** 60, 2n ** 63n, -(2n ** 63n) - 1n]) {
    assert.throws(
      () => s.books.save({ bookUrl: 'b1', durChapterTime: v as number }),
      (e: unknown) =>
        e instanceof ValueTypeError &&
        e.fields[0] === 'durChapterTime' &&
        e.message.includes("expected an integer within ±(2^53-1), or a bigint within 64 bits (the app's Long)"),
      String(v),
    );
  }
  assert.equal(raw(s, 'SELECT durChapterTime FROM books'), 9223372036854775807n);
  s.close();
});

// 2^60 + 1: as a double it would read 1152921504606846976.
const BIG = 1152921504606846977n;

test('a Long past 2^53 written by another program reads back exactly (a bigint) through every typed read; its neighbours stay numbers', () => {
  const s = newStore();
  s.tables.books.insertMany(['a', 'b', 'c', 'd'].map((u, i) => book(u, { order: i, durChapterTime: 1000 + i })));
  // Written with SQL literals, as a tool other than this store would write them.
  s.db.exec(`UPDATE books SET durChapterTime = ${BIG} WHERE bookUrl = 'b'`);
  s.db.exec(`UPDATE books SET latestChapterTime = -${BIG} WHERE bookUrl = 'c'`);
  s.db.exec(`UPDATE books SET lastCheckTime = 1e20 WHERE bookUrl = 'd'`); // a REAL: a number, as stored
  const times = (rows: readonly { bookUrl: string; durChapterTime: unknown; latestChapterTime: unknown }[]) =>
    rows.map((r) => [r.bookUrl, r.durChapterTime, r.latestChapterTime]);
  const expected = [
    ['a', 1000, 0],
    ['b', BIG, 0],
    ['c', 1002, -BIG],
    ['d', 1003, 0],
  ];
  assert.deepEqual(times(s.tables.books.list({ orderBy: 'order' })), expected, 'list');
  assert.deepEqual(times([...s.tables.books.iterate({ orderBy: 'order' })]), expected, 'iterate');
  assert.deepEqual(times(s.tables.books.select('ORDER BY `order`')), expected, 'select');
  assert.deepEqual(times(['a', 'b', 'c', 'd'].map((u) => s.tables.books.get(u)!)), expected, 'get');
  assert.deepEqual(times(['a', 'b', 'c', 'd'].map((u) => s.tables.books.finder(['bookUrl']).get(u)!)), expected, 'finder');
  assert.equal(s.books.get('b')!.durChapterTime as unknown, BIG, 'the domain read');
  assert.equal(s.tables.books.get('d')!.lastCheckTime, 1e20);
  assert.equal(typeof s.tables.books.get('a')!.durChapterTime, 'number');
  // Read and written back through the typed API: the same 64 bits in the file.
  s.tables.books.upsert(s.tables.books.get('b')!);
  s.tables.books.upsert(s.tables.books.get('c')!);
  assert.equal(raw(s, "SELECT durChapterTime FROM books WHERE bookUrl = 'b'"), BIG);
  assert.equal(raw(s, "SELECT latestChapterTime FROM books WHERE bookUrl = 'c'"), -BIG);
  s.close();
});

test('iterate meets a Long past 2^53 half-way: every row once, in order, the rest read exactly', () => {
  const s = newStore();
  s.books.save(book('x'));
  s.tables.chapters.insertMany(Array.from({ length: 50 }, (_, i) => chapter('x', i, { end: i })));
  s.db.exec(`UPDATE chapters SET "end" = ${BIG} WHERE "index" = 20`);
  s.db.exec(`UPDATE chapters SET "end" = ${BIG + 2n} WHERE "index" = 40`);
  const got = [...s.tables.chapters.iterate({ orderBy: 'index' })].map((c) => [c.index, c.end]);
  assert.deepEqual(
    got,
    Array.from({ length: 50 }, (_, i) => [i, i === 20 ? BIG : i === 40 ? BIG + 2n : i]),
  );
  s.close();
});

test('a nullable Long reads back as it is in the file: null, a number, text, and past 2^53 exactly, by every typed read', () => {
  const s = newStore();
  s.books.save(book('x'));
  s.tables.chapters.insertMany(Array.from({ length: 4 }, (_, i) => chapter('x', i, { start: null, end: null })));
  // Written with SQL, as another program would: a Long past 2^53, -(2^53-1), and text SQLite keeps as text.
  s.db.exec(`UPDATE chapters SET start = ${BIG}, "end" = -9007199254740991 WHERE "index" = 1`);
  s.db.exec(`UPDATE chapters SET start = 7, "end" = -${BIG} WHERE "index" = 2`);
  s.db.exec(`UPDATE chapters SET start = 'x7' WHERE "index" = 3`);
  assert.deepEqual(raw(s, 'SELECT typeof(start) FROM chapters WHERE "index" = 3'), 'text');
  const expected = [
    [0, null, null],
    [1, BIG, -9007199254740991],
    [2, 7, -BIG],
    [3, 'x7', null],
  ];
  const pick = (c: { index: number; start: unknown; end: unknown }) => [c.index, c.start, c.end];
  assert.deepEqual(
    [0, 1, 2, 3].map((i) => pick(s.chapters.get('x', i)!)),
    expected,
    'chapters.get (the finder)',
  );
  assert.deepEqual(s.tables.chapters.list({ orderBy: 'index' }).map(pick), expected, 'list');
  s.close();
});

test('a backup of a store holding a Long past 2^53 writes its exact digits, and importing it stores the same 64 bits', async () => {
  const s = newStore();
  s.books.save(book('https://b/1'));
  s.db.exec(`UPDATE books SET durChapterTime = ${BIG}`);
  const zip = await exportBackup(s);
  const text = strFromU8(unzipSync(zip)['bookshelf.json']!);
  assert.match(text, /"durChapterTime": 1152921504606846977,/);
  // Imported again into the emptied store (one store: the suite also runs on a Durable Object).
  s.db.exec('DELETE FROM books');
  const report = await importBackup(s, zip);
  assert.equal(raw(s, 'SELECT durChapterTime FROM books'), BIG, JSON.stringify(report));
  s.close();
});
