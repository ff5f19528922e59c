// Every failure is a LegadoStoreError with a stable code and a message naming the file, from
// every public entry point (openStore, inspectFile, migrate, the store, its tables and domain
// areas, import, export, the command line), and a refused or failed call writes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { openDb } from './helpers/engine.js';
import { exportBackup, importBackup, inspectFile, LegadoStoreError, migrate, openStore, type ErrorCode } from 'legado-store';
import { cli } from './helpers/cli.js';
import { snapshot, tempDir } from './helpers/files.js';
import { startChild } from './helpers/processes.js';
import { sampleBackup, writeBackupFolder } from './helpers/backup-fixtures.js';
import { chapter } from './helpers/domain.js';

const dir = tempDir();

/** Asserts fn fails with a LegadoStoreError of this code whose message names `names` (when given). */
function fails(fn: () => unknown, code: ErrorCode, names?: string): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof LegadoStoreError, `a LegadoStoreError, not ${String(e)}`);
    assert.equal(e.code, code, e.message);
    if (names !== undefined) assert.ok(e.message.includes(names), `"${e.message}" names ${names}`);
    return true;
  });
}
async function failsAsync(fn: () => Promise<unknown>, code: ErrorCode, names?: string): Promise<void> {
  await assert.rejects(fn, (e: unknown) => {
    assert.ok(e instanceof LegadoStoreError, `a LegadoStoreError, not ${String(e)}`);
    assert.equal(e.code, code, e.message);
    if (names !== undefined) assert.ok(e.message.includes(names), `"${e.message}" names ${names}`);
    return true;
  });
}

function storeWithBook(name: string): string {
  const path = join(dir, name);
  const s = openStore(path);
  s.books.save({ bookUrl: 'u1', name: 'One', author: 'A' });
  s.close();
  return path;
}

test('a closed store: every method of the store, its tables and areas, import and export are STORE_CLOSED', async () => {
  const path = storeWithBook('closed.db');
  const store = openStore(path);
  store.close();
  fails(() => store.books.shelf(-1), 'STORE_CLOSED', path);
  fails(() => store.tables.books.get('u1'), 'STORE_CLOSED', path);
  fails(() => store.tables.books.insert({ bookUrl: 'u2', name: 'x', author: 'y' }), 'STORE_CLOSED', path);
  fails(() => [...store.tables.books.iterate()], 'STORE_CLOSED', path);
  fails(() => store.transaction(() => 1), 'STORE_CLOSED', path);
  fails(() => store.counts(), 'STORE_CLOSED', path);
  fails(() => store.inspect(), 'STORE_CLOSED', path);
  fails(() => store.cache.get('k'), 'STORE_CLOSED', path);
  await failsAsync(() => importBackup(store, [writeBackupFolder(join(dir, 'closed-in'), sampleBackup())]), 'STORE_CLOSED', path);
  await failsAsync(() => exportBackup(store, join(dir, 'closed-out.zip')), 'STORE_CLOSED', path);
  assert.equal(existsSync(join(dir, 'closed-out.zip')), false);
  store.close(); // closing twice is fine
});

test('a write to a readonly store is READ_ONLY and changes nothing', async () => {
  const path = storeWithBook('ro.db');
  const before = snapshot(path);
  const store = openStore(path, { readonly: true });
  try {
    assert.equal(store.books.shelf(-1).length, 1, 'reads work');
    fails(() => store.books.save({ bookUrl: 'u2', name: 'Two', author: 'B' }), 'READ_ONLY', path);
    fails(() => store.tables.caches.upsert({ key: 'k', value: 'v', deadline: 0 }), 'READ_ONLY', path);
    fails(() => store.transaction(() => store.cache.put('k', 'v')), 'READ_ONLY', path);
    await failsAsync(() => importBackup(store, [writeBackupFolder(join(dir, 'ro-in'), sampleBackup())]), 'READ_ONLY', path);
  } finally {
    store.close();
  }
  assert.deepEqual(snapshot(path), before);
});

test('a folder, a missing parent folder, a NUL byte as the path: CANNOT_OPEN, and no file created', async () => {
  const folder = join(dir, 'a-folder');
  mkdirSync(folder);
  const missing = join(dir, 'no-such-folder', 'x.db');
  for (const p of [folder, missing]) {
    fails(() => openStore(p), 'CANNOT_OPEN', p);
    fails(() => migrate(p), p === folder ? 'CANNOT_OPEN' : 'FILE_NOT_FOUND', p);
  }
  fails(() => inspectFile(folder), 'CANNOT_OPEN', folder);
  fails(() => inspectFile(missing), 'FILE_NOT_FOUND', missing);
  const nul = join(dir, 'a\0b.db');
  fails(() => openStore(nul), 'CANNOT_OPEN');
  fails(() => inspectFile(nul), 'CANNOT_OPEN');
  fails(() => migrate(nul), 'CANNOT_OPEN');
  assert.equal(existsSync(join(dir, 'a')), false, 'SQLite did not create the name before the NUL');
  assert.deepEqual(readdirSync(folder), []);
  let r = await cli('info', folder);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^legado-store: CANNOT_OPEN: .*a-folder.*folder/);
  r = await cli('import', missing, writeBackupFolder(join(dir, 'cli-in'), sampleBackup()));
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^legado-store: CANNOT_OPEN: .*no-such-folder/);
});

test('an unsupported schema from JavaScript (48, 76, "x") is UNSUPPORTED_VERSION and leaves no file behind', () => {
  for (const schema of [48, 76, 'x', 62.5, null] as unknown as 62[]) {
    const path = join(dir, `new-${String(schema)}.db`);
    fails(() => openStore(path, { schema }), 'UNSUPPORTED_VERSION', path);
    assert.equal(existsSync(path), false, `nothing created for schema ${String(schema)}`);
  }
  const existing = storeWithBook('v62.db');
  const before = snapshot(existing);
  fails(() => openStore(existing, { schema: 76 as 62 }), 'UNSUPPORTED_VERSION', existing);
  fails(() => openStore(existing, { busyTimeout: -1 }), 'INVALID_ARGUMENT');
  assert.deepEqual(snapshot(existing), before);
});

test('a store that cannot be created (disk full) leaves no file; a full disk mid-write is DISK_FULL and rolls back', () => {
  const path = storeWithBook('full.db');
  const store = openStore(path);
  try {
    const pages = store.db.pragma('page_count', { simple: true }) as number;
    store.db.pragma(`max_page_count = ${pages}`);
    const big = 'x'.repeat(200_000);
    fails(() => store.tables.caches.insert({ key: 'big', value: big, deadline: 0 }), 'DISK_FULL', path);
    fails(
      () =>
        store.transaction(() => {
          store.cache.put('small', 'v');
          store.cache.put('big', big);
        }),
      'DISK_FULL',
      path,
    );
    assert.equal(store.cache.get('small'), undefined, 'the transaction was rolled back');
    assert.equal(store.tables.books.list().length, 1);
  } finally {
    store.close();
  }
});

test('store.table() and list options: no prototype member as a table; negative, huge and odd arguments are typed errors', () => {
  const store = openStore(':memory:');
  try {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) fails(() => store.table(name), 'UNKNOWN_TABLE');
    const books = store.tables.books;
    fails(() => books.list({ limit: -1 }), 'INVALID_ARGUMENT');
    fails(() => books.list({ offset: -5 }), 'INVALID_ARGUMENT');
    fails(() => books.list({ limit: 1e20 }), 'INVALID_ARGUMENT');
    fails(() => books.list({ limit: 10, offset: 1e20 }), 'INVALID_ARGUMENT');
    fails(() => books.list({ orderBy: [['name', 'sideways' as 'asc']] }), 'INVALID_ARGUMENT');
    fails(() => books.list({ orderBy: ['name', 'sideways' as 'asc'] }), 'UNKNOWN_FIELD');
    fails(() => books.count({ name: { like: 5 as unknown as string } }), 'WRONG_TYPE');
    assert.deepEqual(books.list({ limit: 0 }), []);
    assert.deepEqual(books.list({ limit: 2 ** 62 }), []);
  } finally {
    store.close();
  }
});

test('an async function given to store.transaction is refused before it runs; a promise-returning one is rolled back', async () => {
  const store = openStore(':memory:');
  try {
    let ran = false;
    fails(
      () =>
        store.transaction((async () => {
          ran = true;
          store.cache.put('a', '1');
          await Promise.resolve();
          store.cache.put('b', '2');
        }) as () => never),
      'INVALID_ARGUMENT',
      'synchronous',
    );
    assert.equal(ran, false);
    fails(
      () =>
        store.transaction(() => {
          store.cache.put('c', '3');
          return Promise.resolve();
        }),
      'INVALID_ARGUMENT',
      'promise',
    );
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(store.cache.get('a'), undefined);
    assert.equal(store.cache.get('b'), undefined);
    assert.equal(store.cache.get('c'), undefined, 'rolled back');
  } finally {
    store.close();
  }
});

test('a lock held by another process past busyTimeout is BUSY from the tables, the areas, transactions, import and migrate', async () => {
  const path = storeWithBook('busy.db');
  const holder = await startChild('lock-holder', [path, '4000'], 'locked');
  try {
    const store = openStore(path, { busyTimeout: 200 });
    try {
      fails(() => store.tables.caches.insert({ key: 'k', value: 'v', deadline: 0 }), 'BUSY', path);
      fails(() => store.books.save({ bookUrl: 'u9', name: 'Nine', author: 'N' }), 'BUSY', path);
      fails(() => store.transaction(() => store.cache.put('k', 'v')), 'BUSY', path);
      await failsAsync(() => importBackup(store, [writeBackupFolder(join(dir, 'busy-in'), sampleBackup())]), 'BUSY', path);
      assert.equal(store.books.shelf(-1).length, 1, 'reading goes on while another process writes (WAL)');
    } finally {
      store.close();
    }
    const r = await cli('import', path, join(dir, 'busy-in'));
    // The command line waits the default 5 s, longer than the holder's 4 s: it gets through.
    assert.equal(r.code, 0, r.stderr);
  } finally {
    holder.child.kill();
    await holder.exited;
  }
  const db = openDb(path, { readonly: true });
  assert.equal(db.prepare("SELECT count(*) FROM books WHERE bookUrl = 'u9'").pluck().get(), 0, 'the refused write left nothing');
  db.close();
});

test('a damaged file is CORRUPT (naming the file) from the tables and domain areas', () => {
  const path = storeWithBook('damaged.db');
  const s = openStore(path);
  s.tables.chapters.insertMany(Array.from({ length: 2000 }, (_, i) => chapter('u1', i, { title: `t${i}`.repeat(20) })));
  s.close();
  // Scribble over the pages after the first few (the schema stays readable; the rows do not).
  const db = openDb(path);
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const pages = db.pragma('page_count', { simple: true }) as number;
  db.close();
  const fd = openSync(path, 'r+');
  for (let p = Math.floor(pages / 2); p < pages; p += 3) writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, p * pageSize);
  closeSync(fd);
  const store = openStore(path);
  try {
    fails(() => store.tables.chapters.list(), 'CORRUPT', path);
    fails(() => store.chapters.count('u1') + store.tables.chapters.list({ where: { title: 'x' } }).length, 'CORRUPT', path);
  } finally {
    store.close();
  }
});
