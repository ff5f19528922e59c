// The file system the Node and Bun engines' paths name: their databases are plain files. One
// implementation of DriverFiles for all three (better-sqlite3, node:sqlite, bun:sqlite).
import {
  accessSync,
  chmodSync,
  closeSync,
  constants,
  copyFileSync,
  fstatSync,
  mkdtempSync,
  openSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { writeFileSafely } from '../../fs/safe-write.js';
import type { DriverFiles, FileReader, PrivateCopy } from '../driver.js';

export function nodeFileSize(path: string): number | undefined {
  return statSync(path, { throwIfNoEntry: false })?.size;
}

function openRead(path: string): FileReader {
  const fd = openSync(path, 'r');
  let size: number;
  try {
    size = fstatSync(fd).size;
  } catch (e) {
    closeSync(fd);
    throw e;
  }
  return {
    size,
    read: (into, position) => readSync(fd, into, 0, into.length, position),
    close: () => closeSync(fd),
  };
}

function canWrite(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
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

function undoOnExit(undo: () => void): () => void {
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

function privateCopy(path: string, companions: readonly string[], prefix = 'legado-store-read-'): PrivateCopy {
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

export const nodeFiles: DriverFiles = {
  openRead,
  writable: (path) => canWrite(path) && canWrite(dirname(path)),
  realPath: (path) => realpathSync(path),
  privateCopy,
  undoOnExit,
  writeThrough: writeFileSafely,
};
