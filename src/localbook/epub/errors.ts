// An EPUB whose zip is sound but whose package cannot be read as a book: no package document,
// a path that leaves the archive, a package without the parts a book needs. Zip faults themselves
// (not a zip, truncated, a zip bomb, an entry named ../x) are the backup reader's errors,
// BadArchiveError and ArchiveLimitError, since the same reader opens both.
import { LegadoStoreError } from '../../errors.js';

export class BadEpubError extends LegadoStoreError {
  /** The book file's name. */
  readonly file: string;
  /** The entry in the archive concerned (META-INF/container.xml, OEBPS/content.opf, ...), when there is one. */
  readonly entry: string | undefined;
  constructor(file: string, entry: string | undefined, problem: string) {
    super('BAD_EPUB', `${file}${entry === undefined ? '' : `:${entry}`}: ${problem}`);
    this.file = file;
    this.entry = entry;
  }
}
