// The EPUB's zip, read through the backup reader (src/backup/zip.ts): its directory checks
// (no absolute paths, no `..`, no backslashes) and its limits on expanded size stand between a
// hostile file and memory. Entries are read whole: an EPUB's parts are small, and the limits
// below stop the ones that are not.
import { ZipReader, type ZipEntry, type ZipLimits } from '../../backup/zip.js';
import { concatBytes } from '../../backup/byte-source.js';
import type { BookFile } from '../format.js';

/** One part of a book rarely passes a few MiB; a whole book's text and images rarely 200 MiB. */
export const EPUB_ZIP_LIMITS: ZipLimits = { entryBytes: 64 * 2 ** 20, archiveBytes: 2 ** 30, ratio: 100, recordBytes: 64 * 2 ** 20 };

export class EpubArchive {
  readonly file: string;
  private readonly zip: ZipReader;
  private readonly entries = new Map<string, ZipEntry>();

  constructor(file: BookFile, limits: Partial<ZipLimits> = EPUB_ZIP_LIMITS) {
    this.file = file.fileName;
    this.zip = new ZipReader({ name: file.fileName, size: file.size, read: (offset, length) => file.read(offset, offset + length) }, limits);
    for (const entry of this.zip.entries) {
      if (!entry.isDirectory && !this.entries.has(entry.path)) this.entries.set(entry.path, entry);
    }
  }

  /** Paths of the files in the archive, in directory order. */
  paths(): string[] {
    return [...this.entries.keys()];
  }

  has(path: string): boolean {
    return this.entries.has(path);
  }

  /** The entry's bytes, or undefined when the archive has no such file. */
  bytes(path: string): Uint8Array | undefined {
    const entry = this.entries.get(path);
    if (!entry) return undefined;
    const parts: Uint8Array[] = [];
    for (const chunk of this.zip.source(entry).chunks()) parts.push(new Uint8Array(chunk));
    return parts.length === 0 ? new Uint8Array(0) : concatBytes(parts);
  }
}
