// Damaged files and imports: a store with a damaged page the import would not touch takes
// nothing (CORRUPT, exit 1, the file as it was), and a damaged database given as the input is a
// CORRUPT error naming that file, at every era of the schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { openStore, type SchemaVersion, type Store } from 'legado-store';
import { importDatabase } from '../src/backup/database.js';
import { CorruptError } from 'legado-store/errors';
import { cli } from './helpers/cli.js';
import { snapshot, tempDir } from './helpers/files.js';
import { openDb } from './helpers/engine.js';
import { writeJson } from './helpers/backup-fixtures.js';
import Database from 'better-sqlite3';

const dir = tempDir('legado-damaged-');
const VERSIONS: SchemaVersion[] = [49, 55, 62, 64, 70, 75];
/** Two ways a page goes bad: zeroed (a lost write), and overwritten with other bytes. */
const FAULTS = { zeroed: 0x00, garbage: 0xa5 } as const;

/** A closed store at `version` whose chapters fill several pages; the chapters root page then damaged. */
function damagedStore(name: string, version: SchemaVersion, fill: number): string {
  const path = join(dir, name);
  const store = openStore(path, { schema: version }) as Store<62>;
  store.tables.books.insert({ bookUrl: 'https://b.example/1', name: '书', author: '人' });
  store.tables.chapters.insertMany(
    Array.from({ length: 300 }, (_, i) => ({
      url: `https://b.example/1/${i}`,
      title: `第${i}章 ${'字'.repeat(60)}`,
      bookUrl: 'https://b.example/1',
      index: i,
      baseUrl: 'https://b.example/1',
      isVolume: false,
      isVip: false,
      isPay: false,
    })),
  );
  store.close();
  assert.equal(existsSync(`${path}-wal`), false);
  const db = openDb(path, { readonly: true });
  const pageSize = Number(db.pragma('page_size', { simple: true }));
  const root = Number(db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'chapters'").pluck().get());
  db.close();
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.alloc(pageSize, fill), 0, pageSize, (root - 1) * pageSize);
  closeSync(fd);
  return path;
}

test('import into a store with a damaged page fails with CORRUPT, exit 1, and stores nothing', async () => {
  const rules = writeJson(join(dir, 'rules.json'), [{ bookSourceUrl: 'https://s.example', bookSourceName: 'S' }]);
  for (const version of VERSIONS) {
    for (const [fault, fill] of Object.entries(FAULTS)) {
      const path = damagedStore(`store-${version}-${fault}.db`, version, fill);
      const before = snapshot(path).main;
      const r = await cli('import', path, rules);
      assert.equal(r.code, 1, `${version} ${fault}: ${r.stdout}${r.stderr}`);
      assert.match(
        r.stderr,
        new RegExp(`^legado-store: CORRUPT: ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: the file is damaged; nothing was written: `),
        `${version} ${fault}`,
      );
      assert.equal(snapshot(path).main, before, `${version} ${fault}: the file is as it was`);
      const db = openDb(path, { readonly: true });
      assert.equal(db.prepare('SELECT count(*) FROM book_sources').pluck().get(), 0, `${version} ${fault}`);
      db.close();
    }
  }
});

test('a damaged database as the input is a CORRUPT error naming it; nothing is stored, no new store is left', async () => {
  for (const version of VERSIONS) {
    for (const [fault, fill] of Object.entries(FAULTS)) {
      const input = damagedStore(`input-${version}-${fault}.db`, version, fill);
      const target = join(dir, `target-${version}-${fault}.db`);
      const r = await cli('import', target, input);
      assert.equal(r.code, 1, `${version} ${fault}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, new RegExp(`^legado-store: CORRUPT: ${input.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `), `${version} ${fault}: ${r.stderr}`);
      assert.equal(existsSync(target), false, `${version} ${fault}: the store this import would have created is not left behind`);
      // Through the API: the typed error, and the store it was given untouched.
      const store = openStore(join(dir, `api-${version}-${fault}.db`), { schema: 75 });
      try {
        assert.throws(
          () => importDatabase(store, input),
          (e: unknown) => e instanceof CorruptError && e.path === input,
        );
        assert.equal(store.tables.chapters.count(), 0);
      } finally {
        store.close();
      }
    }
  }
});

/**
 * A closed store whose unique index on books (name, author) lost the entry of a row: the index
 * is made partial for a moment (writable_schema, on a raw connection in unsafe mode), the row
 * renamed past it, the index made whole again. Its entry count still agrees (quick_check
 * passes); integrity_check finds the row missing from the index.
 */
function indexLostARow(name: string): string {
  const path = join(dir, name);
  const store = openStore(path, { schema: 62 });
  store.tables.books.insert({ bookUrl: 'https://b.example/1', name: 'old', author: '人' });
  store.tables.books.insert({ bookUrl: 'https://b.example/2', name: '书2', author: '人' });
  store.close();
  const full = 'CREATE UNIQUE INDEX `index_books_name_author` ON `books` (`name`, `author`)';
  const setIndexSql = (sql: string) => {
    const db = new Database(path);
    db.unsafeMode(true);
    db.pragma('writable_schema = ON');
    db.prepare("UPDATE sqlite_master SET sql = ? WHERE name = 'index_books_name_author'").run(sql);
    db.close();
  };
  setIndexSql(`${full} WHERE bookUrl != 'https://b.example/1'`);
  const db = new Database(path);
  db.prepare("UPDATE books SET name = '书' WHERE bookUrl = 'https://b.example/1'").run();
  db.close();
  setIndexSql(full);
  const check = new Database(path);
  assert.deepEqual(check.pragma('quick_check', { simple: true }), 'ok', 'quick_check passes: what the import ran before');
  assert.match(String(check.pragma('integrity_check', { simple: true })), /row 1 missing from index index_books_name_author/);
  check.close();
  return path;
}

test('import into a store whose index lost a row (quick_check passes) is CORRUPT, exit 1, the file byte for byte as it was', async () => {
  const path = indexLostARow('index-lost-row.db');
  // A book whose (name, author) is the row's: the index would not see the clash.
  const books = writeJson(join(dir, 'bookshelf.json'), [{ bookUrl: 'https://b.example/9', name: '书', author: '人', origin: 'o' }]);
  const before = snapshot(path);
  const r = await cli('import', path, books, '--kind', 'book');
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.equal(r.stderr, `legado-store: CORRUPT: ${path}: the file is damaged; nothing was written: row 1 missing from index index_books_name_author\n`);
  assert.deepEqual(snapshot(path), before);
  const db = openDb(path, { readonly: true });
  // Read past the index, which does not see the row.
  assert.equal(db.prepare("SELECT count(*) FROM books NOT INDEXED WHERE name = '书' AND author = '人'").pluck().get(), 1);
  db.close();
  // An app database as the input: the same refusal through the API, every table's indexes checked.
  const input = join(dir, 'input-for-lost-row.db');
  const source = openStore(input, { schema: 62 });
  source.tables.books.insert({ bookUrl: 'https://b.example/8', name: '书', author: '人' });
  source.close();
  const store = openStore(path);
  try {
    assert.throws(
      () => importDatabase(store, input),
      (e: unknown) => e instanceof CorruptError && e.path === path && /row 1 missing from index index_books_name_author/.test(e.message),
    );
  } finally {
    store.close();
  }
  assert.equal(snapshot(path).main, before.main);
});
