// Importing another Legado database file: a LegadoTeam 104 file (refused as a store, imported
// by the tables and columns it shares), a 49 file, a file the store knows nothing of. The
// source is left byte-for-byte as it was, with no new file beside it, and rows only in its
// -wal are carried.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { openDb, type Connection } from './helpers/engine.js';
import { LegadoStoreError, openStore, schemas } from 'legado-store';
import { importDatabase, type DatabaseImportResult } from '../src/backup/database.js';
import { UnsupportedInputError } from 'legado-store/errors';
import { cli } from './helpers/cli.js';
import { withDb } from './helpers/dump.js';
import { snapshot, tempDir } from './helpers/files.js';
import { createRoomFile, fillRoomRows, roomSchema } from './helpers/room-oracle.js';
import { WAL_BOOK, copyWithLiveWal, createV49 } from './helpers/v49-fixture.js';

const dir = tempDir('legado-import-db-');
let n = 0;
const fresh = (name = 'f'): string => join(dir, `${name}${n++}.db`);

/** Everything on disk about the source: its bytes and companions, and the folder's listing. */
function untouched(path: string): () => void {
  const before = snapshot(path);
  const listing = readdirSync(dirname(path)).sort();
  return () => {
    assert.deepEqual(snapshot(path), before, 'the source and its -wal/-shm/-journal are byte-for-byte as they were');
    assert.deepEqual(readdirSync(dirname(path)).sort(), listing, 'nothing new beside the source');
  };
}

/** A path in a folder of its own, so the folder's listing shows anything written beside it. */
function alone(name: string): string {
  const sub = join(dir, `alone${n++}`);
  mkdirSync(sub);
  return join(sub, name);
}

/** Rows of `table` by the given columns in key order, read with plain SQLite. */
function rowsOf(db: Connection, table: string, columns: readonly string[], key: readonly string[]): unknown[] {
  const cols = columns.map((c) => `\`${c}\``).join(', ');
  return db
    .prepare(`SELECT ${cols} FROM \`${table}\` ORDER BY ${key.map((c) => `\`${c}\``).join(', ')}`)
    .raw()
    .safeIntegers(true)
    .all();
}

/** A LegadoTeam 104 file as that app creates it, with rows, the last of them only in its -wal. */
function legadoTeam104(): string {
  const path = alone('legado.db');
  const built = join(dir, `build${n++}.db`);
  createRoomFile(built, roomSchema(104));
  const writer = openDb(built);
  writer.pragma('journal_mode = WAL');
  fillRoomRows(writer, roomSchema(104));
  writer.pragma('wal_checkpoint(TRUNCATE)');
  writer.pragma('wal_autocheckpoint = 0');
  writer
    .prepare(
      'INSERT INTO book_groups (groupId, groupName, "order", enableRefresh, show, bookSort, onlyUpdateRead) VALUES (4096, \'只在WAL里\', 9, 1, 1, -1, 1)',
    )
    .run();
  for (const s of ['', '-wal', '-shm']) copyFileSync(built + s, path + s);
  writer.close();
  rmSync(built);
  return path;
}

test('a LegadoTeam 104 file is refused as a store and imported into a 62 and a 75 store by the tables and columns it shares', () => {
  const source = legadoTeam104();
  // Refused as a store, the file and its -wal unchanged (a reader notes itself in the -shm).
  const before = snapshot(source);
  assert.throws(
    () => openStore(source),
    (e: unknown) => e instanceof LegadoStoreError && e.code === 'UNSUPPORTED_VERSION' && /LegadoTeam/.test(e.message) && /legado-store import/.test(e.message),
  );
  const after = snapshot(source);
  assert.deepEqual([after.main, after['-wal']], [before.main, before['-wal']]);

  const check = untouched(source);
  for (const at of [62, 75] as const) {
    const unchanged = untouched(source);
    const store = openStore(fresh('store'), { schema: at, specialGroups: false });
    let result: DatabaseImportResult;
    try {
      result = importDatabase(store, source);
    } finally {
      store.close();
    }
    unchanged();
    assert.equal(result.source.version, 104);
    assert.equal(result.source.identityHash, roomSchema(104).identityHash);
    assert.match(result.source.description, /schema 104 of the LegadoTeam line/);

    // What 104 has beyond the store's version, from the two exported schemas: every such table and column is named.
    const s104 = roomSchema(104);
    const mine = roomSchema(at);
    const have = new Map(mine.entities.map((e) => [e.tableName, new Set(e.fields.map((f) => f.columnName))]));
    const tables = s104.entities
      .filter((e) => !have.has(e.tableName))
      .map((e) => e.tableName)
      .sort();
    const columns = s104.entities
      .filter((e) => have.has(e.tableName))
      .flatMap((e) => e.fields.filter((f) => !have.get(e.tableName)!.has(f.columnName)).map((f) => `${e.tableName}.${f.columnName}`))
      .sort();
    assert.deepEqual(result.notCarried.tables.map((t) => t.table).sort(), tables);
    assert.ok(tables.includes('highlights') && columns.includes('chapters.imgUrl') && columns.includes('books.durVolumeIndex'));
    assert.equal(columns.includes('book_sources.jsLib'), at === 62, 'jsLib is carried into a 75 store');
    assert.deepEqual(result.notCarried.columns.map((c) => `${c.table}.${c.column}`).sort(), columns);
    for (const t of result.notCarried.tables) assert.equal(t.rows, 6, t.table);
    assert.ok(result.notCarried.columns.every((c) => c.values > 0 && c.reason.includes(`schema ${at}`)));

    // Every shared table row for row, by the store's columns; the group only in the -wal is there.
    assert.equal(result.totals.skipped, 0, JSON.stringify(result.skipped.slice(0, 3)));
    const copy = fresh('copy');
    for (const s of ['', '-wal']) copyFileSync(source + s, copy + s);
    withDb(copy, (src) =>
      withDb(result.store, (dst) => {
        for (const e of mine.entities) {
          const in104 = s104.entities.find((x) => x.tableName === e.tableName)!.fields.map((f) => f.columnName);
          const cols = e.fields.map((f) => f.columnName).filter((c) => in104.includes(c));
          const key = e.primaryKey.columnNames;
          // Room reads a boolean as `getInt() != 0`: the store writes it back as 0 or 1.
          const bools = cols.map((c) => schemas[at].table(e.tableName)!.columns.find((m) => m.name === c)!.js === 'boolean');
          const expected = (rowsOf(src, e.tableName, cols, key) as unknown[][]).map((r) =>
            r.map((v, i) => (bools[i] && v !== null ? (v === 0n ? 0n : 1n) : v)),
          );
          // A books.type below 8 is an old code, by hand as Book.upType(): 0→8, 1→32, 2→64, 3→128, +256 for a local origin.
          if (e.tableName === 'books') {
            const [t, o] = [cols.indexOf('type'), cols.indexOf('origin')];
            for (const r of expected) {
              if ((r[t] as bigint) >= 8n) continue;
              const bit = [8n, 32n, 64n, 128n][Number(r[t])] ?? 8n;
              r[t] = r[o] === 'loc_book' || String(r[o]).startsWith('webDav::') ? bit | 256n : bit;
            }
          }
          assert.deepEqual(rowsOf(dst, e.tableName, cols, key), expected, `${at}: ${e.tableName}`);
        }
        assert.equal(dst.prepare('SELECT groupName FROM book_groups WHERE groupId = 4096').pluck().get(), '只在WAL里');
        // A column 104 no longer has (deleted at 65) takes its default at 62: NULL.
        if (at === 62) assert.equal(dst.prepare('SELECT count(*) FROM book_sources WHERE enabledReview IS NOT NULL').pluck().get(), 0);
      }),
    );
  }
  check();
});

test('a 49 file is imported into a 62 store: book types become the bitmask, the merge rules hold', () => {
  const source = fresh('v49');
  createV49(source);
  const walSource = alone('v49wal.db');
  copyWithLiveWal(source, walSource);
  const check = untouched(walSource);
  const path = fresh('store');
  const store = openStore(path);
  // Already in the store: a newer reading time (kept), a book under another url with the same name and author (replaced).
  const [first] = withDb(source, (db) => db.prepare('SELECT bookUrl, name, author FROM books ORDER BY bookUrl LIMIT 1').all()) as {
    bookUrl: string;
    name: string;
    author: string;
  }[];
  store.tables.books.insert({ bookUrl: 'https://elsewhere/x', name: first!.name, author: first!.author });
  store.tables.readRecord.insert({ deviceId: '', bookName: WAL_BOOK.name, readTime: 10 ** 12 });
  let result: DatabaseImportResult;
  try {
    result = importDatabase(store, walSource);
    assert.equal(store.tables.books.has('https://elsewhere/x'), false, 'replaced by the imported book');
    assert.equal(store.tables.readRecord.get({ deviceId: '', bookName: WAL_BOOK.name })!.readTime, 10 ** 12, 'the larger reading time wins');
    assert.equal(store.tables.books.get(WAL_BOOK.bookUrl)!.type, 32, 'the book only in the -wal, audio (old code 1) as the bitmask');
    const local = store.tables.books.list({ where: { origin: 'loc_book' } });
    assert.ok(local.length > 0 && local.every((b) => (b.type & 256) !== 0), 'local books carry the local bit');
    assert.equal(store.tables.chapters.count({ bookUrl: WAL_BOOK.bookUrl }), 40);
  } finally {
    store.close();
  }
  check();
  assert.equal(result.kinds.book!.replaced, 1);
  assert.equal(result.kinds.readRecord!.unchanged, 1);
  assert.deepEqual(result.notCarried, { tables: [], columns: [] }, 'a 62 store has a place for everything of 49');
  assert.equal(result.totals.skipped, 0);
});

test('a file in rollback-journal mode is read in place, read-only, and nothing is written beside it', () => {
  const wal = fresh('wal');
  createV49(wal);
  const source = alone('app.db');
  withDb(wal, (db) => {
    db.exec(`VACUUM INTO '${join(dir, 'tmp-journal.db')}'`);
  });
  copyFileSync(join(dir, 'tmp-journal.db'), source);
  rmSync(join(dir, 'tmp-journal.db'));
  withDb(source, (db) => db.pragma('journal_mode = DELETE'));
  const check = untouched(source);
  const store = openStore(fresh('store'));
  try {
    const r = importDatabase(store, source);
    assert.ok(r.totals.stored > 0);
  } finally {
    store.close();
  }
  check();
});

test('a SQLite file that shares no table with the store is refused, and the store is unchanged', () => {
  const other = fresh('other');
  withDb(other, (db) => db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes VALUES (1, 'x')"));
  const store = openStore(fresh('store'));
  try {
    assert.throws(
      () => importDatabase(store, other),
      (e: unknown) => e instanceof UnsupportedInputError && /shares no table/.test(e.message),
    );
    assert.throws(() => importDatabase(store, store.path), UnsupportedInputError);
    assert.equal(store.tables.books.count(), 0);
  } finally {
    store.close();
  }
});

test('legado-store import tells a database file from a backup by its header', async () => {
  const source = fresh('v49');
  createV49(source);
  const target = fresh('cli');
  const r = await cli('import', target, source, '--json');
  assert.equal(r.code, 0, r.stderr);
  const summary = JSON.parse(r.stdout) as DatabaseImportResult;
  assert.equal(summary.source.version, 49);
  assert.ok(summary.kinds.book!.stored > 0 && summary.kinds.chapters!.stored > 0);
  const plain = await cli('import', fresh('cli'), source);
  assert.equal(plain.code, 0, plain.stderr);
  assert.match(plain.stdout, /^from .*: schema 49 of the app's main line \(.*\), into schema 75$/m);
  assert.match(plain.stdout, /^book +\d+ +\d+/m);
  const mixed = await cli('import', fresh('cli'), source, join(dir, 'sources.json'));
  assert.equal(mixed.code, 2);
  assert.match(mixed.stderr, /database file: import it on its own/);
});
