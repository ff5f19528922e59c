// A Driver of your own: legado-store over better-sqlite3, written against the documented seam
// only (docs/engines.md). Pass it as `openStore(path, { driver: myDriver })`.
import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import type { Connection, Driver, DriverOpenOptions, Statement } from 'legado-store/driver';

/** What this engine allows: the store asks these, never the name. */
const capabilities: Driver['capabilities'] = {
  files: false, // no `files` object: files are read in place, no private copies, no -wal page check
  wal: false, // keep SQLite's rollback journal
  mmap: true,
  transactions: 'statements',
  maxParameters: 32766,
  userVersion: true,
  maxLikePatternBytes: 50000,
};

function connection(db: Database.Database): Connection {
  return {
    driver: 'my-driver',
    capabilities,
    get open() {
      return db.open;
    },
    get inTransaction() {
      return db.inTransaction;
    },
    get readonly() {
      return db.readonly;
    },
    // better-sqlite3's statements have the seam's Statement shape already.
    prepare: (sql) => db.prepare(sql) as unknown as Statement,
    exec: (sql) => {
      db.exec(sql);
    },
    pragma: (text, options) => db.pragma(text, options),
    transaction: (fn) => db.transaction(fn),
    close: () => {
      db.close();
    },
  };
}

export const myDriver: Driver = {
  name: 'my-driver',
  capabilities,
  open(path: string, options: DriverOpenOptions = {}): Connection {
    const db = new Database(path, {
      readonly: options.readonly ?? false,
      fileMustExist: options.fileMustExist ?? false,
      timeout: options.busyTimeout ?? 5000,
    });
    return connection(db);
  },
  fileSize: (path) => statSync(path, { throwIfNoEntry: false })?.size,
};
