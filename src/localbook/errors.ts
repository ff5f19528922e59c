// Errors of local books: a file that is not a book of its format, a book that is not there.
import { LegadoStoreError } from '../errors.js';

export type BookFileProblem = 'empty' | 'binary' | 'extension' | 'no-chapters' | 'unreadable';

/** A book file that cannot be added: names the file and what is wrong with it. */
export class BookFileError extends LegadoStoreError {
  constructor(
    readonly fileName: string,
    readonly problem: BookFileProblem,
    detail: string,
  ) {
    super('BAD_BOOK_FILE', `${JSON.stringify(fileName)}: ${detail}`);
  }
}

/** No local book with that bookUrl or name in the store, or no chapter with that index. */
export class UnknownBookError extends LegadoStoreError {
  constructor(
    readonly book: string,
    detail: string,
  ) {
    super('UNKNOWN_BOOK', detail);
  }
}
