// Conventions every command shares: --version, usage errors exit 2 on stderr, failures print
// `CODE: message` (or with --json a JSON object on stdout) and exit 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cli, CLI, cliProcess } from './helpers/cli.js';
import { tempDir } from './helpers/files.js';

const dir = tempDir();
const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

test('--version prints the package version', async () => {
  for (const flag of ['--version', '-V']) {
    const r = await cli(flag);
    assert.equal(r.code, 0);
    assert.equal(r.stdout.trim(), version);
  }
});

test("the package's bin is bin.js, a process that exits with main()'s code; importing main.js runs nothing", () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { bin: Record<string, string> };
  assert.equal(pkg.bin['legado-store'], './dist/src/cli/bin.js');
  assert.ok(CLI.endsWith(join('dist', 'src', 'cli', 'bin.js')), CLI);
  assert.match(readFileSync(CLI, 'utf8'), /^#!\/usr\/bin\/env node\n/);
  const v = cliProcess('--version');
  assert.deepEqual([v.code, v.stdout.trim(), v.stderr], [0, version, '']);
  // Bare usage: the exit code 2 reaches the process.
  assert.equal(cliProcess().code, 2);
  // main.js on its own: no output, exit 0 (before, importing it ran the command line).
  const main = pathToFileURL(join(CLI, '..', 'main.js')).href;
  const imported = spawnSync(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(main)});`], { encoding: 'utf8' });
  assert.deepEqual([imported.status, imported.stdout, imported.stderr], [0, '', '']);
});

test('bare legado-store prints the usage on stderr and exits 2; help <unknown> exits 2', async () => {
  let r = await cli();
  assert.equal(r.code, 2);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /Usage: legado-store/);
  assert.match(r.stderr, /init/);
  r = await cli('help', 'frobnicate');
  assert.equal(r.code, 2);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /no command "frobnicate"/);
  r = await cli('help', 'init');
  assert.equal(r.code, 0);
  assert.match(r.stdout, /Usage: legado-store init/);
  r = await cli('--help');
  assert.equal(r.code, 0);
});

test('a failure prints CODE: message on one stderr line; with --json a JSON error object on stdout', async () => {
  const missing = join(dir, 'missing.db');
  let r = await cli('info', missing);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^legado-store: FILE_NOT_FOUND: .*missing\.db: no such file\n$/);
  for (const args of [
    ['info', missing, '--json'],
    ['verify', missing, '--json'],
    ['export', missing, join(dir, 'o.zip'), '--json'],
  ]) {
    r = await cli(...args);
    assert.equal(r.code, 1, args.join(' '));
    const j = JSON.parse(r.stdout) as { ok: boolean; error: { code: string; message: string; path: string } };
    assert.equal(j.ok, false);
    assert.equal(j.error.code, 'FILE_NOT_FOUND');
    assert.match(j.error.message, /missing\.db/);
    assert.equal(j.error.path, missing);
  }
  // A folder where a file is expected.
  r = await cli('info', dir, '--json');
  assert.equal(r.code, 1);
  assert.equal((JSON.parse(r.stdout) as { error: { code: string } }).error.code, 'CANNOT_OPEN');
});

test('every import refusal is one line of the form legado-store: CODE: message, exit 1', async () => {
  const write = (name: string, records: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(records));
    return path;
  };
  const store = join(dir, 'refusals.db');
  const sources = write('sources.json', [{ bookSourceUrl: 'https://s.example', bookSourceName: 'S' }]);
  const cases: [string, string[]][] = [
    ['every record skipped', [store, write('blank.json', [{ bookSourceUrl: '' }, { bookSourceUrl: ' ' }])]],
    ['another kind than --kind', [store, sources, '--kind', 'replaceRule']],
    ['no records', [store, write('empty.json', [])]],
    ['strict, a record refused', [store, write('strict.json', [{ bookSourceUrl: 'https://t.example' }, { bookSourceName: 'no url' }]), '--strict']],
    ['no such input', [store, join(dir, 'no-such.json')]],
    ['not JSON', [store, (writeFileSync(join(dir, 'bad.json'), '[{'), join(dir, 'bad.json'))]],
  ];
  for (const [what, args] of cases) {
    const r = await cli('import', ...args);
    assert.equal(r.code, 1, `${what}: ${r.stdout}${r.stderr}`);
    const lines = r.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('legado-store: created '));
    assert.ok(lines.length > 0, what);
    for (const line of lines) assert.match(line, /^legado-store: [A-Z][A-Z_]+: \S/, `${what}: ${line}`);
  }
});
