// Reading a store file without leaving anything beside it, even on read-only media. SQLite's
// read-only connection to a WAL-mode file creates -wal and -shm files it never removes, and in
// a read-only folder cannot open the file at all (it needs those files). So:
//   - a -wal beside the file holds rows that must be seen but never checkpointed: read-only
//     (from a copy when there is no -shm, which a read-only connection would leave behind);
//   - file and folder writable: a read-write connection with PRAGMA query_only, which writes
//     nothing and removes its own empty -wal/-shm on close;
//   - otherwise a WAL-mode file is read from a copy in a temporary folder (nobody can be
//     writing it: a writer would need a -wal beside it), removed on close;
// Copies and in-place connections are undone on every way out, signals included (below): this
// is the one module that reads a file without leaving traces (engine/source.ts copies through it).
//   - a rollback-journal file is read in place, read-only (that creates nothing).
import { accessSync, chmodSync, closeSync, constants, copyFileSync, mkdtempSync, openSync, readSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { Connection, Driver } from './driver.js';

export interface ReadOptions {
  readonly busyTimeout?: number;
}

export function openForReading(driver: Driver, path: string, options: ReadOptions = {}): Connection {
  const wal = driver.fileSize(`${path}-wal`) !== undefined;
  const common = { fileMustExist: true, ...(options.busyTimeout !== undefined && { busyTimeout: options.busyTimeout }) };
  // WASM's storage (OPFS, memory) has no folders or permissions: read-only when a -wal exists,
  // as before; otherwise a connection that writes nothing.
  if (driver.name === 'wasm') return queryOnly(driver.open(path, { ...common, readonly: wal }), wal);
  if (wal) {
    // A -wal with no -shm: no connection has the file open. Reading in place would leave a -shm
    // behind (and make the -wal look in use to the next writer's check): read a copy.
    if (driver.fileSize(`${path}-shm`) === undefined) return fromCopy(driver, path, true);
    try {
      return driver.open(path, { ...common, readonly: true });
    } catch (e) {
      // A read-only folder with a -wal but no -shm: SQLite cannot read it in place.
      if (!/^SQLITE_(CANTOPEN|READONLY)/.test(String((e as { code?: unknown }).code))) throw e;
      return fromCopy(driver, path, true);
    }
  }
  if (writable(path) && writable(dirname(path))) {
    // Its -wal and -shm go when it closes: closed on a signal too (a store opened to write is
    // not, so that Ctrl-C still ends a write at once, with nothing of it kept).
    return closing(queryOnly(driver.open(path, { ...common, readonly: false }), false));
  }
  return isWalMode(path) ? fromCopy(driver, path, false) : driver.open(path, { ...common, readonly: true });
}

/**
 * The connection openForReading makes for a file with nothing beside it that this process may
 * write in place (read-write, query_only on), or undefined where it would read otherwise. A
 * store opening such a file checks it on this connection and then, turning query_only off,
 * works on it: one open instead of two.
 */
export function openInPlaceForCheck(driver: Driver, path: string, options: ReadOptions & { walChecked?: boolean } = {}): Connection | undefined {
  // A -wal is read in place only once its pages were checked (wal-check.ts) and found sound.
  if (driver.fileSize(`${path}-wal`) !== undefined && !options.walChecked) return undefined;
  if (driver.name !== 'wasm' && !(writable(path) && writable(dirname(path)))) return undefined;
  const common = { fileMustExist: true, ...(options.busyTimeout !== undefined && { busyTimeout: options.busyTimeout }) };
  return queryOnly(driver.open(path, { ...common, readonly: false }), false);
}

function queryOnly(db: Connection, readonly: boolean): Connection {
  if (readonly) return db;
  try {
    db.pragma('query_only = ON');
  } catch (e) {
    db.close();
    throw e;
  }
  return db;
}

/** True when the connection cannot write (opened read-only, or query_only). */
export function isReadOnly(db: Connection): boolean {
  return db.readonly || db.pragma('query_only', { simple: true }) === 1;
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Bytes 18 and 19 of the header are 2 in a WAL-mode file (1 for a rollback journal). */
function isWalMode(path: string): boolean {
  const header = Buffer.alloc(20);
  const fd = openSync(path, 'r');
  try {
    return readSync(fd, header, 0, 20, 0) === 20 && header[18] === 2;
  } finally {
    closeSync(fd);
  }
}

function fromCopy(driver: Driver, path: string, withWal: boolean): Connection {
  const copy = privateCopy(path, withWal ? ['-wal'] : []);
  try {
    const db = driver.open(copy.file, { fileMustExist: true, readonly: false });
    db.pragma('query_only = ON');
    return closing(db, copy.remove);
  } catch (e) {
    copy.remove();
    throw e;
  }
}

/**
 * `db`, with `after` run when it closes, and closed (then `after`) if the process ends first: a
 * query_only connection in place removes its empty -wal and -shm when it closes.
 */
function closing(db: Connection, after?: () => void): Connection {
  const close = db.close.bind(db);
  const forget = undoOnExit(() => {
    try {
      if (db.open) close();
    } finally {
      after?.();
    }
  });
  Object.defineProperty(db, 'close', {
    value: () => {
      forget();
      try {
        if (db.open) close();
      } finally {
        after?.();
      }
    },
  });
  return db;
}

// Two things a read can leave: a private temporary copy of a database (which holds its
// secrets), and the -wal/-shm SQLite makes beside a file it reads in place. Copies go into a
// folder only the owner can open (0700, files 0600) and are removed when closed; both kinds are
// undone at exit and on SIGINT, SIGTERM and SIGHUP (after which the signal takes its usual
// course: the process ends).

/** What to undo if the process ends before its owner does: remove a copy, close a connection. */
const pending = new Set<() => void>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
let installed = false;
let exitHook = false;

function runPending(): void {
  for (const undo of [...pending]) {
    pending.delete(undo);
    try {
      undo();
    } catch {
      // Best effort: the rest still run.
    }
  }
}

function onSignal(signal: NodeJS.Signals): void {
  // Another listener (the program's own) decides what the signal does; if it ends the process,
  // the 'exit' handler undoes what is pending. Ours alone: undo, then end as the signal would have.
  if (process.listenerCount(signal) > 1) return;
  runPending();
  listen(false);
  process.kill(process.pid, signal);
}

/**
 * The handlers are there only while something is pending: a signal listener defers the signal
 * until the running JavaScript returns, which must not outlast the read (a write in one long
 * transaction is ended by Ctrl-C at once, and nothing of it is kept).
 */
function listen(on: boolean): void {
  if (on === installed) return;
  installed = on;
  for (const s of SIGNALS) {
    if (on) process.on(s, onSignal);
    else process.removeListener(s, onSignal);
  }
}

/**
 * Runs `undo` at exit or on a signal unless the returned function is called first (which
 * forgets it without running it).
 */
export function undoOnExit(undo: () => void): () => void {
  if (!exitHook) {
    exitHook = true;
    process.once('exit', runPending);
  }
  pending.add(undo);
  listen(true);
  return () => {
    pending.delete(undo);
    if (pending.size === 0) listen(false);
  };
}

export interface PrivateCopy {
  /** The copy of the file (its companions beside it, with the same suffixes). */
  readonly file: string;
  /** Removes the copy and its folder; safe to call twice. */
  remove(): void;
}

/** Copies `path` and the companions given (`-wal`, `-journal`) into a new private folder. */
export function privateCopy(path: string, companions: readonly string[], prefix = 'legado-store-read-'): PrivateCopy {
  const folder = mkdtempSync(join(tmpdir(), prefix)); // created 0700
  const removeFolder = () => rmSync(folder, { recursive: true, force: true });
  const forget = undoOnExit(removeFolder);
  const remove = () => {
    forget();
    removeFolder();
  };
  try {
    const file = join(folder, basename(path));
    for (const suffix of ['', ...companions]) {
      // A copy takes its source's mode: made owner-only under another name, then put in place.
      copyFileSync(path + suffix, `${file}${suffix}.part`);
      chmodSync(`${file}${suffix}.part`, 0o600);
      renameSync(`${file}${suffix}.part`, file + suffix);
    }
    return { file, remove };
  } catch (e) {
    remove();
    throw e;
  }
}
