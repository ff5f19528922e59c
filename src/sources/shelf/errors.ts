// Errors of keeping web books: a book already on the shelf, a book or chapter that is not there.
import { LegadoStoreError } from '../../errors.js';

/** The book (by bookUrl, or another book of the same name and author) is on the shelf: only `force` replaces it. */
export class BookExistsError extends LegadoStoreError {
  constructor(
    readonly bookUrl: string,
    /** The book on the shelf that stands in the way. */
    readonly existing: { readonly bookUrl: string; readonly name: string; readonly author: string },
  ) {
    const same = existing.bookUrl === bookUrl ? 'is on the shelf' : `has the name and author of ${JSON.stringify(existing.bookUrl)} on the shelf`;
    super('BOOK_EXISTS', `${JSON.stringify(bookUrl)} (${existing.name}, ${existing.author}) ${same}: --force (force: true) replaces it`);
  }
}

/** No web book, search hit or chapter with that bookUrl, name or index. */
export class UnknownWebBookError extends LegadoStoreError {
  constructor(
    readonly book: string,
    detail: string,
  ) {
    super('UNKNOWN_BOOK', detail);
  }
}
