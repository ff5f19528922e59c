// legado-store: the public surface, at most 60 names (test/public-api.test.ts counts them), grouped
// as docs/api.md lists them. Helpers for looking at and curating stores are in legado-store/tools,
// every error class in legado-store/errors, the WebDAV sync in legado-store/webdav.

// Open, create, inspect.
export { openStore, inspectFile, type FileInspection } from './store/open.js';

// Typed tables, domain values, engines, errors: shared with the browser entry.
export * from './surface.js';

// The shelf as the app shows it, and local books (TXT, EPUB) kept beside the store.
export { bookshelf, type ShelfTab } from './inspect/shelf.js';
export { addLocalBook, refreshLocalBook, readLocalChapter } from './node/localbook.js';

// Migrate.
export { migrate, type MigrateOptions, type MigrateResult } from './migrate/migrate.js';

// Backups: one import for a path, bytes or files; one export to a zip, a folder or bytes.
export { importBackup, type BackupInput, type BackupImportOptions } from './node/backup-import.js';
export { exportBackup, type ExportFileOptions as ExportOptions } from './node/backup-export.js';
export type { ExportResult } from './backup/export.js';

// The Node and Bun engines are this entry's default choice (the core itself loads none).
import { useNodeDrivers } from './engine/drivers/index.js';
useNodeDrivers();
