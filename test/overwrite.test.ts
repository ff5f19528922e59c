// No file is replaced by surprise: every command and API call that writes a file refuses an
// existing one (FILE_EXISTS) unless --force / overwrite, and then writes a temporary file that
// is renamed over the old one, so a failed write leaves what was there untouched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDb } from './helpers/engine.js';
import { FileExistsError, LegadoStoreError, migrate, openStore } from 'legado-store';
import { checkTarget, writeFileSafely, writeFileSafelyAsync, SQLITE_COMPANIONS } from '../src/fs/safe-write.js';
import { cli } from './helpers/cli.js';
import { snapshot, tempDir } from './helpers/files.js';
import { createV49 } from './helpers/v49-fixture.js';

const dir = tempDir();
const noTemps = (folder: string): void =>
  assert.deepEqual(
    readdirSync(folder).filter((n) => n.endsWith('.tmp') || n.includes('.partial')),
    [],
    'no temporary file left',
  );

test('demo and init refuse an existing file (a text file, a store with data) and leave it as it was', async () => {
  const text = join(dir, 'notes.txt');
  writeFileSync(text, 'my notes\n');
  const store = join(dir, 'mine.db');
  const s = openStore(store);
  s.books.save({ bookUrl: 'u1', name: 'Mine', author: 'Me' });
  s.close();
  for (const target of [text, store]) {
    const before = snapshot(target);
    for (const args of [
      ['demo', target],
      ['init', target],
      ['init', target, '--schema', '49'],
    ]) {
      const r = await cli(...args);
      assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /^legado-store: FILE_EXISTS: .*already exists.*--force/);
      assert.deepEqual(snapshot(target), before, args.join(' '));
    }
  }
  assert.equal(readFileSync(text, 'utf8'), 'my notes\n');
  noTemps(dir);
});

test('a stale -wal or -shm where the new store would go counts as an existing file', async () => {
  const target = join(dir, 'ghost.db');
  writeFileSync(`${target}-wal`, 'stale');
  const r = await cli('init', target);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /FILE_EXISTS: .*ghost\.db-wal/);
  assert.equal(existsSync(target), false);
  // --force replaces the store and drops the stale companion with it.
  assert.equal((await cli('init', target, '--force')).code, 0);
  assert.equal(existsSync(`${target}-wal`), false);
  assert.equal((await cli('verify', target)).code, 0);
});

test('with --force, demo and init replace the file through a temporary file renamed over it', async () => {
  const target = join(dir, 'replace.db');
  writeFileSync(target, 'old content');
  let r = await cli('demo', target, '--force');
  assert.equal(r.code, 0, r.stderr);
  const db = openDb(target, { readonly: true });
  assert.equal(db.prepare('SELECT count(*) FROM books').pluck().get(), 3);
  db.close();
  r = await cli('init', target, '--force', '--schema', '49');
  assert.equal(r.code, 0, r.stderr);
  const db2 = openDb(target, { readonly: true });
  assert.equal(db2.pragma('user_version', { simple: true }), 49);
  assert.equal(db2.prepare('SELECT count(*) FROM books').pluck().get(), 0);
  db2.close();
  noTemps(dir);
});

test('migrate --backup refuses an existing backup file unless --force; the API has overwrite', async () => {
  const file = join(dir, 'old49.db');
  const backup = join(dir, 'old49.backup.db');
  createV49(file);
  writeFileSync(backup, 'an older backup');
  const before = snapshot(file);
  const r = await cli('migrate', file, '--backup', backup);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /FILE_EXISTS: .*old49\.backup\.db/);
  assert.deepEqual(snapshot(file), before, 'the store was not touched');
  assert.equal(readFileSync(backup, 'utf8'), 'an older backup');
  assert.throws(
    () => migrate(file, { backup }),
    (e: unknown) => e instanceof FileExistsError && e.path === backup,
  );
  assert.deepEqual(snapshot(file), before);
  const result = migrate(file, { backup, overwrite: true });
  assert.equal(result.status, 'upgraded');
  const db = openDb(backup, { readonly: true });
  assert.equal(db.pragma('user_version', { simple: true }), 49);
  db.close();
  noTemps(dir);
});

test('a failed write leaves the old file untouched and no temporary file behind', async () => {
  const target = join(dir, 'precious.bin');
  writeFileSync(target, 'precious');
  const fail = (temp: string): void => {
    writeFileSync(temp, 'half');
    throw new Error('disk went away');
  };
  assert.throws(() => writeFileSafely(target, fail, { overwrite: true, purpose: 'a test file' }), /disk went away/);
  await assert.rejects(
    writeFileSafelyAsync(target, async (temp) => fail(temp), { overwrite: true, purpose: 'a test file' }),
    /disk went away/,
  );
  assert.equal(readFileSync(target, 'utf8'), 'precious');
  noTemps(dir);
});

test('a full disk while writing is DISK_FULL; the old file stays', () => {
  const target = join(dir, 'full.bin');
  writeFileSync(target, 'kept');
  assert.ok(existsSync('/dev/full'), 'this test needs /dev/full (Linux)');
  assert.throws(
    () => writeFileSafely(target, () => writeFileSync('/dev/full', 'x'.repeat(10_000)), { overwrite: true, purpose: 'a test file' }),
    (e: unknown) => e instanceof LegadoStoreError && e.code === 'DISK_FULL' && e.message.includes('full.bin'),
  );
  assert.equal(readFileSync(target, 'utf8'), 'kept');
  noTemps(dir);
});

test('checkTarget: a folder, a missing parent folder and a NUL byte are CANNOT_OPEN; existing without overwrite FILE_EXISTS', () => {
  const sub = join(dir, 'sub');
  mkdirSync(sub);
  const code = (f: () => void): string | undefined => {
    try {
      f();
    } catch (e) {
      return e instanceof LegadoStoreError ? e.code : 'raw';
    }
    return undefined;
  };
  const opts = { purpose: 'a test file', companions: SQLITE_COMPANIONS };
  assert.equal(
    code(() => checkTarget(sub, { ...opts, overwrite: true })),
    'CANNOT_OPEN',
  );
  assert.equal(
    code(() => checkTarget(join(dir, 'nope', 'x.db'), opts)),
    'CANNOT_OPEN',
  );
  assert.equal(
    code(() => checkTarget(join(dir, 'a\0b.db'), opts)),
    'CANNOT_OPEN',
  );
  writeFileSync(join(sub, 'x.db'), '');
  assert.equal(
    code(() => checkTarget(join(sub, 'x.db'), opts)),
    'FILE_EXISTS',
  );
  assert.equal(
    code(() => checkTarget(join(sub, 'x.db'), { ...opts, overwrite: true })),
    undefined,
  );
  assert.equal(
    code(() => checkTarget(join(sub, 'y.db'), opts)),
    undefined,
  );
});
