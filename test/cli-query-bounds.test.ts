// `query` and `list` at scale and against readers that stop: a text table of 150,000 rows prints
// whole (no "Maximum call stack size exceeded"), a reader that closes the pipe after one line
// ends an endless query, and a statement that never ends stops at --timeout with QUERY_TIMEOUT,
// leaving nothing beside the store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI } from './helpers/cli.js';
import { openDb } from './helpers/engine.js';
import { snapshot, tempDir } from './helpers/files.js';
import { buildStore } from './helpers/inspect-fixture.js';

const dir = tempDir('legado-query-bounds-');
const store = join(dir, 'store.db');
buildStore(store, 62);
const ENDLESS = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c';

/** The command line run as a user runs it, its output kept whole (tens of megabytes). */
function cli(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The command's result, after checking it left the store and the folder exactly as they were. */
function untouched(...args: string[]) {
  const before = snapshot(store);
  const files = readdirSync(dir).sort();
  const r = cli(...args);
  assert.deepEqual(snapshot(store), before, `${args.join(' ')} changed the store`);
  assert.deepEqual(readdirSync(dir).sort(), files, `${args.join(' ')} left files beside the store`);
  return r;
}

test('query prints a text table of 150,000 rows whole, every row in order', () => {
  const r = untouched('query', store, 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 150000) SELECT x, x * 2 AS y FROM c');
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 150_002);
  assert.equal(lines[0], 'x       y');
  assert.equal(lines[1], '------  ------');
  assert.equal(lines[2], '1       2');
  assert.equal(lines[150_001], '150000  300000');
});

test('list prints a text table of 150,000 rows whole', () => {
  const path = join(dir, 'big.db');
  buildStore(path, 62);
  const db = openDb(path);
  db.exec(
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 150000) INSERT INTO caches(key, value, deadline) SELECT printf('k%06d', x), 'v', 0 FROM c",
  );
  db.close();
  const r = cli('list', path, 'caches', '--fields', 'key', '--where', 'key~k%');
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 150_002);
  assert.equal(lines[150_001], 'k150000');
});

test('query | head -1: the reader closing the pipe ends an endless query (no time limit), exit 0', async () => {
  const before = snapshot(store);
  const child = spawn(process.execPath, [CLI, 'query', store, ENDLESS, '--csv', '--timeout', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const first = await new Promise<string>((resolve) => {
    let text = '';
    child.stdout.on('data', (d: Buffer) => {
      text += d.toString();
      if (text.includes('\r\n1\r\n')) resolve(text.slice(0, text.indexOf('\r\n')));
    });
  });
  assert.equal(first, 'x');
  child.stdout.destroy();
  // A bound only, so that a query that never ends fails this test instead of hanging the suite.
  const bound = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => child.once('exit', (c, s) => resolve([c, s])));
  clearTimeout(bound);
  assert.equal(signal, null, 'it ended by itself, not killed at the bound');
  assert.equal(code, 0, stderr);
  assert.equal(stderr, '');
  assert.deepEqual(snapshot(store), before);
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.startsWith('store.db')),
    ['store.db'],
  );
});

test('a runaway recursive CTE stops at --timeout with QUERY_TIMEOUT (exit 1), nothing left beside the store', () => {
  for (const sql of [`SELECT count(*) FROM (${ENDLESS})`, ENDLESS]) {
    const r = untouched('query', store, sql, '--timeout', '1', '--csv');
    assert.equal(r.code, 1, sql);
    assert.match(r.stderr, /^legado-store: QUERY_TIMEOUT: "WITH RECURSIVE|^legado-store: QUERY_TIMEOUT: "SELECT count/, sql);
    assert.match(r.stderr, /stopped after 1 s \(the time limit; --timeout <seconds> to change it\)\n$/);
  }
  const r = untouched('query', store, `SELECT count(*) AS n FROM (${ENDLESS})`, '--timeout', '1', '--json');
  assert.equal(r.code, 1);
  assert.equal((JSON.parse(r.stdout) as { error: { code: string; timeoutMs: number } }).error.code, 'QUERY_TIMEOUT');
  assert.equal(cli('query', store, 'SELECT 1', '--timeout', 'soon').code, 2);
  // The default limit leaves an ordinary query alone.
  assert.equal(untouched('query', store, 'SELECT 6 * 7 AS n', '--csv').stdout, 'n\r\n42\r\n');
});

/** The pids whose parent is `pid`, from /proc (the process table). */
function childrenOf(pid: number): number[] {
  const kids: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      // The fields after the command's closing parenthesis: state, then the parent's pid.
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) kids.push(Number(d));
    } catch {
      // Gone while read.
    }
  }
  return kids;
}

/** True while the process exists and is not a zombie waiting to be reaped. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("query's timed child ends when its parent is SIGKILLed mid-query, its private TMPDIR removed", async () => {
  const tmp = join(dir, 'tmp-kill');
  mkdirSync(tmp);
  const parent = spawn(process.execPath, [CLI, 'query', store, `SELECT count(*) FROM (${ENDLESS})`, '--timeout', '600'], {
    stdio: 'ignore',
    env: { ...process.env, TMPDIR: tmp },
  });
  const parentGone = new Promise((resolve) => parent.on('exit', resolve));
  let child: number | undefined;
  for (let i = 0; i < 300 && child === undefined; i++) {
    await pause(50);
    child = childrenOf(parent.pid!)[0];
  }
  assert.ok(child !== undefined, 'the query runs in a child of the command');
  const folder = readdirSync(tmp).find((n) => n.startsWith('legado-store-query-'));
  assert.ok(folder, "the child's private TMPDIR");
  parent.kill('SIGKILL');
  await parentGone;
  // A bounded wait (the query itself would run for ten minutes), then the process table.
  for (let i = 0; i < 200 && running(child); i++) await pause(50);
  const left = running(child);
  if (left) process.kill(child, 'SIGKILL');
  assert.equal(left, false, `child ${child} still runs after its parent was killed`);
  assert.equal(existsSync(join(tmp, folder)), false, 'the private TMPDIR is removed');
});
