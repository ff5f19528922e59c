// Change triggers that keep quiet for the store's own single-row writes (store/changes.ts), where
// the engine can define a flag function (Connection.defineFlag: SQLite WASM). Run on every engine:
// where the engine has no flags, the triggers count every row as they always did. Each test reads
// the trigger's counters from the file's TEMP table, not only what the listener heard.
import { createRequire } from 'node:module';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UniqueViolationError, type Store } from 'legado-store';
import { DuplicateKeyError } from 'legado-store/errors';
import { book, chapter, newStore } from './helpers/domain.js';

const LOG = 'temp.legado_store_changed_tables';

function recorder(store: Store, tables: Parameters<Store['onChange']>[0]) {
  const calls: string[][] = [];
  store.onChange(tables, (changed) => calls.push([...changed].sort()), {
    onError: (e) => {
      throw e;
    },
  });
  return calls;
}

/** What the triggers counted for `table` so far (read past the tracker, on the connection). */
const counted = (s: Store, table: string): number => s.db.prepare(`SELECT n FROM ${LOG} WHERE tbl = ?`).pluck().get(table) as number;
const hasFlags = (s: Store): boolean => typeof s.db.defineFlag === 'function';

test('typed autocommit writes notify once each; where the engine has flags, their own table’s triggers count nothing', () => {
  const s = newStore();
  const calls = recorder(s, ['books']);
  const before = counted(s, 'books');
  const books = s.tables.books;
  books.insert(book('b1'));
  books.upsert(book('b1', { durChapterPos: 2 }));
  books.update('b1', { durChapterPos: 3 });
  s.books.updateProgress('b1', { durChapterIndex: 1, durChapterPos: 4, durChapterTime: 5 });
  books.insert(book('b2'));
  books.delete('b2');
  books.insert(book('b3'));
  assert.equal(books.deleteWhere('WHERE bookUrl = ?', ['b3']), 1);
  assert.deepEqual(
    calls,
    Array.from({ length: 8 }, () => ['books']),
  );
  assert.equal(counted(s, 'books') - before, hasFlags(s) ? 0 : 8, 'one trigger firing per row, unless quiet');
  if (hasFlags(s)) {
    const sql = s.db.prepare("SELECT sql FROM sqlite_temp_master WHERE type = 'trigger' AND tbl_name = 'books'").pluck().all() as string[];
    assert.equal(sql.length, 3);
    for (const t of sql) assert.match(t, /WHEN legado_store_counts_\d+\(\) BEGIN/);
  }
  s.close();
});

test('raw SQL between typed writes is still counted by the triggers and notified', () => {
  const s = newStore();
  const calls = recorder(s, ['books']);
  s.tables.books.insert(book('b1'));
  const before = counted(s, 'books');
  s.db.prepare("UPDATE books SET durChapterPos = 9 WHERE bookUrl = 'b1'").run();
  s.db.exec("UPDATE books SET durChapterPos = 10 WHERE bookUrl = 'b1'");
  assert.equal(counted(s, 'books') - before, 2);
  s.tables.books.update('b1', { durChapterPos: 11 });
  assert.equal(counted(s, 'books') - before, hasFlags(s) ? 2 : 3);
  assert.deepEqual(calls, [['books'], ['books'], ['books'], ['books']]);
  s.close();
});

test('a typed write that fails notifies nothing and leaves the triggers counting for the next raw write', () => {
  const s = newStore();
  s.tables.books.insert(book('b1'));
  s.tables.books.insert(book('b2'));
  const calls = recorder(s, ['books']);
  const before = counted(s, 'books');
  assert.throws(() => s.tables.books.insert(book('b1')), DuplicateKeyError);
  // SQLite refuses it (the unique (name, author) index), in the statement itself.
  assert.throws(() => s.tables.books.update('b2', { name: 'b1' }), UniqueViolationError);
  assert.throws(() => s.tables.books.delete(undefined as unknown as string));
  assert.deepEqual(calls, []);
  s.db.prepare("UPDATE books SET durChapterPos = 9 WHERE bookUrl = 'b1'").run();
  assert.equal(counted(s, 'books') - before, 1, 'the raw write after the failures is counted');
  assert.deepEqual(calls, [['books']]);
  s.close();
});

test('a typed delete that cascades into another observed table is counted there and notified with it', () => {
  const s = newStore();
  s.tables.books.insert(book('b1'));
  s.tables.chapters.insertMany([chapter('b1', 0), chapter('b1', 1)]);
  const calls = recorder(s, ['books', 'chapters']);
  const chaptersBefore = counted(s, 'chapters');
  s.tables.books.delete('b1');
  assert.equal(s.tables.chapters.count(), 0);
  assert.equal(counted(s, 'chapters') - chaptersBefore, 2, 'the cascade fired the chapters trigger per row');
  assert.deepEqual(calls, [['books', 'chapters']]);
  s.close();
});

test('typed writes in a transaction keep their triggers quiet too (where flags exist); a rollback notifies nothing', () => {
  const s = newStore();
  const calls = recorder(s, ['books']);
  const before = counted(s, 'books');
  s.transaction(() => {
    s.tables.books.insert(book('b1'));
    s.tables.books.update('b1', { durChapterPos: 1 });
    assert.equal(counted(s, 'books') - before, hasFlags(s) ? 0 : 2, 'without flags every row is counted');
  });
  assert.deepEqual(calls, [['books']]);
  assert.throws(() =>
    s.transaction(() => {
      s.tables.books.update('b1', { durChapterPos: 2 });
      throw new Error('undo');
    }),
  );
  assert.equal(counted(s, 'books') - before, hasFlags(s) ? 0 : 2, 'the rolled-back update left no count');
  assert.deepEqual(calls, [['books']]);
  assert.equal(s.tables.books.get('b1')?.durChapterPos, 1);
  s.close();
});

test('a listener’s own typed write is notified after the current round, and quiet ends with each write', () => {
  const s = newStore();
  s.tables.books.insert(book('b1'));
  const heard: string[] = [];
  let writes = 0;
  s.onChange(['books'], () => {
    heard.push(`call ${heard.length}`);
    if (writes++ === 0) s.tables.books.update('b1', { durChapterPos: 7 });
  });
  const before = counted(s, 'books');
  s.tables.books.update('b1', { durChapterPos: 6 });
  assert.deepEqual(heard, ['call 0', 'call 1']);
  s.db.exec("UPDATE books SET durChapterPos = 8 WHERE bookUrl = 'b1'");
  assert.equal(counted(s, 'books') - before, hasFlags(s) ? 1 : 3);
  assert.deepEqual(heard, ['call 0', 'call 1', 'call 2']);
  s.close();
});

test('better-sqlite3 and node:sqlite (where it defines SQL functions) keep the triggers quiet; bun:sqlite cannot', () => {
  const s = newStore();
  const engine = s.db.driver;
  // node:sqlite has DatabaseSync.prototype.function from Node 22.13 and 23.5.
  const nodeFunctions =
    engine === 'node:sqlite' &&
    typeof (createRequire(import.meta.url)('node:sqlite') as { DatabaseSync: { prototype: { function?: unknown } } }).DatabaseSync.prototype.function ===
      'function';
  if (engine === 'better-sqlite3' || engine === 'wasm' || nodeFunctions) assert.ok(hasFlags(s), `${engine} defines the flag function`);
  if (engine === 'bun:sqlite') assert.ok(!hasFlags(s));
  // The flag is an SQL function of no arguments on the connection: 1 while the triggers count.
  if (hasFlags(s)) {
    s.onChange('books', () => {});
    assert.equal(s.db.prepare('SELECT legado_store_counts_0()').pluck().get(), 1);
  }
  s.close();
});
