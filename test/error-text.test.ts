// Error texts say one thing once, in the words of where they are read (the CLI's flags on the
// command line, the API's options in code), name what is missing, and say how to fix it.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DriverUnavailableError, exportBackup, FileExistsError, openStore } from 'legado-store';
import { driverNamed } from '../src/engine/drivers/index.js';
import { cli } from './helpers/cli.js';
import { openDb } from './helpers/engine.js';
import { tempDir } from './helpers/files.js';

test('FILE_EXISTS: once, with --force on the command line and overwrite: true in the API', async () => {
  const dir = tempDir();
  const store = join(dir, 's.db');
  assert.equal((await cli('init', store)).code, 0);
  const r = await cli('init', store);
  assert.equal(r.code, 1);
  assert.equal(r.stderr, `legado-store: FILE_EXISTS: ${store}: already exists; a new store is not written over it without --force\n`);
  const list = join(dir, 'list.json');
  writeFileSync(list, '[]');
  const d = await cli('sources', 'dedupe', list, '--write', list);
  assert.equal(d.stderr, `legado-store: FILE_EXISTS: ${list}: already exists; a source list is not written over it without --force\n`);
  const s = openStore(store);
  const out = join(dir, 'b.zip');
  writeFileSync(out, 'x');
  await assert.rejects(
    exportBackup(s, out),
    (e: unknown) => e instanceof FileExistsError && e.message === `${out}: already exists; a backup is not written over it without overwrite: true`,
  );
  s.close();
});

test('a missing input is FILE_NOT_FOUND, and no store is created for it', async () => {
  const dir = tempDir();
  const r = await cli('import', join(dir, 'new.db'), join(dir, 'missing.json'));
  assert.equal(r.code, 1);
  assert.equal(r.stderr, `legado-store: FILE_NOT_FOUND: ${join(dir, 'missing.json')}: no such file\n`);
  assert.deepEqual(readdirSync(dir), []);
});

test('UNKNOWN_TABLE lists the tables of the store', async () => {
  const dir = tempDir();
  const store = join(dir, 's.db');
  assert.equal((await cli('init', store)).code, 0);
  const db = openDb(store);
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('room_master_table', 'android_metadata', 'sqlite_sequence') ORDER BY name")
    .pluck()
    .all() as string[];
  db.close();
  const r = await cli('list', store, 'nosuch');
  assert.equal(r.code, 1);
  assert.equal(r.stderr, `legado-store: UNKNOWN_TABLE: no table nosuch at schema 75 (tables: ${[...tables].sort().join(', ')})\n`);
});

test('DRIVER_UNAVAILABLE says why once and how to get the engine', () => {
  // bun:sqlite cannot load under Node (under Bun it loads: the check is Node's).
  if (!process.versions.bun) {
    assert.throws(
      () => driverNamed('bun:sqlite'),
      (e: unknown) =>
        e instanceof DriverUnavailableError &&
        /^SQLite driver bun:sqlite is not available here: [^;]+; it is Bun's own engine: run under Bun$/.test(e.message) &&
        !/not available here.*not available here/.test(e.message),
    );
  } else {
    assert.equal(driverNamed('bun:sqlite').name, 'bun:sqlite');
  }
  // What every engine failing reads like: each engine's reason once, then the fix.
  const none = new DriverUnavailableError('(any)', 'better-sqlite3: Cannot find module; node:sqlite: No such built-in module: node:sqlite');
  assert.equal(
    none.message,
    'no SQLite driver is available here: better-sqlite3: Cannot find module; node:sqlite: No such built-in module: node:sqlite; install better-sqlite3 (npm install better-sqlite3), or run Node 22.13 or later for its node:sqlite',
  );
  assert.ok(!existsSync(join(tempDir(), 'x')));
});
