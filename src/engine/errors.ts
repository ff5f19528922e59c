// SQLite's failures, as the engine reports them (an Error whose `code` is SQLite's result code
// name, see engine/driver.ts), turned into the store's typed errors naming the file. A table's
// own writes name their constraint's table, fields and values (table/violations.ts); a
// constraint failure that reaches here (raw SQL in store.transaction, a delete a trigger
// refuses) has no table write to name, and is a ConstraintFailedError quoting SQLite's reason.
import {
  BusyError,
  ConstraintFailedError,
  CannotOpenError,
  CorruptError,
  DiskFullError,
  InvalidArgumentError,
  IoError,
  LegadoStoreError,
  NotADatabaseError,
  ReadOnlyError,
  StoreClosedError,
} from '../errors.js';

/** `e` as a LegadoStoreError when it is one of SQLite's failures; anything else unchanged. */
export function engineError(path: string, e: unknown): unknown {
  if (e instanceof LegadoStoreError || !(e instanceof Error)) return e;
  const code = (e as { code?: unknown }).code;
  const detail = e.message;
  // A closed connection, as each engine words it (better-sqlite3, node:sqlite, bun:sqlite; Bun's own
  // transaction function, which the store reuses, says "Database has closed"): no SQLite code.
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) {
    if (/connection is not open|database is not open|closed database|database has closed|statement has been finalized/i.test(detail))
      return new StoreClosedError(path);
  }
  if (code === undefined && /directory does not exist/i.test(detail)) return new CannotOpenError(path, 'its folder does not exist');
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return e;
  const base = code.replace(/^(SQLITE_[A-Z]+?)(_[A-Z_]+)?$/, '$1');
  switch (base) {
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return new BusyError(path, detail);
    case 'SQLITE_READONLY':
      return new ReadOnlyError(path, `cannot write: ${readOnlyReason(code, detail)}`);
    case 'SQLITE_CANTOPEN':
      return new CannotOpenError(path, `${detail} (a folder, a missing folder, or no permission)`);
    case 'SQLITE_FULL':
      return new DiskFullError(path, detail);
    case 'SQLITE_CORRUPT':
      return new CorruptError(path, [{ message: detail }]);
    case 'SQLITE_NOTADB':
      return new NotADatabaseError(path, detail);
    case 'SQLITE_IOERR':
      return new IoError(path, `${code}: ${detail}`);
    case 'SQLITE_CONSTRAINT':
      // Every kind: a UNIQUE or NOT NULL of raw SQL as much as a trigger's RAISE.
      return new ConstraintFailedError('', detail, path);
    case 'SQLITE_MISMATCH':
    case 'SQLITE_TOOBIG':
    case 'SQLITE_RANGE':
      return new InvalidArgumentError(`${path}: a value`, detail, 'a value SQLite can store');
    default:
      return e;
  }
}

function readOnlyReason(code: string, detail: string): string {
  if (code === 'SQLITE_READONLY_DBMOVED') return 'the file was moved or deleted while open';
  if (code === 'SQLITE_READONLY_RECOVERY' || code === 'SQLITE_READONLY_CANTINIT') return 'a read-only file whose -wal needs recovery';
  return `the store is read-only (opened with readonly: true, or a read-only file or folder): ${detail}`;
}
