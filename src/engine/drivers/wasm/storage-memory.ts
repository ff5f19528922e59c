// The 'memory' storage: throwaway databases held as images in memory. A connection works on an
// in-memory copy; closing a writable one stores its image back, so the store's usual sequence
// (inspect, close, open for work) sees one "file" under one name.
import type { Database as Oo1Database, Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import { assertDatabaseBytes, copyWithoutWal, type Files } from './files.js';
import { SqliteError } from './sqlite-error.js';

export class MemoryFiles implements Files {
  readonly storage = 'memory';
  private readonly images = new Map<string, Uint8Array>();
  constructor(private readonly sqlite3: Sqlite3Static) {}

  exists(path: string): boolean {
    return this.images.has(path);
  }
  size(path: string): number | undefined {
    return this.images.get(path)?.length;
  }
  open(path: string): Oo1Database {
    const db = new this.sqlite3.oo1.DB(':memory:', 'c');
    const image = this.images.get(path);
    if (image && image.length > 0) {
      try {
        deserialize(this.sqlite3, db, image);
      } catch (e) {
        db.close();
        throw e;
      }
    }
    return db;
  }
  closing(path: string, db: Oo1Database, readonly: boolean): void {
    if (!readonly && path !== ':memory:' && path !== '') {
      this.images.set(path, this.sqlite3.capi.sqlite3_js_db_export(db.pointer!));
    }
  }
  read(path: string): Uint8Array {
    const image = this.images.get(path);
    if (!image) throw new SqliteError(`${path}: no such database`, 'SQLITE_CANTOPEN');
    return image.slice();
  }
  write(path: string, bytes: Uint8Array): void {
    if (bytes.length > 0) assertDatabaseBytes(bytes, path);
    this.images.set(path, copyWithoutWal(bytes));
  }
  remove(path: string): boolean {
    return this.images.delete(path);
  }
  list(): string[] {
    return [...this.images.keys()];
  }
}

/** Loads an image into an open connection (sqlite3_deserialize, memory owned by SQLite). */
function deserialize(sqlite3: Sqlite3Static, db: Oo1Database, image: Uint8Array): void {
  const { capi, wasm } = sqlite3;
  const bytes = copyWithoutWal(image);
  const p = wasm.allocFromTypedArray(bytes);
  const rc = capi.sqlite3_deserialize(
    db.pointer!,
    'main',
    p,
    bytes.length,
    bytes.length,
    capi.SQLITE_DESERIALIZE_FREEONCLOSE | capi.SQLITE_DESERIALIZE_RESIZEABLE,
  );
  if (rc !== 0) throw new SqliteError(capi.sqlite3_errmsg(db.pointer!), capi.sqlite3_js_rc_str(rc) ?? 'SQLITE_ERROR');
}
