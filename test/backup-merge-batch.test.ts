// An import writes new keys in batches (merge.ts): the outcome must be the one a write per
// record gives. A record the store refuses inside a batch is skipped at its own place, the
// rest of its batch is stored, a repeated key sees the row written before it, and a file that
// fails leaves nothing of its waiting rows behind.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { importDatabase } from '../src/backup/database.js';
import { bulkRows, upsertRowsInTransaction } from '../src/table/in-transaction.js';
import { importBackup, importFiles } from '../src/node/backup-import.js';
import { openStore } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { writeJson } from './helpers/backup-fixtures.js';
import { source as sourceRow } from './helpers/builders.js';
import { tempDir } from './helpers/files.js';
import './helpers/engine.js'; // Node's engines, as the package's entry installs them

const source = (i: number, extra: Record<string, unknown> = {}) => ({ bookSourceUrl: `https://s${i}`, bookSourceName: `s${i}`, customOrder: i, ...extra });

/** A search result of the store's search cache; `origin` names its source. */
const searchBook = (i: number, origin: string) => ({
  bookUrl: `https://b${i}`,
  origin,
  originName: 'src',
  type: 8,
  name: `b${i}`,
  author: 'a',
  tocUrl: '',
  time: i,
  originOrder: 0,
});

test('a row refused inside a batch is skipped at its place; the others of its batch are stored', () => {
  const dir = tempDir();
  // A damaged file: written with foreign keys off, some search results name a source it lacks.
  const damaged = openStore(join(dir, 'damaged.db')) as Store<62>;
  damaged.tables.book_sources.insert(sourceRow('https://src', { respondTime: 0 }));
  damaged.db.exec('PRAGMA foreign_keys = OFF');
  const missing = new Set([5, 40, 199]); // 199: in the last batch, which is not full
  for (let i = 0; i < 200; i++) damaged.tables.searchBooks.insert(searchBook(i, missing.has(i) ? 'https://missing' : 'https://src'));
  damaged.close();

  const store = openStore(join(dir, 's.db')) as Store<62>;
  const r = importDatabase(store, join(dir, 'damaged.db'));
  assert.deepEqual(
    r.skipped.filter((x) => x.kind === 'searchBooks').map((x) => [x.index, x.category, x.key]),
    [...missing].map((i) => [i, 'rejected: FOREIGN_KEY_VIOLATION', `["https://b${i}"]`]),
  );
  assert.match(r.skipped[0]!.reason, /https:\/\/missing/);
  const k = r.kinds.searchBooks!;
  assert.deepEqual([k.read, k.inserted, k.stored, k.skipped], [200, 197, 197, 3]);
  // What the file holds, read with SQL.
  const db = store.db;
  assert.equal(db.prepare('SELECT count(*) FROM searchBooks').pluck().get(), 197);
  assert.equal(db.prepare("SELECT count(*) FROM searchBooks WHERE origin = 'https://missing'").pluck().get(), 0);
  assert.deepEqual(db.prepare('PRAGMA foreign_key_check').all(), []);
  store.close();
});

test('a repeated key sees the row written before it in the same batch: a duplicate or a conflict, as record by record', async () => {
  const dir = tempDir();
  const store = openStore(join(dir, 's.db')) as Store<62>;
  const records: unknown[] = Array.from({ length: 100 }, (_, i) => source(i));
  // Both within the first batch (34 sources): record 3 and 7 still wait when their keys come again.
  records[20] = source(3, { bookSourceName: 'second three' }); // the key of record 3, other content
  records[21] = source(7); // the key of record 7, the same content
  records[60] = 'not an object';
  const f = writeJson(join(dir, 'sources.json'), records);
  const r = await importFiles(store, [f]);
  assert.deepEqual(
    r.skipped.map((x) => [x.index, x.category]),
    [[60, 'not an object']],
  );
  assert.deepEqual(
    r.conflicts.map((c) => [c.key, c.first, c.kept]),
    [['["https://s3"]', `${f} [3]`, `${f} [20]`]],
  );
  const k = r.kinds.bookSource!;
  assert.deepEqual([k.read, k.inserted, k.stored, k.conflicts, k.duplicates, k.skipped], [100, 97, 97, 1, 1, 1]);
  assert.equal(store.db.prepare('SELECT count(*) FROM book_sources').pluck().get(), 97);
  assert.equal(store.db.prepare("SELECT bookSourceName FROM book_sources WHERE bookSourceUrl = 'https://s3'").pluck().get(), 'second three');
  store.close();
});

test('rows already in the store are updated and counted so while new keys go in batches', async () => {
  const dir = tempDir();
  const store = openStore(join(dir, 's.db')) as Store<62>;
  store.tables.book_sources.insert({ ...source(10), bookSourceType: 0, enabled: true, enabledExplore: true, lastUpdateTime: 0, respondTime: 0, weight: 0 });
  const records = Array.from({ length: 100 }, (_, i) => source(i, { bookSourceName: `new ${i}`, lastUpdateTime: 1 }));
  const r = await importFiles(store, [writeJson(join(dir, 'sources.json'), records)]);
  const k = r.kinds.bookSource!;
  assert.deepEqual([k.inserted, k.updated, k.stored], [99, 1, 100]);
  assert.equal(store.db.prepare("SELECT bookSourceName FROM book_sources WHERE bookSourceUrl = 'https://s10'").pluck().get(), 'new 10');
  assert.equal(store.db.prepare('SELECT count(*) FROM book_sources').pluck().get(), 100);
  store.close();
});

test('a backup file that cannot be read leaves none of its waiting rows; the next file is imported', async () => {
  const dir = tempDir();
  const backup = join(dir, 'backup');
  const store = openStore(join(dir, 's.db')) as Store<62>;
  const sources = JSON.stringify(Array.from({ length: 150 }, (_, i) => source(i)));
  const { mkdirSync } = await import('node:fs');
  mkdirSync(backup);
  writeFileSync(join(backup, 'bookSource.json'), `${sources.slice(0, -1)}, {"bookSourceUrl": ]`); // invalid at the very end
  writeFileSync(join(backup, 'replaceRule.json'), JSON.stringify([{ id: 1, name: 'r', pattern: 'a', replacement: 'b' }]));
  const r = await importBackup(store, backup);
  const file = r.files.find((x) => x.file.endsWith('bookSource.json'))!;
  assert.match(file.reason ?? '', /cannot be read/);
  assert.equal(r.kinds.bookSource?.stored ?? 0, 0);
  assert.equal(store.db.prepare('SELECT count(*) FROM book_sources').pluck().get(), 0);
  assert.equal(store.db.prepare('SELECT count(*) FROM replace_rules').pluck().get(), 1);
  store.close();
});

test('records the store refuses inside a batch of built rows are skipped at their place; the rest go in with their values as read', async () => {
  const dir = tempDir();
  const store = openStore(join(dir, 's.db')) as Store<62>;
  // A trigger of the user's refuses three sources: one in each full batch of 34, one in the last, which is not full.
  store.db.exec(
    `CREATE TRIGGER refuse BEFORE INSERT ON book_sources WHEN NEW.bookSourceUrl IN ('https://s5', 'https://s40', 'https://s99')
     BEGIN SELECT RAISE(ABORT, 'not this one'); END`,
  );
  const records = Array.from({ length: 100 }, (_, i) => source(i, { enabled: i % 2 === 0, ruleSearch: { bookList: `l${i}` } }));
  const f = writeJson(join(dir, 'sources.json'), records);
  const r = await importFiles(store, [f]);
  assert.deepEqual(
    r.skipped.map((x) => [x.index, x.key]),
    [
      [5, '["https://s5"]'],
      [40, '["https://s40"]'],
      [99, '["https://s99"]'],
    ],
  );
  assert.deepEqual([...new Set(r.skipped.map((x) => x.category))], ['rejected: CONSTRAINT_FAILED']);
  assert.match(r.skipped[0]!.reason, /not this one/);
  const k = r.kinds.bookSource!;
  assert.deepEqual([k.read, k.inserted, k.stored, k.skipped], [100, 97, 97, 3]);
  // What the file holds, read with SQL: the neighbours of a refused row (written again one by
  // one), a row of a batch that went in whole, and one of the last rows: booleans as 0/1, the
  // rule object as the app's pretty-printed Gson text.
  const row = store.db.prepare('SELECT enabled, ruleSearch, customOrder, bookSourceName FROM book_sources WHERE bookSourceUrl = ?').raw();
  for (const i of [4, 6, 39, 41, 70, 98]) assert.deepEqual(row.get(`https://s${i}`), [i % 2 === 0 ? 1 : 0, `{\n  "bookList": "l${i}"\n}`, i, `s${i}`]);
  assert.equal(store.db.prepare('SELECT count(*) FROM book_sources').pluck().get(), 97);
  store.close();
});

test('a row refused where the rows before it in its statement stay written (RAISE(FAIL)): each source is stored once, counted once', async () => {
  const dir = tempDir();
  const store = openStore(join(dir, 's.db')) as Store<62>;
  // FAIL, unlike ABORT, keeps what the statement wrote before the refusal: a batch of new keys
  // is left half written, and the import must go on from there as if row by row.
  store.db.exec(
    `CREATE TABLE inserted (url TEXT);
     CREATE TRIGGER log AFTER INSERT ON book_sources BEGIN INSERT INTO inserted VALUES (NEW.bookSourceUrl); END;
     CREATE TRIGGER refuse BEFORE INSERT ON book_sources WHEN NEW.bookSourceUrl IN ('https://s20', 'https://s50')
     BEGIN SELECT RAISE(FAIL, 'not this one'); END`,
  );
  const records = Array.from({ length: 70 }, (_, i) => source(i, { ruleToc: { chapterList: `c${i}` } }));
  const r = await importFiles(store, [writeJson(join(dir, 'sources.json'), records)]);
  assert.deepEqual(
    r.skipped.map((x) => [x.index, x.category]),
    [
      [20, 'rejected: CONSTRAINT_FAILED'],
      [50, 'rejected: CONSTRAINT_FAILED'],
    ],
  );
  const k = r.kinds.bookSource!;
  assert.deepEqual([k.read, k.inserted, k.stored, k.skipped], [70, 68, 68, 2]);
  const db = store.db;
  assert.equal(db.prepare('SELECT count(*) FROM book_sources').pluck().get(), 68);
  // Every source went in once: none of those written before a refusal was inserted twice or lost.
  assert.deepEqual(db.prepare('SELECT url, count(*) FROM inserted GROUP BY url HAVING count(*) <> 1').all(), []);
  assert.equal(db.prepare('SELECT count(DISTINCT url) FROM inserted').pluck().get(), 68);
  const row = db.prepare('SELECT ruleToc, customOrder FROM book_sources WHERE bookSourceUrl = ?').raw();
  for (const i of [0, 19, 21, 33, 49, 51, 69]) assert.deepEqual(row.get(`https://s${i}`), [`{\n  "chapterList": "c${i}"\n}`, i]);
  store.close();
});

test('a batch holding keys the table has, or one key twice, still comes out as upserts row by row', () => {
  const dir = tempDir();
  const store = openStore(join(dir, 's.db')) as Store<62>;
  const api = store.tables.book_sources;
  for (const i of [3, 10]) api.insert(sourceRow(`https://s${i}`, { bookSourceName: 'old' }));
  const n = bulkRows(api);
  // A full batch: s0.. in order, its 21st row the key of its 6th again.
  const rows = Array.from({ length: n }, (_, i) =>
    i === 20 ? sourceRow('https://s5', { bookSourceName: 'again' }) : sourceRow(`https://s${i}`, { bookSourceName: `new${i}` }),
  );
  const r = store.transaction(() =>
    upsertRowsInTransaction(
      api,
      rows.map((row) => ({ encoded: undefined, row })),
    ),
  );
  assert.deepEqual(r, { written: n });
  const names = Object.fromEntries(store.db.prepare('SELECT bookSourceUrl, bookSourceName FROM book_sources').raw().all() as [string, string][]);
  assert.equal(Object.keys(names).length, n - 1);
  assert.deepEqual(
    [names['https://s3'], names['https://s10'], names['https://s5'], names['https://s20'], names[`https://s${n - 1}`]],
    ['new3', 'new10', 'again', undefined, `new${n - 1}`],
  );
  store.close();
});
