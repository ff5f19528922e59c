// The backup pipeline on bytes in memory, for the browser bundle and any runtime without a file
// system: a zip or rule file in, a backup zip out. Nothing this module imports uses Node.
export { importBackupBytes, importBytesSync, type ImportOptions, type ImportProgress } from './import.js';
export { exportBackupBytes, exportBackupZip, type ExportOptions, type ExportProgress, type ExportResult, type ExportedFile } from './export.js';
export type { ImportResult, KindReport, FileOutcome, SkippedRecord, Conflict, Totals } from './report.js';
export { nothingStoredHint } from './report.js';
export { DEFAULT_ZIP_LIMITS, type ZipLimits } from './zip.js';
export { DEFAULT_CHOICES, type ImportChoices } from './keep.js';
export { InvalidJsonError, UnsupportedInputError, ImportRejectedError, DecryptError, BadArchiveError, ArchiveLimitError } from './errors.js';
