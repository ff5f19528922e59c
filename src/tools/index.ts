// legado-store/tools: what the CLI's look-at and clean-up commands use, for programs too:
// inspection, comparison, curation, formatting, schema facts and DDL, the domain's classes and
// helpers, backups in memory and their parts. The main entry ('legado-store') is the store itself.

// Schema facts and DDL.
export { specOf, CURRENT_VERSION, isSupportedVersion, type SpecOf, type VersionedSchema } from '../schema/index.js';
export type { Column, Table, Index, ForeignKey, Schema, View } from '../schema/index.js';
export { APP_RELEASES, LEGADO_TEAM_HASHES, identifyHash, describeSchema, type KnownSchema } from '../schema/lines.js';
export { createTableSql, createIndexSql, createViewSql, createSchemaSql } from '../schema/ddl.js';
export type { InspectOptions, IntegrityCheck } from '../store/open.js';
export type { FileReport } from '../engine/inspect.js';

// The store's parts, by name.
export type { TableOf, StoreOptions } from '../store/store.js';
export type { ChangeListener, ChangeOptions } from '../store/changes.js';
export type { UpgradeSummary } from '../migrate/upgrade.js';
export type { Finder, TableApi, Updater } from '../table/table.js';
export type { Where, Condition, OrderTerm } from '../table/query.js';
export type { Statement, RunResult, TransactionFn, DriverChoice, DriverOpenOptions, PragmaOptions } from '../engine/driver.js';
export { DRIVER_ENV } from '../engine/drivers/index.js';
export type { DriverOptions } from '../engine/connection.js';
export type { JsonField, JsonValue } from '../backup/json-row.js';

// The domain's classes (store.books is a Books, ...) and helpers.
export * from '../domain/index.js';

// Backups: in memory (synchronous too), their files, reports, password and limits.
export { exportBackupZip, type ExportProgress, type ExportedFile, type ExportBytesOptions } from '../backup/export.js';
export { importBytesSync, type ImportOptions, type ImportProgress, type FileBytes } from '../backup/import.js';
export type { KindReport, FileOutcome, SkippedRecord, Conflict, Totals, TableNotCarried, ColumnNotCarried, DatabaseSource } from '../backup/report.js';
export { importSummary, nothingStoredHint } from '../backup/report.js';
export { DEFAULT_ZIP_LIMITS, type ZipLimits } from '../backup/zip.js';
export { DEFAULT_CHOICES, type ImportChoices } from '../backup/keep.js';
export { encryptBackupText, decryptBackupText } from '../backup/aes.js';
export { BACKUP_FILES, type BackupFile } from '../backup/file-map.js';

// Looking at stores: the shelf, rows, read-only SQL, differences, secrets, output formats.
export { SORT_NAMES, type ShelfBook, type BookshelfOptions } from '../inspect/shelf.js';
export { listRows, parseValue, type ListOptions, type RowListing } from '../inspect/list.js';
export { readOnlyQuery, checkReadOnlySql, checkQueryText, type QueryOptions, type QueryResult } from '../inspect/query.js';
export { diffStores, compareSql, type StoreDiff, type TableDiff, type ChangedRow, type FieldChange, type DiffOptions } from '../inspect/diff.js';
export { comparePaths, type PathDiff, type SideInfo, type CompareOptions } from '../node/compare.js';
export { openSide, openSides, inputKind, type DiffSide, type OpenSideOptions } from '../node/sides.js';
export { SECRET_FIELDS, MASK, maskRow, isSecretField } from '../inspect/secrets.js';
export { toJson, csvField, csvRecord } from '../inspect/format.js';
export { show, showPath } from '../errors.js';

// Curating sources: duplicates, enabling.
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
} from '../node/dedupe.js';
export { setSourcesEnabled, type SourceTarget, type EnableResult } from '../curate/sources.js';

// Local books: files, formats, chapters.
export { bookFileAt, type LocalBookOptions } from '../node/localbook.js';
export { bytesFile, findLocalBook, type AddResult, type LocalChapter, type ReadOptions, type BookStorage } from '../localbook/api.js';
export type { BookFile, BookFormat, ParsedBook, ParsedChapter, ParseOptions } from '../localbook/format.js';
export type { BookFileProblem } from '../localbook/errors.js';
export { translateJavaRegex, type JavaRegex } from '../text/java-regex.js';
export { FORMATS, formatFor } from '../localbook/formats.js';
export { txtChapterUrl } from '../localbook/txt/index.js';
