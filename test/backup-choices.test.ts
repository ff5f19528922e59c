// Imports that respect what the user has: a re-imported collection keeps each source's place
// (customOrder), and with the app's choices its name, group and enabled state; by default only
// newer sources replace stored ones. An import that stores nothing exits 1 with a hint.
import assert from 'node:assert/strict';
import { cli } from './helpers/cli.js';
import { join } from 'node:path';
import { test } from 'node:test';
import { importBackup, importFiles } from '../src/node/backup-import.js';
import { openStore } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { writeBackupFolder, writeJson } from './helpers/backup-fixtures.js';
import { tempDir } from './helpers/files.js';
import './helpers/engine.js'; // Node's engines, as the package's entry installs them

const source = (n: number, time: number, extra: Record<string, unknown> = {}) => ({
  bookSourceUrl: `https://s${n}`,
  bookSourceName: `Source ${n}`,
  bookSourceGroup: 'remote',
  enabled: true,
  enabledExplore: true,
  customOrder: 100 + n,
  lastUpdateTime: time,
  ...extra,
});

/** A store holding 5 sources the user has reordered, regrouped, renamed and switched off. */
async function userStore(dir: string): Promise<Store<62>> {
  const store = openStore(join(dir, 's.db')) as Store<62>;
  await importFiles(store, [
    writeJson(
      join(dir, 'v1.json'),
      [1, 2, 3, 4, 5].map((n) => source(n, 1000)),
    ),
  ]);
  for (const n of [1, 2, 3, 4, 5]) {
    store.tables.book_sources.update(`https://s${n}`, {
      customOrder: -n,
      bookSourceGroup: 'mine',
      bookSourceName: `My ${n}`,
      enabled: false,
      enabledExplore: false,
    });
  }
  return store;
}

const state = (store: Store<62>, n: number) => {
  const s = store.tables.book_sources.get(`https://s${n}`)!;
  return [s.customOrder, s.bookSourceName, s.bookSourceGroup, s.enabled, s.enabledExplore, s.lastUpdateTime];
};

test("re-importing a collection: only newer sources replace stored ones (the app's preselection), and keep their customOrder", async () => {
  const dir = tempDir();
  const store = await userStore(dir);
  // The same collection again, with source 2 updated upstream.
  const v2 = writeJson(
    join(dir, 'v2.json'),
    [1, 2, 3, 4, 5].map((n) => source(n, n === 2 ? 2000 : 1000, n === 2 ? { bookSourceName: 'Source 2 new' } : {})),
  );
  const r = await importFiles(store, [v2]);
  const k = r.kinds.bookSource!;
  assert.deepEqual([k.read, k.stored, k.updated, k.notNewer], [5, 1, 1, 4]);
  assert.deepEqual(state(store, 1), [-1, 'My 1', 'mine', false, false, 1000], 'not newer: untouched');
  assert.deepEqual(state(store, 2), [-2, 'Source 2 new', 'remote', true, true, 2000], 'newer: replaced, its place kept');
  // --no-only-newer replaces all of them, still keeping every place.
  const all = await importFiles(store, [v2], { onlyNewer: false });
  assert.equal(all.kinds.bookSource!.updated, 5);
  for (const n of [1, 3, 4, 5]) assert.deepEqual(state(store, n), [-n, `Source ${n}`, 'remote', true, true, 1000]);
  store.close();
});

test('keep-name, keep-group and keep-enabled keep those of a stored source; a new source comes in as it is', async () => {
  const dir = tempDir();
  const store = await userStore(dir);
  const v3 = writeJson(join(dir, 'v3.json'), [...[1, 2].map((n) => source(n, 3000)), source(6, 3000)]);
  await importFiles(store, [v3], { keepName: true });
  assert.deepEqual(state(store, 1), [-1, 'My 1', 'remote', true, true, 3000]);
  store.tables.book_sources.update('https://s1', { bookSourceGroup: 'mine', enabled: false, enabledExplore: false });
  const v4 = writeJson(join(dir, 'v4.json'), [source(1, 4000, { bookSourceName: 'Upstream' })]);
  await importFiles(store, [v4], { keepGroup: true, keepEnabled: true });
  assert.deepEqual(state(store, 1), [-1, 'Upstream', 'mine', false, false, 4000]);
  assert.deepEqual(state(store, 6), [106, 'Source 6', 'remote', true, true, 3000]);
  // A backup is a restore: it overwrites, as the app's Restore does.
  await importBackup(store, writeBackupFolder(join(dir, 'b'), { 'bookSource.json': [source(1, 1)] }));
  assert.deepEqual(state(store, 1), [101, 'Source 1', 'remote', true, true, 1]);
  store.close();
});

test('CLI: --keep-* and --no-only-newer flags; an import that stores nothing exits 1 with a hint', async () => {
  const dir = tempDir();
  const db = join(dir, 's.db');
  const v1 = writeJson(join(dir, 'v1.json'), [source(1, 1000)]);
  assert.equal((await cli('import', db, v1)).code, 0);
  const s = openStore(db) as Store<62>;
  s.tables.book_sources.update('https://s1', { customOrder: -7, bookSourceName: 'Mine', bookSourceGroup: 'g', enabled: false });
  s.close();
  // Nothing newer: nothing stored, but the store's rows were kept on purpose: success.
  let r = await cli('import', db, v1);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /1 not newer than the stored source/);
  r = await cli('import', db, v1, '--no-only-newer', '--keep-name', '--keep-group', '--keep-enabled', '--json');
  assert.equal(r.code, 0, r.stderr);
  const again = openStore(db) as Store<62>;
  assert.deepEqual(state(again, 1).slice(0, 4), [-7, 'Mine', 'g', false]);
  again.close();
  // Every record skipped.
  const blank = writeJson(join(dir, 'blank.json'), [{ bookSourceUrl: '' }, { bookSourceUrl: ' ' }]);
  r = await cli('import', db, blank);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /nothing was stored: every record was skipped \(blank key bookSourceUrl ×2\)/);
  // A wrong --kind: the keys tell what the records are.
  r = await cli('import', db, v1, '--kind', 'replaceRule');
  assert.equal(r.code, 1);
  assert.match(r.stderr, /nothing was stored: the records of .*v1\.json look like bookSource, not replaceRule: check --kind/);
  // No records at all.
  r = await cli('import', db, writeJson(join(dir, 'empty.json'), []));
  assert.equal(r.code, 1);
  assert.match(r.stderr, /nothing was stored: the input holds no records/);
});
