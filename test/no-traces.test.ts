// Reading a store leaves nothing behind on any way out: no -wal/-shm beside it, no copy of it (with
// its secrets) in $TMPDIR, after SIGINT or SIGTERM in the middle of a query, after a damaged file
// is refused; and the private copy is owner-only while it exists. Real child processes (the CLI),
// real signals; the directories are listed afterwards.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, mkdirSync, openSync, readdirSync, statSync, truncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { openStore } from 'legado-store';
import { CLI, cli } from './helpers/cli.js';
import { damagedStore } from './helpers/damaged.js';
import { openDb } from './helpers/engine.js';
import { tempDir } from './helpers/files.js';

const SLOW = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 8000000) SELECT count(*) FROM c';

/** A store with cookies, and a -wal holding rows (no -shm: no connection has it open). */
function storeWithWal(dir: string): string {
  const work = join(dir, 'work');
  mkdirSync(work);
  const s = openStore(join(work, 's.db'), { schema: 62 });
  s.db.pragma('wal_autocheckpoint = 0');
  s.tables.cookies.insert({ url: 'secret.example', cookie: 'SESSION=top-secret' });
  // A key too long for its index page (an index entry on overflow pages) is what the -wal's
  // page check does not read (docs/wal-check.md): the store is then read from a private copy,
  // the path these tests are about. A -wal the page check finds sound is read in place.
  s.tables.cookies.insert({ url: `long.example/${'x'.repeat(3000)}`, cookie: 'k=v' });
  copyFileSync(join(work, 's.db'), join(dir, 's.db'));
  copyFileSync(join(work, 's.db-wal'), join(dir, 's.db-wal'));
  s.close();
  return join(dir, 's.db');
}

/** Runs the CLI with its own $TMPDIR, waits until `ready` says it is mid-read, sends `signal`, and waits for it to end. */
async function interrupt(args: string[], tmp: string, signal: NodeJS.Signals, ready: () => boolean, whileReading?: () => void): Promise<NodeJS.Signals | null> {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, TMPDIR: tmp }, stdio: 'ignore' });
  const ended = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, sig) => resolve(sig)));
  for (let i = 0; i < 2000 && !ready(); i++) await sleep(5);
  assert.ok(ready(), 'the child began reading');
  whileReading?.();
  child.kill(signal);
  return ended;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  test(`${signal} while reading a store with a -wal: no copy left in $TMPDIR, the copy was owner-only, the folder as before`, async () => {
    const dir = tempDir();
    const store = storeWithWal(dir);
    const tmp = join(dir, 'tmp');
    mkdirSync(tmp);
    // The folder holding the copy, wherever under $TMPDIR it is (the query runs in a child of
    // its own, which reads from a private folder inside its own private folder).
    const copyFolder = (): string | undefined => {
      const walk = (d: string): string | undefined => {
        let names: string[];
        try {
          names = readdirSync(d);
        } catch {
          return undefined;
        }
        if (names.includes('s.db-shm')) return d;
        for (const n of names) {
          if (!n.startsWith('legado-store-')) continue;
          const found = walk(join(d, n));
          if (found) return found;
        }
        return undefined;
      };
      return walk(tmp);
    };
    const sig = await interrupt(
      ['query', store, SLOW],
      tmp,
      signal,
      () => copyFolder() !== undefined,
      () => {
        const folder = copyFolder()!;
        for (let d = folder; d !== tmp; d = join(d, '..')) assert.equal(statSync(d).mode & 0o777, 0o700, `${d} is owner-only`);
        for (const f of readdirSync(folder)) assert.equal(statSync(join(folder, f)).mode & 0o077, 0, `${f} is owner-only`);
      },
    );
    // A signal that arrives during a synchronous SQLite statement is handled once it returns; the
    // command may have finished by then. Either way nothing is left.
    assert.ok(sig === signal || sig === null, String(sig));
    assert.deepEqual(readdirSync(tmp), []);
    assert.deepEqual(readdirSync(dir).sort(), ['s.db', 's.db-wal', 'tmp', 'work']);
  });
}

test('SIGINT during a query on a store read in place: no -wal or -shm left beside it', async () => {
  const dir = tempDir();
  const store = join(dir, 's.db');
  assert.equal((await cli('init', store)).code, 0);
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  const sig = await interrupt(['query', store, SLOW], tmp, 'SIGINT', () => readdirSync(dir).includes('s.db-wal'));
  assert.ok(sig === 'SIGINT' || sig === null, String(sig));
  assert.deepEqual(readdirSync(dir).sort(), ['s.db', 'tmp']);
  assert.deepEqual(readdirSync(tmp), []);
});

test('read-only commands on a damaged store leave nothing beside it', async () => {
  const dir = tempDir();
  const { damaged: store, intact: other } = damagedStore(dir, 's');
  for (const args of [
    ['info', store],
    ['info', store, '--json'],
    ['list', store, 'book_sources'],
    ['diff', store, other],
    ['export', store, join(dir, 'out.zip')],
    ['verify', store],
    ['verify', store, '--deep'],
    ['verify', store, '--deep', '--json'],
    ['shelf', store],
  ]) {
    const r = await cli(...args);
    assert.deepEqual(readdirSync(dir).sort(), ['s-intact.db', 's.db'], `${args[0]}: exit ${r.code} ${r.stderr}`);
  }
  const db = openDb(other);
  assert.equal(db.prepare('SELECT count(*) FROM book_sources').pluck().get(), 3000);
  db.close();
});

test('info and verify on a file damaged in other ways (its schema page, a b-tree root, its tail cut) leave nothing beside it, in the real process', () => {
  const dir = tempDir();
  const { intact } = damagedStore(dir, 'base');
  const pageSize = 4096;
  const damages: [string, (path: string) => void][] = [
    ['schema page zeroed past the header', (p) => overwrite(p, 100, pageSize - 100, 0x00)],
    ['schema page garbage past the header', (p) => overwrite(p, 100, pageSize - 100, 0xa5)],
    ['a b-tree root zeroed', (p) => overwrite(p, rootOf(intact, 'book_sources') * pageSize - pageSize, pageSize, 0x00)],
    ['an index root garbage', (p) => overwrite(p, rootOf(intact, 'index_book_sources_bookSourceUrl') * pageSize - pageSize, pageSize, 0xa5)],
    ['its last pages cut off', (p) => truncateSync(p, statSync(p).size - 3 * pageSize)],
  ];
  for (const [what, damage] of damages) {
    const work = join(dir, what.replace(/\W+/g, '-'));
    mkdirSync(work);
    const store = join(work, 's.db');
    copyFileSync(intact, store);
    damage(store);
    for (const args of [
      ['info', store],
      ['verify', store],
      ['verify', store, '--deep'],
    ]) {
      // The real bin in a process of its own: whatever it leaves when it exits is on the disk.
      const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
      assert.deepEqual(readdirSync(work), ['s.db'], `${what}: ${args.join(' ')}: exit ${r.status} ${r.stderr}`);
    }
  }
});

function overwrite(path: string, at: number, length: number, fill: number): void {
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.alloc(length, fill), 0, length, at);
  closeSync(fd);
}

function rootOf(path: string, name: string): number {
  const db = openDb(path, { readonly: true });
  const root = Number(db.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').pluck().get(name));
  db.close();
  assert.ok(Number.isInteger(root) && root > 1, `${name} has a root page`);
  return root;
}
