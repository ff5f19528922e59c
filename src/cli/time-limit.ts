// A time limit for a command whose work SQLite does in one call: none of the engines the CLI runs
// on can interrupt a statement from JavaScript (better-sqlite3 is built without a progress
// handler, node:sqlite and bun:sqlite offer neither that nor sqlite3_interrupt), and a worker
// thread stuck in such a call keeps the process from exiting. So the command runs again in a
// child process of the same runtime, writing to this process's stdout and stderr itself, and
// is killed when the time is up. What a killed child leaves is removed here: its temporary
// copies (it gets a private TMPDIR) and a -wal/-shm it made beside the store.
import { spawn } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveDriver } from '../engine/registry.js';
import type { CliIo } from './io.js';

/** Set in the child's environment: run the command here, without another child. */
export const CHILD_ENV = 'LEGADO_STORE_TIMED_CHILD';
/** The parent's pid, in the child's environment: the child ends when it is gone (watchParent). */
const PARENT_ENV = 'LEGADO_STORE_TIMED_PARENT';

export const inTimedChild = (io: CliIo): boolean => io.env[CHILD_ENV] === '1';

/**
 * In the timed child: a thread of its own that ends the process once its parent is gone (a
 * SIGKILL gives the parent no chance to kill it), removing the private TMPDIR the parent made
 * for it (a copy of the store may be there). A thread, since the main one may be inside one
 * SQLite call for as long as the query runs; it polls the parent pid (the child is then
 * re-parented), which needs nothing from the parent. Unref'd: it never keeps the child alive.
 */
export function watchParent(io: CliIo): void {
  const parent = Number(io.env[PARENT_ENV]);
  if (!Number.isInteger(parent) || parent <= 0) return;
  const tmp = io.env['TMPDIR'] ?? '';
  const watcher = new Worker(WATCHER, { eval: true, workerData: { parent, tmp: /[\\/]legado-store-query-[^\\/]+$/.test(tmp) ? tmp : '' } });
  watcher.unref();
}

const PARENT_POLL_MS = 200;
const WATCHER = `
const { workerData } = require('node:worker_threads');
const { rmSync } = require('node:fs');
const gone = () => {
  if (process.ppid === workerData.parent) return;
  try { if (workerData.tmp) rmSync(workerData.tmp, { recursive: true, force: true }); } finally { process.kill(process.pid, 'SIGKILL'); }
};
gone();
setInterval(gone, ${PARENT_POLL_MS});
`;

const BIN = fileURLToPath(new URL('./bin.js', import.meta.url));

export type TimedOutcome = { readonly timedOut: false; readonly code: number } | { readonly timedOut: true };

/**
 * Runs `legado-store <args>` in a child process that shares stdout and stderr, and resolves to
 * its exit code; after `timeoutMs` (0: no limit) the child is killed and cleaned up after.
 * SIGINT and SIGTERM to this process stop the child the same way.
 */
export async function runWithTimeLimit(io: CliIo, args: readonly string[], timeoutMs: number, storePath: string): Promise<TimedOutcome> {
  const companions = [`${storePath}-wal`, `${storePath}-shm`].filter((p) => !existsSync(p));
  const tmp = mkdtempSync(join(tmpdir(), 'legado-store-query-'));
  // The process's own streams are handed over as they are (a terminal stays one, a closed pipe
  // reaches the child); other writers (the CLI run inside a program) get the child's output piped.
  const own = io.stdout === process.stdout && io.stderr === process.stderr;
  const child = spawn(process.execPath, [...process.execArgv, BIN, ...args], {
    stdio: ['ignore', own ? 'inherit' : 'pipe', own ? 'inherit' : 'pipe'],
    env: { ...io.env, [CHILD_ENV]: '1', [PARENT_ENV]: String(process.pid), TMPDIR: tmp, TMP: tmp, TEMP: tmp },
  });
  child.stdout?.pipe(io.stdout, { end: false });
  child.stderr?.pipe(io.stderr, { end: false });
  let stopped: NodeJS.Signals | 'timeout' | undefined;
  const stop = (why: NodeJS.Signals | 'timeout'): void => {
    stopped ??= why;
    child.kill('SIGKILL');
  };
  const onSignal = (signal: NodeJS.Signals): void => stop(signal);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const timer = timeoutMs > 0 ? setTimeout(() => stop('timeout'), timeoutMs) : undefined;
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      // 'close': the child has exited and its piped output has all been passed on.
      child.once('close', (c) => resolve(c));
    });
    if (stopped !== undefined) {
      cleanUpAfterKill(storePath, companions);
      if (stopped !== 'timeout') {
        io.stderr.write('legado-store: interrupted\n');
        return { timedOut: false, code: stopped === 'SIGINT' ? 130 : 143 };
      }
      return { timedOut: true };
    }
    return { timedOut: false, code: code ?? 1 };
  } finally {
    if (timer) clearTimeout(timer);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * A -wal or -shm the killed child made (it had none before): a connection of our own, opened
 * and closed, is then the last one, and SQLite removes them on close as after any crash.
 */
function cleanUpAfterKill(storePath: string, companions: readonly string[]): void {
  if (!companions.some((p) => existsSync(p))) return;
  try {
    const db = resolveDriver(undefined).open(storePath, { fileMustExist: true });
    try {
      db.prepare('SELECT count(*) FROM sqlite_schema').get();
    } finally {
      db.close();
    }
  } catch {
    // Another connection holds the file, or it cannot be written: they stay, as after a crash.
  }
}
