// The chapter-text cache on files, in a folder beside the store (`<store>.cache/book_cache/…`,
// the app's folder and file names: sources/shelf/chapter-cache.ts), never inside the store's
// file. Each text is written to a temporary file in its folder and renamed into place, so a
// reader never sees half a chapter and a failed write leaves what was there.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileSafely } from '../fs/safe-write.js';
import { fsError } from '../io/fs-errors.js';
import { bookFolderName, CACHE_FOLDER, chapterFileName, type CachedBook, type CachedChapter, type ChapterCache } from '../sources/shelf/chapter-cache.js';

/** The cache folder of a store: `<store>.cache` beside it. */
export const cacheDirOf = (storePath: string): string => `${storePath}.cache`;

export class FileChapterCache implements ChapterCache {
  /** `dir` holds `book_cache/` (default for a store: cacheDirOf(storePath)). */
  constructor(readonly dir: string) {}

  /** The file a chapter's text is kept in. */
  pathOf(book: CachedBook, chapter: CachedChapter): string {
    return join(this.dir, CACHE_FOLDER, bookFolderName(book), chapterFileName(chapter));
  }

  get(book: CachedBook, chapter: CachedChapter): Promise<string | undefined> {
    const path = this.pathOf(book, chapter);
    try {
      return Promise.resolve(readFileSync(path, 'utf8'));
    } catch (e) {
      if ((e as { code?: string }).code === 'ENOENT') return Promise.resolve(undefined);
      return Promise.reject(fsError(path, e, 'read'));
    }
  }

  put(book: CachedBook, chapter: CachedChapter, text: string): Promise<void> {
    if (text === '') return Promise.resolve();
    const path = this.pathOf(book, chapter);
    try {
      mkdirSync(join(this.dir, CACHE_FOLDER, bookFolderName(book)), { recursive: true });
      writeFileSafely(path, (temp) => writeFileSync(temp, text, 'utf8'), { overwrite: true, purpose: 'a cached chapter' });
      return Promise.resolve();
    } catch (e) {
      return Promise.reject(fsError(path, e));
    }
  }
}
