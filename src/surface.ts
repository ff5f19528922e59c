// The names the Node entry (index.ts) and the browser entry (browser/index.ts) both export: typed
// tables, the values the app's operations take, engines, errors. Each entry adds its own ways to
// open stores and to move backups (paths in Node, bytes in the browser).

// Typed tables: rows of any table at any version through a few generics (Row<'books', 75>).
export { Store, type AnyStore, type Tables } from './store/store.js';
export type { OpenOptions } from './store/open.js';
export type { Row, NewRow, Patch, Key, TableName } from './schema/row-types.js';
export type { Query } from './table/query.js';
export { schemas, SUPPORTED_VERSIONS, NEWEST_VERSION, type SchemaVersion } from './schema/index.js';
export { toJsonRow, fromJsonRow, type JsonRow } from './backup/json-row.js';

// The app's operations (store.books, store.bookGroups, ...) take these values.
export { BookType, BookshelfSort } from './domain/books.js';
export { SpecialGroupId } from './domain/special-groups.js';

// Backup reports.
export type { ImportResult } from './backup/report.js';

// Engines: the SQLite seam a user can implement.
export type { Driver, DriverName, Connection } from './engine/driver.js';

// Errors: every failure is a LegadoStoreError with a stable `code`; the classes people catch by
// kind are here, every class is in legado-store/errors.
export {
  LegadoStoreError,
  ConstraintError,
  UniqueViolationError,
  FileAccessError,
  NotADatabaseError,
  UnsupportedVersionError,
  VersionMismatchError,
  SchemaMismatchError,
  MigrationFailedError,
  FileExistsError,
  DriverUnavailableError,
  type ErrorCode,
} from './errors.js';
export { ImportRejectedError } from './backup/errors.js';
