// The public surface of legado-store.
export { openStore, inspectFile, type OpenOptions, type FileInspection } from './store/open.js';
export { Store, type Tables, type TableOf, type StoreOptions } from './store/store.js';
export type { ChangeListener, ChangeOptions } from './store/changes.js';
export * from './domain/index.js';
export type { TableApi } from './table/table.js';
export type { Query, Where, Condition, OrderTerm } from './table/query.js';
export type { FileReport } from './engine/inspect.js';
export { schemas, SUPPORTED_VERSIONS, CURRENT_VERSION, type SchemaVersion, type VersionedSchema } from './schema/index.js';
export type { Column, Table, Index, ForeignKey, Schema } from './schema/index.js';
export type { Row, NewRow, Patch, Key, TableName } from './schema/row-types.js';
export { createTableSql, createIndexSql, createSchemaSql } from './schema/ddl.js';
export { importBackup, importFiles, importInputs, type ImportOptions, type ImportProgress } from './backup/import.js';
export { exportBackup, type ExportOptions, type ExportProgress, type ExportResult, type ExportedFile } from './backup/export.js';
export type { ImportResult, KindReport, FileOutcome, SkippedRecord } from './backup/report.js';
export { InvalidJsonError, UnsupportedInputError, ImportRejectedError, DecryptError } from './backup/errors.js';
export { encryptBackupText, decryptBackupText } from './backup/aes.js';
export { BACKUP_FILES, type BackupFile } from './backup/file-map.js';
export * from './errors.js';
