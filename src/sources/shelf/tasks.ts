// The whole tasks behind the command line's web-book commands, platform-free: search across
// sources (bounded concurrency, each source's hits stored as they come, merged as SearchModel
// merges them), add a book from a search hit or a source, refetch a TOC, read a chapter through
// the cache. The engine comes in as `ShelfEngine`, so hosts and tests choose how sources run.
import { UnknownSourceError } from '../../errors.js';
import type { AnyStore } from '../../store/store.js';
import type { BookSource, SearchBook, SourceFlows, WebBook, WebChapter } from '../engine/types.js';
import type { CachedBook, ChapterCache } from './chapter-cache.js';
import { blankBook } from '../book/env.js';
import { BookExistsError, UnknownWebBookError } from './errors.js';
import { matchesKeyword, mergeSearchBooks, saveSearchBooks, type MergedSearchBook } from './search-results.js';
import { shelveWebBook, storeWebToc, type Shelved, type ShelveOptions } from './shelf.js';

/** How the tasks reach sources: the store's source by URL, and its flows. */
export interface ShelfEngine {
  /** The source with this bookSourceUrl as the engine reads it, or undefined when the store has none. */
  source(url: string): BookSource | undefined;
  /** The source's flows; with `signal`, their fetches end when it aborts. */
  open(source: BookSource, signal?: AbortSignal): SourceFlows;
}

export interface SearchOptions {
  /** Sources searched at once (default 8; the app runs up to 16). */
  readonly concurrency?: number;
  /** The app's precision search: only hits whose name or author contains the keyword are kept and shown. */
  readonly precision?: boolean;
  /** Time one source's search may take (ms; the app's 30,000); past it the source fails with its fetch's timeout. */
  readonly sourceTimeoutMs?: number;
  /** Called as each source ends (progress). */
  readonly onSource?: (done: SourceSearch) => void;
}

/** One source's part of a search. */
export interface SourceSearch {
  readonly source: string;
  readonly name: string;
  readonly hits: number;
  /** Why the source found nothing usable (its typed error); its hits are not stored. */
  readonly error?: unknown;
}

export interface SearchResult {
  /** One entry per name and author, in the app's order. */
  readonly books: MergedSearchBook[];
  /** Per source, in the order given. */
  readonly sources: SourceSearch[];
  /** searchBooks rows written. */
  readonly stored: number;
}

/** The app's search timeout per source (SearchModel). */
export const SOURCE_TIMEOUT_MS = 30_000;

/**
 * Searches `sources` for `key`, `concurrency` at a time. Each source's hits are stored in
 * `searchBooks` as its search ends (one transaction per source: a failing source stores nothing
 * and the others go on), and merged in the order of `sources`, so the list is the same whatever
 * order the answers came in.
 */
export async function searchSources(
  store: AnyStore,
  sources: readonly BookSource[],
  key: string,
  engine: ShelfEngine,
  options: SearchOptions = {},
): Promise<SearchResult> {
  const keep = options.precision ? matchesKeyword(key) : () => true;
  const batches: (SearchBook[] | undefined)[] = new Array(sources.length);
  const report: SourceSearch[] = new Array(sources.length);
  let stored = 0;
  await eachLimited(sources, Math.max(1, options.concurrency ?? 8), async (source, i) => {
    let part: SourceSearch;
    try {
      const hits = (await engine.open(source, AbortSignal.timeout(options.sourceTimeoutMs ?? SOURCE_TIMEOUT_MS)).search(key, 1)).filter((h) =>
        keep(h.name, h.author),
      );
      stored += saveSearchBooks(store, hits);
      batches[i] = hits;
      part = { source: source.bookSourceUrl, name: source.bookSourceName, hits: hits.length };
    } catch (error) {
      part = { source: source.bookSourceUrl, name: source.bookSourceName, hits: 0, error };
    }
    report[i] = part;
    options.onSource?.(part);
  });
  let books: MergedSearchBook[] = [];
  for (const batch of batches) if (batch) books = mergeSearchBooks(books, batch, key, options.precision);
  return { books, sources: report, stored };
}

/** Runs `fn` over `items`, at most `limit` at once. */
async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function sourceOf(engine: ShelfEngine, url: string, table = 'book_sources'): BookSource {
  const s = engine.source(url);
  if (!s) throw new UnknownSourceError(table, [url]);
  return s;
}

type BookRow = WebBook & Record<string, unknown>;

/** A books row as the flows take a book (its fields are WebBook's). */
const asWebBook = (row: Record<string, unknown>): WebBook => row as unknown as WebBook;

export interface AddOptions {
  /** The source to fetch with (default: the search hit's). */
  readonly sourceUrl?: string;
  /** Replace a book on the shelf (see shelveWebBook). */
  readonly force?: boolean;
  readonly displayTitle?: ShelveOptions['displayTitle'];
}

/**
 * Adds the web book at `bookUrl` to the shelf: its search hit (or `sourceUrl`) names the source,
 * the info and the whole TOC are fetched, then written as add-to-shelf writes them. A book
 * already on the shelf is refused before anything is fetched, unless `force`; with `force` the
 * same bookUrl is refreshed as the app refreshes it (info fetched without renaming, progress kept).
 */
export async function addWebBook(
  store: AnyStore,
  bookUrl: string,
  engine: ShelfEngine,
  options: AddOptions = {},
): Promise<Shelved & { name: string; author: string }> {
  const hit = store.table('searchBooks').get(bookUrl) as (SearchBook & Record<string, unknown>) | undefined;
  const sourceUrl = options.sourceUrl ?? hit?.origin;
  if (sourceUrl === undefined)
    throw new UnknownWebBookError(bookUrl, `no search result with the bookUrl ${JSON.stringify(bookUrl)}: search first, or name its source (--source <url>)`);
  const source = sourceOf(engine, sourceUrl);
  const onShelf = store.table('books').get(bookUrl) as BookRow | undefined;
  if (onShelf && !options.force) throw new BookExistsError(bookUrl, onShelf);
  const flows = engine.open(source);
  // The book the info step starts from: the shelf's (a refresh), the hit's (SearchBook.toBook), or the bare URL.
  const start: WebBook = onShelf ?? (hit && hit.origin === source.bookSourceUrl ? { ...hit } : blankBook(source, { bookUrl }));
  const web = await flows.bookInfo(start, { canReName: !onShelf });
  const chapters = await flows.toc(web);
  const originOrder = hit && hit.origin === source.bookSourceUrl ? hit.originOrder : undefined;
  const done = shelveWebBook(store, web, chapters, source, {
    ...(options.force ? { force: true } : {}),
    ...(originOrder !== undefined ? { originOrder } : {}),
    ...(options.displayTitle ? { displayTitle: options.displayTitle } : {}),
  });
  return { ...done, name: web.name, author: web.author };
}

/** Whether a books row is a local book (its file is the book), not a web one. */
export function isLocalBook(row: Record<string, unknown>): boolean {
  const origin = String(row['origin'] ?? '');
  return origin === 'loc_book' || origin.startsWith('webDav::') || (Number(row['type']) & 256) !== 0;
}

/** The web book a reference names: a bookUrl, else a unique name among the web books on the shelf. */
export function findWebBook(store: AnyStore, ref: string): BookRow {
  const byUrl = store.table('books').get(ref) as BookRow | undefined;
  const named = byUrl ? [byUrl] : (store.table('books').select('WHERE name = ?', [ref]) as BookRow[]).filter((b) => !isLocalBook(b));
  if (named.length > 1)
    throw new UnknownWebBookError(
      ref,
      `${named.length} web books are named ${JSON.stringify(ref)}; give the bookUrl (${named.map((b) => b.bookUrl).join(', ')})`,
    );
  const book = named[0];
  if (!book) throw new UnknownWebBookError(ref, `no book with the bookUrl or the name ${JSON.stringify(ref)} on the shelf`);
  if (isLocalBook(book)) throw new UnknownWebBookError(ref, `${JSON.stringify(book.bookUrl)} is a local book, not a web book`);
  return book;
}

/**
 * Fetches a web book's TOC again and stores it as the app's shelf refresh does
 * (MainViewModel.updateToc): the info first only when the book has no TOC URL yet.
 */
export async function refreshWebToc(
  store: AnyStore,
  ref: string,
  engine: ShelfEngine,
  options: Pick<AddOptions, 'displayTitle'> = {},
): Promise<Shelved & { name: string }> {
  const row = findWebBook(store, ref);
  const source = sourceOf(engine, row.origin);
  const flows = engine.open(source);
  const web = row.tocUrl.trim() === '' ? await flows.bookInfo(asWebBook(row), { canReName: false }) : undefined;
  const chapters = await flows.toc(web ?? asWebBook(row));
  const done = storeWebToc(store, row.bookUrl, web, chapters, source, options.displayTitle ? { displayTitle: options.displayTitle } : {});
  return { ...done, name: web?.name ?? row.name };
}

export interface ReadChapter {
  readonly bookUrl: string;
  readonly name: string;
  readonly index: number;
  readonly title: string;
  readonly text: string;
  /** The text came from the cache (nothing fetched). */
  readonly cached: boolean;
}

/**
 * A web chapter's text: from the cache when it holds it, else fetched (up to the next chapter's
 * URL, as the app stops `nextContentUrl`) and kept in the cache. The store is only read.
 */
export async function readWebChapter(store: AnyStore, ref: string, index: number, engine: ShelfEngine, cache: ChapterCache): Promise<ReadChapter> {
  const row = findWebBook(store, ref);
  const chapter = store.chapters.get(row.bookUrl, index) as (WebChapter & Record<string, unknown>) | undefined;
  if (!chapter) {
    const total = store.chapters.count(row.bookUrl);
    const range = total === 0 ? 'it has no chapters: `book toc` fetches them' : `chapters are 0 to ${total - 1}`;
    throw new UnknownWebBookError(ref, `${JSON.stringify(row.name)} has no chapter ${index} (${range})`);
  }
  const book: CachedBook = { bookUrl: row.bookUrl, name: row.name };
  const out = { bookUrl: row.bookUrl, name: row.name, index, title: chapter.title };
  const kept = await cache.get(book, chapter);
  if (kept !== undefined) return { ...out, text: kept, cached: true };
  const source = sourceOf(engine, row.origin);
  const next = store.chapters.get(row.bookUrl, index + 1)?.url;
  const text = await engine.open(source).content(asWebBook(row), asChapter(chapter), next);
  await cache.put(book, chapter, text);
  return { ...out, text, cached: false };
}

/** A chapters row as the flows take a chapter (booleans as booleans). */
function asChapter(row: Record<string, unknown>): WebChapter {
  return { ...(row as unknown as WebChapter), isVolume: Boolean(row['isVolume']), isVip: Boolean(row['isVip']), isPay: Boolean(row['isPay']) };
}
