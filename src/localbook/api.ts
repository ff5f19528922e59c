// Local books in a store, platform-free: add a book file (parsed by its format, kept by a
// BookStorage, its row and chapters written in one transaction), re-split it, read a chapter.
// The Node side (node/localbook-files.ts) supplies a storage that keeps files in a books folder.
import { nameAndAuthor } from './file-name.js';
import { FileExistsError } from '../errors.js';
import { schemas } from '../schema/index.js';
import type { AnyStore } from '../store/store.js';
import { LOCAL_BIT, TEXT_BIT } from '../backup/book-type.js';
import type { BookFile, ParsedBook, ParsedChapter } from './format.js';
import { BookFileError, UnknownBookError } from './errors.js';
import { bookExtensions, formatFor } from './formats.js';
import { excluded, replaceChapter, ruleFields, type ChapterReplace, type ChapterReplaced, type ReplaceRuleRow } from './replace.js';
import type { TxtParseOptions } from './txt/index.js';
import { DEFAULT_TXT_TOC_RULES } from './txt/default-toc-rules.js';
import type { TocRuleRow } from './txt/toc-rule.js';

/**
 * Where the user's rules run: a book file's parse (TOC rules) and a chapter's replace rules. The
 * default runs them on the caller's thread, their limits checked between matches; a host with a
 * thread it can stop (Node: node/rule-thread.ts) runs them there and stops a rule inside a match.
 */
export interface RuleRunner {
  parse(file: BookFile, options: TxtParseOptions): ParsedBook;
  replace(job: ChapterReplace): ChapterReplaced;
}

/** A RuleRunner whose work runs off the caller's thread (the server's, which keeps serving meanwhile). */
export interface AsyncRuleRunner {
  parse(file: BookFile, options: TxtParseOptions): Promise<ParsedBook>;
  replace(job: ChapterReplace): Promise<ChapterReplaced>;
}

/** The format's own parse and the replace rules, on this thread. */
export const inThread: RuleRunner = {
  parse(file, options) {
    const format = formatFor(file.fileName);
    if (!format) throw new BookFileError(file.fileName, 'extension', `not a book file this store reads (extensions: ${bookExtensions().join(', ')})`);
    return format.parse(file, options);
  },
  replace: replaceChapter,
};

/** Where book files are kept (a folder on Node). */
export interface BookStorage {
  /** The bookUrl a file of this name gets: where it is kept. */
  locate(fileName: string): string;
  /** Whether that place holds nothing, the same bytes, or a different file. */
  compare(fileName: string, file: BookFile): 'none' | 'same' | 'different';
  /** Keeps the file there (replacing a different one only when asked); undo() takes it back. */
  keep(file: BookFile, replace: boolean): { undo(): void; done(): void };
  /** Keeps a cover image beside the book; returns its path. */
  keepCover(bookUrl: string, cover: { readonly bytes: Uint8Array; readonly mediaType: string }): { path: string; undo(): void; done(): void };
  /**
   * The kept file of a book (by its bookUrl, else by its file name in the folder, as the app
   * looks), only ever a file inside the storage: a bookUrl naming any other place is not read.
   */
  open(bookUrl: string, originName: string): BookFile;
  /** Whether a bookUrl names a place inside the storage (symlinks resolved), where a book may be kept. */
  holds?(bookUrl: string): boolean;
  /** A cover this storage kept (keepCover's path), or undefined for any other path. */
  readCover?(path: string): { readonly bytes: Uint8Array; readonly mediaType: string } | undefined;
}

export interface AddOptions {
  /** Replace a different file of the same name in the books folder. */
  readonly force?: boolean;
  /** Time limit of one TOC rule's matching, ms (per rule when choosing, per 512,000-byte block when splitting). */
  readonly timeLimitMs?: number;
}

export interface AddResult {
  readonly book: Record<string, unknown> & { readonly bookUrl: string; readonly name: string };
  readonly chapters: readonly ParsedChapter[];
  readonly notes: readonly string[];
  /** True when the book was already in the store and was re-split. */
  readonly refreshed: boolean;
}

export interface ReadOptions {
  /** Put the chapter's title (title rules applied) on the first line, as the app shows it. */
  readonly title?: boolean;
  /** Apply the book's replace rules (default: the book's useReplaceRule setting, else true). */
  readonly replace?: boolean;
  /** The longest time limit a replace rule gets, whatever its timeoutMillisecond (ms, default 10,000). */
  readonly timeLimitMs?: number;
}

export interface LocalChapter {
  readonly index: number;
  readonly title: string;
  readonly text: string;
  readonly notes: readonly string[];
}

/** A BookFile over bytes held in memory. */
export function bytesFile(fileName: string, bytes: Uint8Array): BookFile {
  return { fileName, size: bytes.length, read: (start, end) => bytes.subarray(Math.min(start, bytes.length), Math.min(end, bytes.length)) };
}

const isBookFile = (x: unknown): x is BookFile => typeof (x as BookFile).read === 'function';
const hasColumn = (store: AnyStore, table: string, column: string): boolean =>
  schemas[store.version].tables.some((t) => t.name === table && t.columns.some((c) => c.field === column));

function chapterRows(store: AnyStore, bookUrl: string, chapters: readonly ParsedChapter[]): Record<string, unknown>[] {
  const withWords = hasColumn(store, 'chapters', 'wordCount');
  return chapters.map((c) => ({
    url: c.url,
    title: c.title,
    isVolume: c.isVolume ?? false,
    baseUrl: '',
    bookUrl,
    index: c.index,
    isVip: false,
    isPay: false,
    start: c.start ?? null,
    end: c.end ?? null,
    startFragmentId: c.startFragmentId ?? null,
    endFragmentId: c.endFragmentId ?? null,
    ...(withWords && c.wordCount !== undefined ? { wordCount: c.wordCount } : {}),
  }));
}

/** What a re-split writes to the book row: the file's fields, never the reader's progress. */
function splitFields(parsed: ParsedBook): Record<string, unknown> {
  const last = parsed.chapters[parsed.chapters.length - 1];
  const wordCount = (parsed as { wordCount?: string }).wordCount;
  return {
    charset: parsed.charset ?? null,
    tocUrl: parsed.tocUrl ?? '',
    totalChapterNum: parsed.chapters.length,
    latestChapterTitle: last?.title ?? null,
    ...(wordCount !== undefined ? { wordCount } : {}),
    ...(parsed.intro !== undefined ? { intro: parsed.intro } : {}),
  };
}

/** A parsed book, and whether the app's default TOC rules were used and go into the store with it. */
type Parsed = ParsedBook & { readonly insertDefaults?: boolean };

/** The enabled TOC rules; an empty table gets the app's defaults (TextFile.getTocRules), written with the book. */
function tocRulesFor(store: AnyStore): { rules: TocRuleRow[]; defaults: boolean } {
  const defaults = (store.tables.txtTocRules as unknown as { count(): number }).count() === 0;
  const rows = defaults ? DEFAULT_TXT_TOC_RULES.filter((r) => r.enable) : store.txtTocRules.enabled();
  return { rules: rows.map((r) => ({ id: Number(r.id), name: r.name, rule: r.rule, serialNumber: r.serialNumber, enable: r.enable })), defaults };
}

/** What a parse of this file is given (and whether its rules are the app's defaults); throws for a file no format reads. */
function parseInput(
  store: AnyStore,
  file: BookFile,
  reuse: { charset?: string | null; tocUrl?: string } | undefined,
  options: AddOptions,
): { input: TxtParseOptions; defaults: boolean } {
  const format = formatFor(file.fileName);
  if (!format) throw new BookFileError(file.fileName, 'extension', `not a book file this store reads (extensions: ${bookExtensions().join(', ')})`);
  if (file.size === 0) throw new BookFileError(file.fileName, 'empty', 'the file is empty');
  // Only a TXT without a rule of its own consults the rules, as only TextFile does.
  const consults = format.extensions.includes('txt') && !reuse?.tocUrl;
  const { rules: tocRules, defaults } = consults ? tocRulesFor(store) : { rules: [], defaults: false };
  const input = {
    tocRules,
    ...(reuse?.charset ? { charset: reuse.charset } : {}),
    ...(reuse?.tocUrl ? { tocUrl: reuse.tocUrl } : {}),
    ...(options.timeLimitMs !== undefined ? { timeLimitMs: options.timeLimitMs } : {}),
  };
  return { input, defaults };
}

/** The parse checked and completed: chapters required, name and author from the file name where the file has none. */
function parsedBook(file: BookFile, found: ParsedBook, defaults: boolean): Parsed {
  if (found.chapters.length === 0) throw new BookFileError(file.fileName, 'no-chapters', 'no chapters found');
  const parsed: Parsed = defaults
    ? {
        ...found,
        insertDefaults: true,
        notes: [...found.notes, `the app's ${DEFAULT_TXT_TOC_RULES.length} default TXT TOC rules added to the store (it had none)`],
      }
    : found;
  // A format whose file names no title or author (an EPUB without dc:creator) takes them from
  // the file name, as the app names every local book first.
  if (parsed.name && parsed.author) return parsed;
  const fromName = nameAndAuthor(file.fileName);
  return { ...parsed, name: parsed.name || fromName.name, author: parsed.author || fromName.author };
}

/**
 * Adds a book file: parsed first (a bad file stores nothing), kept in the storage, then its row
 * and chapters written in one transaction (the kept file is taken back if that fails). A file
 * already in the store is re-split: chapters replaced, the reader's progress kept.
 */
export function addBook(
  store: AnyStore,
  storage: BookStorage,
  input: BookFile | { readonly fileName: string; readonly bytes: Uint8Array },
  options: AddOptions = {},
  runner: RuleRunner = inThread,
): AddResult {
  const add = beginAdd(store, storage, input, options);
  return finishAdd(store, storage, add, runner.parse(add.file, add.input), false);
}

/** addBook with the parse off this thread: the store is written on this thread once it is done. */
export async function addBookAsync(
  store: AnyStore,
  storage: BookStorage,
  input: BookFile | { readonly fileName: string; readonly bytes: Uint8Array },
  options: AddOptions,
  runner: AsyncRuleRunner,
): Promise<AddResult> {
  const add = beginAdd(store, storage, input, options);
  return finishAdd(store, storage, add, await runner.parse(add.file, add.input), true);
}

interface Add {
  readonly file: BookFile;
  readonly bookUrl: string;
  readonly input: TxtParseOptions;
  readonly defaults: boolean;
  readonly options: AddOptions;
  readonly existing: Record<string, unknown> | undefined;
  readonly place: 'none' | 'same' | 'different';
}

function beginAdd(
  store: AnyStore,
  storage: BookStorage,
  input: BookFile | { readonly fileName: string; readonly bytes: Uint8Array },
  options: AddOptions,
): Add {
  const file = isBookFile(input) ? input : bytesFile(input.fileName, input.bytes);
  const bookUrl = storage.locate(file.fileName);
  const existing = store.books.get(bookUrl) as Record<string, unknown> | undefined;
  const place = formatFor(file.fileName) && file.size > 0 ? storage.compare(file.fileName, file) : 'none';
  if (place === 'different' && !options.force) throw new FileExistsError(bookUrl, 'a book file');
  // An unchanged file keeps its charset and rule (the app re-detects both only for a changed file).
  const reuse = existing && place === 'same' ? { charset: existing['charset'] as string | null, tocUrl: existing['tocUrl'] as string } : undefined;
  return { file, bookUrl, ...parseInput(store, file, reuse, options), options, existing, place };
}

function finishAdd(store: AnyStore, storage: BookStorage, add: Add, result: ParsedBook, recheck: boolean): AddResult {
  const { file, bookUrl, options } = add;
  const parsed = parsedBook(file, result, add.defaults);
  // After a parse off this thread, looked at again: another add may have come between.
  const existing = recheck ? (store.books.get(bookUrl) as Record<string, unknown> | undefined) : add.existing;
  const place = recheck ? storage.compare(file.fileName, file) : add.place;
  if (place === 'different' && !options.force) throw new FileExistsError(bookUrl, 'a book file');
  const kept = place === 'same' ? undefined : storage.keep(file, place === 'different');
  const cover = parsed.cover ? storage.keepCover(bookUrl, parsed.cover) : undefined;
  try {
    const book = store.transaction(() => writeBook(store, bookUrl, file.fileName, parsed, existing, cover?.path));
    kept?.done();
    cover?.done();
    return { book, chapters: parsed.chapters, notes: parsed.notes, refreshed: existing !== undefined };
  } catch (e) {
    cover?.undo();
    kept?.undo();
    throw e;
  }
}

function writeBook(
  store: AnyStore,
  bookUrl: string,
  originName: string,
  parsed: Parsed,
  existing: Record<string, unknown> | undefined,
  coverPath: string | undefined,
): AddResult['book'] {
  const tocRules = store.tables.txtTocRules as unknown as { count(): number; insertMany(rows: Iterable<object>): number };
  if (parsed.insertDefaults && tocRules.count() === 0) {
    // Versions before 52 have no example column.
    const withExample = hasColumn(store, 'txtTocRules', 'example');
    tocRules.insertMany(DEFAULT_TXT_TOC_RULES.map(({ example, ...rest }) => (withExample ? { ...rest, example } : rest)));
  }
  const books = store.tables.books as unknown as {
    insert(row: object): unknown;
    update(key: string, patch: object): unknown;
    get(key: string): Record<string, unknown> | undefined;
    list(q: object): Record<string, unknown>[];
  };
  const fields = splitFields(parsed);
  if (existing) {
    const total = parsed.chapters.length;
    const dur = Number(existing['durChapterIndex'] ?? 0);
    books.update(bookUrl, { ...fields, ...(dur >= total ? { durChapterIndex: total - 1 } : {}), ...(coverPath ? { coverUrl: coverPath } : {}) });
  } else {
    const first = books.list({ orderBy: [['order', 'asc']], limit: 1 })[0];
    books.insert({
      bookUrl,
      origin: 'loc_book',
      originName,
      name: parsed.name,
      author: parsed.author,
      type: TEXT_BIT | LOCAL_BIT,
      order: first ? Number(first['order']) - 1 : 0,
      latestChapterTime: Date.now(),
      ...(coverPath ? { coverUrl: coverPath } : {}),
      ...fields,
    });
  }
  (store.chapters as { replaceToc(bookUrl: string, rows: Iterable<object>): number }).replaceToc(bookUrl, chapterRows(store, bookUrl, parsed.chapters));
  return books.get(bookUrl) as AddResult['book'];
}

/** The local book a reference names: a bookUrl, else a unique name among the local books. */
export function findLocalBook(store: AnyStore, ref: string): Record<string, unknown> & { bookUrl: string; name: string; originName: string } {
  type B = Record<string, unknown> & { bookUrl: string; name: string; originName: string };
  const byUrl = store.books.get(ref) as B | undefined;
  if (byUrl) return byUrl;
  const named = (store.tables.books.list({ where: { name: ref } } as never) as unknown as B[]).filter((b) => b['origin'] === 'loc_book');
  if (named.length === 1) return named[0]!;
  if (named.length > 1)
    throw new UnknownBookError(
      ref,
      `${named.length} local books are named ${JSON.stringify(ref)}; give the bookUrl (${named.map((b) => b.bookUrl).join(', ')})`,
    );
  throw new UnknownBookError(ref, `no book with the bookUrl or the name ${JSON.stringify(ref)}`);
}

/** Re-splits a book from its kept file (changed or not): chapters replaced, progress kept. */
export function refreshBook(
  store: AnyStore,
  storage: BookStorage,
  bookUrl: string,
  options: AddOptions & { redetect?: boolean } = {},
  runner: RuleRunner = inThread,
): AddResult {
  const r = beginRefresh(store, storage, bookUrl, options);
  return finishRefresh(store, r, runner.parse(r.file, r.input));
}

/** refreshBook with the parse off this thread. */
export async function refreshBookAsync(
  store: AnyStore,
  storage: BookStorage,
  bookUrl: string,
  options: AddOptions & { redetect?: boolean },
  runner: AsyncRuleRunner,
): Promise<AddResult> {
  const r = beginRefresh(store, storage, bookUrl, options);
  return finishRefresh(store, r, await runner.parse(r.file, r.input));
}

function beginRefresh(store: AnyStore, storage: BookStorage, bookUrl: string, options: AddOptions & { redetect?: boolean }) {
  const book = findLocalBook(store, bookUrl);
  const file = storage.open(book.bookUrl, book.originName);
  const reuse = options.redetect ? undefined : { charset: book['charset'] as string | null, tocUrl: book['tocUrl'] as string };
  return { book, file, ...parseInput(store, file, reuse, options) };
}

function finishRefresh(store: AnyStore, r: ReturnType<typeof beginRefresh>, result: ParsedBook): AddResult {
  const parsed = parsedBook(r.file, result, r.defaults);
  const book = findLocalBook(store, r.book.bookUrl);
  const row = store.transaction(() => writeBook(store, book.bookUrl, book.originName, parsed, book, undefined));
  return { book: row, chapters: parsed.chapters, notes: parsed.notes, refreshed: true };
}

/** One chapter's text as the app shows it: the format's text, then the book's replace rules. */
export function readChapter(
  store: AnyStore,
  storage: BookStorage,
  bookRef: string,
  index: number,
  options: ReadOptions = {},
  runner: RuleRunner = inThread,
): LocalChapter {
  const r = beginRead(store, storage, bookRef, index, options);
  return finishRead(r, r.job ? runner.replace(r.job) : undefined, options);
}

/** readChapter with the replace rules off this thread. */
export async function readChapterAsync(
  store: AnyStore,
  storage: BookStorage,
  bookRef: string,
  index: number,
  options: ReadOptions,
  runner: AsyncRuleRunner,
): Promise<LocalChapter> {
  const r = beginRead(store, storage, bookRef, index, options);
  return finishRead(r, r.job ? await runner.replace(r.job) : undefined, options);
}

function beginRead(store: AnyStore, storage: BookStorage, bookRef: string, index: number, options: ReadOptions) {
  const book = findLocalBook(store, bookRef);
  const row = store.chapters.get(book.bookUrl, index) as (Record<string, unknown> & { title: string; url: string }) | undefined;
  if (!row) {
    const total = Number(book['totalChapterNum'] ?? 0);
    const range = total > 0 ? `indexes start at 0: its ${total} chapters are 0 to ${total - 1}` : 'it has no chapters';
    throw new UnknownBookError(bookRef, `${JSON.stringify(book.name)} has no chapter ${index} (${range})`);
  }
  const format = formatFor(book.originName);
  if (!format) throw new BookFileError(book.originName, 'extension', 'not a book file this store reads');
  const file = storage.open(book.bookUrl, book.originName);
  const chapter: ParsedChapter = {
    index,
    title: row.title,
    url: row.url,
    ...(row['start'] != null ? { start: Number(row['start']) } : {}),
    ...(row['end'] != null ? { end: Number(row['end']) } : {}),
    ...(row['startFragmentId'] != null ? { startFragmentId: String(row['startFragmentId']) } : {}),
    ...(row['endFragmentId'] != null ? { endFragmentId: String(row['endFragmentId']) } : {}),
  };
  const charset = book['charset'] as string | null;
  const text = format.chapterText(file, charset ? { charset, name: book.name } : { name: book.name }, chapter);
  return { index, title: row.title, text, job: replaceJob(store, book, text, row.title, options) };
}

/**
 * The replace rules a chapter's text (and, with `options.title`, its title) gets as the app shows
 * it (ContentProcessor): the enabled rules whose scope takes the book's name or origin; undefined
 * when the book does not use them (readConfig.useReplaceRule). Local and web books alike.
 */
export function replaceJob(
  store: AnyStore,
  book: { readonly name: string } & Record<string, unknown>,
  text: string,
  title: string,
  options: ReadOptions,
): ChapterReplace | undefined {
  if (!(options.replace ?? useReplaceRule(book['readConfig']))) return undefined;
  const name = book.name;
  const origin = String(book['origin']);
  const inScope = (rows: readonly Record<string, unknown>[]): ReplaceRuleRow[] =>
    rows
      .map((r) => r as unknown as ReplaceRuleRow)
      .filter((r) => !excluded(r, name, origin))
      .map(ruleFields);
  return {
    text,
    rules: inScope(store.replaceRules.forContent(name, origin) as never),
    ...(options.title ? { title, titleRules: inScope(store.replaceRules.forTitle(name, origin) as never) } : {}),
    ...(options.timeLimitMs !== undefined ? { maxLimitMs: options.timeLimitMs } : {}),
  };
}

function finishRead(r: ReturnType<typeof beginRead>, replaced: ChapterReplaced | undefined, options: ReadOptions): LocalChapter {
  const text = replaced?.text ?? r.text;
  const title = replaced?.title ?? r.title;
  return { index: r.index, title, text: options.title ? `${title}\n${text}` : text, notes: replaced?.notes ?? [] };
}

/** The book's readConfig.useReplaceRule (JSON), true when not set (the app's default for TXT). */
function useReplaceRule(readConfig: unknown): boolean {
  if (typeof readConfig !== 'string' || readConfig === '') return true;
  try {
    const v = (JSON.parse(readConfig) as { useReplaceRule?: unknown }).useReplaceRule;
    return typeof v === 'boolean' ? v : true;
  } catch {
    return true;
  }
}
