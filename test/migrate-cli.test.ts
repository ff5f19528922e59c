// `legado-store migrate`: what it prints and its exit codes (0 done or nothing to do, 1 refused
// or failed, 2 bad usage); a refused file is left byte-for-byte as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
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
  const db = new Database(p);
  db.exec(sql);
  db.close();
  return p;
}

test('migrate upgrades a 49 file, says what it did, exits 0; verify then passes', () => {
  const path = base49();
  const r = cli('migrate', path);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`upgraded .*c\\d+\\.db from schema 49 to 62 in \\d+ ms`));
  assert.match(r.stdout, /rebuilt tables: books, rssSources, readRecord/);
  assert.match(r.stdout, /created tables: dictRules, servers/);
  assert.match(r.stdout, /added columns: .*book_groups\.bookSort/);
  assert.match(r.stdout, /Migration_54_55: \d+ row change/);
  assert.equal(cli('verify', path).code, 0);

  const again = cli('migrate', path);
  assert.equal(again.code, 0);
  assert.match(again.stdout, /is already at schema 62; nothing to do/);
});

test('--json reports the result; --backup writes a copy of the original', () => {
  const path = base49();
  const backup = join(dir, 'backup.db');
  const r = cli('migrate', path, '--to', '62', '--backup', backup, '--json');
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
  assert.equal(JSON.parse(cli('migrate', path, '--json').stdout).status, 'current');
});

test('a 49 file that does not match is refused with exit 1, one difference a line, file untouched', () => {
  const path = tampered('ALTER TABLE books ADD COLUMN extra TEXT; DROP INDEX index_chapters_bookUrl');
  const before = snapshot(path);
  const r = cli('migrate', path);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /SCHEMA_MISMATCH: .* structure does not match schema 49; nothing was changed:/);
  assert.match(r.stderr, /\n  - books\.extra: column is not in the schema\n/);
  assert.match(r.stderr, /\n  - chapters: index index_chapters_bookUrl \(bookUrl\) is missing\n/);
  const j = cli('migrate', path, '--json');
  assert.equal(j.code, 1);
  const out = JSON.parse(j.stdout);
  assert.equal(out.ok, false);
  assert.equal(out.error.code, 'SCHEMA_MISMATCH');
  assert.equal(out.error.differences.length, 2);
  assert.deepEqual(snapshot(path), before);
});

test('other versions, missing files and an existing backup target exit 1; bad usage exits 2', () => {
  const v75 = tampered('PRAGMA user_version = 75');
  const before = snapshot(v75);
  const r = cli('migrate', v75);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /UNSUPPORTED_VERSION: .*schema version 75 is not supported.*no downgrade/);
  assert.deepEqual(snapshot(v75), before);

  const missing = join(dir, 'missing.db');
  assert.equal(cli('migrate', missing).code, 1);
  assert.ok(!existsSync(missing));

  const path = base49();
  const p49 = snapshot(path);
  const taken = base49();
  const t = cli('migrate', path, '--backup', taken);
  assert.equal(t.code, 1);
  assert.match(t.stderr, /FILE_EXISTS/);
  assert.deepEqual(snapshot(path), p49);

  for (const to of ['49', '63', 'x']) {
    const u = cli('migrate', path, '--to', to);
    assert.equal(u.code, 2, to);
    assert.match(u.stderr, /--to must be 62/);
  }
  assert.equal(cli('migrate').code, 2, 'missing file argument');
  assert.deepEqual(snapshot(path), p49);
});
