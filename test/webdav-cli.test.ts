// The `webdav` commands as a user runs them, against a real WebDAV server on 127.0.0.1: reports,
// exit codes, and the password: from LEGADO_WEBDAV_PASSWORD or a terminal prompt, never from the
// command line, never printed, never in the store.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openStore } from 'legado-store';
import { CLI } from './helpers/cli.js';
import { PASSWORD, startNodeDav, USER, type DavServer } from './helpers/dav-servers.js';
import { appProgressJson, Phone } from './helpers/phone.js';
import { nextSecond, SHELF, shelfStore, storePath } from './helpers/webdav-fixtures.js';

let server: DavServer;
before(async () => {
  server = await startNodeDav();
});
after(() => server.close());

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI without blocking this process (the server answers from it). */
function run(args: string[], env: Record<string, string | undefined> = {}, command = process.execPath, argv = [CLI, ...args]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(command, argv, { env: { ...process.env, LEGADO_WEBDAV_PASSWORD: undefined, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end();
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const withPassword = { LEGADO_WEBDAV_PASSWORD: PASSWORD };

function noSecret(r: Run, storeFile?: string): void {
  assert.ok(!r.stdout.includes(PASSWORD) && !r.stderr.includes(PASSWORD), 'the password is never printed');
  if (storeFile) {
    for (const f of [storeFile, `${storeFile}-wal`, `${storeFile}.webdav-sync.json`]) {
      if (existsSync(f)) assert.ok(!readFileSync(f).includes(Buffer.from(PASSWORD)), `${f} never holds the password`);
    }
  }
}

test('webdav backup, list, restore and progress from the command line', async () => {
  const store = shelfStore();
  const path = store.path;
  store.books.updateProgress(SHELF[0]!.bookUrl, { durChapterIndex: 8, durChapterPos: 80 });
  store.close();
  const common = ['--url', server.url, '--dir', 'cli', '--user', USER];

  const backup = await run(['webdav', 'backup', path, ...common, '--device', 'cli', '--json'], withPassword);
  assert.equal(backup.code, 0, backup.stderr);
  const report = JSON.parse(backup.stdout);
  assert.match(report.name, /^backup\d{4}-\d\d-\d\d-cli\.zip$/);
  assert.equal(typeof report.requests, 'number');
  noSecret(backup, path);

  const again = await run(['webdav', 'backup', path, ...common, '--device', 'cli'], withPassword);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /^legado-store: FILE_EXISTS: .*--force/);
  const forced = await run(['webdav', 'backup', path, ...common, '--device', 'cli', '--force'], withPassword);
  assert.equal(forced.code, 0, forced.stderr);
  assert.match(forced.stdout, /replacing the one there/);

  const list = await run(['webdav', 'list', path, ...common, '--json'], withPassword);
  assert.equal(list.code, 0, list.stderr);
  assert.deepEqual(
    JSON.parse(list.stdout).backups.map((b: { name: string }) => b.name),
    [report.name],
  );
  const listText = await run(['webdav', 'list', path, ...common], withPassword);
  assert.match(listText.stdout, new RegExp(`${report.name}\\n$`));

  const fresh = storePath();
  const restore = await run(['webdav', 'restore', fresh, ...common], withPassword);
  assert.equal(restore.code, 0, restore.stderr);
  assert.match(restore.stdout, new RegExp(`^restored ${report.name}`));
  noSecret(restore, fresh);

  // the phone moves on in one book; the command pulls it and pushes nothing else
  const phone = new Phone(`${server.url}cli/`);
  await nextSecond();
  await phone.putProgress(
    SHELF[1]!.file,
    appProgressJson({ name: SHELF[1]!.name, author: SHELF[1]!.author, durChapterIndex: 30, durChapterPos: 3, durChapterTime: 3 }),
  );
  const pull = await run(['webdav', 'progress', fresh, ...common, '--pull'], withPassword);
  assert.equal(pull.code, 0, pull.stderr);
  assert.match(pull.stdout, /applied  三体 \/ 刘慈欣: chapter 1 @0 -> chapter 31 @3/);
  // A restore into a new path makes a store at the newest schema, whose books have syncTime:
  // the sync tracks its changes there, not in a marks file beside the store.
  assert.match(pull.stdout, /4 books, 1 files in .*: 1 downloaded, 1 applied, 0 pushed, 0 skipped; 2 requests \(changes tracked in syncTime\)/);
  assert.equal(existsSync(`${fresh}.webdav-sync.json`), false);
  const both = await run(['webdav', 'progress', fresh, ...common, '--json'], withPassword);
  assert.equal(both.code, 0, both.stderr);
  assert.deepEqual(
    JSON.parse(both.stdout).pushed.map((p: { bookUrl: string }) => p.bookUrl),
    [SHELF[0]!.bookUrl],
  );
  noSecret(both, fresh);
  assert.equal((await run(['webdav', 'progress', fresh, ...common, '--pull', '--push'], withPassword)).code, 2);
});

test('webdav list needs no local store: none given, or a path that does not exist (and is not created)', async () => {
  await new Phone(`${server.url}nostore/`).setup();
  const common = ['--url', server.url, '--dir', 'nostore', '--user', USER];
  const none = await run(['webdav', 'list', ...common], withPassword);
  assert.equal(none.code, 0, none.stderr);
  assert.match(none.stdout, /^no backups in http:\/\/127\.0\.0\.1:\d+\/nostore\/\n$/);
  const missing = storePath();
  const absent = await run(['webdav', 'list', missing, ...common, '--json'], withPassword);
  assert.equal(absent.code, 0, absent.stderr);
  assert.deepEqual(JSON.parse(absent.stdout).backups, []);
  assert.equal(existsSync(missing), false, 'no store was created');
});

test('the password: never from argv, asked only on a terminal, never echoed or printed', async () => {
  const path = shelfStore().path;
  const common = ['--url', server.url, '--dir', 'pw', '--user', USER];

  // --password is a usage error that says where a password goes, never repeating the value
  for (const args of [
    ['webdav', 'list', path, ...common, '--password', PASSWORD],
    ['webdav', 'progress', path, ...common, `--password=${PASSWORD}`],
    ['webdav', '--password', PASSWORD, 'list', ...common],
    ['webdav', 'backup', path, ...common, '--password'],
  ]) {
    const argv = await run(args);
    assert.equal(argv.code, 2, args.join(' '));
    assert.equal(
      argv.stderr,
      "legado-store: --password: a password is never taken from the command line (other users can read a process's arguments); set LEGADO_WEBDAV_PASSWORD, or run on a terminal to be asked\n",
    );
    assert.equal(argv.stdout, '');
    noSecret(argv);
  }

  const none = await run(['webdav', 'list', path, ...common]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /no password: set LEGADO_WEBDAV_PASSWORD, or run on a terminal/);

  const wrong = await run(['webdav', 'progress', path, ...common], { LEGADO_WEBDAV_PASSWORD: 'not the password' });
  assert.equal(wrong.code, 1);
  assert.match(wrong.stderr, /^legado-store: WEBDAV_AUTH: PROPFIND http:\/\/127\.0\.0\.1:\d+\/pw\/bookProgress\/: 401/);
  assert.ok(!wrong.stderr.includes('not the password'));

  const inUrl = await run(['webdav', 'list', path, '--url', server.url.replace('http://', `http://${USER}:secret-in-url@`)]);
  assert.equal(inUrl.code, 1);
  assert.match(inUrl.stderr, /WEBDAV_CONFIG/);
  assert.ok(!inUrl.stderr.includes('secret-in-url'));

  // on a terminal (a pseudo-terminal from util-linux `script`), typed without echo
  await new Phone(`${server.url}pw/`).setup();
  const cmd = [process.execPath, CLI, 'webdav', 'list', path, ...common].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const tty = await new Promise<Run>((resolve) => {
    const child = spawn('script', ['-qec', cmd, '/dev/null'], { env: { ...process.env, LEGADO_WEBDAV_PASSWORD: undefined }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes('WebDAV password for reader: ') && !child.stdin.writableEnded) child.stdin.end(`${PASSWORD}\r`);
    });
    child.on('close', (code) => resolve({ code, stdout, stderr: '' }));
  });
  assert.equal(tty.code, 0, tty.stdout);
  assert.match(tty.stdout, /no backups in http:\/\/127\.0\.0\.1:\d+\/pw\//);
  noSecret(tty);
});

test("progress --pull: a remote position outside the app's Int is refused with WRONG_TYPE (exit 1); the book keeps its own", async () => {
  const store = shelfStore();
  const path = store.path;
  const before = store.db.prepare('SELECT durChapterIndex, durChapterPos FROM books WHERE bookUrl = ?').raw().get(SHELF[1]!.bookUrl);
  store.close();
  const common = ['--url', `${server.url}int/`, '--user', USER];
  // The phone's folder on the server, then its file: further and newer than the store's position.
  mkdirSync(join(server.dir, 'int', 'legado', 'bookProgress'), { recursive: true });
  const phone = new Phone(`${server.url}int/legado/`);
  await nextSecond();
  await phone.putProgress(
    SHELF[1]!.file,
    appProgressJson({ name: SHELF[1]!.name, author: SHELF[1]!.author, durChapterIndex: 40, durChapterPos: 2147483648, durChapterTime: Date.now() }),
  );
  const pull = await run(['webdav', 'progress', path, ...common, '--pull'], withPassword);
  const s = openStore(path, { readonly: true });
  const after = s.db.prepare('SELECT durChapterIndex, durChapterPos FROM books WHERE bookUrl = ?').raw().get(SHELF[1]!.bookUrl);
  s.close();
  assert.deepEqual(after, before, `${pull.code} ${pull.stdout} ${pull.stderr}`);
  assert.equal(pull.code, 1);
  assert.equal(
    pull.stderr,
    "legado-store: WRONG_TYPE: books.durChapterPos: expected a 32-bit integer (the app's Int: -2147483648 to 2147483647), got number 2147483648\n",
  );
});
