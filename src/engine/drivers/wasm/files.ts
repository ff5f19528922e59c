// What a storage of the WASM adapter does with database files, and the byte checks both share.
import { hasSqliteHeader } from '../../traceless-read.js';
import type { Database as Oo1Database } from '@sqlite.org/sqlite-wasm';
import type { WasmStorage } from '../wasm-storage.js';
import { SqliteError } from './sqlite-error.js';

/** Where the database files of one storage are, and how one is opened. */
export interface Files {
  readonly storage: WasmStorage;
  exists(path: string): boolean;
  size(path: string): number | undefined;
  open(path: string, readonly: boolean): Oo1Database;
  closing(path: string, db: Oo1Database, readonly: boolean): void;
  read(path: string): Uint8Array;
  write(path: string, bytes: Uint8Array): void;
  remove(path: string): boolean;
  list(): string[];
}

// SQLite's header says WAL at bytes 18-19 (2, 2); storages without WAL need 1, 1 (rollback journal).
/** A plain Uint8Array copy (never a view such as Node's Buffer.slice) with a rollback-journal header. */
export function copyWithoutWal(bytes: Uint8Array): Uint8Array {
  const copy = new Uint8Array(bytes);
  if (copy.length >= 100 && (copy[18] === 2 || copy[19] === 2)) {
    copy[18] = 1;
    copy[19] = 1;
  }
  return copy;
}

export function assertDatabaseBytes(bytes: Uint8Array, path: string): void {
  const ok = bytes.length >= 100 && hasSqliteHeader(bytes);
  if (!ok) throw new SqliteError(`${path}: file is not a database`, 'SQLITE_NOTADB');
}
