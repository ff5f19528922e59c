// Integer columns hold what the app can read: a Kotlin Int's 32 bits, a Long within ±(2^53-1)
// (what a JS number holds exactly, so each value written reads back as it was). Checked against
// the app's entity declarations, spelled out here, and against the file with raw SQL.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ValueTypeError } from 'legado-store/errors';
import { schemas, NEWEST_VERSION } from '../src/schema/index.js';
import { book, newStore, raw } from './helpers/domain.js';

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

test('Long fields take safe integers and bigints within ±(2^53-1); past that a write is refused, so nothing reads back rounded', () => {
  const s = newStore();
  const max = Number.MAX_SAFE_INTEGER;
  s.books.save(book('b1', { durChapterTime: max, latestChapterTime: -max }));
  assert.equal(raw(s, 'SELECT durChapterTime FROM books'), 9007199254740991n);
  assert.equal(s.books.get('b1')!.durChapterTime, max);
  s.books.save({ bookUrl: 'b1', lastCheckTime: 5n as unknown as number });
  assert.equal(raw(s, 'SELECT lastCheckTime FROM books'), 5n);
  for (const v of [2 ** 53, -(2 ** 53), 2 ** 60, 2n ** 53n, 2n ** 62n]) {
    assert.throws(
      () => s.books.save({ bookUrl: 'b1', durChapterTime: v as number }),
      (e: unknown) => e instanceof ValueTypeError && e.fields[0] === 'durChapterTime' && /expected an integer within ±\(2\^53-1\)/.test(e.message),
    );
  }
  assert.equal(raw(s, 'SELECT durChapterTime FROM books'), 9007199254740991n);
  s.close();
});
