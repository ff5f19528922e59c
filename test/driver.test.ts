// The seam's contract, on the engine under test (LEGADO_STORE_DRIVER): every adapter must
// behave as better-sqlite3 does in what the store relies on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DriverUnavailableError, openStore, type DriverName } from '../src/index.js';
import { driverNamed } from '../src/engine/drivers/index.js';
import { resultCodeName } from '../src/engine/drivers/result-codes.js';
import { tempDir } from './helpers/files.js';
import { openDb, testDriver } from './helpers/engine.js';
import { readOnlyQuery } from '../src/inspect/query.js';

const dir = tempDir('legado-driver-');

function memory() {
  const db = openDb(':memory:');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, n INTEGER)');
  return db;
}

test(`the connection says which engine it is (${testDriver.name}) and its state`, () => {
  const db = memory();
  assert.equal(db.driver, testDriver.name);
  assert.equal(db.open, true);
  assert.equal(db.readonly, false);
  assert.equal(db.inTransaction, false);
  db.close();
  assert.equal(db.open, false);
});

test('rows are plain objects; get of no row is undefined; run reports changes and the rowid', () => {
  const db = memory();
  const ins = db.prepare('INSERT INTO t (name, n) VALUES (?, ?)');
  assert.deepEqual(ins.run('a', 1), { changes: 1, lastInsertRowid: 1 });
  ins.run(['b', 2]); // an array is spread, as better-sqlite3 does
  assert.deepEqual(db.prepare('SELECT * FROM t ORDER BY id').all(), [
    { id: 1, name: 'a', n: 1 },
    { id: 2, name: 'b', n: 2 },
  ]);
  assert.equal(Object.getPrototypeOf(db.prepare('SELECT * FROM t').get()), Object.prototype);
  assert.equal(db.prepare('SELECT * FROM t WHERE id = 9').get(), undefined);
  assert.deepEqual(db.prepare('UPDATE t SET n = n + 1').run().changes, 2);
  db.close();
});

test('named parameters without prefix; values the SQL does not use are ignored', () => {
  const db = memory();
  db.prepare('INSERT INTO t (name, n) VALUES (:name, @n)').run({ name: 'x', n: 5, unused: 1 });
  assert.equal(db.prepare('SELECT n FROM t WHERE name = $name').pluck().get({ name: 'x', other: 2 }), 5);
  db.close();
});

test('pluck, raw and their switching off; iterate in each mode', () => {
  const db = memory();
  db.exec("INSERT INTO t (name, n) VALUES ('a', 1), ('b', 2)");
  const s = db.prepare('SELECT name, n FROM t ORDER BY id');
  assert.deepEqual(s.pluck().all(), ['a', 'b']);
  assert.equal(s.get(), 'a');
  assert.deepEqual([...s.iterate()], ['a', 'b']);
  assert.deepEqual(s.raw().all(), [
    ['a', 1],
    ['b', 2],
  ]);
  assert.deepEqual(s.get(), ['a', 1]);
  assert.deepEqual(
    [...s.iterate()],
    [
      ['a', 1],
      ['b', 2],
    ],
  );
  assert.deepEqual(s.raw(false).all(), [
    { name: 'a', n: 1 },
    { name: 'b', n: 2 },
  ]);
  assert.deepEqual(
    [...s.pluck(true).pluck(false).iterate()],
    [
      { name: 'a', n: 1 },
      { name: 'b', n: 2 },
    ],
  );
  // Leaving an iteration early frees the statement for the next one.
  for (const row of s.iterate()) {
    assert.deepEqual(row, { name: 'a', n: 1 });
    break;
  }
  assert.equal(s.all().length, 2);
  db.close();
});

test('get in raw and pluck mode with none, one, two and three parameters, arrays spread', () => {
  // Bun's and node:sqlite's adapters pass one or two plain parameters straight on: each count,
  // arrays, a bigint, null and a blob read the same rows as through the general path.
  const db = memory();
  db.exec("INSERT INTO t (name, n) VALUES ('a', 1), ('b', 2)");
  const none = db.prepare("SELECT name, n FROM t WHERE name = 'b'").raw();
  const one = db.prepare('SELECT name, n FROM t WHERE name = ?').raw();
  const two = db.prepare('SELECT name, n FROM t WHERE name = ? AND n = ?').raw();
  const three = db.prepare('SELECT name, n FROM t WHERE name = ? AND n = ? AND id > ?').raw();
  assert.deepEqual(none.get(), ['b', 2]);
  assert.deepEqual(one.get('b'), ['b', 2]);
  assert.deepEqual(one.get(['b']), ['b', 2]);
  assert.deepEqual(two.get('b', 2), ['b', 2]);
  assert.deepEqual(two.get(['b', 2]), ['b', 2]);
  assert.deepEqual(two.get('b', [2]), ['b', 2]);
  assert.equal(two.get('b', 1), undefined);
  assert.deepEqual(three.get('b', 2, 0), ['b', 2]);
  assert.equal(two.pluck().get('a', 1), 'a');
  assert.deepEqual(two.raw().get('b', 2n), ['b', 2]);
  assert.equal(one.get(null), undefined);
  const blob = db.prepare('SELECT length(?), ?').raw();
  assert.deepEqual(blob.get(new Uint8Array([1, 2, 3]), 'x'), [3, 'x']);
  // A value past 2^53 met on the direct call: read again, the nearest number as in every mode.
  db.prepare('INSERT INTO t (name, n) VALUES (?, ?)').run('big', 2n ** 60n + 1n);
  assert.deepEqual(one.get('big'), ['big', 2 ** 60]);
  assert.deepEqual(two.get('big', 2n ** 60n + 1n), ['big', 2 ** 60]);
  db.close();
});

test('safeIntegers reads 64-bit integers exactly as bigint, and can be switched off', () => {
  const db = memory();
  const big = -(2n ** 63n);
  db.prepare('INSERT INTO t (name, n) VALUES (?, ?)').run('big', big);
  const s = db.prepare('SELECT n FROM t').pluck().safeIntegers(true);
  assert.equal(s.get(), big);
  assert.equal(db.prepare('SELECT 1 AS one').safeIntegers().get()!.constructor, Object);
  assert.deepEqual(db.prepare('SELECT 1 AS one').safeIntegers().get(), { one: 1n });
  assert.equal(db.prepare('SELECT 7').pluck().safeIntegers(true).safeIntegers(false).get(), 7);
  db.close();
});

test('an integer beyond 2^53 reads as the nearest number without safeIntegers, in every mode and way of reading', () => {
  const db = memory();
  const big = 2n ** 60n + 1n;
  const near = Number(big); // 2^60: what better-sqlite3, the seam's model, gives
  const ins = db.prepare('INSERT INTO t (name, n) VALUES (?, ?)');
  ins.run('a', 1);
  ins.run('big', big);
  ins.run('c', 3);
  const rows = [
    { name: 'a', n: 1 },
    { name: 'big', n: near },
    { name: 'c', n: 3 },
  ];
  const s = db.prepare('SELECT name, n FROM t ORDER BY id');
  assert.deepEqual(s.all(), rows);
  assert.deepEqual([...s.iterate()], rows);
  assert.deepEqual(db.prepare("SELECT name, n FROM t WHERE name = 'big'").get(), rows[1]);
  assert.deepEqual(
    s.raw().all(),
    rows.map((r) => [r.name, r.n]),
  );
  assert.deepEqual(
    [...s.iterate()],
    rows.map((r) => [r.name, r.n]),
  );
  assert.deepEqual(db.prepare('SELECT n FROM t ORDER BY id').pluck().all(), [1, near, 3]);
  // Leaving an iteration early, past the wide row and before it.
  const firstTwo: unknown[] = [];
  for (const row of s.iterate()) if (firstTwo.push(row) === 2) break;
  assert.deepEqual(firstTwo, [
    ['a', 1],
    ['big', near],
  ]);
  for (const row of s.iterate()) {
    assert.deepEqual(row, ['a', 1]);
    break;
  }
  // Afterwards the statements read numbers as numbers again, and safeIntegers stays exact.
  assert.deepEqual(s.raw(false).all(), rows);
  assert.equal(db.prepare('SELECT n FROM t WHERE id = 1').pluck().get(), 1);
  assert.equal(db.prepare("SELECT n FROM t WHERE name = 'big'").pluck().safeIntegers().get(), big);
  assert.deepEqual(db.prepare('SELECT n FROM t ORDER BY id').pluck().safeIntegers().all(), [1n, big, 3n]);
  // A write that returns one runs once.
  assert.equal(db.prepare("UPDATE t SET n = n + 1 WHERE name = 'big' RETURNING n").pluck().get(), Number(big + 1n));
  assert.deepEqual(db.prepare("INSERT INTO t (name, n) VALUES ('d', ?) RETURNING name, n").all(big), [{ name: 'd', n: near }]);
  assert.deepEqual([...db.prepare('UPDATE t SET n = n + 1 WHERE n > 100 RETURNING n').pluck().iterate()].length, 2);
  assert.deepEqual(db.prepare('SELECT name, n FROM t WHERE n > 100 ORDER BY id').safeIntegers().all(), [
    { name: 'big', n: big + 2n },
    { name: 'd', n: big + 1n },
  ]);
  db.close();
});

test('statement readonly: true for a query, false for a write', () => {
  const db = memory();
  assert.equal(db.prepare('SELECT * FROM t').readonly, true);
  assert.equal(db.prepare("INSERT INTO t (name) VALUES ('r') RETURNING id").readonly, false);
  assert.equal(db.prepare('DELETE FROM t').readonly, false);
  // As sqlite3_stmt_readonly answers (better-sqlite3 asks it; the others emulate it).
  for (const [sql, readonly] of [
    ['VALUES (1)', true],
    ['  select name from t', true],
    ['WITH x AS (SELECT 1 AS v) SELECT v FROM x', true],
    ['WITH x AS (SELECT 1 AS v) INSERT INTO t (name) SELECT v FROM x', false],
    ['UPDATE t SET n = 1', false],
    ["  replace into t (name) values ('r')", false],
    ['INSERT INTO t (name) SELECT name FROM t WHERE 0', false],
    ['/* a comment */ DELETE FROM t WHERE 0', false],
    // An EXPLAIN answers as the statement it explains.
    ['EXPLAIN INSERT INTO t (name) VALUES (1)', false],
    ['explain query plan SELECT * FROM t', true],
  ] as const)
    assert.equal(db.prepare(sql).readonly, readonly, sql);
  db.close();
});

test('a read-only query takes an EXPLAIN as SQLite judges it: of a read it runs, of a write it is refused', () => {
  // The query command trusts the statement's readonly: the same answer on every engine.
  const db = memory();
  const explained = readOnlyQuery(db, 'EXPLAIN SELECT name FROM t');
  assert.ok([...explained.rows].length > 0);
  assert.ok([...readOnlyQuery(db, 'EXPLAIN QUERY PLAN SELECT name FROM t').rows].length > 0);
  for (const sql of ["EXPLAIN INSERT INTO t (name) VALUES ('x')", 'EXPLAIN QUERY PLAN DELETE FROM t', 'explain update t set n = 1'])
    assert.throws(() => readOnlyQuery(db, sql), { code: 'WRITE_REFUSED' }, sql);
  assert.equal(db.prepare('SELECT count(*) FROM t').pluck().get(), 0);
  db.close();
});

test('errors carry the SQLite result code name in code', () => {
  const db = memory();
  db.prepare("INSERT INTO t (name) VALUES ('a')").run();
  const code = (f: () => unknown): unknown => {
    try {
      f();
    } catch (e) {
      return (e as { code?: unknown }).code;
    }
    return 'no error';
  };
  assert.equal(
    code(() => db.prepare("INSERT INTO t (name) VALUES ('a')").run()),
    'SQLITE_CONSTRAINT_UNIQUE',
  );
  assert.equal(
    code(() => db.prepare('INSERT INTO t (id, name) VALUES (1, ?)').run('z')),
    'SQLITE_CONSTRAINT_PRIMARYKEY',
  );
  assert.equal(
    code(() => db.prepare('INSERT INTO t (name) VALUES (NULL)').run()),
    'SQLITE_CONSTRAINT_NOTNULL',
  );
  assert.equal(
    code(() => db.exec('NOT SQL')),
    'SQLITE_ERROR',
  );
  assert.equal(
    code(() => db.prepare('SELECT * FROM nowhere')),
    'SQLITE_ERROR',
  );
  db.close();
  assert.equal(resultCodeName(2067), 'SQLITE_CONSTRAINT_UNIQUE');
  assert.equal(resultCodeName(787), 'SQLITE_CONSTRAINT_FOREIGNKEY');
  assert.equal(resultCodeName(26), 'SQLITE_NOTADB');
  assert.equal(resultCodeName(517), 'SQLITE_BUSY_SNAPSHOT');
  assert.equal(resultCodeName(99), undefined);
});

test('transactions: commit, rollback on error, savepoints when nested, deferred and immediate', () => {
  const db = memory();
  const ins = db.prepare('INSERT INTO t (name) VALUES (?)');
  const count = () => db.prepare('SELECT count(*) FROM t').pluck().get();
  const add = db.transaction((names: string[]) => {
    assert.equal(db.inTransaction, true);
    for (const n of names) ins.run(n);
    return names.length;
  });
  assert.equal(add(['a', 'b']), 2);
  assert.equal(db.inTransaction, false);
  assert.throws(
    () => add(['c', 'a']),
    (e: unknown) => (e as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE',
  );
  assert.equal(count(), 2, 'the failed call left nothing');
  const outer = db.transaction(() => {
    ins.run('d');
    assert.throws(() => add(['e', 'd']));
    ins.run('f');
  });
  outer.immediate();
  assert.deepEqual(db.prepare('SELECT name FROM t ORDER BY id').pluck().all(), ['a', 'b', 'd', 'f'], 'only the inner call was undone');
  assert.equal(add.deferred(['g']), 1);
  assert.throws(
    () =>
      db.transaction(() => {
        throw new Error('boom');
      })(),
    /boom/,
  );
  assert.equal(db.inTransaction, false);
  db.close();
});

test('run binds what it is given: none to five values, null, a bigint, a blob among them, an array, named values', () => {
  const db = openDb(':memory:');
  db.exec('CREATE TABLE v (k INTEGER PRIMARY KEY, a, b, c, d)');
  // A blob as its bytes (better-sqlite3 reads a Buffer, the others a Uint8Array).
  const rows = () => (db.prepare('SELECT * FROM v ORDER BY k').raw(true).all() as unknown[][]).map((r) => r.map((v) => (v instanceof Uint8Array ? [...v] : v)));
  const blob = new Uint8Array([1, 2]);
  db.prepare('INSERT INTO v (k) VALUES (1)').run();
  db.prepare('INSERT INTO v (k, a) VALUES (?, ?)').run(2, null);
  db.prepare('INSERT INTO v (k, a, b) VALUES (?, ?, ?)').run(3, 'x', 2n ** 60n);
  db.prepare('INSERT INTO v (k, a, b, c) VALUES (?, ?, ?, ?)').run(4, 'w', 1.5, 'y');
  db.prepare('INSERT INTO v (k, a, b, c, d) VALUES (?, ?, ?, ?, ?)').run(5, 'p', 'q', 'r', 's');
  db.prepare('INSERT INTO v (k, a, b, c, d) VALUES (?, ?, ?, ?, ?)').run([6, 'p'], 'q', ['r', 's']);
  db.prepare('INSERT INTO v (k, a) VALUES (@k, @a)').run({ k: 7, a: 'named' });
  db.prepare('INSERT INTO v (k, a) VALUES (?, ?)').run(8, blob);
  assert.deepEqual(db.prepare('UPDATE v SET d = ? WHERE k = ?').run('u', 4), { changes: 1, lastInsertRowid: 8 });
  assert.deepEqual(rows(), [
    [1, null, null, null, null],
    [2, null, null, null, null],
    [3, 'x', 2 ** 60, null, null],
    [4, 'w', 1.5, 'y', 'u'],
    [5, 'p', 'q', 'r', 's'],
    [6, 'p', 'q', 'r', 's'],
    [7, 'named', null, null, null],
    [8, [1, 2], null, null, null],
  ]);
  assert.equal(db.prepare('SELECT typeof(b) FROM v WHERE k = 3').pluck().get(), 'integer');
  db.close();
});

test('a transaction function inside a transaction begun by raw SQL is a savepoint of it', () => {
  const db = memory();
  const ins = db.prepare('INSERT INTO t (name) VALUES (?)');
  const names = () => db.prepare('SELECT name FROM t ORDER BY id').pluck().all();
  const add = db.transaction((list: string[]) => {
    for (const n of list) ins.run(n);
    return list.length;
  });
  add(['a']); // the connection's own transactions first: one begun and committed by the function
  db.exec('BEGIN');
  assert.equal(add.immediate(['b']), 1);
  assert.equal(db.inTransaction, true, 'the function did not commit the raw transaction');
  assert.throws(
    () => add(['c', 'b']),
    (e: unknown) => (e as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE',
  );
  assert.equal(db.inTransaction, true, 'the failed call undid its savepoint only');
  assert.deepEqual(names(), ['a', 'b']);
  db.exec('ROLLBACK');
  assert.deepEqual(names(), ['a'], 'what the function wrote went with the raw transaction');
  assert.equal(add.deferred(['d']), 1);
  assert.equal(db.inTransaction, false, 'afterwards a transaction of its own again');
  db.exec('BEGIN');
  db.exec('ROLLBACK');
  assert.deepEqual(names(), ['a', 'd'], 'committed by the function');
  db.close();
});

test('pragma: rows, or the first value with simple', () => {
  const db = openDb(join(dir, 'p.db'));
  assert.equal(db.pragma('journal_mode = WAL', { simple: true }), 'wal');
  assert.deepEqual(db.pragma('user_version'), [{ user_version: 0 }]);
  db.pragma('user_version = 7');
  assert.equal(db.pragma('user_version', { simple: true }), 7);
  assert.equal(db.pragma('foreign_keys', { simple: true }), 1, 'on from the start, as better-sqlite3 builds SQLite (SQLITE_DEFAULT_FOREIGN_KEYS=1)');
  db.close();
});

test('open options: busy timeout, read-only, a file that must exist', () => {
  const path = join(dir, 'o.db');
  const db = testDriver.open(path, { busyTimeout: 1234 });
  assert.equal(db.pragma('busy_timeout', { simple: true }), 1234);
  db.exec('CREATE TABLE x (a)');
  db.close();
  const ro = testDriver.open(path, { readonly: true });
  assert.equal(ro.readonly, true);
  assert.throws(
    () => ro.exec('INSERT INTO x VALUES (1)'),
    (e: unknown) => String((e as { code?: string }).code).startsWith('SQLITE_READONLY'),
  );
  ro.close();
  assert.throws(
    () => testDriver.open(join(dir, 'missing.db'), { fileMustExist: true }),
    (e: unknown) => (e as { code?: string }).code === 'SQLITE_CANTOPEN',
  );
});

test('the store works through a connection it did not open: a Driver object of the caller’s own', () => {
  const store = openStore(join(dir, 'own.db'), {
    driver: {
      name: testDriver.name,
      capabilities: testDriver.capabilities,
      files: testDriver.files,
      open: (p, o) => testDriver.open(p, o),
      fileSize: (p) => testDriver.fileSize(p),
    },
  });
  store.tables.book_groups.upsert({ groupId: 8, groupName: 'own', order: 1, show: true });
  assert.equal(store.tables.book_groups.get(8)?.groupName, 'own');
  store.close();
});

test('an engine that cannot run here is a DriverUnavailableError naming it', () => {
  const missing = (['better-sqlite3', 'node:sqlite', 'bun:sqlite'] as DriverName[]).filter((n) => {
    try {
      driverNamed(n);
      return false;
    } catch {
      return true;
    }
  });
  assert.ok(missing.length > 0, 'no runtime has all three');
  for (const name of missing) {
    assert.throws(
      () => openStore(join(dir, `${name.replace(/\W/g, '')}.db`), { driver: name }),
      (e: unknown) => {
        assert.ok(e instanceof DriverUnavailableError);
        assert.equal(e.driver, name);
        assert.match(e.message, new RegExp(`SQLite driver ${name} is not available here: .+`));
        return true;
      },
    );
  }
});

test('pragma does not go through a prepare replaced on the connection (as a change tracker replaces it), as better-sqlite3 does not', () => {
  const db = memory();
  const replaced = db as unknown as { prepare: unknown };
  replaced.prepare = () => {
    throw new Error('the replaced prepare was called');
  };
  assert.equal(db.pragma('user_version', { simple: true }), 0);
  assert.deepEqual(
    (db.pragma('table_info(t)') as { name: string }[]).map((c) => c.name),
    ['id', 'name', 'n'],
  );
  db.pragma('user_version = 7');
  assert.equal(db.pragma('user_version', { simple: true }), 7);
  db.close();
});
