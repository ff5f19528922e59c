// Chapter text kept beside the store, never in it (the app keeps it in files too: help/book/
// BookHelp.kt). The names are the app's: a folder per book, `<name, 9 units, file-name
// characters dropped><md5_16(bookUrl)>`, a file per chapter, `<%05d index>-<md5_16(title)>.nb`,
// so a cache folder copied from the phone's `book_cache` is read as it is.
import { md5 } from '@noble/hashes/legacy.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** What names a book's folder. */
export interface CachedBook {
  readonly bookUrl: string;
  readonly name: string;
}

/** What names a chapter's file. */
export interface CachedChapter {
  readonly index: number;
  readonly title: string;
}

/** Chapter text by book and chapter; a host without files keeps it in memory. */
export interface ChapterCache {
  get(book: CachedBook, chapter: CachedChapter): Promise<string | undefined>;
  /** Empty text is not kept (BookHelp.saveText). */
  put(book: CachedBook, chapter: CachedChapter, text: string): Promise<void>;
}

/** The app's cache folder under its files folder. */
export const CACHE_FOLDER = 'book_cache';

/** MD5Utils.md5Encode16: the middle 16 hex digits of the MD5 of the UTF-8 text. */
export function md5_16(text: string): string {
  return bytesToHex(md5(utf8ToBytes(text))).slice(8, 24);
}

/** Characters the app drops from a book's name for its folder (AppPattern.fileNameRegex). */
const FILE_NAME_CHARS = /[\\/:*?"<>|.]/g;

/** Book.getFolderNameNoCache: the name without file-name characters, its first 9 UTF-16 units, then md5_16(bookUrl). */
export function bookFolderName(book: CachedBook): string {
  return book.name.replace(FILE_NAME_CHARS, '').slice(0, 9) + md5_16(book.bookUrl);
}

/** BookChapter.getFileName: `%05d-<md5_16(title)>.<suffix>`. */
export function chapterFileName(chapter: CachedChapter, suffix = 'nb'): string {
  const index = chapter.index < 0 ? `-${String(-chapter.index).padStart(4, '0')}` : String(chapter.index).padStart(5, '0');
  return `${index}-${md5_16(chapter.title)}.${suffix}`;
}

/** The cache in memory (tests, hosts without files), keyed by the app's folder and file names. */
export class MemoryChapterCache implements ChapterCache {
  readonly texts = new Map<string, string>();

  get(book: CachedBook, chapter: CachedChapter): Promise<string | undefined> {
    return Promise.resolve(this.texts.get(`${bookFolderName(book)}/${chapterFileName(chapter)}`));
  }

  put(book: CachedBook, chapter: CachedChapter, text: string): Promise<void> {
    if (text !== '') this.texts.set(`${bookFolderName(book)}/${chapterFileName(chapter)}`, text);
    return Promise.resolve();
  }
}
