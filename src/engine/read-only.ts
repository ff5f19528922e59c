// Reading a store file without leaving anything beside it, even on read-only media. SQLite's
// read-only connection to a WAL-mode file creates -wal and -shm files it never removes, and in
// a read-only folder cannot open the file at all (it needs those files). So:
//   - a -wal beside the file holds rows that must be seen but never checkpointed: read-only
//     (from a copy when there is no -shm, which a read-only connection would leave behind);
//   - file and folder writable: a read-write connection with PRAGMA query_only, which writes
//     nothing and removes its own empty -wal/-shm on close;
//   - otherwise a WAL-mode file is read from a copy in a temporary folder (nobody can be
//     writing it: a writer would need a -wal beside it), removed on close;
//   - a rollback-journal file is read in place, read-only (that creates nothing).
import { accessSync, closeSync, constants, copyFileSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
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
    return queryOnly(driver.open(path, { ...common, readonly: false }), false);
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

/** Temporary folders of open copies, removed on close (or at exit, if a connection is never closed). */
const copies = new Set<string>();
let cleanupAtExit = false;

function fromCopy(driver: Driver, path: string, withWal: boolean): Connection {
  const folder = mkdtempSync(join(tmpdir(), 'legado-store-read-'));
  copies.add(folder);
  if (!cleanupAtExit) {
    cleanupAtExit = true;
    process.once('exit', () => {
      for (const f of copies) rmSync(f, { recursive: true, force: true });
    });
  }
  const remove = (): void => {
    copies.delete(folder);
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    const copy = join(folder, basename(path));
    copyFileSync(path, copy);
    if (withWal) copyFileSync(`${path}-wal`, `${copy}-wal`);
    const db = driver.open(copy, { fileMustExist: true, readonly: false });
    db.pragma('query_only = ON');
    const close = db.close.bind(db);
    Object.defineProperty(db, 'close', {
      value: () => {
        try {
          close();
        } finally {
          remove();
        }
      },
    });
    return db;
  } catch (e) {
    remove();
    throw e;
  }
}
