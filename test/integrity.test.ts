// verify means what Room means, and more: row 42 of room_master_table, quick_check by default,
// integrity_check, foreign_key_check and the app's invariants with --deep; a damaged file, or a
// stale or foreign -wal beside an intact one, is refused before anything is written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspectFile, migrate, NotADatabaseError, openStore, SchemaMismatchError } from 'legado-store';
import { CorruptError } from 'legado-store/errors';
import { cli } from './helpers/cli.js';
import { chapter } from './helpers/domain.js';
import { openDb } from './helpers/engine.js';
import { snapshot, tempDir } from './helpers/files.js';

const dir = tempDir();

/** A closed store with one book and `n` chapters. */
function storeWith(name: string, book: string, n: number): string {
  const path = join(dir, name);
  const s = openStore(path, { schema: 62 });
  s.books.save({ bookUrl: book, name: book, author: 'A' });
  s.transaction(() => {
    for (let i = 0; i < n; i++) s.tables.chapters.insert(chapter(book, i));
  });
  s.close();
  return path;
}

/** Puts another store's -wal (and with `shm` its -shm) beside `path`: only that store's latest pages, as a crash or a copy leaves them. */
function foreignWal(path: string, otherName: string, shm: boolean): void {
  const other = storeWith(otherName, 'b', 3000);
  const o = openStore(other);
  o.db.pragma('wal_autocheckpoint = 0');
  o.transaction(() => {
    for (let i = 3000; i < 3500; i++) o.tables.chapters.insert(chapter('b', i));
  });
  copyFileSync(`${other}-wal`, `${path}-wal`);
  if (shm) copyFileSync(`${other}-shm`, `${path}-shm`);
  o.close();
}

function rawExec(path: string, sql: string): void {
  const db = openDb(path);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

type Found = { table?: string; key?: string; message: string }[];
type Verified = { ok: boolean; differences: { message: string }[]; damage: Found; warnings: Found };
async function verify(path: string, ...flags: string[]): Promise<{ code: number | null; report: Verified }> {
  const r = await cli('verify', path, '--json', ...flags);
  return { code: r.code, report: JSON.parse(r.stdout) as Verified };
}

test('room_master_table without row 42 (none, or under another id) is refused as Room refuses it; without the table the file is checked by structure', async () => {
  for (const [name, sql] of [
    ['no-row.db', 'DELETE FROM room_master_table'],
    ['other-id.db', 'UPDATE room_master_table SET id = 41'],
  ] as const) {
    const path = storeWith(name, 'b', 1);
    rawExec(path, sql);
    const before = snapshot(path);
    const { code, report } = await verify(path);
    assert.equal(code, 1, name);
    assert.ok(
      report.differences.some((d) => /no identity hash in row 42/.test(d.message)),
      JSON.stringify(report.differences),
    );
    assert.throws(
      () => openStore(path),
      (e: unknown) => e instanceof SchemaMismatchError && /row 42/.test(e.message),
    );
    assert.deepEqual(snapshot(path), before, 'the refused file is unchanged');
  }
  const path = storeWith('no-table.db', 'b', 1);
  rawExec(path, 'DROP TABLE room_master_table');
  assert.equal((await verify(path)).code, 0);
});

test('verify runs quick_check: a damaged page is reported with its table and exits 1; --deep too; open and info say CORRUPT, not "not a database"', async () => {
  const path = storeWith('damaged.db', 'b', 3000);
  const bytes = readFileSync(path);
  const page = 4096;
  const middle = Math.floor(bytes.length / page / 2);
  for (let i = 0; i < page; i++) bytes[middle * page + i] = (i * 7 + 13) & 255;
  writeFileSync(path, bytes);
  for (const flags of [[], ['--deep']]) {
    const { code, report } = await verify(path, ...flags);
    assert.equal(code, 1, flags.join(' '));
    assert.equal(report.ok, false);
    assert.ok(report.damage.length > 0);
    assert.ok(
      report.damage.some((d) => d.table === 'chapters'),
      JSON.stringify(report.damage),
    );
  }
  const r = inspectFile(path, { check: 'quick' });
  assert.equal(r.checked, 'quick');
  assert.equal(r.ok, false);
  assert.equal(r.rows['chapters'], undefined, 'rows are not counted through damaged pages');
  // The schema page itself damaged: every reader fails, with CORRUPT naming the file.
  const schemaPage = readFileSync(path);
  for (let i = 100; i < page; i++) schemaPage[i] = 0x5a;
  const broken = join(dir, 'broken-schema.db');
  writeFileSync(broken, schemaPage);
  assert.throws(
    () => inspectFile(broken),
    (e: unknown) => e instanceof CorruptError && e.message.includes(broken),
  );
  assert.throws(
    () => openStore(broken),
    (e: unknown) => e instanceof CorruptError,
  );
  const info = await cli('info', broken);
  assert.equal(info.code, 1);
  assert.match(info.stderr, /CORRUPT: .*broken-schema\.db/);
  // A file that is not SQLite at all stays NOT_A_DATABASE.
  const text = join(dir, 'text.db');
  writeFileSync(text, 'x'.repeat(5000));
  assert.throws(
    () => inspectFile(text),
    (e: unknown) => e instanceof NotADatabaseError,
  );
});

test('verify --deep: orphan rows by foreign_key_check, blank keys and group ids that are no bit, each with table and key; group bits no group has as warnings; plain verify passes them', async () => {
  const path = storeWith('deep.db', 'gone', 3);
  // As a plain sqlite3 session would: foreign keys off, the book deleted, its chapters left.
  rawExec(
    path,
    `PRAGMA foreign_keys = OFF;
     DELETE FROM books WHERE bookUrl = 'gone';
     INSERT INTO books (bookUrl, name, author, origin, type) VALUES ('', 'Blank', 'A', 'loc_book', 8);
     INSERT INTO books (bookUrl, name, author, origin, type, "group") VALUES ('u2', 'Grouped', 'A', 'loc_book', 8, 8);
     INSERT INTO book_groups (groupId, groupName, "order", show) VALUES (6, 'not a bit', 1, 1);`,
  );
  assert.equal((await verify(path)).code, 0, 'quick_check sees sound pages');
  const { code, report } = await verify(path, '--deep');
  assert.equal(code, 1);
  const byTable = (t: string): { key?: string; message: string }[] => report.damage.filter((d) => d.table === t);
  assert.deepEqual(
    byTable('chapters').map((d) => d.key),
    [0, 1, 2].map((i) => `url="gone/c${i}", bookUrl="gone"`),
  );
  assert.ok(
    byTable('chapters').every((d) => /no row in books \(bookUrl → books\.bookUrl\)/.test(d.message)),
    JSON.stringify(byTable('chapters')),
  );
  const books = byTable('books');
  assert.ok(
    books.some((d) => d.key === 'bookUrl=""' && /blank key/.test(d.message)),
    JSON.stringify(books),
  );
  // A bit no group has is what the app lives with (a bookshelf restored without its groups): a warning.
  assert.ok(!books.some((d) => d.key === 'bookUrl="u2"'), JSON.stringify(books));
  assert.deepEqual(
    report.warnings.map((d) => [d.table, d.key]),
    [['books', 'bookUrl="u2"']],
  );
  assert.match(report.warnings[0]!.message, /group 8 has bits no group has \(8\)/);
  assert.ok(
    byTable('book_groups').some((d) => d.key === 'groupId=6'),
    JSON.stringify(report.damage),
  );
  // The text form lists them too.
  assert.match((await cli('verify', path, '--deep')).stdout, /content: +\d+ problem\(s\) found by integrity_check, foreign_key_check/);
});

test('a stale or foreign -wal beside an intact store: verify exits 1, open, import and migrate refuse with CORRUPT, nothing is written or checkpointed; without it the store is intact', async () => {
  const path = storeWith('intact.db', 'a', 3000);
  foreignWal(path, 'other.db', false);
  const before = snapshot(path);
  const walBefore = readFileSync(`${path}-wal`);

  const { code, report } = await verify(path);
  assert.equal(code, 1);
  assert.ok(report.damage.length > 0);
  assert.throws(
    () => openStore(path),
    (e: unknown) => e instanceof CorruptError && e.message.includes(`${path}-wal`) && /nothing was written/.test(e.message),
  );
  assert.throws(
    () => migrate(path, { to: 75 }),
    (e: unknown) => e instanceof CorruptError,
  );
  const backup = join(dir, 'in.json');
  writeFileSync(backup, JSON.stringify([{ bookSourceUrl: 'https://a', bookSourceName: 'A' }]));
  const imp = await cli('import', path, backup);
  assert.equal(imp.code, 1);
  assert.match(imp.stderr, /CORRUPT: /);
  assert.deepEqual(snapshot(path), before, 'the store file is unchanged');
  assert.deepEqual(readFileSync(`${path}-wal`), walBefore, 'the -wal is neither merged nor removed');
  assert.equal(existsSync(`${path}-shm`), false, "no -shm left, so the -wal still reads as nobody's");

  renameSync(`${path}-wal`, join(dir, 'kept.wal'));
  assert.equal((await verify(path)).code, 0);
  const s = openStore(path);
  assert.equal(s.tables.chapters.count(), 3000);
  assert.equal(s.tables.books.count(), 1);
  s.close();
});

test('after SQLite reports the file damaged, closing the store leaves the file and its -wal as they were (no checkpoint merges them)', () => {
  const path = storeWith('live.db', 'a', 3000);
  // With its -shm too, the -wal looks in use: the open checks pages only (quick_check), which
  // index entries that do not match their rows pass.
  foreignWal(path, 'live-other.db', true);
  const before = readFileSync(path);
  const walBefore = readFileSync(`${path}-wal`);
  const s = openStore(path);
  assert.throws(
    () => s.chapters.deleteByBook('a'),
    (e: unknown) => e instanceof CorruptError && e.message.includes(path),
  );
  s.close();
  // (The -shm is SQLite's index of the -wal, rebuilt at will; the file and the -wal are the data.)
  assert.ok(readFileSync(path).equals(before), 'the store file is unchanged');
  assert.ok(readFileSync(`${path}-wal`).equals(walBefore), 'the -wal is still there, not merged');
});

test('a bookshelf whose books carry group bits no group has: import says so and stores it as the app does, verify --deep passes it with a warning', async () => {
  // As a backup with bookshelf.json and no bookGroup.json (a real one: backup-tzc110112-read).
  const shelf = join(dir, 'bookshelf.json');
  writeFileSync(
    shelf,
    JSON.stringify([
      { bookUrl: 'https://b.example/1', name: '一', author: 'A', origin: 'https://s.example', type: 0, group: 1 },
      { bookUrl: 'https://b.example/2', name: '二', author: 'A', origin: 'https://s.example', type: 0, group: 6 },
      { bookUrl: 'https://b.example/3', name: '三', author: 'A', origin: 'https://s.example', type: 0, group: 0 },
    ]),
  );
  const path = join(dir, 'stray-bits.db');
  const imported = await cli('import', path, shelf);
  assert.equal(imported.code, 0, imported.stderr);
  const warned = imported.stdout.split('\n').filter((l) => l.startsWith('warning: '));
  assert.deepEqual(warned, [
    'warning: books bookUrl="https://b.example/1": group 1 has bits no group has (1); the app keeps such bits: a group it creates later takes the lowest free bit, and the book with it',
    'warning: books bookUrl="https://b.example/2": group 6 has bits no group has (6); the app keeps such bits: a group it creates later takes the lowest free bit, and the book with it',
  ]);
  // Stored as given (the app restores group without remapping), read with raw SQL.
  const db = openDb(path, { readonly: true });
  assert.deepEqual(db.prepare('SELECT "group" FROM books ORDER BY bookUrl').pluck().all(), [1, 6, 0]);
  db.close();
  const { code, report } = await verify(path, '--deep');
  assert.equal(code, 0, JSON.stringify(report));
  assert.deepEqual(report.damage, []);
  assert.deepEqual(
    report.warnings.map((d) => d.key),
    ['bookUrl="https://b.example/1"', 'bookUrl="https://b.example/2"'],
  );
  assert.match((await cli('verify', path, '--deep')).stdout, /^warnings: +2 \(what the app lives with; not damage\)$/m);
});
