// Atomicity: a child process upgrading a large 49 file along the whole chain to 75 is killed with
// SIGKILL at many points, at every step of every version and at timed moments. Afterwards the
// file is either the untouched 49 file or the finished 75 file, SQLite's integrity check
// passes, and the store opens it without complaint.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDb } from './helpers/engine.js';
import { inspectFile, migrate, openStore } from 'legado-store';
import { fingerprint } from './helpers/dump.js';
import { tempDir } from './helpers/files.js';
import { createV49, type FixtureSize } from './helpers/v49-fixture.js';

const CHILD = fileURLToPath(new URL('./helpers/migrate-child.js', import.meta.url));
/** Books (the rebuilt table) big enough that each step, and COMMIT, takes some milliseconds. */
const SIZE: FixtureSize = { books: 1500, chaptersPerBook: 3, introLength: 2000, bigBookChapters: 2000 };

/** The whole chain: every kind of step (ALTER, rebuild, new table, data step, view) is in it. */
const TO = 75;
const dir = tempDir('legado-kill-');
let n = 0;
const BASE = join(dir, 'base.db');
createV49(BASE, SIZE);
const print = (path: string): string => {
  const db = openDb(path, { readonly: true });
  try {
    return fingerprint(db);
  } finally {
    db.close();
  }
};
const ORIGINAL = print(BASE);
const UPGRADED = (() => {
  const p = copy();
  migrate(p, { to: TO });
  return print(p);
})();

function copy(): string {
  const p = join(dir, `k${n++}.db`);
  copyFileSync(BASE, p);
  return p;
}

interface Run {
  readonly signal: NodeJS.Signals | null;
  readonly code: number | null;
  /** Milliseconds from "ready" to exit. */
  readonly ms: number;
}

/** Runs the child; with `kill`, kills it that many ms after it announced that step (or "ready"). */
function runChild(args: string[], kill?: { after: string; ms: number }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, args[0]!, String(TO), ...args.slice(1)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let ready = 0;
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        if (line === 'ready') ready = performance.now();
        if (kill && (line === kill.after || line === `step ${kill.after}`)) setTimeout(() => child.kill('SIGKILL'), kill.ms);
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal, ms: performance.now() - ready }));
  });
}

/** The file after a kill: intact 49 or complete 75, as the next opener finds it. Returns which. */
function outcome(path: string): 49 | typeof TO {
  // First through the read-only inspection, with the -wal and -shm exactly as the kill left them.
  const r = inspectFile(path);
  assert.deepEqual(r.differences, []);
  assert.deepEqual(r.extraTables, [], 'no half-built _new_ table');
  assert.ok(r.version === 49 || r.version === TO, `version ${r.version}`);
  // Then the store opens it (recovering the -wal as SQLite does on the next open).
  openStore(path).close();
  const db = openDb(path);
  try {
    assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
  } finally {
    db.close();
  }
  assert.equal(print(path), r.version === 49 ? ORIGINAL : UPGRADED, `a ${r.version} file with exactly its rows`);
  return r.version as 49 | typeof TO;
}

test('killed as each step starts, the file is the untouched 49 file', async () => {
  const steps: string[] = [];
  migrate(copy(), { to: TO, backup: join(dir, `steps-backup.db`), onStep: (s) => steps.push(s) });
  assert.ok(steps.length >= 40 && steps.includes('75: create view book_sources_part'), steps.join(', '));
  for (const step of steps) {
    const path = copy();
    const backup = join(dir, `b${n}.db`);
    const withBackup = step === 'backup' || step === 'begin';
    const run = await runChild([path, step, ...(withBackup ? [backup] : [])]);
    assert.equal(run.signal, 'SIGKILL', `killed at ${step}`);
    assert.equal(outcome(path), 49, `killed at ${step}`);
    // Killed before the copy, there is none; killed after it, it is complete.
    if (withBackup) assert.equal(existsSync(backup), step === 'begin');
    if (existsSync(backup)) assert.equal(print(backup), ORIGINAL);
  }
});

test('killed after the commit, before the connection closes, the file is the finished 75 file', async () => {
  const path = copy();
  const run = await runChild([path, 'after-commit']);
  assert.equal(run.signal, 'SIGKILL');
  assert.ok(statSync(path + '-wal').size > 0, 'the commit is still only in the -wal');
  assert.equal(outcome(path), TO);
});

/**
 * Moments inside the upgrade, each a delay after a step has started: in the two copies of books
 * and their 2 KB intros (54 and 55), in the app's UPDATEs of books.type, in the later rebuilds
 * and the view, and in and after COMMIT (while the WAL is written, and while closing
 * checkpoints it into the main file).
 */
const MOMENTS: readonly { after: string; ms: number }[] = [
  { after: 'ready', ms: 0 },
  { after: 'backup', ms: 5 },
  ...[0, 5, 10, 20].map((ms) => ({ after: '54: rebuild books', ms })),
  ...[0, 10].map((ms) => ({ after: '55: rebuild books', ms })),
  ...[0, 5, 15, 30].map((ms) => ({ after: 'Migration_54_55', ms })),
  ...[0, 5].map((ms) => ({ after: '65: rebuild book_sources', ms })),
  { after: '75: create view book_sources_part', ms: 0 },
  ...[0, 2, 5, 10, 20, 40, 80].map((ms) => ({ after: 'commit', ms })),
];

test('killed at moments all through the upgrade, every file is intact 49 or complete 75', async (t) => {
  const seen: string[] = [];
  for (const moment of MOMENTS) {
    const path = copy();
    const backup = moment.after === 'backup' || moment.ms === 10 ? join(dir, `t${n}.db`) : undefined;
    const run = await runChild([path, '-', ...(backup ? [backup] : [])], moment);
    const version = outcome(path);
    // Killed, or done before the kill came; a child that failed on its own would hide nothing here.
    assert.ok(run.signal === 'SIGKILL' || run.code === 0, `child ended with ${run.signal ?? `exit code ${run.code}`}`);
    seen.push(`${moment.after}+${moment.ms}ms:${run.signal ? 'killed' : 'done'}->${version}`);
    // A backup the kill interrupted is not there at all: never half a copy under its name.
    if (backup && existsSync(backup)) assert.equal(print(backup), ORIGINAL);
  }
  t.diagnostic(seen.join(', '));
  assert.ok(seen.filter((s) => s.includes('killed')).length >= MOMENTS.length - 4, 'nearly every run was killed before it finished');
});
