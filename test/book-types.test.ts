// books.type: a bitmask from schema 55 on, in which every book has the text, audio, image or
// webFile bit (8, 32, 64, 128). A type below 8 is therefore the old code, converted per book as
// the app's Book.upType() does (0→8, 1→32, 2→64, 3→128, +256 for a local origin), whatever else
// the file holds; verify --deep reports one already in a store at 55 or later.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { exportBackup, importBackup, openStore } from 'legado-store';
import { importDatabase } from '../src/backup/database.js';
import { ValueTypeError } from 'legado-store/errors';
import { cli } from './helpers/cli.js';
import { tempDir } from './helpers/files.js';
import { openDb } from './helpers/engine.js';
import { writeBackupFolder } from './helpers/backup-fixtures.js';

const dir = tempDir('legado-book-types-');

const book = (url: string, type: number, origin: string) => ({ bookUrl: url, name: url, author: 'a', origin, type });
/** One file: bitmask books beside old codes (a local type-0 book among them). */
const MIXED = [
  book('https://w/bitmask-text', 8, 'https://w'),
  book('https://w/bitmask-audio-local', 32 | 256, 'loc_book'),
  book('/sdcard/old-local.txt', 0, 'loc_book'),
  book('webDav::old.epub', 0, 'webDav::https://dav'),
  book('https://w/old-text', 0, 'https://w'),
  book('https://w/old-audio', 1, 'https://w'),
  book('https://w/old-image', 2, 'https://w'),
  book('https://w/old-file', 3, 'https://w'),
];
/** By hand from Book.upType(): [bookUrl, type] in bookUrl order. */
const EXPECTED = [
  ['/sdcard/old-local.txt', 8 | 256],
  ['https://w/bitmask-audio-local', 32 | 256],
  ['https://w/bitmask-text', 8],
  ['https://w/old-audio', 32],
  ['https://w/old-file', 128],
  ['https://w/old-image', 64],
  ['https://w/old-text', 8],
  ['webDav::old.epub', 8 | 256],
];

function rows(path: string): unknown[][] {
  const db = openDb(path, { readonly: true });
  try {
    return db.prepare('SELECT * FROM books ORDER BY bookUrl').raw().all() as unknown[][];
  } finally {
    db.close();
  }
}
const types = (path: string) => {
  const db = openDb(path, { readonly: true });
  try {
    return db.prepare('SELECT bookUrl, type FROM books ORDER BY bookUrl').raw().all();
  } finally {
    db.close();
  }
};

test('a backup with old codes beside bitmask types: each old code converted per book; import → export → import is stable', async () => {
  const backup = writeBackupFolder(join(dir, 'mixed'), { 'bookshelf.json': MIXED });
  const first = join(dir, 'first.db');
  let store = openStore(first, { schema: 75 });
  await importBackup(store, backup);
  store.close();
  assert.deepEqual(types(first), EXPECTED);
  const zip = join(dir, 'again.zip');
  store = openStore(first, { schema: 75 });
  await exportBackup(store, zip);
  store.close();
  const second = join(dir, 'second.db');
  store = openStore(second, { schema: 75 });
  await importBackup(store, zip, { now: 0 });
  store.close();
  assert.deepEqual(rows(second), rows(first));
});

test('a database file whose books hold old codes (a 62 file written by another tool) is converted on import', () => {
  const source = join(dir, 'tool-made-62.db');
  openStore(source, { schema: 62 }).close();
  const db = openDb(source);
  const insert = db.prepare("INSERT INTO books (bookUrl, name, author, origin, type) VALUES (?, ?, 'a', ?, ?)");
  for (const b of MIXED) insert.run(b.bookUrl, b.name, b.origin, b.type);
  db.close();
  const target = join(dir, 'from-db.db');
  const store = openStore(target, { schema: 75 });
  importDatabase(store, source);
  store.close();
  assert.deepEqual(types(target), EXPECTED);
});

test('verify --deep reports a book with a type below 8 in a store at 55 or later', async () => {
  const path = join(dir, 'verify.db');
  openStore(path, { schema: 75 }).close();
  const db = openDb(path);
  db.prepare("INSERT INTO books (bookUrl, name, author, type) VALUES ('https://w/zero', 'z', 'a', 0)").run();
  db.close();
  const r = await cli('verify', path, '--deep');
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /books bookUrl="https:\/\/w\/zero": type 0 is an old-format code \(below 8\) at schema 75/);
  assert.equal((await cli('verify', path)).code, 0, 'the quick check looks at pages only');
});

test('a store at 55 or later refuses a book type below 8 on every write; an omitted type is 8, as the app writes it', () => {
  for (const version of [55, 62, 75] as const) {
    const store = openStore(':memory:', { schema: version });
    const books = store.tables.books as unknown as {
      insert(r: object): unknown;
      insertMany(r: object[]): unknown;
      upsert(r: object): unknown;
      update(k: string, p: object): unknown;
    };
    const refused = (e: unknown) => e instanceof ValueTypeError && e.code === 'WRONG_TYPE' && e.fields[0] === 'type' && /at least 8/.test(e.message);
    for (const type of [0, 1, 3, 7, -1]) {
      assert.throws(() => books.insert({ bookUrl: `u${type}`, name: `n${type}`, type }), refused, `${version} insert ${type}`);
      assert.throws(
        () =>
          books.insertMany([
            { bookUrl: 'm1', name: 'm1', type: 8 },
            { bookUrl: `m${type}`, name: `m${type}`, type },
          ]),
        refused,
        `${version} insertMany ${type}`,
      );
      assert.throws(() => books.upsert({ bookUrl: `p${type}`, name: `p${type}`, type }), refused, `${version} upsert ${type}`);
    }
    books.insert({ bookUrl: 'ok', name: 'ok' });
    assert.throws(() => books.update('ok', { type: 0 }), refused, `${version} update`);
    books.insert({ bookUrl: 'local', name: 'local', type: 8 | 256 });
    // Read by raw SQL: nothing refused was written; the omitted type is the app's 8.
    assert.deepEqual(store.db.prepare('SELECT bookUrl, type FROM books ORDER BY bookUrl').all(), [
      { bookUrl: 'local', type: 264 },
      { bookUrl: 'ok', type: 8 },
    ]);
    store.close();
  }
  // Before 55 the old codes are the app's own: 0 text, 1 audio; the DDL default stands.
  const old = openStore(':memory:', { schema: 54 });
  (old.tables.books as unknown as { insert(r: object): unknown }).insert({ bookUrl: 'a', name: 'a', type: 1 });
  (old.tables.books as unknown as { insert(r: object): unknown }).insert({ bookUrl: 'b', name: 'b' });
  assert.deepEqual(old.db.prepare('SELECT bookUrl, type FROM books ORDER BY bookUrl').all(), [
    { bookUrl: 'a', type: 1 },
    { bookUrl: 'b', type: 1 },
  ]);
  old.close();
});
