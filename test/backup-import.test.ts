// Importing backups and rule files: every table, zip and folder forms, the app's merge rules,
// duplicates, skipped records, strict mode, bad input, encrypted servers.json, a 49 store.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { encryptBackupText } from '../src/backup/aes.js';
import { DecryptError, ImportRejectedError, InvalidJsonError, UnsupportedInputError } from '../src/backup/errors.js';
import { importBackup, importFiles } from '../src/node/backup-import.js';
import { writeZip } from './helpers/zip.js';
import { openStore } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { sampleBackup, writeBackupFolder, writeBackupZip, writeJson } from './helpers/backup-fixtures.js';
import { source } from './helpers/builders.js';
import { tempDir } from './helpers/files.js';
import './helpers/engine.js'; // Node's engines, as the package's entry installs them

const TABLES = [
  'books',
  'bookmarks',
  'book_sources',
  'rssSources',
  'rssStars',
  'replace_rules',
  'search_keywords',
  'ruleSubs',
  'txtTocRules',
  'httpTTS',
  'dictRules',
  'keyboardAssists',
  'readRecord',
  'servers',
];

function freshStore(dir: string, name = 's.db', schema: 62 | 49 = 62): Store<62 | 49> {
  return openStore(join(dir, name), { schema }) as Store<62 | 49>;
}

test('a backup folder and the same backup zipped import every table file; other files are reported, empty files are empty sections', async () => {
  const dir = tempDir();
  const files = { ...sampleBackup(), 'bookmark.json': '', 'config.xml': '<map></map>', 'readConfig.json': '[]', 'notes.txt': 'hello' };
  const folder = writeBackupFolder(join(dir, 'backup'), files);
  const zip = await writeBackupZip(dir, join(dir, 'backup.zip'), files);
  for (const input of [folder, zip]) {
    const store = freshStore(dir, `${input === zip ? 'z' : 'f'}.db`);
    const groupsBefore = store.table('book_groups').count();
    const r = await importBackup(store, input);
    for (const t of TABLES) {
      const expected = t === 'bookmarks' ? 0 : 1 + (t === 'books' ? 1 : 0);
      assert.equal(store.table(t).count(), expected, `${input}: ${t}`);
    }
    assert.equal(store.table('book_groups').count(), groupsBefore + 1);
    const byFile = (name: string) => r.files.find((f) => f.file.endsWith(name))!;
    assert.equal(byFile('bookmark.json').status, 'empty');
    assert.equal(byFile('config.xml').status, 'not-imported');
    assert.match(byFile('readConfig.json').reason!, /reading styles/);
    assert.match(byFile('notes.txt').reason!, /not a file of a Legado backup/);
    assert.equal(r.kinds.bookSource!.stored, 1);
    assert.equal(r.totals.skipped, 0);
    const src = store.tables.book_sources.get('https://source.example')!;
    assert.equal(src.ruleSearch, '{\n  "bookList": "class.list@li",\n  "name": "tag.a@text"\n}');
    assert.equal(src.ruleExplore, 'null');
    assert.equal(store.table('replace_rules').get(1600000000200)!.order, 5);
    store.close();
  }
});

test('a zip with the backup inside a folder is read by file name; a repeated name is reported', async () => {
  const dir = tempDir();
  const src = writeBackupFolder(join(dir, 'src'), { 'bookSource.json': [{ bookSourceUrl: 'https://a' }], 'other.json': [{ bookSourceUrl: 'https://b' }] });
  const zip = join(dir, 'nested.zip');
  await writeZip(zip, [
    { name: 'backup/bookSource.json', path: join(src, 'bookSource.json') },
    { name: 'old/bookSource.json', path: join(src, 'other.json') },
  ]);
  const store = freshStore(dir) as Store<62>;
  const r = await importBackup(store, zip);
  assert.deepEqual(
    store.tables.book_sources.list().map((s) => s.bookSourceUrl),
    ['https://a'],
  );
  assert.match(r.files.find((f) => f.status === 'not-imported')!.reason!, /second entry/);
});

test("merge like the app's restore: books update in place and keep their chapters, readRecord keeps the larger time, others upsert", async () => {
  const dir = tempDir();
  const store = freshStore(dir) as Store<62>;
  const backup = sampleBackup();
  await importBackup(store, writeBackupFolder(join(dir, 'b1'), backup));
  store.tables.chapters.insert({
    url: 'c1',
    title: 'One',
    isVolume: false,
    baseUrl: 'b',
    bookUrl: 'https://books.example/1',
    index: 0,
    isVip: false,
    isPay: false,
  });
  const changed = sampleBackup();
  changed['bookshelf.json']![0]!.durChapterIndex = 9;
  changed['bookshelf.json']![0]!.type = 0; // beside bitmask types: still the old code for text (every bitmask book has a kind bit)
  changed['readRecord.json'] = [
    { deviceId: '', bookName: 'Book One', readTime: 10, lastRead: 1 },
    { deviceId: 'other', bookName: 'Book One', readTime: 7, lastRead: 1 },
  ];
  changed['bookSource.json']![0]!.bookSourceName = 'Renamed';
  const r = await importBackup(store, writeBackupFolder(join(dir, 'b2'), changed));
  const book = store.tables.books.get('https://books.example/1')!;
  assert.equal(book.durChapterIndex, 9);
  assert.equal(book.type, 8);
  assert.equal(store.tables.chapters.count({ bookUrl: 'https://books.example/1' }), 1, 'chapters survive');
  assert.equal(r.kinds.book!.updated, 2);
  assert.equal(store.tables.readRecord.get({ deviceId: '', bookName: 'Book One' })!.readTime, 5000, 'the larger readTime stays');
  assert.equal(store.tables.readRecord.get({ deviceId: 'other', bookName: 'Book One' })!.readTime, 7);
  assert.equal(r.kinds.readRecord!.unchanged, 1);
  assert.equal(store.tables.book_sources.get('https://source.example')!.bookSourceName, 'Renamed');
  assert.equal(r.kinds.bookSource!.updated, 1);
  // A file of old codes (a local book without the local bit, an audio code 1): converted as the
  // app's Book.upType() does, 0 → 8 (+256 when local), 1 → 32.
  const old = sampleBackup();
  old['bookshelf.json']![0]!.type = 0;
  old['bookshelf.json']![1]!.type = 0;
  await importBackup(store, writeBackupFolder(join(dir, 'b3'), old));
  assert.equal(store.tables.books.get('https://books.example/1')!.type, 8);
  assert.equal(store.tables.books.get('/storage/emulated/0/Books/local.txt')!.type, 264);
  old['bookshelf.json']![0]!.type = 1;
  old['bookshelf.json']!.splice(1, 1);
  await importBackup(store, writeBackupFolder(join(dir, 'b4'), old));
  assert.equal(store.tables.books.get('https://books.example/1')!.type, 32);
  store.close();
});

test('a book with the name and author of another bookUrl replaces it, as the app does; counted', async () => {
  const dir = tempDir();
  const store = freshStore(dir) as Store<62>;
  const f = writeJson(join(dir, 'bookshelf.json'), [
    { bookUrl: 'u1', name: 'Same', author: 'A' },
    { bookUrl: 'u2', name: 'Same', author: 'A' },
  ]);
  const r = await importFiles(store, [f]);
  assert.deepEqual(
    store.tables.books.list().map((b) => b.bookUrl),
    ['u2'],
  );
  assert.equal(r.kinds.book!.replaced, 1);
});

test('the same key twice in one import: the same content is a duplicate, other content a conflict that says which was kept', async () => {
  const dir = tempDir();
  const store = freshStore(dir) as Store<62>;
  const f = writeJson(join(dir, 'sources.json'), [
    { bookSourceUrl: 'https://a', bookSourceName: 'first' },
    { bookSourceUrl: 'https://b', bookSourceName: 'b' },
    { bookSourceUrl: 'https://a', bookSourceName: 'second' },
    { bookSourceUrl: 'https://b', bookSourceName: 'b' },
  ]);
  const r = await importFiles(store, [f]);
  assert.equal(store.tables.book_sources.get('https://a')!.bookSourceName, 'second');
  const k = r.kinds.bookSource!;
  assert.deepEqual([k.read, k.stored, k.duplicates, k.conflicts], [4, 2, 1, 1]);
  assert.equal(r.files[0]!.duplicates, 1);
  assert.deepEqual(r.conflicts, [
    { kind: 'bookSource', key: '["https://a"]', first: `${f} [0]`, kept: `${f} [2]`, reason: 'same key, different content: the later record was stored' },
  ]);
  // Replace rules of two files sharing ids: every clash is a conflict, not a duplicate.
  const rules = (names: string[]) => names.map((n, i) => ({ id: i + 1, name: n, pattern: n }));
  const a = writeJson(join(dir, 'a.json'), rules(['x', 'y', 'z']));
  const b = writeJson(join(dir, 'b.json'), rules(['x', 'q', 'w']));
  const r2 = await importFiles(store, [a, b]);
  assert.deepEqual([r2.kinds.replaceRule!.duplicates, r2.kinds.replaceRule!.conflicts], [1, 2]);
  assert.deepEqual(
    r2.conflicts.map((c) => [c.key, c.first, c.kept]),
    [
      ['[2]', `${a} [1]`, `${b} [1]`],
      ['[3]', `${a} [2]`, `${b} [2]`],
    ],
  );
});

test('records that cannot be stored are skipped with position and reason; --strict stores nothing; old rows stay', async () => {
  const dir = tempDir();
  const store = freshStore(dir) as Store<62>;
  store.tables.book_sources.insert(source('https://old', { bookSourceName: 'old', respondTime: 0 }));
  const f = writeJson(join(dir, 'mixed.json'), [
    { bookSourceUrl: 'https://ok1', bookSourceName: 'ok' },
    { bookSourceUrl: '', bookSourceName: 'no key' },
    'not an object',
    { bookSourceUrl: 'https://ok2', lastUpdateTime: 'soon', ruleSearch: '{"name":"a"}' },
  ]);
  await assert.rejects(importFiles(store, [f], { strict: true }), (e: unknown) => {
    assert.ok(e instanceof ImportRejectedError);
    assert.equal(e.code, 'IMPORT_REJECTED');
    assert.equal(e.result.skipped.length, 2);
    return true;
  });
  assert.deepEqual(
    store.tables.book_sources.list().map((s) => s.bookSourceUrl),
    ['https://old'],
  );
  const r = await importFiles(store, [f]);
  assert.deepEqual(
    r.skipped.map((s) => [s.index, s.category]),
    [
      [1, 'blank key bookSourceUrl'],
      [2, 'not an object'],
    ],
  );
  assert.equal(r.skipped[0]!.file, f);
  assert.deepEqual(r.kinds.bookSource!.skipReasons, { 'blank key bookSourceUrl': 1, 'not an object': 1 });
  assert.equal(store.tables.book_sources.count(), 3);
  assert.equal(store.tables.book_sources.get('https://ok2')!.lastUpdateTime, 0);
  assert.equal(r.kinds.bookSource!.defaultedFields.lastUpdateTime, 1);
});

test('invalid JSON fails the import naming file, line and column, and stores nothing of it', async () => {
  const dir = tempDir();
  const store = freshStore(dir) as Store<62>;
  const good = writeJson(join(dir, 'good.json'), [{ bookSourceUrl: 'https://g' }]);
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, '[\n  {"bookSourceUrl": "https://x",\n  }\n]');
  await assert.rejects(importFiles(store, [good, bad]), (e: unknown) => e instanceof InvalidJsonError && e.file === bad && e.line === 3 && e.column === 3);
  assert.equal(store.tables.book_sources.count(), 0);
});

test('kinds are detected from the keys as the app does, or given; one object or an array', async () => {
  const dir = tempDir();
  const store = freshStore(dir) as Store<62>;
  const files = [
    writeJson(join(dir, 'a.json'), { bookSourceUrl: 'https://one' }),
    writeJson(join(dir, 'b.json'), [{ sourceUrl: 'https://rss', sourceName: 'r' }]),
    writeJson(join(dir, 'c.json'), [{ name: 'r', pattern: 'x', replacement: 'y' }]),
    writeJson(join(dir, 'd.json'), [{ name: 'toc', rule: '^第' }]),
    writeJson(join(dir, 'e.json'), [{ name: 'tts', url: 'https://tts' }]),
    writeJson(join(dir, 'f.json'), [{ name: 'dict', urlRule: 'u', showRule: 's' }]),
    writeJson(join(dir, 'g.json'), [{ regex: 'old', replaceSummary: 'legacy' }]),
    writeJson(join(dir, 'keyboardAssists.json'), [{ key: 'k', value: 'v', serialNo: 1 }]),
  ];
  const r = await importFiles(store, files);
  assert.deepEqual(
    r.files.map((f) => f.kind),
    ['bookSource', 'rssSource', 'replaceRule', 'txtTocRule', 'httpTTS', 'dictRule', 'replaceRule', 'keyboardAssist'],
  );
  assert.equal(store.tables.replace_rules.count(), 2);
  const given = await importFiles(store, [writeJson(join(dir, 'h.json'), [{ word: 'w', usage: 1, lastUseTime: 1 }])], { kind: 'searchHistory' });
  assert.equal(given.kinds.searchHistory!.stored, 1);
  await assert.rejects(importFiles(store, [writeJson(join(dir, 'i.json'), [{ what: 1 }])]), /cannot tell what kind/);
  await assert.rejects(
    importFiles(store, [writeJson(join(dir, 'j.json'), { sourceUrls: ['https://x/a.json'] })]),
    (e: unknown) => e instanceof UnsupportedInputError && /download each URL/.test(e.message),
  );
  await assert.rejects(
    importFiles(store, ['https://example.com/sources.json']),
    (e: unknown) => e instanceof UnsupportedInputError && /download it first/.test(e.message),
  );
  const theme = await importFiles(store, [writeJson(join(dir, 'themes.json'), [{ themeName: 't' }])]);
  assert.equal(theme.files[0]!.status, 'not-imported');
});

test("servers.json encrypted with the app's default key or a backup password", async () => {
  const dir = tempDir();
  const servers = JSON.stringify([{ id: 1, name: 'dav', type: 'WEBDAV', config: '{"url":"u"}', sortNumber: 0 }], null, 2);
  const store = freshStore(dir) as Store<62>;
  await importBackup(store, writeBackupFolder(join(dir, 'b1'), { 'servers.json': encryptBackupText(servers) }));
  assert.equal(store.tables.servers.get(1)!.name, 'dav');
  const withPassword = writeBackupFolder(join(dir, 'b2'), {
    'servers.json': encryptBackupText(servers.replace('dav', 'dav2'), 'secret'),
    'bookSource.json': [{ bookSourceUrl: 'https://s' }],
  });
  // A file that cannot be read is skipped and reported, the rest imported; --strict stores nothing.
  await assert.rejects(importBackup(store, withPassword, { strict: true }), DecryptError);
  assert.equal(store.tables.book_sources.count(), 0);
  const lenient = await importBackup(store, withPassword);
  assert.equal(store.tables.book_sources.count(), 1);
  assert.equal(store.tables.servers.get(1)!.name, 'dav');
  const skipped = lenient.files.find((f) => f.file.endsWith('servers.json'))!;
  assert.deepEqual([skipped.status, skipped.error, skipped.kind], ['not-imported', 'DECRYPT_FAILED', 'server']);
  assert.match(skipped.reason!, /cannot be read, skipped: DECRYPT_FAILED: .*servers\.json: cannot decrypt with the app's default key/);
  await importBackup(store, withPassword, { password: 'secret' });
  assert.equal(store.tables.servers.get(1)!.name, 'dav2');
  const loose = writeJson(join(dir, 'my-servers.txt'), encryptBackupText(servers.replace('dav', 'dav3')));
  await importFiles(store, [loose], { kind: 'servers' });
  assert.equal(store.tables.servers.get(1)!.name, 'dav3');
  assert.equal(
    encryptBackupText('[]'),
    'bF6sxj5FCEbxFyh1WJYCrQ==' /* openssl enc -aes-128-ecb -K hex(d41d8cd98f00b204) -base64 */,
    'key d41d8cd98f00b204, AES-128-ECB, PKCS5, Base64',
  );
});

test('a 49 store imports into its own columns; what only 62 has is reported as dropped', async () => {
  const dir = tempDir();
  const store = freshStore(dir, 's49.db', 49) as Store<49>;
  const r = await importBackup(store, writeBackupFolder(join(dir, 'b'), sampleBackup()));
  assert.equal(store.version, 49);
  assert.equal(store.tables.readRecord.count(), 1);
  assert.equal(store.tables.books.get('https://books.example/1')!.type, 0, 'bitmask back to the old code');
  assert.equal(store.tables.books.get('/storage/emulated/0/Books/local.txt')!.type, 0);
  assert.deepEqual(r.kinds.readRecord!.droppedFields, { lastRead: 1 });
  assert.deepEqual(r.kinds.bookGroup!.droppedFields, { bookSort: 1 });
  assert.deepEqual(r.kinds.rssSource!.droppedFields, { lastUpdateTime: 1 });
  const dict = r.files.find((f) => f.file.endsWith('dictRule.json'))!;
  assert.equal(dict.status, 'not-imported');
  assert.match(dict.reason!, /no dictRules table at schema 49/);
  assert.equal(dict.read, 1);
  store.close();
});
