// Export in the app's backup layout, and the round trips: export → import gives the same rows;
// import → export keeps every field that has a column.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { exportBackup } from '../src/node/backup-export.js';
import { backupFileByName } from '../src/backup/file-map.js';
import { importBackup } from '../src/node/backup-import.js';
import { zipNames } from './helpers/zip.js';
import { schemas } from '../src/schema/index.js';
import { openStore } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { sampleBackup, writeBackupFolder, type Json } from './helpers/backup-fixtures.js';
import { tempDir } from './helpers/files.js';
import { minimalRow } from './helpers/rows.js';
import './helpers/engine.js'; // Node's engines, as the package's entry installs them

async function importedSample(dir: string): Promise<Store<62>> {
  const store = openStore(join(dir, 'a.db'), { schema: 62 });
  await importBackup(store, writeBackupFolder(join(dir, 'in'), sampleBackup()));
  return store;
}

/** Every table's rows, in key order, for comparing two stores. */
function dump(store: Store<62>): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const t of store.schema.tables) out[t.name] = store.table(t.name).list({ orderBy: t.primaryKey.map((c) => c.field) as never });
  return out;
}

test("export writes the app's layout: file names, 2-space arrays, no HTML escaping, nulls left out, order, booleans, nested rules", async () => {
  const dir = tempDir();
  const store = await importedSample(dir);
  store.tables.chapters.insert({
    url: 'c',
    title: 't',
    isVolume: false,
    baseUrl: 'b',
    bookUrl: 'https://books.example/1',
    index: 0,
    isVip: false,
    isPay: false,
  });
  const out = join(dir, 'out');
  const r = await exportBackup(store, out);
  const names = readdirSync(out).sort();
  assert.deepEqual(names, [
    'bookGroup.json',
    'bookSource.json',
    'bookmark.json',
    'bookshelf.json',
    'dictRule.json',
    'httpTTS.json',
    'keyboardAssists.json',
    'readRecord.json',
    'replaceRule.json',
    'rssSources.json',
    'rssStar.json',
    'searchHistory.json',
    'servers.json',
    'sourceSub.json',
    'txtTocRule.json',
  ]);
  assert.ok(!r.files.some((f) => f.table === 'chapters'), 'chapters are not in backups');
  const shelf = readFileSync(join(out, 'bookshelf.json'), 'utf8');
  assert.ok(shelf.startsWith('[\n  {\n    "bookUrl": "https://books.example/1",\n'));
  assert.ok(shelf.includes('"intro": "<p>intro & more</p>"'), 'no HTML escaping');
  assert.ok(shelf.includes('    "readConfig": {\n      "reverseToc": false,\n      "pageAnim": 1,\n      "splitLongChapter": true\n    }'));
  assert.ok(shelf.includes('"canUpdate": false'));
  assert.ok(!shelf.includes('null'), 'null fields are left out');
  const books = JSON.parse(shelf) as Json[];
  assert.equal(books[0]!.group, 3);
  assert.ok(!('customTag' in books[0]!));
  const rules = JSON.parse(readFileSync(join(out, 'replaceRule.json'), 'utf8')) as Json[];
  assert.equal(rules[0]!.order, 5);
  assert.ok(!('sortOrder' in rules[0]!));
  const sources = JSON.parse(readFileSync(join(out, 'bookSource.json'), 'utf8')) as Json[];
  assert.deepEqual(sources[0]!.ruleSearch, { bookList: 'class.list@li', name: 'tag.a@text' });
  assert.ok(!('ruleExplore' in sources[0]!), 'a missing rule stays missing');
  assert.equal(sources[0]!.header, '{"User-Agent":"x"}', 'header stays JSON in a string');
  const servers = readFileSync(join(out, 'servers.json'), 'utf8');
  assert.ok(servers.startsWith('['), 'servers.json is plain');
  store.close();
});

test('empty tables write no file; --tables picks tables; a non-empty folder is refused', async () => {
  const dir = tempDir();
  const store = openStore(join(dir, 'e.db'), { schema: 62 });
  store.tables.dictRules.insert({ name: 'd', urlRule: 'u', showRule: 's' });
  const r = await exportBackup(store, join(dir, 'o1'), { tables: ['dictRules', 'bookSource'] });
  assert.deepEqual(readdirSync(join(dir, 'o1')), ['dictRule.json']);
  assert.deepEqual(r.skippedTables, [{ table: 'book_sources', reason: 'empty' }]);
  await assert.rejects(exportBackup(store, join(dir, 'o1')), /not an empty folder/);
  await assert.rejects(exportBackup(store, join(dir, 'o2'), { tables: ['chapters'] }), /not a table of a backup/);
  store.close();
});

test('64-bit group bitmasks are written exactly', async () => {
  const dir = tempDir();
  const store = openStore(join(dir, 'g.db'));
  store.tables.book_groups.insert({ groupId: -(2n ** 63n), groupName: 'last', order: 64, show: true });
  store.tables.books.insert({ bookUrl: 'u', name: 'n', type: 8, group: -(2n ** 63n) | 5n });
  await exportBackup(store, join(dir, 'o'));
  const text = readFileSync(join(dir, 'o', 'bookshelf.json'), 'utf8');
  assert.ok(text.includes('"group": -9223372036854775803'), text);
  assert.ok(readFileSync(join(dir, 'o', 'bookGroup.json'), 'utf8').includes('"groupId": -9223372036854775808'));
  const back = openStore(join(dir, 'g2.db'));
  await importBackup(back, join(dir, 'o'));
  assert.equal(back.tables.books.get('u')!.group, -9223372036854775803n);
  store.close();
  back.close();
});

test('round trip: importing an export (zip and folder) into an empty store gives the same rows', async () => {
  const dir = tempDir();
  const a = await importedSample(dir);
  // Rows as the app writes them: a bitmask type, the text 'null' for a missing read config.
  a.tables.books.insert({ bookUrl: 'plain', name: 'Plain', author: 'P', type: 8, readConfig: 'null' });
  for (const out of [join(dir, 'rt.zip'), join(dir, 'rt')]) {
    await exportBackup(a, out);
    const b = openStore(join(dir, `${out.endsWith('.zip') ? 'z' : 'f'}.db`), { schema: 62 });
    const r = await importBackup(b, out);
    assert.equal(r.totals.skipped, 0);
    assert.deepEqual(dump(b), dump(a));
    b.close();
  }
  assert.equal(zipNames(join(dir, 'rt.zip')).length, 15, 'a flat zip of 15 files');
  a.close();
});

test('round trip: exporting an imported backup keeps every field that has a column', async () => {
  const dir = tempDir();
  const store = await importedSample(dir);
  const out = join(dir, 'out');
  await exportBackup(store, out);
  for (const [file, records] of Object.entries(sampleBackup())) {
    assert.ok(existsSync(join(out, file)), file);
    const written = JSON.parse(readFileSync(join(out, file), 'utf8')) as Json[];
    const table = schemas[62].table(backupFileByName(file)!.table)!;
    for (const [i, rec] of records.entries()) {
      const match = written.find((w) => table.primaryKey.every((c) => w[c.field] === rec[c.field]));
      assert.ok(match, `${file}[${i}] is written`);
      for (const [k, v] of Object.entries(rec)) assert.deepEqual(match[k], v, `${file}[${i}].${k}`);
    }
  }
  store.close();
});

test('rows whose text is longer than the write buffer, and characters at its edges, are written whole (zip and folder)', async () => {
  const dir = tempDir();
  const store = openStore(join(dir, 's.db'));
  // 40 sources of ~140 KB each: the text crosses the 256 KB buffers at many places, four-byte
  // characters (a surrogate pair in the string) among them.
  // Varied enough that the zip does not take it for a bomb.
  const long = (i: number) => {
    let x = i + 1;
    let text = '';
    for (let k = 0; k < 50_000; k++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      text += x % 7 === 0 ? '😀' : String.fromCodePoint(0x4e00 + (x % 20000));
    }
    return text;
  };
  const base = minimalRow(schemas[62].table('book_sources')!, 1);
  const rows = Array.from({ length: 40 }, (_, i) => ({
    ...base,
    bookSourceUrl: `https://s${i}.example`,
    bookSourceName: `源${i}`,
    bookSourceComment: long(i),
    ruleContent: JSON.stringify({ content: long(i + 100) }),
  }));
  store.tables.book_sources.insertMany(rows as never);
  for (const out of [join(dir, 'out'), join(dir, 'out.zip')]) {
    const r = await exportBackup(store, out);
    const fresh = openStore(join(dir, `${out.endsWith('.zip') ? 'z' : 'f'}.db`));
    await importBackup(fresh, out);
    const back = fresh.db.prepare('SELECT bookSourceUrl, bookSourceComment, ruleContent FROM book_sources').all() as {
      bookSourceUrl: string;
      bookSourceComment: string;
      ruleContent: string;
    }[];
    assert.equal(back.length, 40);
    for (const row of back) {
      const i = Number(row.bookSourceUrl.slice('https://s'.length, -'.example'.length));
      assert.equal(row.bookSourceComment, long(i));
      assert.deepEqual(JSON.parse(row.ruleContent), { content: long(i + 100) });
    }
    fresh.close();
    if (!out.endsWith('.zip')) {
      const text = readFileSync(join(out, 'bookSource.json'), 'utf8');
      // The layout of one JSON.stringify of the whole array, byte for byte.
      assert.equal(text, JSON.stringify(JSON.parse(text), null, 2));
      assert.equal(r.files.find((f) => f.table === 'book_sources')!.bytes, Buffer.byteLength(text));
    }
  }
  store.close();
});
