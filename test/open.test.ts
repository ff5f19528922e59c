// openStore on existing files: what opens, what is refused (with what error), and that a refused
// file is left byte-for-byte as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDb } from './helpers/engine.js';
import {
  NotADatabaseError,
  SchemaMismatchError,
  UnsupportedVersionError,
  VersionMismatchError,
  inspectFile,
  openStore,
  schemas,
  SUPPORTED_VERSIONS,
  NEWEST_VERSION,
} from 'legado-store';
import { FileNotFoundError } from 'legado-store/errors';
import { tempDir, snapshot } from './helpers/files.js';

const dir = tempDir();
let n = 0;

/** A closed, checkpointed schema file to tamper with. */
function storeFile(version: 62 | 49 | 75 = 62): string {
  const path = join(dir, `f${n++}.db`);
  const s = openStore(path, { schema: version });
  s.tables.books.insert({ bookUrl: 'b1', name: 'N', author: 'A' });
  s.close();
  return path;
}

/** Runs raw SQL on a file with a plain connection, as another program would. */
function tamper(path: string, sql: string): void {
  const db = openDb(path);
  db.exec(sql);
  db.close();
}

function assertRefused<E extends Error>(path: string, errorClass: new (...a: never[]) => E, check?: (e: E) => void) {
  const before = snapshot(path);
  assert.throws(
    () => openStore(path),
    (e: unknown) => {
      assert.ok(e instanceof errorClass, `expected ${errorClass.name}, got ${String(e)}`);
      check?.(e);
      return true;
    },
  );
  assert.deepEqual(snapshot(path), before, 'the refused file must not change');
}

test('an existing store opens at its own version, with its rows', () => {
  const p62 = storeFile(62);
  const s = openStore(p62);
  assert.equal(s.version, 62);
  assert.equal(s.tables.books.get('b1')?.name, 'N');
  s.close();
  const p49 = storeFile(49);
  const s49 = openStore(p49);
  assert.equal(s49.version, 49);
  assert.equal(s49.tables.books.count(), 1);
  assert.equal((s49.tables as Record<string, unknown>)['dictRules'], undefined);
  s49.close();
});

test('asking for another version than the file has is refused, and the file is untouched', () => {
  const p49 = storeFile(49);
  const before = snapshot(p49);
  assert.throws(
    () => openStore(p49, { schema: 62 }),
    (e: unknown) => e instanceof VersionMismatchError && e.found === 49 && e.expected === 62 && /upgrade/.test(e.message),
  );
  assert.deepEqual(snapshot(p49), before);
  const p62 = storeFile(62);
  assert.throws(
    () => openStore(p62, { schema: 49 }),
    (e: unknown) => e instanceof VersionMismatchError && /downgrading is not supported/.test(e.message),
  );
});

test('a version outside 49 to 75 names the version, its hash and line, what is supported, and the import', () => {
  const supported = Array.from({ length: 27 }, (_, i) => 49 + i);
  // A LegadoTeam file: version and hash of its line (the structure does not matter for the refusal).
  const team = storeFile();
  tamper(team, "PRAGMA user_version = 104; UPDATE room_master_table SET identity_hash = 'f104c9211bea7c0fe485a49d3c7aaa4a'");
  assertRefused(team, UnsupportedVersionError, (e) => {
    assert.equal(e.code, 'UNSUPPORTED_VERSION');
    assert.equal(e.found, 104);
    assert.equal(e.identityHash, 'f104c9211bea7c0fe485a49d3c7aaa4a');
    assert.deepEqual(e.supported, supported);
    assert.match(e.message, /schema 104 of the LegadoTeam line \(app releases 3\.26\.\*\) is not supported as a store \(supported: 49 to 75\)/);
    assert.match(e.message, /legado-store import <store> .*f\d+\.db/);
  });
  // Another fork reusing the number 80 for another structure: an unknown hash.
  const fork = storeFile();
  tamper(fork, "PRAGMA user_version = 80; UPDATE room_master_table SET identity_hash = '0123456789abcdef0123456789abcdef'");
  assertRefused(fork, UnsupportedVersionError, (e) => {
    assert.equal(e.found, 80);
    assert.match(e.message, /schema 80 with identity hash 0123456789abcdef0123456789abcdef, which no known line has: a fork/);
  });
  // A LegadoTeam hash under another number is named by its hash.
  const renumbered = storeFile();
  tamper(renumbered, "PRAGMA user_version = 90; UPDATE room_master_table SET identity_hash = '435e0f4a58ab117bc7d64b85c315aab4'");
  assertRefused(renumbered, UnsupportedVersionError, (e) => assert.match(e.message, /schema 90 with the identity hash of the LegadoTeam line 76\/77/));
  const old = storeFile(49);
  tamper(old, "PRAGMA user_version = 48; UPDATE room_master_table SET identity_hash = 'ffffffffffffffffffffffffffffffff'");
  assertRefused(old, UnsupportedVersionError, (e) => {
    assert.equal(e.found, 48);
    assert.match(e.message, /schema 48, older than 49, with identity hash f{32}, which no known line has/);
  });
  const zero = join(dir, 'other-app.db');
  tamper(zero, 'CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)');
  assertRefused(zero, UnsupportedVersionError, (e) => {
    assert.match(e.message, /not a Legado store/);
    assert.doesNotMatch(e.message, /legado-store import/);
  });
});

test('a file that is not a SQLite database gets a clear error and is untouched', () => {
  const path = join(dir, 'notes.txt');
  writeFileSync(path, 'these are not the pages you are looking for\n'.repeat(200));
  assertRefused(path, NotADatabaseError, (e) => {
    assert.equal(e.code, 'NOT_A_DATABASE');
    assert.match(e.message, /notes\.txt: not a SQLite database/);
  });
  assert.throws(() => inspectFile(path), NotADatabaseError);
});

test('a structure that does not match lists every difference and leaves the file untouched', () => {
  const path = storeFile();
  tamper(
    path,
    `DROP INDEX index_books_name_author;
     CREATE INDEX index_books_extra ON books (author);
     ALTER TABLE chapters ADD COLUMN wordCount TEXT;
     DROP TABLE servers;
     ALTER TABLE caches RENAME TO caches_old;
     DROP INDEX index_caches_key;
     CREATE TABLE caches (key TEXT NOT NULL, value INTEGER, deadline INTEGER, PRIMARY KEY(key));
     CREATE UNIQUE INDEX index_caches_key ON caches (key);
     ALTER TABLE book_groups RENAME TO bg_old;
     CREATE TABLE book_groups (groupId INTEGER NOT NULL, groupName TEXT NOT NULL, cover TEXT, "order" INTEGER NOT NULL, show INTEGER NOT NULL, bookSort INTEGER NOT NULL DEFAULT 0, PRIMARY KEY(groupId));`,
  );
  assertRefused(path, SchemaMismatchError, (e) => {
    assert.equal(e.code, 'SCHEMA_MISMATCH');
    const got = e.differences.map((d) => `${d.kind} ${d.table} ${d.item ?? ''}`.trim()).sort();
    assert.deepEqual(got, [
      'column-default book_groups bookSort',
      'column-not-null caches deadline',
      'column-type caches value',
      'extra-column chapters wordCount',
      'extra-index books index_books_extra',
      'missing-index books index_books_name_author',
      'missing-table servers',
    ]);
    assert.match(e.message, /book_groups\.bookSort: default 0 \(expected -1\)/);
    assert.match(e.message, /7 differences/);
  });
  // inspectFile reports the same without throwing, and changes nothing either.
  const before = snapshot(path);
  const r = inspectFile(path);
  assert.equal(r.ok, false);
  assert.equal(r.differences.length, 7);
  assert.deepEqual([...r.extraTables].sort(), ['bg_old', 'caches_old']);
  assert.deepEqual(snapshot(path), before);
});

test('one change alone is found: an extra or missing index, a missing view, a table rebuilt with another type', () => {
  const cases: [string, string, 75?][] = [
    ['CREATE INDEX index_books_extra ON books (author)', 'extra-index books index_books_extra'],
    ['DROP INDEX index_books_name_author', 'missing-index books index_books_name_author'],
    ['DROP INDEX index_chapters_bookUrl', 'missing-index chapters index_chapters_bookUrl'],
    [
      'ALTER TABLE caches RENAME TO caches_old; DROP INDEX index_caches_key; CREATE TABLE caches (`key` TEXT NOT NULL, `value` TEXT, `deadline` TEXT NOT NULL, PRIMARY KEY(`key`)); CREATE UNIQUE INDEX `index_caches_key` ON `caches` (`key`)',
      'column-type caches deadline',
    ],
  ];
  for (const [sql, difference, version] of [...cases, ['DROP VIEW book_sources_part', 'missing-view book_sources_part', 75] as const]) {
    const path = storeFile(version ?? 62);
    tamper(path, sql);
    assertRefused(path, SchemaMismatchError, (e) => {
      assert.deepEqual(
        e.differences.map((d) => `${d.kind} ${d.table} ${d.item ?? ''}`.trim()),
        [difference],
      );
    });
  }
  // The same DDL in other words (spacing, quotes) is the same structure: it opens.
  const path = storeFile();
  tamper(
    path,
    'ALTER TABLE caches RENAME TO caches_old; DROP INDEX index_caches_key; CREATE TABLE caches ( key TEXT  NOT NULL , value TEXT, deadline INTEGER NOT NULL, PRIMARY KEY (key) ); CREATE UNIQUE INDEX index_caches_key ON caches(key); DROP TABLE caches_old',
  );
  openStore(path).close();
});

test('a wrong identity hash is a difference (Room cannot verify the data integrity)', () => {
  const path = storeFile();
  tamper(path, "UPDATE room_master_table SET identity_hash = '0123456789abcdef0123456789abcdef' WHERE id = 42");
  assertRefused(path, SchemaMismatchError, (e) => {
    assert.deepEqual(
      e.differences.map((d) => d.kind),
      ['identity-hash'],
    );
    assert.equal(e.differences[0]?.expected, schemas[62].identityHash);
  });
});

test('columns appended by ALTER TABLE in another order, android_metadata and sqlite_sequence still open', () => {
  const path = join(dir, 'altered.db');
  // Build book_groups the way an old file got it: bookSort added later by ALTER, columns shuffled.
  const s = openStore(path, { schema: 62 });
  s.close();
  tamper(
    path,
    `DROP TABLE book_groups;
     CREATE TABLE book_groups (show INTEGER NOT NULL, groupName TEXT NOT NULL, groupId INTEGER NOT NULL, cover TEXT, "order" INTEGER NOT NULL, PRIMARY KEY(groupId));
     ALTER TABLE book_groups ADD COLUMN bookSort INTEGER NOT NULL DEFAULT -1;
     INSERT INTO book_groups (show, groupName, groupId, "order") VALUES (1, '全部', -1, -10);`,
  );
  const store = openStore(path);
  assert.deepEqual(store.tables.book_groups.get(-1), { groupId: -1n, groupName: '全部', cover: null, order: -10, show: true, bookSort: -1 });
  store.tables.book_groups.insert({ groupId: 4, groupName: 'x', order: 1, show: false });
  assert.equal(store.inspect().ok, true);
  store.close();
});

test('other tables beside the schema are reported, not refused', () => {
  const path = storeFile();
  tamper(path, 'CREATE TABLE my_notes (x TEXT)');
  const store = openStore(path);
  assert.deepEqual(store.inspect().extraTables, ['my_notes']);
  store.close();
});

test('a missing file is created at 75, the newest of the main line (NEWEST_VERSION), unless a schema is asked for', () => {
  assert.equal(NEWEST_VERSION, 75);
  const path = join(dir, 'newest.db');
  const s = openStore(path);
  assert.equal(s.version, 75);
  s.close();
  const db = openDb(path, { readonly: true });
  assert.equal(db.pragma('user_version', { simple: true }), 75);
  assert.equal(db.prepare('SELECT identity_hash FROM room_master_table WHERE id = 42').pluck().get(), 'e22b36ff0280a224a30d08dd6e9bd7be');
  assert.equal(db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'view' AND name = 'book_sources_part'").pluck().get(), 1);
  db.close();
  const asked = join(dir, 'asked62.db');
  openStore(asked, { schema: 62 }).close();
  const db62 = openDb(asked, { readonly: true });
  assert.equal(db62.pragma('user_version', { simple: true }), 62);
  db62.close();
});

test('a missing file is created unless create is false; a 0-byte file becomes a new store', () => {
  const missing = join(dir, 'nope', 'x.db');
  assert.throws(() => openStore(join(dir, 'absent.db'), { create: false }), FileNotFoundError);
  assert.equal(existsSync(join(dir, 'absent.db')), false);
  assert.throws(() => openStore(missing));
  const empty = join(dir, 'empty.db');
  writeFileSync(empty, '');
  const s = openStore(empty, { schema: 49 });
  assert.equal(s.version, 49);
  s.close();
  assert.equal(inspectFile(empty).ok, true);
});

test('rows still in the -wal file are seen by a second store on the same file', () => {
  const path = join(dir, 'wal.db');
  const writer = openStore(path);
  writer.tables.books.insert({ bookUrl: 'w1', name: 'in the wal', author: '' });
  assert.ok(existsSync(path + '-wal'));
  const copy = join(dir, 'wal-copy.db');
  // Copy main file and WAL while the writer is open: the main file alone lacks the row.
  copyFileSync(path, copy);
  copyFileSync(path + '-wal', copy + '-wal');
  const reader = openStore(copy);
  assert.equal(reader.tables.books.get('w1')?.name, 'in the wal');
  reader.close();
  writer.close();
});

test('a read-only store reads but does not write', () => {
  const path = storeFile();
  const before = snapshot(path);
  const ro = openStore(path, { readonly: true });
  assert.equal(ro.tables.books.count(), 1);
  assert.throws(() => ro.tables.books.insert({ bookUrl: 'x' }), /readonly/i);
  ro.close();
  assert.deepEqual(snapshot(path).main, before.main);
});

test('connection settings: WAL, foreign keys, a memory map for reads; none of it stored in the file', () => {
  const path = storeFile();
  const header = snapshot(path);
  const s = openStore(path, { schema: 62 });
  assert.equal(s.db.pragma('journal_mode', { simple: true }), 'wal');
  assert.equal(s.db.pragma('foreign_keys', { simple: true }), 1);
  // Engines built without memory maps answer 0 (and WASM is not asked): never an error.
  const mmap = Number(s.db.pragma('mmap_size', { simple: true }));
  if (s.db.driver === 'better-sqlite3' || s.db.driver === 'node:sqlite') assert.equal(mmap, 1024 * 1024 * 1024);
  assert.equal(s.tables.books.get('b1')?.name, 'N', 'reads through the map');
  s.close();
  assert.deepEqual(snapshot(path), header, 'opening and reading changed nothing in the file');
  const other = openDb(path);
  assert.equal(other.pragma('mmap_size', { simple: true }), 0, 'a per-connection setting: the next connection has the default');
  other.close();
});

test("a process builds only the schemas it uses: none on import, the file's own on open; naming the file builds the rest", () => {
  const file = storeFile(75);
  const script = join(dir, 'lazy-schemas.mjs');
  writeFileSync(
    script,
    `const { openStore, inspectFile, schemas } = await import(${JSON.stringify(new URL('../src/index.js', import.meta.url).href)});
const built = () => Object.keys(schemas).filter((k) => 'value' in Object.getOwnPropertyDescriptor(schemas, k));
const out = { load: built() };
openStore(${JSON.stringify(file)}).close();
out.open = built();
const r = inspectFile(${JSON.stringify(file)});
out.description = r.description;
out.line = r.known.line;
out.named = built().length;
console.log(JSON.stringify(out));`,
  );
  const r = spawnSync(process.execPath, [script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout.trim().split('\n').pop()!);
  assert.deepEqual(out.load, []);
  assert.deepEqual(out.open, ['75']);
  assert.match(out.description, /^schema 75 of the app's main line/);
  assert.equal(out.line, 'legado');
  assert.equal(out.named, SUPPORTED_VERSIONS.length);
  // In this process: every version a key, each built once.
  assert.deepEqual(Object.keys(schemas).map(Number), [...SUPPORTED_VERSIONS]);
  assert.equal(schemas[70], schemas[70]);
  assert.equal(schemas[70].version, 70);
});
