// Conventions every command shares: --version, usage errors exit 2 on stderr, failures print
// `CODE: message` (or with --json a JSON object on stdout) and exit 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, CLI } from './helpers/cli.js';
import { tempDir } from './helpers/files.js';

const dir = tempDir();
const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

test('--version prints the package version', () => {
  for (const flag of ['--version', '-V']) {
    const r = cli(flag);
    assert.equal(r.code, 0);
    assert.equal(r.stdout.trim(), version);
  }
  assert.match(CLI, /main\.js$/);
});

test('bare legado-store prints the usage on stderr and exits 2; help <unknown> exits 2', () => {
  let r = cli();
  assert.equal(r.code, 2);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /Usage: legado-store/);
  assert.match(r.stderr, /init/);
  r = cli('help', 'frobnicate');
  assert.equal(r.code, 2);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /no command "frobnicate"/);
  r = cli('help', 'init');
  assert.equal(r.code, 0);
  assert.match(r.stdout, /Usage: legado-store init/);
  r = cli('--help');
  assert.equal(r.code, 0);
});

test('a failure prints CODE: message on one stderr line; with --json a JSON error object on stdout', () => {
  const missing = join(dir, 'missing.db');
  let r = cli('info', missing);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^legado-store: FILE_NOT_FOUND: .*missing\.db: no such file\n$/);
  for (const args of [['info', missing, '--json'], ['verify', missing, '--json'], ['export', missing, join(dir, 'o.zip'), '--json']]) {
    r = cli(...args);
    assert.equal(r.code, 1, args.join(' '));
    const j = JSON.parse(r.stdout) as { ok: boolean; error: { code: string; message: string; path: string } };
    assert.equal(j.ok, false);
    assert.equal(j.error.code, 'FILE_NOT_FOUND');
    assert.match(j.error.message, /missing\.db/);
    assert.equal(j.error.path, missing);
  }
  // A folder where a file is expected.
  r = cli('info', dir, '--json');
  assert.equal(r.code, 1);
  assert.equal((JSON.parse(r.stdout) as { error: { code: string } }).error.code, 'CANNOT_OPEN');
});
