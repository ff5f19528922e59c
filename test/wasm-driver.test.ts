// The SQLite WASM driver and the browser entry, run in Node on the 'memory' storage (OPFS needs
// a browser: test/browser/page.test.ts). The same WASM build the browser loads, the same store.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { FileExistsError, NotADatabaseError, UniqueViolationError, UnsupportedVersionError, inspectFile, openStore as openFileStore } from 'legado-store';
import { loadWasmDriver } from '../src/engine/drivers/wasm.js';
import { deleteStore, exportBackup, exportDatabase, importBackup, listStores, openStore, openStoreFromBytes } from '../src/browser/index.js';
import { exportBackup as exportBackupFile, importBackup as importBackupFile } from 'legado-store';
import { fillSample } from '../src/sample/sample.js';
import { book, chapter } from './helpers/domain.js';
import { tempDir } from './helpers/files.js';
import { createV49 } from './helpers/v49-fixture.js';

const dir = tempDir('legado-wasm-');

test('pragma does not go through a prepare replaced on the connection (as a change tracker replaces it)', async () => {
  const driver = await loadWasmDriver({ storage: 'memory' });
  const db = driver.open(':memory:');
  (db as unknown as { prepare: unknown }).prepare = () => {
    throw new Error('the replaced prepare was called');
  };
  db.pragma('user_version = 3');
  assert.equal(db.pragma('user_version', { simple: true }), 3);
  db.close();
});

test('statements: named and positional parameters, pluck/raw/safeIntegers, iterate, blobs', async () => {
  const driver = await loadWasmDriver({ storage: 'memory' });
  const db = driver.open(':memory:');
  assert.equal(db.driver, 'wasm');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, x TEXT NOT NULL UNIQUE, b BLOB)');
  const insert = db.prepare('INSERT INTO t (id, x, b) VALUES (@id, :x, ?)');
  assert.equal(insert.readonly, false);
  assert.deepEqual(insert.run({ id: 1, x: 'a' }, new Uint8Array([1, 2])), { changes: 1, lastInsertRowid: 1 });
  assert.equal(insert.run([2, 'b'].length === 2 ? { id: 2, x: 'b' } : {}, null).lastInsertRowid, 2);
  assert.deepEqual(db.prepare('SELECT * FROM t WHERE id = ?').get(1), { id: 1, x: 'a', b: new Uint8Array([1, 2]) });
  assert.deepEqual(db.prepare('SELECT x FROM t ORDER BY id').pluck().all(), ['a', 'b']);
  assert.deepEqual(db.prepare('SELECT id, x FROM t ORDER BY id').raw().all(), [
    [1, 'a'],
    [2, 'b'],
  ]);
  assert.equal(db.prepare('SELECT 9007199254740993').pluck().safeIntegers().get(), 9007199254740993n);
  assert.equal(typeof db.prepare('SELECT 5').pluck().get(), 'number');
  const seen: unknown[] = [];
  for (const x of db.prepare('SELECT x FROM t ORDER BY id').pluck().iterate()) {
    seen.push(x);
    break;
  }
  assert.deepEqual(seen, ['a']);
  assert.equal(db.prepare('SELECT 1').readonly, true);
  assert.throws(() => insert.run({ id: 3 }, null), /Missing named parameter "x"/);
  assert.throws(() => db.prepare('SELECT ?').get(), /Too few parameter values/);
  db.close();
  assert.equal(db.open, false);
});

test('defineFlag: a function of no arguments reading a JavaScript flag, usable in a TEMP trigger, gone with the connection', async () => {
  const driver = await loadWasmDriver({ storage: 'memory' });
  const db = driver.open(':memory:');
  let on = false;
  db.defineFlag!('flag_on', () => on);
  const read = db.prepare('SELECT flag_on()').pluck();
  assert.equal(read.get(), 0);
  on = true;
  assert.equal(read.get(), 1);
  db.exec('CREATE TABLE t (x INTEGER); CREATE TEMP TABLE n (c INTEGER); INSERT INTO n VALUES (0)');
  db.exec('CREATE TEMP TRIGGER tr AFTER INSERT ON t WHEN flag_on() BEGIN UPDATE n SET c = c + 1; END');
  const insert = db.prepare('INSERT INTO t VALUES (1)');
  insert.run();
  on = false;
  insert.run();
  insert.run();
  assert.equal(db.prepare('SELECT c FROM n').pluck().get(), 1, 'counted only while the flag was on');
  assert.throws(() => db.defineFlag!('f'.repeat(300), () => true), 'SQLite refuses a name longer than 255 bytes');
  db.close();
  // A second connection does not see the first one's function.
  const other = driver.open(':memory:');
  assert.throws(() => other.prepare('SELECT flag_on()'), /no such function/);
  other.close();
});

test('bound text: 1- to 4-byte UTF-8 and lone surrogates, at the edge of the byte-by-byte path; a statement being iterated keeps its text while others bind', async () => {
  const driver = await loadWasmDriver({ storage: 'memory' });
  const db = driver.open(':memory:');
  db.exec('CREATE TABLE s (k INTEGER PRIMARY KEY, x TEXT)');
  const texts = [
    // Around the byte-by-byte path's limit (8 characters) and its old one (64).
    'x'.repeat(7),
    'y'.repeat(8),
    'z'.repeat(9),
    `${'a'.repeat(7)}é`,
    `${'a'.repeat(8)}é`,
    '书'.repeat(8),
    '书'.repeat(9),
    `${'书'.repeat(6)}📚`,
    'x'.repeat(63),
    'y'.repeat(64),
    'z'.repeat(65),
    `${'a'.repeat(63)}é`,
    `é${'b'.repeat(70)}`,
    '\u0000nul\u0000',
    '\u007f',
    '\u0080',
    '',
    '\u07ff\u0800',
    '第1章 风起',
    '书'.repeat(64),
    '书'.repeat(65),
    '\ud7ff\ue000\uffff',
    '📚 emoji',
    `${'书'.repeat(62)}📚`,
    '\uFEFF',
  ];
  const insert = db.prepare('INSERT INTO s (k, x) VALUES (?, ?)');
  texts.forEach((t, k) => insert.run(k, t));
  assert.deepEqual(db.prepare('SELECT x FROM s ORDER BY k').pluck().all(), texts);
  assert.deepEqual(db.prepare('SELECT k FROM s WHERE x = ?').pluck().all(texts[3]), [3]);
  // The bytes SQLite holds are the UTF-8 TextEncoder writes (a lone surrogate becomes U+FFFD, as
  // better-sqlite3 and node:sqlite store it).
  const hex = (t: string) => Buffer.from(new TextEncoder().encode(t)).toString('hex').toUpperCase();
  const lone = ['a\ud800', '\udc00b', 'x\ud83d\ud83d', `${'书'.repeat(7)}\ud800`, `${'a'.repeat(9)}\udfff`];
  lone.forEach((t, k) => insert.run(200 + k, t));
  for (const [k, t] of [...texts.entries(), ...lone.map((t, k) => [200 + k, t] as const)]) {
    assert.equal(db.prepare('SELECT hex(x) FROM s WHERE k = ?').pluck().get(k), hex(t), `text ${k}`);
  }
  // The iterated statement reads its parameter as its scan goes (no ORDER BY, so nothing is
  // sorted up front): it must not be in the scratch buffer, which the statements run between
  // its steps write over.
  db.exec("CREATE TABLE p (g TEXT, n INTEGER); INSERT INTO p VALUES ('g1', 1), ('g1', 2), ('g1', 3), ('g2', 9)");
  const seen: number[] = [];
  for (const n of db.prepare('SELECT n FROM p WHERE g = ?').pluck().iterate('g1') as Iterable<number>) {
    seen.push(n);
    db.prepare('SELECT count(*) FROM p WHERE g = ?').pluck().get('g2-and-a-longer-text');
    insert.run(100 + n, 'overwrites the scratch buffer');
  }
  assert.deepEqual(seen, [1, 2, 3]);
  db.close();
});

test('every kind of value binds and reads back exactly, in one statement and in turn (the exports path)', async () => {
  const driver = await loadWasmDriver({ storage: 'memory' });
  const db = driver.open(':memory:');
  db.exec('CREATE TABLE v (k INTEGER PRIMARY KEY, x)');
  const values: unknown[] = [
    '',
    'a',
    '\uFEFFbom',
    '汉字📚'.repeat(20_000),
    null,
    0,
    -1,
    2 ** 31 - 1,
    2 ** 31,
    -(2 ** 31),
    -(2 ** 31) - 1,
    2 ** 53 - 1,
    -(2 ** 53) + 1,
    1.5,
    -0.25,
    1e300,
    2n ** 63n - 1n,
    -(2n ** 63n),
    7n,
    new Uint8Array([0, 255, 1]),
  ];
  const insert = db.prepare('INSERT INTO v (k, x) VALUES (?, ?)');
  values.forEach((x, k) => insert.run(k, x));
  const back = db.prepare('SELECT x FROM v ORDER BY k').pluck().safeIntegers().all();
  const exact = (x: unknown) => (typeof x === 'number' && Number.isSafeInteger(x) ? BigInt(x) : x);
  assert.deepEqual(back, values.map(exact));
  // Many values in one statement: text longer than the scratch buffer grows it; '' stays ''.
  const row = db.prepare('SELECT ?, ?, ?, ?, ?, ?').raw();
  assert.deepEqual(row.get('x'.repeat(100_000), '', 'é', 3, null, 'y'), ['x'.repeat(100_000), '', 'é', 3, null, 'y']);
  assert.deepEqual(row.get(true, false, 2 ** 40, 0.5, '', ''), [1, 0, 2 ** 40, 0.5, '', '']);
  assert.throws(() => row.get(2n ** 63n, 1, 1, 1, 1, 1), /too big/);
  // As many arguments as parameters, one of them an array: spread, as better-sqlite3 does.
  assert.deepEqual(row.get(1, [2], 3, 4, 5, 'x'), [1, 2, 3, 4, 5, 'x']);
  // A blob among them leaves the one-pass binding for the general path, and binds as a blob.
  assert.deepEqual(row.get('a', new Uint8Array([9]), 3, 4, 5, 'x'), ['a', new Uint8Array([9]), 3, 4, 5, 'x']);
  // A failure after some values were bound (text in the scratch buffer): the error names the
  // value, and the next call starts clean.
  assert.throws(() => row.get('abc', 'defghijklmn', 1, 2, 3, 2n ** 64n), /too big/);
  assert.throws(() => row.get('abc', 1, 2, 3, 4, () => 1), /cannot bind a value of type function \(parameter 6\)/);
  assert.deepEqual(row.get('p', 'q', 1, 2, 3, null), ['p', 'q', 1, 2, 3, null]);
  assert.throws(() => row.get(1, 2), /Too few parameter values/);
  assert.throws(() => row.get(1, 2, 3, 4, 5, 6, 7), /Too many parameter values/);
  db.close();
});

test("text SQLite's copy of which grows the memory while a statement binds it", async () => {
  const driver = await loadWasmDriver({ storage: 'memory' });
  const heap = () => (driver as unknown as { sqlite3: { wasm: { heap8u(): Uint8Array } } }).sqlite3.wasm.heap8u().length;
  const db = driver.open(':memory:');
  // Texts of a quarter of the memory each: the scratch buffer for all of them grows it first,
  // then SQLite's own copies of them (bound TRANSIENT) grow it again between two bindings.
  const size = Math.ceil(heap() / 4);
  const texts = ['a', 'b', 'c', 'd'].map((c) => c.repeat(size));
  const before = heap();
  assert.deepEqual(
    db
      .prepare('SELECT length(?), length(?), length(?), substr(?, -3)')
      .raw()
      .get(...texts),
    [size, size, size, 'ddd'],
  );
  assert.ok(heap() > before);
  db.close();
});

test('engine errors carry SQLite result-code names, with SQLite own message', async () => {
  const db = (await loadWasmDriver({ storage: 'memory' })).open(':memory:');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, x TEXT NOT NULL UNIQUE)');
  db.exec("INSERT INTO t VALUES (1, 'a')");
  const codeOf = (fn: () => unknown): unknown => {
    try {
      fn();
    } catch (e) {
      return [(e as { code?: string }).code, (e as Error).message];
    }
    return 'no error';
  };
  assert.deepEqual(
    codeOf(() => db.prepare("INSERT INTO t VALUES (1, 'b')").run()),
    ['SQLITE_CONSTRAINT_PRIMARYKEY', 'UNIQUE constraint failed: t.id'],
  );
  assert.deepEqual(
    codeOf(() => db.exec("INSERT INTO t VALUES (2, 'a')")),
    ['SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed: t.x'],
  );
  assert.deepEqual(
    codeOf(() => db.prepare('SELEC 1')),
    ['SQLITE_ERROR', 'near "SELEC": syntax error'],
  );
  db.close();
});

test('transactions: commit, rollback on throw, nested savepoints, immediate', async () => {
  const db = (await loadWasmDriver({ storage: 'memory' })).open(':memory:');
  db.exec('CREATE TABLE t (x INTEGER)');
  const add = db.prepare('INSERT INTO t VALUES (?)');
  const count = (): unknown => db.prepare('SELECT count(*) FROM t').pluck().get();
  const tx = db.transaction((n: number) => {
    add.run(n);
    if (n < 0) throw new Error('no negatives');
    return n;
  });
  assert.equal(tx(1), 1);
  assert.throws(() => tx(-1), /no negatives/);
  assert.equal(count(), 1);
  assert.equal(db.inTransaction, false);
  const outer = db.transaction(() => {
    tx(2);
    assert.throws(() => tx(-2));
    assert.equal(db.inTransaction, true);
    return count();
  });
  assert.equal(outer.immediate(), 2);
  assert.deepEqual(db.prepare('SELECT x FROM t ORDER BY x').pluck().all(), [1, 2]);
  db.close();
});

test('browser entry, memory storage: a store survives close and reopen under its name; typed errors', async () => {
  const store = await openStore('shelf.db', { driver: 'memory' });
  assert.equal(store.db.driver, 'wasm');
  assert.equal(store.version, 75);
  store.books.save(book('u1', { name: '雪中', author: '烽火' }));
  assert.throws(() => store.books.save(book('u2', { name: '雪中', author: '烽火' })), UniqueViolationError);
  store.close();
  assert.ok((await listStores({ driver: 'memory' })).includes('shelf.db'));
  const again = await openStore('shelf.db', { driver: 'memory' });
  assert.equal(again.books.get('u1')?.name, '雪中');
  again.close();
  assert.equal(await deleteStore('shelf.db', { driver: 'memory' }), true);
});

test('exportDatabase: a file Node opens and finds structurally sound, with the same rows', async () => {
  const store = await openStore('export.db', { driver: 'memory' });
  store.books.save(book('u1'));
  store.chapters.replaceToc('u1', [chapter('u1', 0), chapter('u1', 1)]);
  const bytes = exportDatabase(store);
  const counts = store.counts();
  store.close();
  const path = join(dir, 'from-wasm.db');
  writeFileSync(path, bytes);
  const report = inspectFile(path);
  assert.equal(report.ok, true, JSON.stringify(report.differences));
  assert.equal(report.version, 75);
  assert.deepEqual(report.rows, counts);
  const node = openFileStore(path);
  assert.equal(node.chapters.count('u1'), 2);
  node.close();
});

test('openStoreFromBytes: a Node-made file (62, and 49 as is or upgraded); refuses others and leaves storage alone', async () => {
  const path = join(dir, 'node.db');
  const made = openFileStore(path);
  made.books.save(book('n1', { name: 'from node' }));
  made.close();
  const s = await openStoreFromBytes(readFileSync(path), { driver: 'memory', name: 'n.db' });
  assert.equal(s.books.get('n1')?.name, 'from node');
  s.close();
  await assert.rejects(openStoreFromBytes(readFileSync(path), { driver: 'memory', name: 'n.db' }), FileExistsError);

  const v49 = join(dir, 'v49.db');
  createV49(v49);
  const old = await openStoreFromBytes(readFileSync(v49), { driver: 'memory' });
  assert.equal(old.version, 49);
  old.close();
  const up = await openStoreFromBytes(readFileSync(v49), { driver: 'memory', upgrade: true });
  assert.equal(up.version, 62);
  assert.equal(up.inspect().ok, true);
  up.close();

  await assert.rejects(openStoreFromBytes(new TextEncoder().encode('not a database at all'.repeat(10)), { driver: 'memory' }), NotADatabaseError);
  const plain = (await loadWasmDriver({ storage: 'memory' })).open('plain.db');
  plain.exec('CREATE TABLE x (a)');
  plain.close();
  const before = await listStores({ driver: 'memory' });
  await assert.rejects(
    openStoreFromBytes((await loadWasmDriver({ storage: 'memory' })).readFile('plain.db'), { driver: 'memory', name: 'other.db' }),
    UnsupportedVersionError,
  );
  assert.deepEqual(await listStores({ driver: 'memory' }), before);
});

test('importBackup / exportBackup on bytes: the same report and rows as the Node import of the same zip', async () => {
  const origin = openFileStore(join(dir, 'sample.db'), { schema: 62 });
  fillSample(origin);
  const zipPath = join(dir, 'sample.zip');
  await exportBackupFile(origin, zipPath);
  origin.close();

  const node = openFileStore(join(dir, 'node-import.db'));
  const nodeReport = await importBackupFile(node, zipPath);
  const wasm = await openStore('bytes-import.db', { driver: 'memory' });
  const wasmReport = await importBackup(wasm, readFileSync(zipPath), { name: 'sample.zip' });
  const stable = (r: typeof nodeReport): unknown => ({ kinds: r.kinds, totals: r.totals, skipped: r.skipped });
  assert.deepEqual(stable(wasmReport), stable(nodeReport));
  assert.deepEqual(wasm.counts(), node.counts());

  const zip = await exportBackup(wasm);
  const roundTrip = openFileStore(join(dir, 'round-trip.db'));
  writeFileSync(join(dir, 'from-wasm.zip'), zip);
  await importBackupFile(roundTrip, join(dir, 'from-wasm.zip'));
  assert.deepEqual(roundTrip.counts(), node.counts());
  for (const s of [node, wasm, roundTrip]) s.close();
});
