// The WASM driver: one storage's files, connections opened on them.
import type { Database as Oo1Database, Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import type { Connection, Driver, DriverOpenOptions } from '../../driver.js';
import type { WasmStorage } from '../wasm-storage.js';
import { WASM_CAPABILITIES } from './capabilities.js';
import { WasmConnection } from './connection.js';
import type { Files } from './files.js';
import { engineError, SqliteError } from './sqlite-error.js';

/** The WASM engine with its storage: open connections, and read or write whole database files. */
export interface WasmDriver extends Driver {
  readonly storage: WasmStorage;
  /** SQLite's version inside the WASM build. */
  readonly sqliteVersion: string;
  exists(path: string): boolean;
  /** The database file's bytes (a closed or idle database; an open one through `serialize`). */
  readFile(path: string): Uint8Array;
  /** Replaces (or creates) a database file with these bytes, which must be an SQLite database. */
  writeFile(path: string, bytes: Uint8Array): void;
  /** Removes a database file; false when there was none. */
  remove(path: string): boolean;
  /** Names of the database files in this storage. */
  list(): string[];
}

/** OPFS pool names are absolute paths; the store's names are plain ("library.db"). */
function normalisePath(storage: WasmStorage, path: string): string {
  if (storage === 'opfs' && !path.startsWith('/')) return `/${path}`;
  return path;
}

export class WasmEngine implements WasmDriver {
  readonly name = 'wasm';
  readonly capabilities = WASM_CAPABILITIES;
  readonly storage: WasmStorage;
  readonly sqliteVersion: string;
  constructor(
    private readonly sqlite3: Sqlite3Static,
    private readonly storageFiles: Files,
  ) {
    this.storage = storageFiles.storage;
    this.sqliteVersion = sqlite3.version.libVersion;
  }

  open(path: string, options: DriverOpenOptions = {}): Connection {
    const p = normalisePath(this.storage, path);
    const readonly = options.readonly ?? false;
    if ((options.fileMustExist || readonly) && p !== ':memory:' && !this.storageFiles.exists(p)) {
      throw new SqliteError(`unable to open database file: ${path}`, 'SQLITE_CANTOPEN');
    }
    let db: Oo1Database;
    try {
      db = this.storageFiles.open(p, readonly);
    } catch (e) {
      throw engineError(this.sqlite3, e);
    }
    const conn = new WasmConnection(this.sqlite3, db, readonly, () => this.storageFiles.closing(p, db, readonly));
    if (options.busyTimeout !== undefined) this.sqlite3.capi.sqlite3_busy_timeout(db.pointer!, options.busyTimeout);
    return conn;
  }
  exists(path: string): boolean {
    return this.storageFiles.exists(normalisePath(this.storage, path));
  }
  fileSize(path: string): number | undefined {
    return this.storageFiles.size(normalisePath(this.storage, path));
  }
  readFile(path: string): Uint8Array {
    return this.storageFiles.read(normalisePath(this.storage, path));
  }
  writeFile(path: string, bytes: Uint8Array): void {
    this.storageFiles.write(normalisePath(this.storage, path), bytes);
  }
  remove(path: string): boolean {
    return this.storageFiles.remove(normalisePath(this.storage, path));
  }
  list(): string[] {
    return this.storageFiles.list().map((p) => (this.storage === 'opfs' ? p.replace(/^\//, '') : p));
  }
}
