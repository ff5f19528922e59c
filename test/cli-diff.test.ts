// diff: two stores, two backups (zip or folder, read by the import readers), or one of each;
// per table rows only in a, only in b and changed (with the fields), keyed by primary key;
// exit 0 when equal, 1 when not; secrets masked; the inputs untouched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore, exportBackup, type Store } from 'legado-store';
import { comparePaths } from '../src/node/compare.js';
import { compareSql } from '../src/inspect/diff.js';
import { cli } from './helpers/cli.js';
import { damagedStore } from './helpers/damaged.js';
import { openDb } from './helpers/engine.js';
import { snapshot, tempDir } from './helpers/files.js';
import { sampleBackup, writeBackupFolder, writeBackupZip } from './helpers/backup-fixtures.js';
import { buildStore, SECRET_COOKIE } from './helpers/inspect-fixture.js';

const dir = tempDir('legado-diff-');
const a = join(dir, 'a.db');
buildStore(a, 62);

function copyStore(to: string, change?: (s: Store<62>) => void): string {
  copyFileSync(a, to);
  if (change) {
    const s = openStore(to, { schema: 62 });
    try {
      change(s);
    } finally {
      s.close();
    }
  }
  return to;
}

interface DiffJson {
  equal: boolean;
  a: { kind: string; version: number };
  b: { kind: string; version: number };
  notInBackups: string[];
  tables: {
    table: string;
    onlyInA: unknown[];
    onlyInB: unknown[];
    changed: { key: unknown; fields: { field: string; a: unknown; b: unknown }[] }[];
    same: number;
    fieldsOnlyInA: string[];
    fieldsOnlyInB: string[];
  }[];
}
const table = (d: DiffJson, name: string) => d.tables.find((t) => t.table === name)!;

test('two equal stores: exit 0, "equal"; neither file touched', async () => {
  const b = copyStore(join(dir, 'same.db'));
  const before = [snapshot(a), snapshot(b)];
  const r = await cli('diff', a, b);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /\nequal\n$/);
  assert.deepEqual([snapshot(a), snapshot(b)], before);
  assert.deepEqual(readdirSync(dir).sort(), ['a.db', 'same.db']);
});

test('stores that differ: exit 1; rows only in a, only in b, changed with the fields, by primary key (composite too)', async () => {
  const b = copyStore(join(dir, 'changed.db'), (s) => {
    s.books.updateProgress('https://www.biquge.example/book/1', { durChapterIndex: 20, durChapterPos: 5, durChapterTitle: '第二十一章', durChapterTime: 1 });
    s.tables.books.delete('https://www.biquge.example/book/3');
    s.books.save({ bookUrl: 'https://new.example/b', name: '新书', author: '某人', origin: 'x', type: 8 });
    s.books.setGroups('https://www.biquge.example/book/2', -(2n ** 63n));
    s.chapters.replaceToc(
      'https://new.example/b',
      ['c1', 'c2'].map((url, index) => ({ url, title: `第${index + 1}章`, isVolume: false, baseUrl: '', index, isVip: false, isPay: false })),
    );
    s.tables.cookies.update('biquge.example', { cookie: 'SESSION=another-secret' });
  });
  const r = await cli('diff', a, b, '--json');
  assert.equal(r.code, 1, r.stderr);
  const d = JSON.parse(r.stdout) as DiffJson;
  assert.equal(d.equal, false);
  const books = table(d, 'books');
  assert.deepEqual(books.onlyInA, ['https://www.biquge.example/book/3']);
  assert.deepEqual(books.onlyInB, ['https://new.example/b']);
  const progress = books.changed.find((c) => c.key === 'https://www.biquge.example/book/1')!;
  assert.deepEqual(progress.fields.map((f) => f.field).sort(), ['durChapterIndex', 'durChapterPos', 'durChapterTime', 'durChapterTitle']);
  assert.deepEqual(
    progress.fields.find((f) => f.field === 'durChapterIndex'),
    { field: 'durChapterIndex', a: 11, b: 20 },
  );
  // The 64-bit group mask, exact on both sides.
  assert.match(r.stdout, /"field": "group",\s*"a": -9223372036854775807,\s*"b": -9223372036854775808\n/);
  assert.deepEqual(table(d, 'chapters').onlyInB, [
    { url: 'c1', bookUrl: 'https://new.example/b' },
    { url: 'c2', bookUrl: 'https://new.example/b' },
  ]);
  // The cookie changed: said so, values masked.
  assert.deepEqual(table(d, 'cookies').changed, [{ key: 'biquge.example', fields: [{ field: 'cookie', a: '***', b: '***' }] }]);
  assert.ok(!r.stdout.includes('secret'));
  const shown = await cli('diff', a, b, '--json', '--show-secrets');
  assert.ok(shown.stdout.includes(SECRET_COOKIE) && shown.stdout.includes('another-secret'));
  const text = await cli('diff', a, b, '--tables', 'books');
  assert.equal(text.code, 1);
  assert.match(
    text.stdout,
    /books: 1 only in a, 1 only in b, 2 changed, 1 same\n {4}- https:\/\/www\.biquge\.example\/book\/3\n {4}\+ https:\/\/new\.example\/b\n {4}~ /,
  );
  assert.ok(!/chapters/.test(text.stdout));
});

test('a store and its own backup (zip and folder) are equal; the tables a backup never holds are not compared', async () => {
  const store = openStore(a, { readonly: true });
  const zip = join(dir, 'a.zip');
  const folder = join(dir, 'a-backup');
  try {
    await exportBackup(store, zip);
    await exportBackup(store, folder);
  } finally {
    store.close();
  }
  let r = await cli('diff', a, zip, '--json');
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const d = JSON.parse(r.stdout) as DiffJson;
  assert.deepEqual([d.a.kind, d.b.kind], ['store', 'backup']);
  assert.ok(d.notInBackups.includes('chapters') && d.notInBackups.includes('cookies') && d.notInBackups.includes('caches'));
  assert.ok(!d.tables.some((t) => t.table === 'cookies'));
  assert.ok(table(d, 'book_sources').same === 6);
  r = await cli('diff', zip, folder);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  r = await cli('diff', folder, a);
  assert.equal(r.code, 0, r.stdout + r.stderr);
});

test('two backups that differ: the import readers read both (2.0 sources converted), exit 1 with the differences', async () => {
  const files = sampleBackup();
  const one = await writeBackupZip(join(dir, 'z1'), join(dir, 'one.zip'), files);
  const changed = { ...files };
  changed['bookshelf.json'] = files['bookshelf.json']!.map((b, i) => (i === 0 ? { ...b, durChapterIndex: 9 } : b));
  changed['searchHistory.json'] = [];
  // The same source in the 阅读 2.0 format, which the import readers convert.
  changed['bookSource.json'] = [
    ...files['bookSource.json']!,
    { bookSourceUrl: 'https://legacy.example', bookSourceName: '旧书源', enable: true, ruleSearchUrl: 'https://legacy.example/s?q=searchKey', serialNumber: 3 },
  ];
  const two = writeBackupFolder(join(dir, 'two'), changed);
  const before = snapshot(one);
  const r = await cli('diff', one, two, '--json');
  assert.equal(r.code, 1, r.stderr);
  assert.deepEqual(snapshot(one), before);
  const d = JSON.parse(r.stdout) as DiffJson;
  assert.deepEqual(table(d, 'books').changed, [{ key: 'https://books.example/1', fields: [{ field: 'durChapterIndex', a: 4, b: 9 }] }]);
  assert.deepEqual(table(d, 'search_keywords').onlyInA, ['dragon']);
  assert.deepEqual(table(d, 'book_sources').onlyInB, ['https://legacy.example']);
  // servers.json config: a secret, masked even though the backup holds it.
  const servers = await cli(
    'diff',
    one,
    writeBackupFolder(join(dir, 'three'), { ...files, 'servers.json': [{ ...files['servers.json']![0]!, config: '{"password":"other"}' }] }),
    '--json',
  );
  assert.equal(servers.code, 1);
  assert.ok(!servers.stdout.includes('password'), servers.stdout);
  assert.deepEqual(readdirSync(join(dir, 'z1')).length > 0, true);
});

test('stores at different schema versions: tables and fields of one version only are listed, not compared', async () => {
  const old = join(dir, 'old49.db');
  buildStore(old, 49);
  const d = await comparePaths(old, a);
  assert.deepEqual([d.a.version, d.b.version], [49, 62]);
  assert.ok(d.tablesOnlyInB.includes('servers') && d.tablesOnlyInB.includes('dictRules'));
  const groups = d.tables.find((t) => t.table === 'book_groups')!;
  assert.deepEqual(groups.fieldsOnlyInB, ['bookSort']);
  const r = await cli('diff', old, a);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /tables only in b: .*servers/);
});

test('diff errors: a missing file, a file that is neither store nor backup, an unknown table; usage exit 2', async () => {
  let r = await cli('diff', a, join(dir, 'nope.db'));
  assert.equal(r.code, 1);
  assert.match(r.stderr, /FILE_NOT_FOUND/);
  const txt = join(dir, 'notes.txt');
  writeFileSync(txt, 'hello');
  r = await cli('diff', a, txt);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /UNSUPPORTED_INPUT: .*notes\.txt: neither a store/);
  r = await cli('diff', a, a, '--tables', 'nosuch');
  assert.equal(r.code, 1);
  assert.match(r.stderr, /UNKNOWN_TABLE/);
  assert.equal((await cli('diff', a)).code, 2);
  mkdirSync(join(dir, 'empty-backup'));
  r = await cli('diff', join(dir, 'empty-backup'), join(dir, 'empty-backup'));
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!existsSync(join(dir, 'empty-backup', 'legado.db')));
});

test('key order: the merge walks keys in SQLite order (numbers before text, text by code point)', () => {
  const keys = ['b', 'a', '\u{1F600}', '\uFF5E', 'A', '', 10, 2, -1, null];
  const sorted = [...keys].sort(compareSql);
  assert.deepEqual(sorted, [null, -1, 2, 10, '', 'A', 'a', 'b', '\uFF5E', '\u{1F600}']);
  assert.equal(compareSql(2n ** 63n - 1n, 9007199254740993n), 1);
});

test('diff of a store with a damaged page: CORRUPT naming the file, exit 1', async () => {
  const { damaged: big, intact: other } = damagedStore(dir, 'big');
  const r = await cli('diff', big, other);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, new RegExp(`^legado-store: CORRUPT: ${big.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: the file is damaged`));
  assert.doesNotMatch(r.stderr, /busy/);
});

test('two identical stores whose primary keys hold blobs are equal', async () => {
  const b1 = join(dir, 'blob-a.db');
  buildStore(b1, 62);
  const db = openDb(b1);
  // SQLite does not enforce a TEXT key's type: another tool may have written blobs.
  db.exec(
    "INSERT INTO book_sources (bookSourceUrl, bookSourceName, bookSourceType, customOrder, enabled, enabledExplore, lastUpdateTime, respondTime, weight) VALUES (X'68747470733a2f2f62', 'B', 0, 0, 1, 1, 0, 0, 0), (X'00ff', 'C', 0, 0, 1, 1, 0, 0, 0)",
  );
  db.close();
  const b2 = join(dir, 'blob-b.db');
  copyFileSync(b1, b2);
  const r = await cli('diff', b1, b2, '--json');
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const d = JSON.parse(r.stdout) as DiffJson;
  assert.equal(d.equal, true);
  assert.equal(table(d, 'book_sources').same, Number(openDbCount(b1)));
  assert.equal(compareSql(new Uint8Array([1, 2]), new Uint8Array([1, 3])) < 0, true);
  assert.equal(compareSql('zzz', new Uint8Array([0])) < 0, true, 'text sorts before blobs');
});

function openDbCount(path: string): unknown {
  const db = openDb(path);
  try {
    return db.prepare('SELECT count(*) FROM book_sources').pluck().get();
  } finally {
    db.close();
  }
}
