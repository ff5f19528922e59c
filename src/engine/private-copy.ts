// Reading a file without leaving traces, on every way out of the process. Two things can be left:
// a private temporary copy of a database (which holds its secrets), and the -wal/-shm SQLite
// makes beside a file it reads in place. Copies go into a folder only the owner can open
// (0700, files 0600) and are removed when closed; both kinds are undone at exit and on SIGINT,
// SIGTERM and SIGHUP (after which the signal takes its usual course: the process ends).
import { chmodSync, copyFileSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

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
