// store.onChange: once per committed transaction, never for a rolled-back one, for every write
// path of the store's own connection; other connections are not seen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { openDb, type Connection } from './helpers/engine.js';
import { openStore, type Store } from 'legado-store';
import { DuplicateKeyError, TransactionStateError, UnknownTableError } from 'legado-store/errors';
import { book, chapter, newStore, newStore49 } from './helpers/domain.js';

/** Records each notification as a sorted list of table names. */
function recorder(store: Store, tables: Parameters<Store['onChange']>[0]) {
  const calls: string[][] = [];
  const off = store.onChange(tables, (changed) => calls.push([...changed].sort()), {
    onError: (e) => {
      throw e;
    },
  });
  return { calls, off };
}

const tempObjects = (s: Store): string[] =>
  s.db.prepare("SELECT name FROM sqlite_temp_master WHERE name LIKE 'legado_store_%' ORDER BY name").pluck().all() as string[];

test('typed autocommit writes notify once each, with the changed table', () => {
  const s = newStore();
  const { calls } = recorder(s, ['books', 'chapters']);
  s.tables.books.insert(book('b1'));
  s.tables.books.update('b1', { durChapterPos: 3 });
  s.tables.books.update('missing', { durChapterPos: 3 });
  s.tables.chapters.insert(chapter('b1', 0));
  s.tables.book_groups.insert({ groupId: 1, groupName: 'g', order: 1, show: true });
  assert.deepEqual(calls, [['books'], ['books'], ['chapters']], 'an update of nothing and an unobserved table say nothing');
  s.close();
});

test('a transaction notifies once after commit, with every observed table it changed', () => {
  const s = newStore();
  const { calls } = recorder(s, ['books', 'chapters']);
  s.transaction(() => {
    s.tables.books.insert(book('b1'));
    s.tables.chapters.insertMany([chapter('b1', 0), chapter('b1', 1)]);
    s.transaction(() => s.tables.books.update('b1', { durChapterPos: 1 }));
    assert.deepEqual(calls, [], 'nothing is reported before the commit');
  });
  assert.deepEqual(calls, [['books', 'chapters']]);
  s.tables.chapters.insertMany([chapter('b1', 2), chapter('b1', 3)]);
  assert.deepEqual(calls.length, 2, 'insertMany is one transaction, one notification');
  s.close();
});

test('a rolled-back transaction notifies nothing, and leaves nothing behind for the next one', () => {
  const s = newStore();
  const { calls } = recorder(s, ['books', 'chapters']);
  assert.throws(() =>
    s.transaction(() => {
      s.tables.books.insert(book('b1'));
      throw new Error('abort');
    }),
  );
  assert.throws(() => s.tables.chapters.insertMany([chapter('nope', 0)]), 'a failing bulk insert rolls back');
  assert.deepEqual(calls, []);
  // A nested transaction that rolls back inside one that commits: only the outer changes count.
  s.transaction(() => {
    s.tables.books.insert(book('b2'));
    try {
      s.transaction(() => {
        s.tables.chapters.insert(chapter('b2', 0));
        throw new Error('inner');
      });
    } catch {
      // the inner savepoint is rolled back
    }
  });
  assert.deepEqual(calls, [['books']]);
  s.db.exec('BEGIN');
  s.db.prepare('INSERT INTO books (bookUrl, name, author) VALUES (?, ?, ?)').run('b3', 'n3', 'a');
  s.db.exec('ROLLBACK');
  s.tables.books.update('b2', { durChapterPos: 9 });
  assert.deepEqual(calls, [['books'], ['books']]);
  s.close();
});

test('raw SQL on the same connection is seen: exec, prepared statements, RETURNING, explicit COMMIT, db.transaction', () => {
  const s = newStore();
  const { calls } = recorder(s, ['books', 'chapters', 'caches']);
  s.db.exec("INSERT INTO books (bookUrl, name, author) VALUES ('r1', 'n1', 'a')");
  assert.deepEqual(calls, [['books']], 'exec');
  s.db.prepare("INSERT INTO caches (key, value, deadline) VALUES ('k', 'v', 0)").run();
  assert.deepEqual(calls.at(-1), ['caches'], 'prepare().run()');
  const returned = s.db.prepare("UPDATE books SET durChapterPos = 5 WHERE bookUrl = 'r1' RETURNING bookUrl").pluck().all();
  assert.deepEqual(returned, ['r1']);
  assert.deepEqual(calls.at(-1), ['books'], 'a writing statement read with all() (RETURNING)');
  s.db.prepare('SELECT * FROM books').all();
  assert.equal(calls.length, 3, 'reads say nothing');

  s.db.exec('BEGIN');
  s.db.exec("INSERT INTO chapters (url, title, isVolume, baseUrl, bookUrl, `index`, isVip, isPay) VALUES ('u', 't', 0, '', 'r1', 0, 0, 0)");
  s.tables.books.update('r1', { durChapterPos: 6 });
  assert.equal(calls.length, 3, 'nothing while the explicit transaction is open');
  s.db.prepare('COMMIT').run();
  assert.deepEqual(calls.at(-1), ['books', 'chapters'], 'an explicit COMMIT statement reports the whole transaction once');

  const tx = s.db.transaction((url: string) => s.db.prepare('DELETE FROM books WHERE bookUrl = ?').run(url));
  tx('r1');
  assert.deepEqual(calls.at(-1), ['books', 'chapters'], 'db.transaction; the cascade deleted the chapter too');
  tx.immediate('r1');
  assert.equal(calls.length, 5, 'deleting nothing changes nothing');
  s.close();
});

test('foreign-key cascades count as changes of the child table', () => {
  const s = newStore();
  s.tables.books.insert(book('b1'));
  s.tables.chapters.insert(chapter('b1', 0));
  const { calls } = recorder(s, ['chapters']);
  s.tables.books.delete('b1');
  assert.deepEqual(calls, [['chapters']]);
  s.close();
});

test('each listener hears only its own tables; unsubscribing stops it and drops the triggers', () => {
  const s = newStore();
  const a = recorder(s, 'books');
  const b = recorder(s, ['caches']);
  assert.equal(tempObjects(s).length, 1 + 6, 'the log table and three triggers per observed table');
  s.transaction(() => {
    s.tables.books.insert(book('b1'));
    s.tables.caches.insert({ key: 'k', deadline: 0 });
  });
  assert.deepEqual(a.calls, [['books']]);
  assert.deepEqual(b.calls, [['caches']]);
  a.off();
  a.off();
  s.tables.books.insert(book('b2'));
  assert.deepEqual(a.calls, [['books']]);
  assert.deepEqual(tempObjects(s), [
    'legado_store_change_caches_DELETE',
    'legado_store_change_caches_INSERT',
    'legado_store_change_caches_UPDATE',
    'legado_store_changed_tables',
  ]);
  b.off();
  assert.deepEqual(tempObjects(s), ['legado_store_changed_tables'], 'no triggers once nobody listens');
  s.close();
});

test('a store without listeners installs nothing', () => {
  const s = newStore();
  s.tables.books.insert(book('b1'));
  s.db.exec("UPDATE books SET name = 'x'");
  assert.deepEqual(tempObjects(s), []);
  s.close();
});

test('unknown tables are refused; subscribing inside a transaction is refused; unsubscribing inside one waits for the commit', () => {
  const s = newStore();
  assert.throws(() => s.onChange(['nope' as 'books'], () => {}), UnknownTableError);
  assert.throws(() => s.transaction(() => s.onChange('books', () => {})), TransactionStateError);
  const { calls, off } = recorder(s, 'books');
  s.transaction(() => {
    s.tables.books.insert(book('b1'));
    off();
  });
  assert.deepEqual(calls, [], 'a listener gone before the commit is not called');
  assert.deepEqual(tempObjects(s), ['legado_store_changed_tables'], 'its triggers were dropped after the commit');
  const s49 = newStore49();
  assert.throws(() => s49.onChange('dictRules' as never, () => {}), UnknownTableError);
  s49.close();
  s.close();
});

test('a throwing listener does not stop the others or corrupt the store', () => {
  const s = newStore();
  const errors: unknown[] = [];
  let good = 0;
  s.onChange(
    'books',
    () => {
      throw new Error('listener bug');
    },
    { onError: (e) => errors.push(e) },
  );
  s.onChange('books', () => {
    good++;
  });
  s.tables.books.insert(book('b1'));
  s.tables.books.insert(book('b2'));
  assert.equal(errors.length, 2);
  assert.match(String(errors[0]), /listener bug/);
  assert.equal(good, 2);
  assert.equal(s.db.inTransaction, false);
  assert.equal(s.tables.books.count(), 2, 'both writes committed');
  s.close();
});

test('a listener that writes is notified of its own write after the current round', () => {
  const s = newStore();
  const seen: string[][] = [];
  s.onChange(['books', 'caches'], (changed) => {
    seen.push([...changed].sort());
    if (changed.has('books')) s.tables.caches.upsert({ key: 'shelf-dirty', value: '1', deadline: 0 });
  });
  s.tables.books.insert(book('b1'));
  assert.deepEqual(seen, [['books'], ['caches']]);
  s.close();
});

test('writes by another connection are not seen (documented); flushChanges reports nothing new', () => {
  const s = newStore();
  const { calls } = recorder(s, 'books');
  const other = openDb(s.path);
  other.prepare("INSERT INTO books (bookUrl, name, author) VALUES ('x', 'x', 'x')").run();
  other.close();
  s.flushChanges();
  assert.deepEqual(calls, []);
  assert.equal(s.tables.books.count(), 1, 'the row is there, only unannounced');
  s.close();
});

test('the domain operations notify too, once per operation', () => {
  const s = newStore();
  s.tables.books.insert(book('b1'));
  const { calls } = recorder(s, ['books', 'chapters', 'book_groups']);
  s.chapters.replaceToc('b1', [chapter('b1', 0), chapter('b1', 1)]);
  s.bookGroups.create('武侠');
  s.books.save(book('b1', { durChapterPos: 4 }));
  assert.deepEqual(calls, [['chapters'], ['book_groups'], ['books']]);
  s.close();
});

test('without onError a listener’s error is rethrown on the next tick, after the write returned', () => {
  const index = fileURLToPath(new URL('../src/index.js', import.meta.url));
  const code = `
    import { openStore } from ${JSON.stringify(index)};
    const s = openStore(':memory:');
    s.onChange('books', () => { throw new Error('listener bug'); });
    s.tables.books.insert({ bookUrl: 'b', name: 'n', author: 'a' });
    console.log('write returned', s.tables.books.count());
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  assert.match(r.stdout, /write returned 1/);
  assert.match(r.stderr, /listener bug/);
  assert.notEqual(r.status, 0);
});

test('a statement prepared around store.db.prepare is recorded, and reported by flushChanges', () => {
  const s = newStore();
  const { calls } = recorder(s, 'books');
  const bypass = (Object.getPrototypeOf(s.db) as Connection).prepare.call(s.db, 'INSERT INTO books (bookUrl, name, author) VALUES (?, ?, ?)');
  bypass.run('x', 'x', 'x');
  assert.deepEqual(calls, [], 'not seen at once');
  s.flushChanges();
  assert.deepEqual(calls, [['books']]);
  s.close();
});

test('a read-only store can be observed (nothing it does changes anything)', () => {
  const w = newStore();
  const path = w.path;
  w.close();
  const ro = openStore(path, { readonly: true, schema: 62 });
  const { calls } = recorder(ro, 'books');
  assert.equal(ro.tables.books.count(), 0);
  assert.deepEqual(calls, []);
  ro.close();
});

test('a bulk write past the point where it silences its triggers notifies once, and leaves the triggers as they were', () => {
  const s = newStore();
  s.tables.books.insert(book('b1'));
  const { calls } = recorder(s, ['books', 'chapters']);
  const before = tempObjects(s);
  const many = (from: number, n: number) => Array.from({ length: n }, (_, i) => chapter('b1', from + i));
  assert.equal(s.tables.chapters.insertMany(many(0, 1000)), 1000);
  assert.deepEqual(calls, [['chapters']]);
  assert.deepEqual(tempObjects(s), before, 'the same triggers after the write');
  s.db.prepare('DELETE FROM chapters WHERE `index` = 0').run();
  assert.deepEqual(calls.at(-1), ['chapters'], 'raw SQL on the table is still recorded by its triggers');

  // A failure after the triggers were silenced: nothing reported, nothing written, triggers back.
  const failing = [...many(1000, 600), chapter('nope', 5000)];
  assert.throws(() => s.tables.chapters.insertMany(failing), /row 600/);
  assert.equal(calls.length, 2);
  assert.deepEqual(tempObjects(s), before);
  assert.equal(s.tables.chapters.count({ bookUrl: 'b1' }), 999);

  // Inside a transaction that rolls back later: the logged table goes with it.
  assert.throws(() =>
    s.transaction(() => {
      s.tables.chapters.upsertMany(many(2000, 500));
      throw new Error('abort');
    }),
  );
  assert.equal(calls.length, 2);
  s.transaction(() => {
    s.tables.chapters.upsertMany(many(2000, 500));
    s.tables.books.update('b1', { durChapterPos: 1 });
  });
  assert.deepEqual(calls.at(-1), ['books', 'chapters']);
  s.db.exec("UPDATE chapters SET title = 'x' WHERE `index` = 2000");
  assert.deepEqual(calls.at(-1), ['chapters']);
  assert.equal(calls.length, 4);
  s.close();
});

test('a typed write to a table nobody observes does not read the log: what a bypassing statement wrote waits for the next report', () => {
  const s = newStore();
  const { calls } = recorder(s, 'books');
  const bypass = (Object.getPrototypeOf(s.db) as Connection).prepare.call(s.db, 'INSERT INTO books (bookUrl, name, author) VALUES (?, ?, ?)');
  bypass.run('x', 'x', 'x');
  s.tables.caches.insert({ key: 'k', deadline: 0 });
  assert.deepEqual(calls, []);
  s.flushChanges();
  assert.deepEqual(calls, [['books']]);
  s.close();
});

test('replacing a long table of contents silences the triggers for the delete too, and still notifies once after commit', () => {
  const s = newStore();
  s.tables.books.insert(book('b1'));
  s.chapters.replaceToc(
    'b1',
    Array.from({ length: 600 }, (_, i) => chapter('b1', i)),
  );
  const { calls } = recorder(s, ['chapters']);
  const before = tempObjects(s);
  assert.equal(
    s.chapters.replaceToc(
      'b1',
      Array.from({ length: 300 }, (_, i) => chapter('b1', i, { title: `new ${i}` })),
    ),
    300,
  );
  assert.deepEqual(calls, [['chapters']]);
  assert.deepEqual(tempObjects(s), before);
  assert.throws(() => s.chapters.replaceToc('b1', [chapter('b1', 0), chapter('b1', 0)]), DuplicateKeyError);
  assert.equal(s.chapters.count('b1'), 300, 'the old list stays');
  assert.equal(calls.length, 1, 'a failed replacement says nothing');
  assert.equal(s.chapters.deleteByBook('b1'), 300);
  assert.deepEqual(calls, [['chapters'], ['chapters']], 'a delete on its own reports at once');
  assert.deepEqual(tempObjects(s), before);
  s.close();
});
