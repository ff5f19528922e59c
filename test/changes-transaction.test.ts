// A transaction of typed writes is reported at its commit from the rows those writes changed,
// without reading the change counters; a failed savepoint or transaction inside makes the report
// read them instead. Checked from outside: every later write, typed or raw SQL, is still heard
// (a count that ran ahead of the TEMP counter, the triggers' own record, would hide the next one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from 'legado-store';
import { book, newStore } from './helpers/domain.js';

function heard(s: Store): string[][] {
  const calls: string[][] = [];
  s.onChange(['books', 'chapters'], (changed) => calls.push([...changed].sort()), {
    onError: (e) => {
      throw e;
    },
  });
  return calls;
}

/** The TEMP counter the triggers keep for a table (the store's record of changes, read as SQL). */
const counter = (s: Store, table: string): number => s.db.prepare('SELECT n FROM temp.legado_store_changed_tables WHERE tbl = ?').pluck().get(table) as number;

/** A store with books a and b, a listener on books and chapters, and the books counter at the start. */
function twoBooks(): { s: Store; calls: string[][]; start: number } {
  const s = newStore();
  s.tables.books.insertMany([book('a'), book('b')]);
  const calls = heard(s);
  return { s, calls, start: counter(s, 'books') };
}

test('typed writes in a transaction: one report at the commit, and later writes are all heard', () => {
  const { s, calls, start } = twoBooks();
  s.transaction(() => {
    s.books.updateProgress('a', { durChapterIndex: 1, durChapterPos: 1 });
    s.books.updateProgress('b', { durChapterIndex: 2, durChapterPos: 2 });
  });
  assert.deepEqual(calls, [['books']]);
  assert.equal(counter(s, 'books'), start + 2, 'each row moved the counter once');
  s.books.updateProgress('a', { durChapterIndex: 3, durChapterPos: 3 });
  s.db.prepare("UPDATE books SET durChapterPos = 9 WHERE bookUrl = 'b'").run();
  assert.deepEqual(calls, [['books'], ['books'], ['books']]);
  s.close();
});

test('a failed savepoint after typed writes: the commit reports what stayed, and later writes are all heard', () => {
  const { s, calls, start } = twoBooks();
  s.transaction(() => {
    s.books.updateProgress('a', { durChapterIndex: 1, durChapterPos: 1 });
    assert.throws(() =>
      s.transaction(() => {
        s.books.updateProgress('b', { durChapterIndex: 2, durChapterPos: 2 });
        throw new Error('undo b');
      }),
    );
  });
  assert.deepEqual(calls, [['books']]);
  assert.equal(counter(s, 'books'), start + 1, 'the savepoint took its row back');
  // Had the report counted b's undone row, the next write would look already seen.
  s.books.updateProgress('b', { durChapterIndex: 4, durChapterPos: 4 });
  s.db.prepare("UPDATE books SET durChapterPos = 9 WHERE bookUrl = 'a'").run();
  assert.deepEqual(calls, [['books'], ['books'], ['books']]);
  // A transaction rolled back whole: nothing heard, and the next write is.
  assert.throws(() =>
    s.transaction(() => {
      s.books.updateProgress('a', { durChapterIndex: 5, durChapterPos: 5 });
      throw new Error('undo all');
    }),
  );
  assert.equal(calls.length, 3);
  s.db.prepare("UPDATE books SET durChapterPos = 10 WHERE bookUrl = 'a'").run();
  assert.deepEqual(calls.length, 4);
  s.close();
});
