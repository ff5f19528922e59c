// Backups and collections at every version: a field is kept wherever the store's version has a
// column for it and reported as dropped (never silently lost) where it has not; export writes the
// app's key names and never an array holding null (a real collection's round trip through 75 is
// in corpus/collection-round-trip.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encryptBackupText } from '../src/backup/aes.js';
import { exportBackup } from '../src/node/backup-export.js';
import { importBackup } from '../src/node/backup-import.js';
import type { SchemaVersion } from '../src/schema/index.js';
import { openStore } from '../src/store/open.js';
import { tempDir } from './helpers/files.js';
import './helpers/engine.js'; // Node's engines, as the package's entry installs them

type Json = Record<string, unknown>;
const dir = tempDir();
let n = 0;

/** Fields of the app added after 62, one record each, in the app's JSON shapes. */
const CURRENT: Record<string, Json[]> = {
  'bookSource.json': [
    {
      bookSourceUrl: 'https://s.example',
      bookSourceName: 'S',
      bookSourceType: 0,
      jsLib: 'function f() {}',
      exploreScreen: '[{"title":"x"}]',
      enabledReview: true,
      ruleSearch: { bookList: '$.list', checkKeyWord: '我' },
    },
  ],
  'bookshelf.json': [{ bookUrl: 'https://b.example/1', name: 'B', author: 'A', origin: 'https://s.example', type: 8, syncTime: 1700000000000 }],
  'bookGroup.json': [{ groupId: 2, groupName: 'G', order: 1, show: true, enableRefresh: false }],
  'replaceRule.json': [{ id: 7, name: 'r', pattern: 'a', replacement: 'b', excludeScope: 'https://s.example' }],
  'rssSources.json': [{ sourceUrl: 'https://r.example', sourceName: 'R', sourceIcon: '', jsLib: 'x', shouldOverrideUrlLoading: 'y' }],
  'rssStar.json': [{ origin: 'https://r.example', sort: '', title: 'T', starTime: 5, link: 'https://r.example/1', group: '科技' }],
  'httpTTS.json': [{ id: 3, name: 'tts', url: 'https://t.example', jsLib: 'lib' }],
};

function backupFolder(files: Record<string, Json[]>, extra: Record<string, string> = {}): string {
  const d = join(dir, `in${n++}`);
  mkdirSync(d);
  for (const [name, records] of Object.entries(files)) writeFileSync(join(d, name), JSON.stringify(records));
  for (const [name, text] of Object.entries(extra)) writeFileSync(join(d, name), text);
  return d;
}

const readJson = (path: string): Json[] => JSON.parse(readFileSync(path, 'utf8'));

test("at 75 every post-62 field is stored and exported under the app's key; enabledReview is reported dropped", async () => {
  const store = openStore(join(dir, `s${n++}.db`), { schema: 75 });
  const r = await importBackup(store, backupFolder(CURRENT));
  assert.deepEqual(r.kinds.bookSource!.droppedFields, { enabledReview: 1 });
  for (const k of Object.values(r.kinds)) assert.deepEqual(k.unknownFields, {}, k.kind);
  const src = store.tables.book_sources.get('https://s.example')!;
  assert.equal(src.jsLib, 'function f() {}');
  assert.equal(src.exploreScreen, '[{"title":"x"}]');
  assert.equal(store.tables.books.get('https://b.example/1')!.syncTime, 1700000000000);
  assert.equal(store.tables.book_groups.get(2)!.enableRefresh, false);
  assert.equal(store.tables.replace_rules.get(7)!.excludeScope, 'https://s.example');
  assert.equal(store.tables.rssStars.get({ origin: 'https://r.example', link: 'https://r.example/1' })!.group, '科技');
  assert.equal(store.tables.httpTTS.get(3)!.jsLib, 'lib');
  const out = join(dir, `out${n++}`);
  await exportBackup(store, out);
  store.close();
  assert.equal(readJson(join(out, 'bookSource.json'))[0]!.jsLib, 'function f() {}');
  assert.equal(readJson(join(out, 'bookSource.json'))[0]!.exploreScreen, '[{"title":"x"}]');
  assert.equal('enabledReview' in readJson(join(out, 'bookSource.json'))[0]!, false);
  assert.equal(readJson(join(out, 'bookshelf.json'))[0]!.syncTime, 1700000000000);
  assert.equal(readJson(join(out, 'bookGroup.json')).find((g) => g.groupId === 2)!.enableRefresh, false);
  // The app inserts 本地 (-2) with enableRefresh false from 63 on, and so does a new 75 store.
  assert.equal(readJson(join(out, 'bookGroup.json')).find((g) => g.groupId === -2)!.enableRefresh, false);
  assert.equal(readJson(join(out, 'replaceRule.json'))[0]!.excludeScope, 'https://s.example');
  assert.equal(readJson(join(out, 'rssStar.json'))[0]!.group, '科技');
  assert.equal(readJson(join(out, 'httpTTS.json'))[0]!.jsLib, 'lib');
  assert.equal(readJson(join(out, 'rssSources.json'))[0]!.shouldOverrideUrlLoading, 'y');
});

test('a store of an older version reports each field it lacks as dropped, per version', async () => {
  const dropped = async (version: SchemaVersion) => {
    const store = openStore(join(dir, `s${n++}.db`), { schema: version as 62 });
    const r = await importBackup(store, backupFolder(CURRENT));
    store.close();
    for (const k of Object.values(r.kinds)) assert.deepEqual(k.unknownFields, {}, `${version} ${k.kind}`);
    return Object.fromEntries(
      Object.entries(r.kinds)
        .map(([k, v]) => [k, Object.keys(v.droppedFields).sort()])
        .filter(([, f]) => f!.length),
    );
  };
  assert.deepEqual(await dropped(62), {
    bookSource: ['exploreScreen', 'jsLib'],
    book: ['syncTime'],
    bookGroup: ['enableRefresh'],
    replaceRule: ['excludeScope'],
    rssSource: ['jsLib', 'shouldOverrideUrlLoading'],
    rssStar: ['group'],
    httpTTS: ['jsLib'],
  });
  assert.deepEqual(await dropped(65), {
    bookSource: ['enabledReview'],
    book: ['syncTime'],
    replaceRule: ['excludeScope'],
    rssSource: ['shouldOverrideUrlLoading'],
    rssStar: ['group'],
    httpTTS: ['jsLib'],
  });
  assert.deepEqual(await dropped(71), { bookSource: ['enabledReview'], rssStar: ['group'] });
});

test('export never writes an array holding null, at any depth of a rule', async () => {
  const store = openStore(join(dir, `s${n++}.db`), { schema: 75 });
  store.tables.book_sources.insert({
    bookSourceUrl: 'u',
    bookSourceName: 'n',
    bookSourceType: 0,
    lastUpdateTime: 0,
    respondTime: 0,
    weight: 0,
    ruleExplore: '{"list": ["a", null, {"x": [null, 1]}], "n": null}',
  });
  const out = join(dir, `out${n++}`);
  await exportBackup(store, out);
  store.close();
  const text = readFileSync(join(out, 'bookSource.json'), 'utf8');
  assert.deepEqual(JSON.parse(text)[0].ruleExplore, { list: ['a', { x: [1] }], n: null });
});

test("a current app's extra files and the LegadoTeam line's are reported as not tables", async () => {
  const store = openStore(join(dir, `s${n++}.db`), { schema: 75 });
  const extras = {
    'coverRule.json': '{"enable":true}',
    'highlight.json': '[]',
    'highlightRule.json': '[]',
    'cookies.json': '[]',
    'autoTask.json': '[]',
    'videoConfig.xml': '<map/>',
  };
  // A current app always encrypts servers.json; without a password, with the default key.
  const servers = encryptBackupText(JSON.stringify([{ id: 1, name: 'dav', type: 'WEBDAV', config: '{"url":"https://dav.example"}', sortNumber: 0 }]));
  const r = await importBackup(store, backupFolder({ 'httpTTS.json': CURRENT['httpTTS.json']! }, { ...extras, 'servers.json': servers }));
  assert.equal(store.tables.servers.get(1)?.name, 'dav');
  store.close();
  const notTables = r.files.filter((f) => f.status === 'not-imported').map((f) => [f.file.split('/').pop(), f.reason]);
  assert.deepEqual(notTables.map(([f]) => f).sort(), Object.keys(extras).sort());
  assert.match(String(notTables.find(([f]) => f === 'highlight.json')![1]), /LegadoTeam highlights/);
  assert.match(String(notTables.find(([f]) => f === 'coverRule.json')![1]), /cover rule/);
});
