// The 'opfs' storage: the opfs-sahpool VFS, persistent in the origin-private file system. It
// needs a dedicated Worker (synchronous access handles exist only there) and no COOP/COEP headers.
import type { Database as Oo1Database, SAHPoolUtil, Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import { assertDatabaseBytes, type Files } from './files.js';
import { SqliteError } from './sqlite-error.js';

export class OpfsFiles implements Files {
  readonly storage = 'opfs';
  constructor(
    private readonly sqlite3: Sqlite3Static,
    private readonly pool: SAHPoolUtil,
  ) {}

  exists(path: string): boolean {
    return this.pool.getFileNames().includes(path);
  }
  /** The pool does not tell sizes; a database file's is its page count times its page size. */
  size(path: string): number | undefined {
    if (!this.exists(path)) return undefined;
    const db = this.open(path, true);
    try {
      return Number(db.selectValue('SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()') ?? 0);
    } finally {
      db.close();
    }
  }
  open(path: string, readonly: boolean): Oo1Database {
    return new this.sqlite3.oo1.DB({ filename: path, flags: readonly ? 'r' : 'c', vfs: this.pool.vfsName });
  }
  closing(): void {}
  read(path: string): Uint8Array {
    if (!this.exists(path)) throw new SqliteError(`${path}: no such database`, 'SQLITE_CANTOPEN');
    return this.pool.exportFile(path);
  }
  write(path: string, bytes: Uint8Array): void {
    if (bytes.length === 0) {
      this.pool.unlink(path);
      new this.sqlite3.oo1.DB({ filename: path, flags: 'c', vfs: this.pool.vfsName }).close();
      return;
    }
    assertDatabaseBytes(bytes, path);
    void this.pool.importDb(path, bytes);
  }
  remove(path: string): boolean {
    return this.pool.unlink(path);
  }
  list(): string[] {
    return this.pool.getFileNames();
  }
}
