// Opening SQLite connections with the settings every store connection must have, through
// whichever engine (driver) was chosen.
import type { Connection, Driver, DriverChoice } from './driver.js';
import { asOpenError } from './open-errors.js';
import { resolveDriver } from './registry.js';
import { isReadOnly, openForReading } from './traceless-read.js';

export { asOpenError };

/** A connection to a store file, on any engine. */
export type Db = Connection;

export interface DriverOptions {
  /** The SQLite engine: a driver name or a Driver (default: the best one available). */
  readonly driver?: DriverChoice | undefined;
}

export interface ConnectionOptions extends DriverOptions {
  readonly readonly?: boolean;
  /** Milliseconds to wait for a lock held by another connection (SQLite busy timeout). */
  readonly busyTimeout?: number | undefined;
}

export const DEFAULT_BUSY_TIMEOUT = 5000;

/**
 * A connection used only to look at a file, never to write it, that leaves the file and its
 * companions as they were, on read-only media too (traceless-read.ts).
 */
export function openForInspection(path: string, options: DriverOptions = {}): Db {
  const driver = resolveDriver(options.driver);
  try {
    return openForReading(driver, path);
  } catch (e) {
    throw asOpenError(path, e);
  }
}

/**
 * A working connection: foreign keys enforced, WAL, busy timeout (Room's runtime setup).
 *
 * With `readonly`, SQLite refuses every write, and nothing is left beside the file: SQLite's
 * read-only open of a WAL file creates a -wal and a -shm it cannot remove when it closes. So a
 * file without a -wal (no connection has it open) is opened read-write with `query_only` on,
 * where SQLite refuses any write just the same (SQLITE_READONLY) and the empty WAL is removed
 * on close; a file with a -wal is opened read-only, seeing the WAL's rows without checkpointing
 * them.
 */
export function openForWork(path: string, options: ConnectionOptions = {}): Db {
  const driver = resolveDriver(options.driver);
  let db: Db;
  const memory = path === ':memory:';
  try {
    const busyTimeout = options.busyTimeout ?? DEFAULT_BUSY_TIMEOUT;
    // A read-only store reads the way an inspection does: nothing left beside the file.
    db = options.readonly && !memory ? openForReading(driver, path, { busyTimeout }) : driver.open(path, { readonly: false, busyTimeout });
  } catch (e) {
    throw asOpenError(path, e);
  }
  try {
    setUpForWork(db, path, isReadOnly(db));
  } catch (e) {
    db.close();
    throw asOpenError(path, e);
  }
  return db;
}

/** Room's runtime settings on a fresh connection (for drivers opened outside openForWork too). */
export function setUpForWork(db: Db, path: string, readonly: boolean): void {
  // WAL where the engine has it; elsewhere the engine's own journal (WASM's storage has no -wal).
  if (!readonly && path !== ':memory:' && db.capabilities.wal) db.pragma('journal_mode = WAL');
  // WAL with synchronous NORMAL is what Android uses: durable across app crashes, and fast.
  db.pragma('synchronous = NORMAL');
  // Temporary tables, indices and savepoint journals in memory, as Android builds SQLite
  // (SQLITE_TEMP_STORE=3): a bulk write nested in a transaction (a savepoint) then costs
  // no temporary-file writes.
  db.pragma('temp_store = MEMORY');
  db.pragma('foreign_keys = ON');
  // Reads through a memory map instead of read() into the page cache: random point reads on a
  // large file (chapters.get on 1,000,000 chapters) take about 0.77x the CPU (bench/settings.md).
  // Per connection, nothing written to the file. Skipped where the engine has no memory map
  // (SQLite WASM, whose OPFS files have none either).
  if (path !== ':memory:' && db.capabilities.mmap) db.pragma(`mmap_size = ${MMAP_SIZE}`);
}

/** Bytes of the file read through a memory map (the rest, if larger, as usual). */
export const MMAP_SIZE = 1024 * 1024 * 1024;

/** Tables present in the file, by name. */
export function listTables(db: Db): string[] {
  return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]).sort();
}

/**
 * Closes a connection without the checkpoint SQLite runs when the last connection to a WAL file
 * closes: a read-only connection is kept open meanwhile (its lock makes the closing one not the
 * last), and a read-only connection never checkpoints when it closes in turn. The -wal stays.
 */
export function closeWithoutCheckpoint(db: Db, path: string, driver: Driver): void {
  let keeper: Connection | undefined;
  try {
    keeper = driver.open(path, { readonly: true, fileMustExist: true });
    keeper.prepare('SELECT count(*) FROM sqlite_master').get(); // a read takes the lock it keeps
  } catch {
    // Cannot hold the file open (it is damaged beyond reading, or gone): close as SQLite will.
  }
  try {
    db.close();
  } finally {
    keeper?.close();
  }
}
