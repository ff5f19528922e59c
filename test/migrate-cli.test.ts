// `legado-store migrate`: what it prints and its exit codes (0 done or nothing to do, 1 refused
// or failed, 2 bad usage); a refused file is left byte-for-byte as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { openDb } from './helpers/engine.js';
import { inspectFile } from 'legado-store';
import { cli } from './helpers/cli.js';
import { snapshot, tempDir } from './helpers/files.js';
import { SMALL, createV49 } from './helpers/v49-fixture.js';

const dir = tempDir('legado-migrate-cli-');
let n = 0;
const BASE = join(dir, 'base.db');
createV49(BASE, SMALL);
function base49(): string {
  const p = join(dir, `c${n++}.db`);
  copyFileSync(BASE, p);
  return p;
}
/** A copy of the 49 file changed by raw SQL, as another program would change it. */
function tampered(sql: string): string {
  const p = base49();
  const db = openDb(p);
  db.exec(sql);
  db.close();
  return p;
}

test('migrate upgrades a 49 file, says what it did, exits 0; verify then passes', async () => {
  const path = base49();
  const r = await cli('migrate', path, '--to', '62');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /upgraded .*c\d+\.db from schema 49 to 62 in \d+ ms/);
  assert.match(r.stdout, /from schema 49 to 62 in \d+ ms, 13 step\(s\)/);
  assert.match(r.stdout, /^  50 -> 51: rebuilt readRecord$/m);
  assert.match(r.stdout, /^  54 -> 55: rebuilt books, Migration_54_55 \(\d+ row change\(s\)\)$/m);
  assert.match(r.stdout, /^  55 -> 56: no change$/m);
  assert.match(r.stdout, /^  57 -> 58: \+book_groups\.bookSort$/m);
  assert.match(r.stdout, /^  61 -> 62: new servers$/m);
  assert.equal((await cli('verify', path)).code, 0);

  const again = await cli('migrate', path, '--to', '62');
  assert.equal(again.code, 0);
  assert.match(again.stdout, /is already at schema 62; nothing to do/);

  // On along the chain to the newest version (without --to): the deleted column's rebuild and the view.
  const on = await cli('migrate', path);
  assert.equal(on.code, 0, on.stderr);
  assert.match(on.stdout, /from schema 62 to 75 in \d+ ms, 13 step\(s\)/);
  assert.match(on.stdout, /^  64 -> 65: \+rssSources\.jsLib, rebuilt book_sources$/m);
  assert.match(on.stdout, /^  74 -> 75: view book_sources_part$/m);
  assert.equal((await cli('verify', path)).code, 0);
  assert.equal(inspectFile(path).version, 75);
});

test('--json reports the result; --backup writes a copy of the original', async () => {
  const path = base49();
  const backup = join(dir, 'backup.db');
  const r = await cli('migrate', path, '--to', '62', '--backup', backup, '--json');
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.ok, true);
  assert.equal(out.status, 'upgraded');
  assert.equal(out.from, 49);
  assert.equal(out.to, 62);
  assert.equal(out.backup, backup);
  assert.deepEqual(out.changes.createdTables, ['dictRules', 'servers']);
  assert.equal(inspectFile(path).version, 62);
  assert.equal(inspectFile(backup).version, 49);
  assert.equal(JSON.parse((await cli('migrate', path, '--to', '62', '--json')).stdout).status, 'current');
});

test('a 49 file that does not match is refused with exit 1, one difference a line, file untouched', async () => {
  const path = tampered('ALTER TABLE books ADD COLUMN extra TEXT; DROP INDEX index_chapters_bookUrl');
  const before = snapshot(path);
  const r = await cli('migrate', path);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /SCHEMA_MISMATCH: .* structure does not match schema 49; nothing was changed:/);
  assert.match(r.stderr, /\n  - books\.extra: column is not in the schema\n/);
  assert.match(r.stderr, /\n  - chapters: index index_chapters_bookUrl \(bookUrl\) is missing\n/);
  const j = await cli('migrate', path, '--json');
  assert.equal(j.code, 1);
  const out = JSON.parse(j.stdout);
  assert.equal(out.ok, false);
  assert.equal(out.error.code, 'SCHEMA_MISMATCH');
  assert.equal(out.error.differences.length, 2);
  assert.deepEqual(snapshot(path), before);
});

test('other versions, missing files and an existing backup target exit 1; bad usage exits 2', async () => {
  const v76 = tampered('PRAGMA user_version = 76');
  const before = snapshot(v76);
  const r = await cli('migrate', v76);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /UNSUPPORTED_VERSION: .*schema 76 .*is not supported as a store.*newer than 75/);
  assert.deepEqual(snapshot(v76), before);

  const missing = join(dir, 'missing.db');
  assert.equal((await cli('migrate', missing)).code, 1);
  assert.ok(!existsSync(missing));

  const path = base49();
  const p49 = snapshot(path);
  const taken = base49();
  const t = await cli('migrate', path, '--backup', taken);
  assert.equal(t.code, 1);
  assert.match(t.stderr, /FILE_EXISTS/);
  assert.deepEqual(snapshot(path), p49);

  for (const to of ['48', '76', 'x', '6e1']) {
    const u = await cli('migrate', path, '--to', to);
    assert.equal(u.code, 2, to);
    assert.match(u.stderr, /--to must be a schema version the store knows \(49, 50, .*, 75\)/);
  }
  assert.equal((await cli('migrate')).code, 2, 'missing file argument');
  assert.deepEqual(snapshot(path), p49);
});
