// The command-line tool: init, info, verify, demo; exit codes 0 / 1 / 2; one-line errors on stderr.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDb } from './helpers/engine.js';
import { schemas } from 'legado-store';
import { tempDir, snapshot } from './helpers/files.js';
import { cli } from './helpers/cli.js';

const dir = tempDir();

test('init creates a store at 75 (the newest) by default or at any version 49 to 75, and refuses to overwrite', async () => {
  const pDefault = join(dir, 'default.db');
  let r = await cli('init', pDefault);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, `created ${pDefault} at schema 75 (identity hash e22b36ff0280a224a30d08dd6e9bd7be)\n`);
  const db = openDb(pDefault, { readonly: true });
  assert.equal(db.pragma('user_version', { simple: true }), 75);
  assert.equal(db.prepare("SELECT count(*) FROM pragma_table_info('book_sources') WHERE name = 'jsLib'").pluck().get(), 1);
  db.close();
  const p62 = join(dir, 'a.db');
  r = await cli('init', p62, '--schema', '62');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /created .*a\.db at schema 62/);
  r = await cli('init', join(dir, 'b.db'), '--schema', '49');
  assert.equal(r.code, 0);
  assert.match(r.stdout, new RegExp(schemas[49].identityHash));
  // Any main-line version; info names it and the app releases that run it, verify checks it (the view too).
  const p75 = join(dir, 'c75.db');
  r = await cli('init', p75, '--schema', '75');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /at schema 75 \(identity hash e22b36ff0280a224a30d08dd6e9bd7be\)/);
  r = await cli('info', p75);
  assert.match(r.stdout, /schema version: 75\n/);
  assert.match(r.stdout, /what it is: +schema 75 of the app's main line \(the rolling beta builds since 2025-02-24/);
  assert.match(r.stdout, /matches schema 75/);
  assert.equal((await cli('verify', p75)).code, 0);
  const before = snapshot(p62);
  r = await cli('init', p62);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /already exists/);
  assert.deepEqual(snapshot(p62), before);
});

test('bad usage exits 2 with a message on stderr', async () => {
  for (const args of [
    ['init', join(dir, 'x.db'), '--schema', '76'],
    ['init', join(dir, 'x.db'), '--schema', '62.5'],
    ['info'],
    ['frobnicate'],
    ['verify', 'a', 'b'],
  ]) {
    const r = await cli(...args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.ok(r.stderr.trim().length > 0);
    assert.equal(r.stdout, '');
  }
  assert.equal(existsSync(join(dir, 'x.db')), false);
});

test('info shows version, identity hash, structure check and rows per table; --json too', async () => {
  const path = join(dir, 'demo.db');
  assert.equal((await cli('demo', path)).code, 0);
  const r = await cli('info', path);
  assert.equal(r.code, 0);
  // The demo store is new, so it is at the newest schema (75), as `init` makes one.
  assert.match(r.stdout, /schema version: 75/);
  assert.match(r.stdout, /identity hash:  e22b36ff0280a224a30d08dd6e9bd7be/);
  assert.match(r.stdout, /structure:      matches schema 75/);
  assert.match(r.stdout, /chapters\s+36/);
  const j = JSON.parse((await cli('info', path, '--json')).stdout);
  assert.equal(j.version, 75);
  assert.equal(j.ok, true);
  assert.equal(j.rows.books, 3);
  assert.equal(Object.keys(j.rows).length, 21);
});

test('verify exits 0 on a matching file and 1 with every difference on a mismatched one', async () => {
  const path = join(dir, 'v.db');
  await cli('init', path, '--schema', '62');
  let r = await cli('verify', path);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /matches schema 62/);
  const db = openDb(path);
  db.exec('DROP INDEX index_chapters_bookUrl; ALTER TABLE books ADD COLUMN syncTime INTEGER NOT NULL DEFAULT 0');
  db.close();
  const before = snapshot(path);
  r = await cli('verify', path);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /2 difference\(s\)/);
  assert.match(r.stdout, /books\.syncTime: column is not in the schema/);
  assert.match(r.stdout, /index index_chapters_bookUrl \(bookUrl\) is missing/);
  const j = JSON.parse((await cli('verify', path, '--json')).stdout);
  assert.equal(j.ok, false);
  assert.deepEqual(j.differences.map((d: { kind: string }) => d.kind).sort(), ['extra-column', 'missing-index']);
  assert.deepEqual(snapshot(path), before, 'verify never changes the file');
});

test('verify and info fail with one clear line for a missing file, a foreign file, a newer version', async () => {
  const text = join(dir, 'notes.txt');
  writeFileSync(text, 'x'.repeat(5000));
  const newer = join(dir, 'v104.db');
  await cli('init', newer);
  const db = openDb(newer);
  db.exec("PRAGMA user_version = 104; UPDATE room_master_table SET identity_hash = 'f104c9211bea7c0fe485a49d3c7aaa4a'");
  db.close();
  let r = await cli('verify', join(dir, 'missing.db'));
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^legado-store: FILE_NOT_FOUND: .*missing\.db: no such file\n$/);
  r = await cli('info', text);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^legado-store: NOT_A_DATABASE: .*notes\.txt: not a SQLite database.*\n$/);
  r = await cli('verify', newer);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /schema version: 104 \(not supported as a store; supported: 49 to 75\)/);
  assert.match(r.stdout, /what it is: +schema 104 of the LegadoTeam line/);
  assert.match(r.stdout, /import: +legado-store import <store> .*v104\.db/);
  r = await cli('info', newer);
  assert.equal(r.code, 0, 'info reports what it found');
});

test('demo creates a store with a sample in every table and shows it', async () => {
  const path = join(dir, 'sample.db');
  const r = await cli('demo', path);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /青山剑客 \/ 林远: 12 chapters/);
  const db = openDb(path, { readonly: true });
  for (const t of schemas[62].tables) assert.ok((db.prepare(`SELECT count(*) FROM \`${t.name}\``).pluck().get() as number) > 0, t.name);
  db.close();
  assert.equal((await cli('verify', path)).code, 0);
});

test('import into a path that does not exist creates the store at 75, says so on stderr, and keeps jsLib', async () => {
  const sources = join(dir, 'with-jslib.json');
  writeFileSync(sources, JSON.stringify([{ bookSourceUrl: 'https://a.example', bookSourceName: 'A', jsLib: 'function f() {}', exploreScreen: '[]' }]));
  const typo = join(dir, 'typo.db');
  let r = await cli('import', typo, sources);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, `legado-store: created ${typo} at schema 75\n`);
  assert.doesNotMatch(r.stdout, /dropped/);
  const db = openDb(typo, { readonly: true });
  assert.equal(db.pragma('user_version', { simple: true }), 75);
  assert.deepEqual(db.prepare('SELECT jsLib, exploreScreen FROM book_sources').raw().all(), [['function f() {}', '[]']]);
  db.close();
  // Into the same store again: nothing is created, nothing said.
  r = await cli('import', typo, sources);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  // --schema keeps the choice, and the report names what that schema cannot hold.
  const old = join(dir, 'typo62.db');
  r = await cli('import', old, sources, '--schema', '62');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, `legado-store: created ${old} at schema 62\n`);
  assert.match(r.stdout, /bookSource: dropped \(no column at schema 62\): jsLib ×1, exploreScreen ×1/);
});
