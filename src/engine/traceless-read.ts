// Reading a database file without leaving traces: nothing changed, nothing left beside it, even
// on read-only media. The one module that does so, for the store's own files (openForReading)
// and for another program's database (openForeignDatabase).
//
// A store file: SQLite's
// read-only connection to a WAL-mode file creates -wal and -shm files it never removes, and in
// a read-only folder cannot open the file at all (it needs those files). So:
//   - a -wal beside the file holds rows that must be seen but never checkpointed: read-only
//     (from a copy when there is no -shm, which a read-only connection would leave behind);
//   - file and folder writable: a read-write connection with PRAGMA query_only, which writes
//     nothing and removes its own empty -wal/-shm on close;
//   - otherwise a WAL-mode file is read from a copy in a temporary folder (nobody can be
//     writing it: a writer would need a -wal beside it), removed on close;
//   - a rollback-journal file is read in place, read-only (that creates nothing).
// Copies and in-place connections are undone on every way out, signals included: the driver's
// files (DriverFiles) do the file system's part. An engine without files (capabilities.files
// false: SQLite WASM's storage, a Durable Object) keeps nothing beside a database, so it reads
// in place.
//
// Another program's database (a copy from a phone, another app's file): SQLite itself cannot
// promise to leave it as it was when it is in WAL mode (a reader creates the -shm and -wal, and
// recovers a -wal into the file when it is the last connection). So the header is read as plain
// bytes: when the file can leave a trace (WAL mode, or a -wal or -journal beside it) the file and
// those companions are copied into a private temporary folder and SQLite opens the copy,
// honouring the -wal there; a rollback-journal file with no companions is opened read-only in
// place. (An engine with SQLite's `immutable` URI parameter could skip the copy; the seam does
// not assume one.)
import { DriverUnavailableError, FileNotFoundError, NotADatabaseError } from '../errors.js';
import { asOpenError } from './open-errors.js';
import type { Connection, Driver, DriverChoice, DriverFiles } from './driver.js';
import { resolveDriver } from './registry.js';

export interface ReadOptions {
  readonly busyTimeout?: number;
}

export function openForReading(driver: Driver, path: string, options: ReadOptions = {}): Connection {
  const wal = driver.fileSize(`${path}-wal`) !== undefined;
  const common = { fileMustExist: true, ...(options.busyTimeout !== undefined && { busyTimeout: options.busyTimeout }) };
  // Storage of the engine's own (OPFS, memory) has no folders or permissions: read-only when a
  // -wal exists, as before; otherwise a connection that writes nothing.
  if (!driver.capabilities.files) return queryOnly(driver.open(path, { ...common, readonly: wal }), wal);
  const files = filesOf(driver);
  if (wal) {
    // A -wal with no -shm: no connection has the file open. Reading in place would leave a -shm
    // behind (and make the -wal look in use to the next writer's check): read a copy.
    if (driver.fileSize(`${path}-shm`) === undefined) return fromCopy(driver, files, path, true);
    try {
      return driver.open(path, { ...common, readonly: true });
    } catch (e) {
      // A read-only folder with a -wal but no -shm: SQLite cannot read it in place.
      if (!/^SQLITE_(CANTOPEN|READONLY)/.test(String((e as { code?: unknown }).code))) throw e;
      return fromCopy(driver, files, path, true);
    }
  }
  if (files.writable(path)) {
    // Its -wal and -shm go when it closes: closed on a signal too (a store opened to write is
    // not, so that Ctrl-C still ends a write at once, with nothing of it kept).
    return closing(files, queryOnly(driver.open(path, { ...common, readonly: false }), false));
  }
  return isWalMode(readHeader(files, path)) ? fromCopy(driver, files, path, false) : driver.open(path, { ...common, readonly: true });
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
  if (driver.capabilities.files && !filesOf(driver).writable(path)) return undefined;
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

/** The driver's file system; a driver that says it has files must hand them over. */
function filesOf(driver: Driver): DriverFiles {
  if (!driver.files) throw new DriverUnavailableError(driver.name, 'its capabilities say files, but it has no `files` object (DriverFiles)');
  return driver.files;
}

/** Bytes 18 and 19 of the header are 2 in a WAL-mode file (1 for a rollback journal). */
const isWalMode = (header: Uint8Array): boolean => header.length >= 20 && (header[18] === 2 || header[19] === 2);

/** The first 100 bytes of the file (fewer when it is shorter). */
function readHeader(files: DriverFiles, path: string): Uint8Array {
  const reader = files.openRead(path);
  try {
    const head = new Uint8Array(100);
    return head.subarray(0, reader.read(head, 0));
  } finally {
    reader.close();
  }
}

const HEADER = new TextEncoder().encode('SQLite format 3\0');
/** True when the bytes begin with SQLite's 16-byte header ("SQLite format 3\0"). */
export const hasSqliteHeader = (head: Uint8Array): boolean => head.length >= HEADER.length && HEADER.every((b, i) => head[i] === b);

function fromCopy(driver: Driver, files: DriverFiles, path: string, withWal: boolean): Connection {
  const copy = files.privateCopy(path, withWal ? ['-wal'] : []);
  try {
    const db = driver.open(copy.file, { fileMustExist: true, readonly: false });
    db.pragma('query_only = ON');
    return closing(files, db, copy.remove);
  } catch (e) {
    copy.remove();
    throw e;
  }
}

/**
 * `db`, with `after` run when it closes, and closed (then `after`) if the process ends first: a
 * query_only connection in place removes its empty -wal and -shm when it closes.
 */
function closing(files: DriverFiles, db: Connection, after?: () => void): Connection {
  const close = db.close.bind(db);
  const forget = files.undoOnExit(() => {
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

/** Another program's database, open for reading (see the top of this file). */
export interface ForeignDatabase {
  readonly db: Connection;
  /** Closes the connection and removes the private copy, if one was made. */
  close(): void;
}

/** Opens another program's database for reading, leaving everything on disk as it was. */
export function openForeignDatabase(path: string, choice?: DriverChoice): ForeignDatabase {
  const driver = resolveDriver(choice);
  if (driver.fileSize(path) === undefined) throw new FileNotFoundError(path);
  if (!driver.capabilities.files) {
    const db = openForeign(driver, path, path, true);
    return { db, close: () => db.close() };
  }
  const files = filesOf(driver);
  const head = readHeader(files, path);
  if (!hasSqliteHeader(head)) throw new NotADatabaseError(path, 'no SQLite header');
  const companions = ['-wal', '-journal'].filter((s) => driver.fileSize(path + s) !== undefined);
  if (!isWalMode(head) && companions.length === 0) {
    const db = openForeign(driver, path, path, true);
    return { db, close: () => db.close() };
  }
  const copy = files.privateCopy(path, companions, 'legado-foreign-');
  try {
    // Read-write on the copy, so SQLite recovers its -wal or rolls back its hot journal.
    const db = openForeign(driver, path, copy.file, false);
    return {
      db,
      close: () => {
        try {
          db.close();
        } finally {
          copy.remove();
        }
      },
    };
  } catch (e) {
    copy.remove();
    throw e;
  }
}

function openForeign(driver: Driver, path: string, file: string, readonly: boolean): Connection {
  let db: Connection | undefined;
  try {
    db = driver.open(file, { readonly, fileMustExist: true });
    // Reading the schema proves the file is a database SQLite can read.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return db;
  } catch (e) {
    db?.close();
    throw asOpenError(path, e);
  }
}
