// legado-store/browser: the same Store API on SQLite WASM, for a page or (for OPFS) a dedicated
// Worker. Built by web/build.ts into dist/browser/legado-store.js with sqlite3.wasm beside it.
// Grouped as the main entry (src/index.ts); files are bytes here, stores live in OPFS or memory.

// Open, create, list.
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

// Typed tables, domain values, engines, errors: as in the Node entry.
export * from '../surface.js';

// Backups on bytes: the Node import's and export's own pipeline, the same report, the same zip.
export { importBackupBytes as importBackup, type FileBytes, type ImportOptions } from '../backup/import.js';
export { exportBackupBytes as exportBackup } from '../backup/export.js';
export { importSummary } from '../backup/report.js';
// SQLite WASM is this entry's engine; it loads asynchronously, so the store gets it from this
// entry's openStore and openStoreFromBytes, never by default.
import { installBrowserDrivers } from './open.js';
installBrowserDrivers();
