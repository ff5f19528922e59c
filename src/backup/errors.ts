// Failures of an import or export as a whole. A single record that cannot be stored is not an
// error: it is skipped and reported (see report.ts), unless the import is strict.
import { LegadoStoreError } from '../errors.js';
import type { ImportResult } from './report.js';

/** A file that is not valid JSON, with the place where parsing stopped. */
export class InvalidJsonError extends LegadoStoreError {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** Byte offset into the file. */
  readonly offset: number;
  readonly detail: string;
  constructor(file: string, line: number, column: number, offset: number, detail: string) {
    super('INVALID_JSON', `${file}:${line}:${column}: invalid JSON: ${detail}`);
    this.file = file;
    this.line = line;
    this.column = column;
    this.offset = offset;
    this.detail = detail;
  }
}

/** An input the importer does not take (a URL, a list of URLs, a file of an unknown kind, ...). */
export class UnsupportedInputError extends LegadoStoreError {
  readonly input: string;
  constructor(input: string, message: string) {
    super('UNSUPPORTED_INPUT', `${input}: ${message}`);
    this.input = input;
  }
}

/** A strict import that met records it could not store: nothing was stored. */
export class ImportRejectedError extends LegadoStoreError {
  readonly result: ImportResult;
  constructor(result: ImportResult) {
    const skipped = result.skipped;
    const first = skipped[0];
    super(
      'IMPORT_REJECTED',
      `strict import rejected: ${skipped.length} record${skipped.length === 1 ? '' : 's'} could not be stored` +
        (first ? ` (first: ${first.file} [${first.index}]: ${first.reason})` : '') +
        '; nothing was stored',
    );
    this.result = result;
  }
}

/** An encrypted servers.json that the key in use does not open. */
export class DecryptError extends LegadoStoreError {
  readonly file: string;
  constructor(file: string, withPassword: boolean) {
    super(
      'DECRYPT_FAILED',
      `${file}: cannot decrypt with ${withPassword ? 'the given backup password' : "the app's default key"}` +
        (withPassword ? '' : '; give the backup password (--password)'),
    );
    this.file = file;
  }
}

/** A zip archive that cannot be read: truncated, damaged, encrypted, or not a zip at all. */
export class BadArchiveError extends LegadoStoreError {
  readonly file: string;
  /** The entry concerned, when the fault is in one. */
  readonly entry: string | undefined;
  constructor(file: string, entry: string | undefined, problem: string) {
    super('BAD_ARCHIVE', `${file}${entry === undefined ? '' : `:${entry}`}: ${problem}`);
    this.file = file;
    this.entry = entry;
  }
}

/** A zip entry or archive that expands past a limit (a zip bomb, or a limit set too low): nothing was stored. */
export class ArchiveLimitError extends LegadoStoreError {
  readonly file: string;
  readonly entry: string;
  readonly limit: 'entryBytes' | 'archiveBytes' | 'ratio' | 'recordBytes';
  readonly value: number;
  constructor(file: string, entry: string, limit: ArchiveLimitError['limit'], value: number, detail: string) {
    super(
      'ARCHIVE_LIMIT',
      `${file}:${entry}: ${detail}; nothing was stored (raise the limit with the zipLimits option, or --max-entry-size / --max-archive-size / --max-ratio / --max-record-size)`,
    );
    this.file = file;
    this.entry = entry;
    this.limit = limit;
    this.value = value;
  }
}

const WRITE_PROBLEMS: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file too large for this file system or process limit',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  EISDIR: 'is a folder',
  ENOTDIR: 'a part of the path is not a folder',
  ENOENT: 'the folder does not exist',
  EEXIST: 'exists',
  EIO: 'input/output error',
};

/** Writing an export failed; nothing was left behind (no temporary file, `out` as it was). */
export class WriteError extends LegadoStoreError {
  readonly path: string;
  /** The system's error code: ENOSPC, EACCES, EFBIG, EISDIR, ... */
  readonly errno: string;
  constructor(path: string, errno: string, problem = WRITE_PROBLEMS[errno] ?? errno) {
    super(errno === 'ENOSPC' || errno === 'EDQUOT' ? 'DISK_FULL' : 'WRITE_FAILED', `${path}: cannot write: ${problem} (${errno})`);
    this.path = path;
    this.errno = errno;
  }

  /** A system error as a WriteError; anything else as it is. */
  static from(e: unknown, path: string): unknown {
    if (e instanceof LegadoStoreError) return e;
    const errno = (e as { code?: unknown } | null)?.code;
    return typeof errno === 'string' && /^E[A-Z]+$/.test(errno) ? new WriteError(path, errno) : e;
  }
}
