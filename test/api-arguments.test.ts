// Wrong argument types at the public API are typed errors naming the method and the argument,
// with nothing written: never a TypeError, SyntaxError or engine error from inside, and never
// accepted silently (a blank book for `[]`, a string number added to a reading time).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LegadoStoreError } from 'legado-store';
import { InvalidArgumentError, MissingFieldError, ValueTypeError } from 'legado-store/errors';
import { book, newStore, raw } from './helpers/domain.js';

const invalid = (message: string) => (e: unknown) => e instanceof InvalidArgumentError && e.code === 'INVALID_ARGUMENT' && e.message === message;

test('bulk writes, lists and domain calls refuse wrong argument types with INVALID_ARGUMENT', () => {
  const s = newStore();
  s.books.save(book('b1'));
  const any = s as unknown as Record<string, Record<string, (...a: unknown[]) => unknown>> & {
    tables: Record<string, Record<string, (...a: unknown[]) => unknown>>;
  };
  assert.throws(() => any.tables.books!.insertMany!(null), invalid('books.insertMany: rows: expected an array (or another iterable) of row objects, got null'));
  assert.throws(
    () => any.tables.books!.upsertMany!(5),
    invalid('books.upsertMany: rows: expected an array (or another iterable) of row objects, got number 5'),
  );
  assert.throws(
    () => any.tables.books!.insertMany!('ab'),
    invalid('books.insertMany: rows: expected an array (or another iterable) of row objects, got string "ab"'),
  );
  assert.throws(
    () => any.chapters!.replaceToc!('b1', null),
    invalid('chapters.replaceToc: chapters: expected an array (or another iterable) of row objects, got null'),
  );
  assert.throws(
    () => any.readRecords!.addTime!('b1', NaN),
    invalid('readRecords.addTime: ms: expected a whole number of milliseconds, 0 or more, got non-integer number NaN'),
  );
  assert.throws(
    () => any.readRecords!.addTime!('b1', '5'),
    invalid('readRecords.addTime: ms: expected a whole number of milliseconds, 0 or more, got string "5"'),
  );
  assert.throws(
    () => any.readRecords!.addTime!('b1', -1),
    invalid('readRecords.addTime: ms: expected a whole number of milliseconds, 0 or more, got number -1'),
  );
  assert.throws(() => any.bookGroups!.delete!('x'), invalid('book groups: groupId: expected a group id (a bigint, or an integer number), got string "x"'));
  assert.throws(() => any.tables.books!.list!('name'), invalid('books.list: query: expected an object, or nothing, got string "name"'));
  assert.throws(() => any.tables.books!.count!(7), invalid('books.count: where: expected an object, or nothing, got number 7'));
  assert.throws(() => [...(any.tables.books!.iterate!([]) as Iterable<unknown>)], invalid('books.iterate: query: expected an object, or nothing, got array'));
  // Rows that are not objects, and a save without its key.
  assert.throws(
    () => any.tables.books!.insert!([]),
    (e: unknown) => e instanceof ValueTypeError && e.message === 'books.(row): expected an object, got array',
  );
  assert.throws(
    () => any.tables.books!.insertMany!([[]]),
    (e: unknown) => e instanceof ValueTypeError && /expected an object, got array/.test(e.message),
  );
  assert.throws(
    () => any.books!.save!({}),
    (e: unknown) => e instanceof MissingFieldError && e.message === 'books.bookUrl: required field is missing',
  );
  assert.throws(
    () => any.books!.save!(null),
    (e: unknown) => e instanceof ValueTypeError && e.message === 'books.(row): expected an object, got null',
  );
  // Nothing was written by any of them.
  assert.equal(raw(s, 'SELECT count(*) FROM books'), 1n);
  assert.equal(raw(s, "SELECT count(*) FROM books WHERE bookUrl = ''"), 0n);
  assert.equal(raw(s, 'SELECT count(*) FROM readRecord'), 0n);
  assert.equal(raw(s, 'SELECT count(*) FROM chapters'), 0n);
  // The right types still work.
  s.readRecords.addTime('b1', 5);
  assert.equal(raw(s, 'SELECT readTime FROM readRecord'), 5n);
  s.close();
});

test('a string longer than SQLite stores is INVALID_ARGUMENT naming the field; nothing written', () => {
  const s = newStore();
  let huge: string | undefined = 'é'.repeat(510_000_000); // 1.02 GB of UTF-8
  assert.throws(
    () => s.books.save(book('big', { intro: huge as string })),
    (e: unknown) =>
      e instanceof LegadoStoreError &&
      e.code === 'INVALID_ARGUMENT' &&
      e.message === 'books.intro: a value of 510000000 characters or bytes is longer than SQLite stores (at most 1,000,000,000 bytes); nothing was written',
  );
  huge = undefined;
  assert.equal(raw(s, 'SELECT count(*) FROM books'), 0n);
  s.close();
});
