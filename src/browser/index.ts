// legado-store/browser: the same Store API on SQLite WASM, for a page or (for OPFS) a dedicated
// Worker. Built by web/build.ts into dist/browser/legado-store.js with sqlite3.wasm beside it.
export {
  openStore,
  openStoreFromBytes,
  exportDatabase,
  listStores,
  deleteStore,
  type BrowserOpenOptions,
  type BytesOpenOptions,
  type BrowserStorage,
} from './open.js';
export { Store, type AnyStore, type Tables, type TableOf, type StoreOptions } from '../store/store.js';
export type { OpenOptions } from '../store/open.js';
export type { ChangeListener, ChangeOptions } from '../store/changes.js';
export * from '../domain/index.js';
export type { TableApi } from '../table/table.js';
export type { Query, Where, Condition, OrderTerm } from '../table/query.js';
export type { FileReport } from '../engine/inspect.js';
export type { Connection, Statement, Driver, DriverName } from '../engine/driver.js';
export { schemas, SUPPORTED_VERSIONS, CURRENT_VERSION, NEWEST_VERSION, type SchemaVersion, type VersionedSchema } from '../schema/index.js';
export type { Column, Table, Index, ForeignKey, Schema } from '../schema/index.js';
export type { Row, NewRow, Patch, Key, TableName } from '../schema/row-types.js';
export { toJsonRow, fromJsonRow, type JsonRow, type JsonField, type JsonValue } from '../backup/json-row.js';
// The backup pipeline on bytes is the Node import's and export's own: the same report, the same zip.
export { importBackupBytes as importBackup, exportBackupBytes as exportBackup } from '../backup/bytes.js';
export * from '../backup/bytes.js';
export { importSummary } from '../backup/report.js';
export * from '../errors.js';
// SQLite WASM is this entry's engine; it loads asynchronously, so the store gets it from this
// entry's openStore and openStoreFromBytes, never by default.
import { installBrowserDrivers } from './open.js';
installBrowserDrivers();
