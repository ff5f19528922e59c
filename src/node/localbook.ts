// The local-book API on Node: files kept in a books folder beside the store (or `booksDir`), the
// users' rules run on threads stopped at their time limit (rule-thread.ts).
import type { AnyStore } from '../store/store.js';
import { addBook, readChapter, refreshBook, type AddOptions, type AddResult, type LocalChapter, type ReadOptions } from '../localbook/api.js';
import type { BookFile } from '../localbook/format.js';
import { defaultBooksDir, diskFile, folderStorage } from './localbook-files.js';
import { ruleThreads } from './rule-thread.js';

export interface LocalBookOptions extends AddOptions {
  /** The books folder (default: `books` in the store file's folder). */
  readonly booksDir?: string;
}

const storageOf = (store: AnyStore, options: LocalBookOptions) => folderStorage(options.booksDir ?? defaultBooksDir(store.path));

/** A book file on disk as a BookFile (read by range), for addLocalBook. */
export function bookFileAt(path: string): BookFile {
  const f = diskFile(path);
  return Object.assign(f, { path });
}

/**
 * Adds a TXT (or other supported) book: a path, `{ fileName, bytes }`, or a BookFile.
 * The file is kept in the books folder (a different file of that name only with `force`); the
 * same file again re-splits the book, keeping progress.
 */
export function addLocalBook(
  store: AnyStore,
  input: string | BookFile | { readonly fileName: string; readonly bytes: Uint8Array },
  options: LocalBookOptions = {},
): AddResult {
  return addBook(store, storageOf(store, options), typeof input === 'string' ? bookFileAt(input) : input, options, ruleThreads());
}

/** Re-splits a local book from its kept file; `redetect` chooses charset and TOC rule again. */
export function refreshLocalBook(store: AnyStore, bookUrl: string, options: LocalBookOptions & { readonly redetect?: boolean } = {}): AddResult {
  return refreshBook(store, storageOf(store, options), bookUrl, options, ruleThreads());
}

/** One chapter's text (index from 0) as the app shows it, replace rules applied. */
export function readLocalChapter(store: AnyStore, bookUrl: string, index: number, options: ReadOptions & { readonly booksDir?: string } = {}): LocalChapter {
  return readChapter(store, storageOf(store, options), bookUrl, index, options, ruleThreads());
}
