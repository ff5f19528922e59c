// Reading commands (info, verify, export) and readonly stores work on a read-only WAL-mode file
// in a read-only folder, and leave nothing behind: no -wal or -shm created, no byte changed.
// Run as an unprivileged user (root ignores file permissions), or as the current user when
// that is not root. That user runs a copy of the built CLI and its runtime packages in this
// suite's temporary folder: the checkout may sit under a folder only its owner can enter.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { openDb } from './helpers/engine.js';
import { openStore } from 'legado-store';
import { CLI } from './helpers/cli.js';
import { snapshot, tempDir } from './helpers/files.js';

const root = tempDir();
chmodSync(root, 0o755);
const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

/** The runtime running this suite, where that user can run it (one fetched by npx lives under /root). */
function runtimeForUser(): string {
  if (spawnSync(process.execPath, ['--version'], asUser).status === 0) return process.execPath;
  const copy = join(root, basename(process.execPath));
  copyFileSync(process.execPath, copy);
  chmodSync(copy, 0o755);
  return copy;
}
const runtime = runtimeForUser();

/** The package's runtime dependencies, with theirs, as installed at the top of node_modules (nested ones travel with their parent). */
function runtimePackages(repo: string): string[] {
  const deps = (dir: string): string[] => {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    return [...Object.keys(pkg['dependencies'] ?? {}), ...Object.keys(pkg['optionalDependencies'] ?? {})];
  };
  const found = new Set<string>();
  const queue = deps(repo);
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    const dir = join(repo, 'node_modules', name);
    if (found.has(name) || !existsSync(dir)) continue;
    found.add(name);
    queue.push(...deps(dir));
  }
  return [...found];
}

/** The CLI as the other user can run it: dist/src, package.json and the runtime packages, copied and made readable. */
function cliForUser(): string {
  if (!('uid' in asUser)) return CLI;
  const repo = join(dirname(CLI), '..', '..', '..');
  const copy = join(root, 'package');
  cpSync(join(repo, 'dist', 'src'), join(copy, 'dist', 'src'), { recursive: true });
  copyFileSync(join(repo, 'package.json'), join(copy, 'package.json'));
  for (const name of runtimePackages(repo)) cpSync(join(repo, 'node_modules', name), join(copy, 'node_modules', name), { recursive: true, dereference: true });
  for (const f of ['', ...readdirSync(copy, { recursive: true, encoding: 'utf8' })]) {
    const p = join(copy, f);
    chmodSync(p, statSync(p).isDirectory() ? 0o755 : 0o644);
  }
  return join(copy, 'dist', 'src', 'cli', 'bin.js');
}
const cli = cliForUser();

function run(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(runtime, [cli, ...args], { encoding: 'utf8', ...asUser });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A folder holding a WAL-mode store with books (and, with `live`, a row only in its -wal). */
function readOnlyFolder(name: string, live: boolean): { folder: string; file: string } {
  const src = join(root, `${name}-src`);
  mkdirSync(src);
  const path = join(src, 's.db');
  const s = openStore(path);
  s.books.save({ bookUrl: 'u1', name: 'One', author: 'A' });
  s.books.save({ bookUrl: 'u2', name: 'Two', author: 'B' });
  s.close();
  const folder = join(root, name);
  mkdirSync(folder);
  const file = join(folder, 's.db');
  if (live) {
    const w = openDb(path);
    w.pragma('wal_autocheckpoint = 0');
    w.prepare("INSERT INTO books (bookUrl, name, author, origin, type) VALUES ('u3', 'Three', 'C', 'loc_book', 8)").run();
    for (const suffix of ['', '-wal', '-shm']) copyFileSync(path + suffix, file + suffix);
    w.close();
  } else {
    copyFileSync(path, file);
  }
  for (const f of readdirSync(folder)) chmodSync(join(folder, f), 0o444);
  chmodSync(folder, 0o555);
  // Writable again at the end, so the temporary folder can be removed by a user who is not root.
  after(() => chmodSync(folder, 0o755));
  return { folder, file };
}

for (const live of [false, true]) {
  test(`info, verify and export on a read-only WAL file in a read-only folder${live ? ', with a -wal holding rows' : ''}: they work and leave nothing behind`, () => {
    const { folder, file } = readOnlyFolder(live ? 'live' : 'plain', live);
    const before = { files: readdirSync(folder).sort(), bytes: snapshot(file) };
    const books = live ? 3 : 2;
    let r = run('info', file, '--json');
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.equal((JSON.parse(r.stdout) as { rows: { books: number } }).rows.books, books);
    r = run('verify', file);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const out = join(root, live ? 'out-live' : 'out-plain');
    mkdirSync(out);
    chmodSync(out, 0o777);
    r = run('export', file, join(out, 'backup.zip'), '--json');
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const shelf = (JSON.parse(r.stdout) as { files: { file: string; rows: number }[] }).files.find((f) => f.file === 'bookshelf.json');
    assert.equal(shelf?.rows, books);
    assert.deepEqual(readdirSync(folder).sort(), before.files, 'no file created beside the store');
    assert.deepEqual(snapshot(file), before.bytes, 'no byte changed');
  });
}

test('a readonly store on a writable WAL file leaves no -wal/-shm behind and refuses writes', () => {
  const dir = join(root, 'rw');
  mkdirSync(dir);
  const path = join(dir, 's.db');
  const s = openStore(path);
  s.books.save({ bookUrl: 'u1', name: 'One', author: 'A' });
  s.close();
  const before = snapshot(path);
  const store = openStore(path, { readonly: true });
  assert.equal(store.books.shelf(-1).length, 1);
  assert.equal(
    store.transaction(() => store.tables.books.count()),
    1,
    'a transaction that only reads works',
  );
  assert.throws(() => store.books.save({ bookUrl: 'u2', name: 'Two', author: 'B' }), /READ_ONLY|read-only/);
  store.close();
  assert.deepEqual(readdirSync(dir), ['s.db']);
  assert.deepEqual(snapshot(path), before);
});
