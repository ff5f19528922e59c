// Opening SQLite connections with the settings every store connection must have.
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { NotADatabaseError } from '../errors.js';

export type Db = Database.Database;

export interface ConnectionOptions {
  readonly readonly?: boolean;
  /** Milliseconds to wait for a lock held by another connection (SQLite busy timeout). */
  readonly busyTimeout?: number;
}

export const DEFAULT_BUSY_TIMEOUT = 5000;

/**
 * A connection used only to look at a file, never to write it, that leaves the file and its
 * companions as they were. A read-only connection to a WAL file would leave new empty -wal and
 * -shm files behind, so when there is no -wal to read we read through a read-write connection
 * (which writes nothing and removes its own empty WAL on close). When a -wal exists, its rows
 * must be seen but never checkpointed into the main file: that is what read-only does.
 */
export function openForInspection(path: string): Db {
  try {
    return new Database(path, { readonly: existsSync(`${path}-wal`), fileMustExist: true });
  } catch (e) {
    throw asOpenError(path, e);
  }
}

/** A working connection: foreign keys enforced, WAL, busy timeout (Room's runtime setup). */
export function openForWork(path: string, options: ConnectionOptions = {}): Db {
  let db: Db;
  try {
    db = new Database(path, {
      readonly: options.readonly ?? false,
      timeout: options.busyTimeout ?? DEFAULT_BUSY_TIMEOUT,
    });
  } catch (e) {
    throw asOpenError(path, e);
  }
  try {
    if (!options.readonly && path !== ':memory:') db.pragma('journal_mode = WAL');
    // WAL with synchronous NORMAL is what Android uses: durable across app crashes, and fast.
    db.pragma('synchronous = NORMAL');
    // Temporary tables, indices and savepoint journals in memory, as Android builds SQLite
    // (SQLITE_TEMP_STORE=3): a bulk write nested in a transaction (a savepoint) then costs
    // no temporary-file writes.
    db.pragma('temp_store = MEMORY');
    db.pragma('foreign_keys = ON');
  } catch (e) {
    db.close();
    throw asOpenError(path, e);
  }
  return db;
}

export function asOpenError(path: string, e: unknown): unknown {
  const code = (e as { code?: string }).code;
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') return new NotADatabaseError(path, (e as Error).message);
  return e;
}

/** Tables present in the file, by name. */
export function listTables(db: Db): string[] {
  return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]).sort();
}
