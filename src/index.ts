// The public surface of legado-store.
export { openStore, inspectFile, type OpenOptions, type FileInspection, type InspectOptions, type IntegrityCheck } from './store/open.js';
export { Store, type AnyStore, type Tables, type TableOf, type StoreOptions } from './store/store.js';
export type { ChangeListener, ChangeOptions } from './store/changes.js';
export * from './domain/index.js';
export { migrate, type MigrateOptions, type MigrateResult } from './migrate/migrate.js';
export type { UpgradeSummary } from './migrate/upgrade.js';
export type { Finder, TableApi, Updater } from './table/table.js';
export type { Query, Where, Condition, OrderTerm } from './table/query.js';
export type { FileReport } from './engine/inspect.js';
export type { Connection, Statement, RunResult, TransactionFn, Driver, DriverName, DriverChoice, DriverOpenOptions, PragmaOptions } from './engine/driver.js';
export { DRIVER_ENV } from './engine/drivers/index.js';
// The Node and Bun engines are this entry's default choice (the core itself loads none).
import { useNodeDrivers } from './engine/drivers/index.js';
useNodeDrivers();
export type { DriverOptions } from './engine/connection.js';
export { schemas, specOf, SUPPORTED_VERSIONS, CURRENT_VERSION, NEWEST_VERSION, isSupportedVersion, type SchemaVersion, type SpecOf, type VersionedSchema } from './schema/index.js';
export type { Column, Table, Index, ForeignKey, Schema, View } from './schema/index.js';
export { APP_RELEASES, LEGADO_TEAM_HASHES, identifyHash, describeSchema, type KnownSchema } from './schema/lines.js';
export type { Row, NewRow, Patch, Key, TableName } from './schema/row-types.js';
export { toJsonRow, fromJsonRow, type JsonRow, type JsonField, type JsonValue } from './backup/json-row.js';
export { createTableSql, createIndexSql, createViewSql, createSchemaSql } from './schema/ddl.js';
export {
  importDatabase,
  type DatabaseImportOptions,
  type DatabaseImportResult,
  type TableNotCarried,
  type ColumnNotCarried,
} from './backup/database.js';
export { importBackup, importFiles, importInputs } from './node/backup-import.js';
export { exportBackup, type ExportFileOptions } from './node/backup-export.js';
export * from './backup/bytes.js';
export { importSummary } from './backup/report.js';
export { WriteError } from './backup/errors.js';
export { encryptBackupText, decryptBackupText } from './backup/aes.js';
export { BACKUP_FILES, type BackupFile } from './backup/file-map.js';
import './webdav/attach.js';
export { WebDavSync, type WebDavOptions, type BackupReport, type ListReport, type RestoreReport, type BackupEntry } from './webdav/sync.js';
export type { WebDavConnection } from './webdav/client.js';
export type { ProgressReport, ProgressDirection, AppliedProgress, BookOutcome, KeptProgress, SkippedFile, Position } from './webdav/progress.js';
export { progressFileName, backupFileName } from './webdav/names.js';
export * from './webdav/errors.js';
export * from './errors.js';
// What the CLI's look-at and clean-up commands do, for programs too.
export { bookshelf, SORT_NAMES, type ShelfTab, type ShelfBook, type BookshelfOptions } from './inspect/shelf.js';
export { listRows, parseValue, type ListOptions, type RowListing } from './inspect/list.js';
export { readOnlyQuery, checkReadOnlySql, checkQueryText, type QueryOptions, type QueryResult } from './inspect/query.js';
export { diffStores, compareSql, type StoreDiff, type TableDiff, type ChangedRow, type FieldChange, type DiffOptions } from './inspect/diff.js';
export { comparePaths, type PathDiff, type SideInfo, type CompareOptions } from './node/compare.js';
export { openSide, openSides, inputKind, type DiffSide, type OpenSideOptions } from './node/sides.js';
export { SECRET_FIELDS, MASK, maskRow, isSecretField } from './inspect/secrets.js';
export { toJson, csvField, csvRecord } from './inspect/format.js';
export {
  normalizeSourceUrl,
  ruleCount,
  findDuplicateSources,
  storeSources,
  readSourceFile,
  applyDedupe,
  keptEntries,
  writeSources,
  type SourceEntry,
  type SourceSummary,
  type DuplicateSet,
  type DedupeReport,
  type ApplyResult,
} from './node/dedupe.js';
export { setSourcesEnabled, type SourceTarget, type EnableResult } from './curate/sources.js';
// Local books (TXT files split as the app splits them).
export { addLocalBook, refreshLocalBook, readLocalChapter, bookFileAt, type LocalBookOptions } from './node/localbook.js';
export { bytesFile, findLocalBook, type AddResult, type LocalChapter, type ReadOptions, type BookStorage } from './localbook/api.js';
export type { BookFile, BookFormat, ParsedBook, ParsedChapter, ParseOptions } from './localbook/format.js';
export { BookFileError, UnknownBookError, type BookFileProblem } from './localbook/errors.js';
export { translateJavaRegex, JavaRegexError, type JavaRegex } from './localbook/java-regex.js';
export { FORMATS, formatFor } from './localbook/formats.js';
export { txtChapterUrl } from './localbook/txt/index.js';
