// The import and export commands: summaries (--json and plain), exit codes, one-line errors,
// the progress bar on a terminal and never with --json.
import assert from 'node:assert/strict';
import { cli } from './helpers/cli.js';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import type { ImportResult } from '../src/backup/report.js';
import { encryptBackupText } from '../src/backup/aes.js';
import { openStore } from '../src/store/open.js';
import { sampleBackup, writeBackupFolder, writeJson } from './helpers/backup-fixtures.js';
import { tempDir } from './helpers/files.js';
import { openDb } from './helpers/engine.js';
import { setTimeout as sleep } from 'node:timers/promises';

const MAIN = fileURLToPath(new URL('../src/cli/bin.js', import.meta.url));

test('import --json prints a per-kind summary with skipped records and their reasons, and no bar', async () => {
  const dir = tempDir();
  const f = writeJson(join(dir, 'sources.json'), [
    { bookSourceUrl: 'https://a' },
    { bookSourceUrl: '' },
    { bookSourceUrl: 'https://a', bookSourceName: 'again' },
  ]);
  const r = await cli('import', join(dir, 's.db'), f, '--json');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, `legado-store: created ${join(dir, 's.db')} at schema 75\n`);
  const summary = JSON.parse(r.stdout) as ImportResult;
  const k = summary.kinds.bookSource!;
  assert.deepEqual([k.read, k.stored, k.updated, k.duplicates, k.conflicts, k.skipped], [3, 1, 0, 0, 1, 1]);
  assert.equal(summary.conflicts[0]!.kept, `${f} [2]`);
  assert.deepEqual(k.skipReasons, { 'blank key bookSourceUrl': 1 });
  assert.deepEqual(
    summary.skipped.map((s) => [s.file, s.index]),
    [[f, 1]],
  );
});

test('plain output: a table per kind, files not imported, skipped records', async () => {
  const dir = tempDir();
  const folder = writeBackupFolder(join(dir, 'b'), { ...sampleBackup(), 'config.xml': '<map/>' });
  const r = await cli('import', join(dir, 's.db'), folder);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^kind +read +stored +updated +duplicates +conflicts +skipped$/m);
  assert.match(r.stdout, /^bookSource +1 +1 +0 +0 +0 +0$/m);
  assert.match(r.stdout, /not imported: .*config\.xml \(app preferences/);
});

test('exit codes: 1 with a one-line error for invalid JSON and a rejected strict import, 2 for a URL or an unknown kind', async () => {
  const dir = tempDir();
  const store = join(dir, 's.db');
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, '[{"bookSourceUrl": "x",}]');
  let r = await cli('import', store, bad);
  assert.equal(r.code, 1);
  assert.equal(r.stderr.trim().split('\n').length, 1);
  assert.match(r.stderr, /INVALID_JSON: .*bad\.json:1:24: invalid JSON/);
  const mixed = writeJson(join(dir, 'm.json'), [{ bookSourceUrl: 'https://ok' }, { bookSourceName: 'no url' }]);
  // A failed import into a path that did not exist leaves no new store there.
  assert.equal(existsSync(store), false);
  r = await cli('import', store, mixed, '--strict');
  assert.equal(r.code, 1);
  assert.equal(existsSync(store), false);
  assert.match(
    r.stderr,
    /IMPORT_REJECTED: strict import rejected: 1 record could not be stored \(first: .*m\.json \[1\]: no bookSourceUrl\); nothing was stored/,
  );
  const s = openStore(store);
  assert.equal(s.tables.book_sources.count(), 0);
  s.close();
  r = await cli('import', store, 'https://example.com/s.json');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /remote URL: download it first/);
  r = await cli('import', store, mixed, '--kind', 'nonsense');
  assert.equal(r.code, 2);
  r = await cli('import', store);
  assert.equal(r.code, 2);
});

test('export writes a zip or a folder and prints what it wrote', async () => {
  const dir = tempDir();
  const store = join(dir, 's.db');
  assert.equal((await cli('import', store, writeBackupFolder(join(dir, 'b'), sampleBackup()))).code, 0);
  let r = await cli('export', store, join(dir, 'out.zip'));
  assert.equal(r.code, 0, r.stderr);
  assert.ok(existsSync(join(dir, 'out.zip')));
  assert.match(r.stdout, /bookSource\.json +1 rows/);
  r = await cli('export', store, join(dir, 'out'), '--tables', 'bookSource,replaceRule', '--json');
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(
    (JSON.parse(r.stdout) as { files: { file: string }[] }).files.map((f) => f.file),
    ['bookSource.json', 'replaceRule.json'],
  );
  r = await cli('export', join(dir, 'missing.db'), join(dir, 'o.zip'));
  assert.equal(r.code, 1);
});

/** `script` (util-linux; Debian's bsdutils, which .ci/run installs) runs the CLI on a pseudo-terminal. */
const hasScript = spawnSync('script', ['--version']).status === 0;
const NO_SCRIPT = 'no `script` command to run the CLI on a pseudo-terminal: apt-get install bsdutils (util-linux elsewhere); .ci/run installs it';

test('on a terminal the import shows a progress bar with records and rate; --json shows none', () => {
  assert.ok(hasScript, NO_SCRIPT);
  const dir = tempDir();
  const f = writeJson(
    join(dir, 'sources.json'),
    Array.from({ length: 3000 }, (_, i) => ({ bookSourceUrl: `https://s${i}`, bookSourceName: 'x'.repeat(200) })),
  );
  const run = (extra: string) =>
    spawnSync('script', ['-qfec', `"${process.execPath}" "${MAIN}" import "${join(dir, `${extra ? 'j' : 't'}.db`)}" "${f}" ${extra}`, '/dev/null'], {
      encoding: 'utf8',
    });
  const tty = run('');
  assert.equal(tty.status, 0, tty.stdout);
  assert.match(tty.stdout, /100% \| 3000 records \| \d+ records\/s \|/); // cut at the terminal's width
  const json = run('--json');
  assert.equal(json.status, 0);
  assert.doesNotMatch(json.stdout, /records\/s/);
  // The terminal shows stderr too: the line saying the store was created.
  const [text, createdLine] = json.stdout.replace(/\r\n/g, '\n').split(/\n(?=legado-store: created )/);
  assert.match(createdLine!, /^legado-store: created .*j\.db at schema 75\n$/);
  assert.equal((JSON.parse(text!) as ImportResult).totals.stored, 3000);
});

test('the backup password: from LEGADO_BACKUP_PASSWORD, asked on a terminal with --ask-password (nothing echoed), or --password; never printed', async () => {
  assert.ok(hasScript, NO_SCRIPT);
  const dir = tempDir();
  const servers = JSON.stringify([{ id: 1, name: 'dav-with-password', type: 'WEBDAV', config: '{"url":"u"}', sortNumber: 0 }]);
  const backup = writeBackupFolder(join(dir, 'b'), {
    'servers.json': encryptBackupText(servers, 'pw-s3cret'),
    'bookSource.json': [{ bookSourceUrl: 'https://s' }],
  });
  const serverName = (db: string): string | undefined => {
    const s = openStore(db, { readonly: true, schema: 75 });
    try {
      return s.tables.servers.get(1)?.name;
    } finally {
      s.close();
    }
  };
  const noEnv = { ...process.env, LEGADO_BACKUP_PASSWORD: undefined };
  // Without a password the file is skipped and reported, the rest imported.
  let r = spawnSync(process.execPath, [MAIN, 'import', join(dir, 'none.db'), backup], { encoding: 'utf8', env: noEnv });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(serverName(join(dir, 'none.db')), undefined);
  // From the environment.
  r = spawnSync(process.execPath, [MAIN, 'import', join(dir, 'env.db'), backup, '--json'], {
    encoding: 'utf8',
    env: { ...process.env, LEGADO_BACKUP_PASSWORD: 'pw-s3cret' },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(serverName(join(dir, 'env.db')), 'dav-with-password');
  assert.ok(!r.stdout.includes('pw-s3cret') && !r.stderr.includes('pw-s3cret'));
  // --ask-password off a terminal is a usage error, before anything is opened.
  r = spawnSync(process.execPath, [MAIN, 'import', join(dir, 'pipe.db'), backup, '--ask-password'], { encoding: 'utf8', env: noEnv });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /no password: set LEGADO_BACKUP_PASSWORD, or run on a terminal/);
  assert.equal(existsSync(join(dir, 'pipe.db')), false);
  // On a terminal: asked, typed without echo.
  const cmd = [process.execPath, MAIN, 'import', join(dir, 'tty.db'), backup, '--ask-password'].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const tty = await new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn('script', ['-qec', cmd, '/dev/null'], { env: noEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Backup password: ') && !child.stdin.writableEnded) child.stdin.end('pw-s3cret\r');
    });
    child.on('close', (code) => resolve({ code, out }));
  });
  assert.equal(tty.code, 0, tty.out);
  assert.ok(!tty.out.includes('pw-s3cret'), 'not echoed');
  assert.equal(serverName(join(dir, 'tty.db')), 'dav-with-password');
});

test('INVALID_JSON never quotes the file: a bearer token, cookie or login where parsing stopped is named by its kind only', async () => {
  const dir = tempDir();
  const token = 'Bearer eyJhbGciOi.SECRET-TOKEN-123';
  const cases: [string, string, string][] = [
    // A header value where a colon belongs, a login script after a missing comma, a cookie-like
    // bare word, a number: each is the token where the parser stopped.
    [
      'header.json',
      `[{"bookSourceUrl":"https://a.example","header" ${JSON.stringify(`{"Authorization":"${token}"}`)}}]`,
      'header.json:1:48: invalid JSON: unexpected string, expected ":"',
    ],
    [
      'login.json',
      `[{"bookSourceUrl":"https://a.example" "loginUrl":"SECRET-TOKEN-123"}]`,
      'login.json:1:39: invalid JSON: unexpected string, expected "," or a closing bracket',
    ],
    ['bare.json', '[{"bookSourceUrl":"https://a.example","header":SECRET-TOKEN-123}]', 'bare.json:1:48: invalid JSON: unexpected text (not a JSON value)'],
    ['brace.json', '[{"bookSourceUrl":"https://a.example",}]', 'brace.json:1:39: invalid JSON: unexpected "}", expected a property name in double quotes'],
  ];
  for (const [name, text, message] of cases) {
    const file = join(dir, name);
    writeFileSync(file, text);
    const r = await cli('import', join(dir, 's.db'), file);
    assert.equal(r.code, 1, name);
    assert.equal(r.stderr, `legado-store: INVALID_JSON: ${file.slice(0, -name.length)}${message}\n`, name);
    assert.ok(!/SECRET|eyJ/.test(r.stderr + r.stdout), `${name}: ${r.stderr}`);
  }
});

/** The pid of the node process running `import` into `store` (script's shell may or may not exec it). */
function importPid(store: string): number | undefined {
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    let cmd: string;
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    const argv = cmd.split('\0');
    if (argv[0] === process.execPath && argv[1] === MAIN && argv.includes(store)) return Number(pid);
  }
  return undefined;
}

let bigCollection: string | undefined;
const bigSources = (): string =>
  (bigCollection ??= writeJson(
    join(tempDir(), 'sources.json'),
    Array.from({ length: 400_000 }, (_, i) => ({ bookSourceUrl: `https://s${i}`, bookSourceName: `S${i}`, ruleSearch: { bookList: 'x'.repeat(100) } })),
  ));

/**
 * Starts a terminal import of 400,000 sources into `store`, waits for its bar, and sends it
 * `signal`: SIGINT as Ctrl-C typed on the pseudo-terminal (its line discipline signals the
 * foreground process), SIGTERM with kill(2). Returns what the terminal showed and the exit code.
 */
async function interruptedImport(store: string, signal: 'SIGINT' | 'SIGTERM'): Promise<{ out: string; code: number | null }> {
  const child = spawn('script', ['-qfec', `"${process.execPath}" "${MAIN}" import "${store}" "${bigSources()}"`, '/dev/null'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  const ended = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString('latin1');
  });
  for (let i = 0; i < 4000 && !/records\/s/.test(out); i++) await sleep(5);
  assert.match(out, /records\/s/, 'the bar was drawn');
  if (signal === 'SIGINT') child.stdin!.write('\x03');
  else process.kill(importPid(store)!, 'SIGTERM');
  const code = await ended;
  return { out, code };
}

/** Every terminal state the bar set is undone: the cursor shown again, line wrap back on. */
function assertTerminalRestored(out: string): void {
  const last = (seq: string) => out.lastIndexOf(seq);
  assert.ok(last('\x1b[?25l') >= 0 && last('\x1b[?7l') >= 0, 'the bar hid the cursor and turned wrap off while drawing');
  assert.ok(last('\x1b[?25h') > last('\x1b[?25l'), 'cursor shown again');
  assert.ok(last('\x1b[?7h') > last('\x1b[?7l'), 'line wrap on again');
}

test('Ctrl-C or SIGTERM during a terminal import: terminal restored, "interrupted: nothing stored", exit 130 or 143, the store as it was', async () => {
  assert.ok(hasScript, NO_SCRIPT);
  const dir = tempDir();
  const seed = writeJson(join(dir, 'seed.json'), [{ bookSourceUrl: 'https://kept', bookSourceName: 'kept' }]);
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    const store = join(dir, `${signal}.db`);
    assert.equal((await cli('import', store, seed)).code, 0);
    const r = await interruptedImport(store, signal);
    assert.equal(r.code, code, r.out);
    assert.doesNotMatch(r.out, /stored +duplicates|\bdone\b/, 'interrupted before the end');
    assert.match(r.out, /legado-store: interrupted: nothing stored\r?\n/);
    assertTerminalRestored(r.out);
    // The file itself: only the row stored before, and no -wal or -shm left beside it.
    const db = openDb(store);
    assert.deepEqual(db.prepare('SELECT bookSourceUrl FROM book_sources').pluck().all(), ['https://kept']);
    db.close();
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.startsWith(`${signal}.db`)),
      [`${signal}.db`],
    );
  }
  // Into a path that did not exist: the store the import created goes with it.
  const fresh = join(dir, 'fresh.db');
  const r = await interruptedImport(fresh, 'SIGTERM');
  assert.equal(r.code, 143, r.out);
  assert.match(r.out, /interrupted: nothing stored/);
  assert.doesNotMatch(r.out, /created/);
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.startsWith('fresh')),
    [],
  );
});
