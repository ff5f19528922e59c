// Failures that escaped as raw engine or system errors are typed: a file labelled with the wrong
// version under `verify --deep`, a full disk under a command that writes a file itself.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { errorJson } from '../src/cli/errors.js';
import { cli } from './helpers/cli.js';
import { openDb } from './helpers/engine.js';
import { tempDir } from './helpers/files.js';

test('verify --deep on a schema-59 file labelled 60 reports the missing table, no "no such table"', async () => {
  const dir = tempDir();
  const file = join(dir, 'v59.db');
  assert.equal((await cli('init', file, '--schema', '59')).code, 0);
  const db = openDb(file);
  db.exec('PRAGMA user_version = 60');
  db.close();
  const r = await cli('verify', file, '--deep');
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.stderr, '');
  assert.match(r.stdout, /^structure: +2 difference\(s\) from schema 60\n {2}- table dictRules is missing\n/m);
  assert.match(r.stdout, /^content: +sound \(integrity_check, foreign_key_check and the app's invariants\)$/m);
  const j = JSON.parse((await cli('verify', file, '--deep', '--json')).stdout) as { ok: boolean; damage: unknown[] };
  assert.deepEqual([j.ok, j.damage], [false, []]);
});

test('a write(2) that fails for a full disk is DISK_FULL, also where Node names no path', async () => {
  // What writeFileSync throws on a full disk: no path on the error.
  const raw = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
  const j = errorJson(raw);
  assert.equal(j.code, 'DISK_FULL');
  assert.equal(j.message, 'the file being written: no space left (no space left on device, write); nothing of this write was kept');
  // And on a real full disk: a 1 MiB tmpfs, where this process may mount one (root on Linux).
  const dir = tempDir();
  const full = join(dir, 'full');
  mkdirSync(full);
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', full]).status !== 0) return;
  try {
    const input = join(dir, 'sources.json');
    writeFileSync(
      input,
      JSON.stringify(Array.from({ length: 6000 }, (_, i) => ({ bookSourceUrl: `https://s${i}`, bookSourceName: `S${i}`, ruleSearch: { x: 'y'.repeat(300) } }))),
    );
    const r = await cli('sources', 'dedupe', input, '--write', join(full, 'out.json'));
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^legado-store: DISK_FULL: .*no space left/);
    assert.deepEqual(readdirSync(full), [], 'no half-written file left');
  } finally {
    spawnSync('umount', [full]);
  }
});
