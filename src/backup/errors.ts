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
