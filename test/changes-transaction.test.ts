// A transaction of typed writes is reported at its commit from what those writes changed, without
// reading the change counters: where the engine has flags their triggers keep quiet and the
// tracker keeps the account (else the rows they changed); a failed savepoint or transaction
// inside drops its part, and raw SQL that may roll back to a savepoint of its own finds the
// account counted before it runs. Checked from outside: what the listener hears, the TEMP
// counters read as SQL, and every later write, typed or raw SQL, still heard (a count that ran
// ahead of the TEMP counter, the triggers' own record, would hide the next one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from 'legado-store';
import { book, chapter, newStore } from './helpers/domain.js';

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

const hasFlags = (s: Store): boolean => typeof s.db.defineFlag === 'function';

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
  assert.equal(counter(s, 'books'), start + (hasFlags(s) ? 0 : 2), 'each row moved the counter once, unless its trigger kept quiet');
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
  // With flags: a's quiet write counted when the savepoint began (settled), b's dropped with it.
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

test('a nested store.transaction that throws and is caught: its tables are not reported, the outer ones are', () => {
  const { s, calls } = twoBooks();
  s.transaction(() => {
    s.books.updateProgress('a', { durChapterIndex: 1, durChapterPos: 1 });
    assert.throws(() =>
      s.transaction(() => {
        s.tables.chapters.insert(chapter('a', 0));
        throw new Error('undo the chapter');
      }),
    );
  });
  assert.deepEqual(calls, [['books']]);
  assert.equal(s.tables.chapters.count(), 0);
  // Only the nested one wrote: nothing is heard at all.
  s.transaction(() => {
    try {
      s.transaction(() => {
        s.books.updateProgress('b', { durChapterIndex: 2, durChapterPos: 2 });
        throw new Error('undo b');
      });
    } catch {
      // caught inside the outer transaction, which commits
    }
  });
  assert.deepEqual(calls, [['books']]);
  // The same through the connection's own transaction function, nested in the store's.
  const inner = s.db.transaction(() => {
    s.tables.chapters.insert(chapter('b', 0));
    throw new Error('undo');
  });
  s.transaction(() => {
    s.books.updateProgress('a', { durChapterIndex: 3, durChapterPos: 3 });
    assert.throws(() => inner());
  });
  assert.deepEqual(calls, [['books'], ['books']]);
  assert.equal(s.tables.chapters.count(), 0);
  s.close();
});

test('raw SQL in a transaction: a savepoint of its own rolled back takes back only the typed writes after it', () => {
  const { s, calls, start } = twoBooks();
  const chapters = counter(s, 'chapters');
  s.transaction(() => {
    s.books.updateProgress('a', { durChapterIndex: 1, durChapterPos: 1 });
    s.db.exec('SAVEPOINT mine');
    s.tables.chapters.insert(chapter('a', 0));
    s.db.exec('ROLLBACK TO mine');
    s.db.exec('RELEASE mine');
  });
  assert.deepEqual(calls, [['books']]);
  assert.equal(s.tables.chapters.count(), 0);
  assert.equal(counter(s, 'books'), start + 1, 'the quiet write before the savepoint counted when raw SQL ran');
  assert.equal(counter(s, 'chapters'), chapters, 'the one inside it rolled back with it');
  // Raw SQL writing beside typed writes: one report naming both tables.
  s.transaction(() => {
    s.books.updateProgress('b', { durChapterIndex: 2, durChapterPos: 2 });
    s.db.prepare("INSERT INTO chapters (url, title, isVolume, baseUrl, bookUrl, `index`, isVip, isPay) VALUES ('u', 't', 0, '', 'b', 0, 0, 0)").run();
  });
  assert.deepEqual(calls, [['books'], ['books', 'chapters']]);
  s.close();
});

test('a transaction begun and ended by raw SQL: typed writes in it are heard at COMMIT, not at ROLLBACK', () => {
  const { s, calls } = twoBooks();
  s.db.exec('BEGIN');
  s.books.updateProgress('a', { durChapterIndex: 1, durChapterPos: 1 });
  s.db.exec('ROLLBACK');
  assert.deepEqual(calls, []);
  assert.equal(s.books.get('a')?.durChapterPos, 0);
  s.db.exec('BEGIN');
  s.books.updateProgress('a', { durChapterIndex: 2, durChapterPos: 2 });
  assert.deepEqual(calls, [], 'nothing before the commit');
  s.db.exec('COMMIT');
  assert.deepEqual(calls, [['books']]);
  s.close();
});

test('a cascade in a transaction reaches another observed table: both heard at the commit, neither after a rollback', () => {
  const { s, calls } = twoBooks();
  s.tables.chapters.insertMany([chapter('a', 0), chapter('a', 1)]);
  calls.length = 0;
  const chapters = counter(s, 'chapters');
  assert.throws(() =>
    s.transaction(() => {
      s.tables.books.delete('a');
      throw new Error('undo');
    }),
  );
  assert.deepEqual(calls, []);
  assert.equal(s.tables.chapters.count(), 2);
  s.transaction(() => {
    s.books.updateProgress('b', { durChapterIndex: 1, durChapterPos: 1 });
    s.tables.books.delete('a');
  });
  assert.deepEqual(calls, [['books', 'chapters']]);
  assert.equal(counter(s, 'chapters'), chapters + 2, 'the cascade fired the chapters trigger per row');
  s.close();
});
