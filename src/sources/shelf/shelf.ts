// Web books on the shelf as the app writes them. Adding (ui/book/info/BookInfoViewModel.kt
// addToBookshelf, after SearchBook.toBook, WebBook.getBookInfoAwait and getChapterListAwait):
// the `books` row with the TOC's fields (model/webBook/BookChapterList.kt), `order` one below
// the shelf's lowest, and its `chapters`. Refreshing (MainViewModel.updateToc, BookInfoViewModel
// refreshBook): the row updated in place, the reader's progress kept, the chapters replaced.
// Each is one transaction: a failure leaves the store as it was.
import { InvalidArgumentError } from '../../errors.js';
import { BITMASK_TYPE_FROM } from '../../schema/book-types.js';
import type { AnyStore } from '../../store/store.js';
import type { BookSource, WebBook, WebChapter } from '../engine/types.js';
import { bookTypeOf } from '../book/env.js';
import { BookExistsError, UnknownWebBookError } from './errors.js';

/** BookType bits a source decides (BookType.allBookType), and the failed-update mark. */
const TEXT = 8;
const UPDATE_ERROR = 16;
const AUDIO = 32;
const IMAGE = 64;
const WEB_FILE = 128;
const ALL_BOOK_TYPES = TEXT | AUDIO | IMAGE | WEB_FILE;

/** BookSource.getBookType: the type bits of a source's books (one definition, the flows'). */
export const sourceBookType = bookTypeOf;

/**
 * A web book's `type` after the info and TOC steps (removeAllBookType, addType(source type)):
 * other bits kept. Below schema 55 `type` was the source's own code (0-3).
 */
export function webBookType(version: number, previous: number, source: Pick<BookSource, 'bookSourceType'>): number {
  if (version < BITMASK_TYPE_FROM) return source.bookSourceType ?? 0;
  return (previous & ~ALL_BOOK_TYPES) | sourceBookType(source);
}

/** The title the app stores in durChapterTitle / latestChapterTitle (getDisplayTitle): line breaks dropped. */
export const displayTitle = (title: string): string => title.replace(/[\r\n]/g, '');

/** The book's fields the TOC step reads. */
export interface TocState {
  readonly durChapterIndex: number;
  readonly totalChapterNum: number;
  readonly lastCheckCount: number;
  readonly latestChapterTime: number;
}

/** The book's fields the TOC step sets. */
export interface TocFields {
  durChapterTitle: string;
  totalChapterNum: number;
  lastCheckCount: number;
  latestChapterTime: number;
  lastCheckTime: number;
  latestChapterTitle: string;
}

/**
 * BookChapterList's book fields: the reading chapter's title (the last one past the end), the
 * count of new chapters and the time they were found only when the list grew, the check time,
 * the total and the last chapter's title.
 */
export function tocFields(book: TocState, chapters: readonly Pick<WebChapter, 'title'>[], now: number, title = displayTitle): TocFields {
  const size = chapters.length;
  const last = chapters[size - 1]!;
  const grew = book.totalChapterNum < size;
  return {
    durChapterTitle: title((chapters[book.durChapterIndex] ?? last).title),
    totalChapterNum: size,
    lastCheckCount: grew ? size - book.totalChapterNum : book.lastCheckCount,
    latestChapterTime: grew ? now : book.latestChapterTime,
    lastCheckTime: now,
    latestChapterTitle: title(last.title),
  };
}

/** A chapter's `chapters` row (BookChapter.kt): the TOC's fields, the rest null. */
export function chapterRow(c: WebChapter, bookUrl: string): Record<string, unknown> {
  return {
    url: c.url,
    title: c.title,
    isVolume: c.isVolume,
    baseUrl: c.baseUrl,
    bookUrl,
    index: c.index,
    isVip: c.isVip,
    isPay: c.isPay,
    tag: c.tag,
    variable: c.variable,
  };
}

export interface ShelveOptions {
  /** Replace a book already on the shelf (its bookUrl, or another book of the same name and author). */
  readonly force?: boolean;
  /** The hit's originOrder when the book came from a search (default: the source's customOrder). */
  readonly originOrder?: number;
  /** The stored chapter titles' display form (default: line breaks dropped; a host may add title replace rules). */
  readonly displayTitle?: (title: string) => string;
}

export interface Shelved {
  /** added: a new book; refreshed: the same bookUrl updated in place, progress kept; replaced: another book of the same name and author gave way. */
  readonly action: 'added' | 'refreshed' | 'replaced';
  readonly bookUrl: string;
  readonly chapters: number;
  /** The bookUrl of the book that gave way (action `replaced`). */
  readonly replaced?: string;
}

type BookRow = Record<string, unknown> & { bookUrl: string; name: string; author: string };

function check(what: string, book: WebBook, chapters: readonly WebChapter[]): void {
  if (chapters.length === 0)
    throw new InvalidArgumentError(what, chapters, `at least one chapter for ${JSON.stringify(book.bookUrl)} (the app refuses an empty TOC)`);
}

/** The info step's fields of the book (BookInfo.analyzeBookInfo), as the app keeps them on the row. */
function infoFields(web: WebBook, source: BookSource): Record<string, unknown> {
  return {
    tocUrl: web.tocUrl,
    origin: web.origin,
    originName: source.bookSourceName,
    name: web.name,
    author: web.author,
    kind: web.kind,
    coverUrl: web.coverUrl,
    intro: web.intro,
    wordCount: web.wordCount,
    latestChapterTitle: web.latestChapterTitle,
    variable: web.variable,
  };
}

const minOrder = (store: AnyStore): number => store.db.prepare('SELECT ifnull(min(`order`), 0) FROM books').pluck().get() as number;

/**
 * Puts a web book (its info and whole TOC fetched) on the shelf, as the app's add-to-shelf
 * writes it: a new `books` row with the TOC's fields, `order` = lowest - 1, the progress at the
 * first chapter, and its `chapters`, in one transaction. A book already there (same bookUrl, or
 * the same name and author) is a BookExistsError unless `force`: then the same bookUrl is
 * refreshed in place (the reader's progress, groups, order and own cover/intro kept), and another
 * book of the same name and author gives way to the new one, which takes its chapter index,
 * position and title (as addToBookshelf copies them; the app's REPLACE drops the other book and
 * its chapters).
 */
export function shelveWebBook(store: AnyStore, web: WebBook, chapters: readonly WebChapter[], source: BookSource, options: ShelveOptions = {}): Shelved {
  check('shelveWebBook', web, chapters);
  const books = store.table('books');
  const now = store.clock();
  return store.transaction(() => {
    const same = books.get(web.bookUrl) as BookRow | undefined;
    const namesake = books.select('WHERE name = ? AND author = ?', [web.name, web.author])[0] as BookRow | undefined;
    const existing = same ?? namesake;
    if (existing && !options.force) throw new BookExistsError(web.bookUrl, existing);
    if (same) return refresh(store, same, web, chapters, source, options, now, false);
    const title = options.displayTitle ?? displayTitle;
    // SearchBook.toBook and Book's defaults: now for the three times, nothing read, first on the shelf.
    const fresh = { durChapterIndex: 0, totalChapterNum: 0, lastCheckCount: 0, latestChapterTime: now };
    const toc = tocFields(fresh, chapters, now, title);
    const row: Record<string, unknown> = {
      bookUrl: web.bookUrl,
      ...infoFields(web, source),
      originName: web.originName || source.bookSourceName,
      type: webBookType(store.version, web.type, source),
      ...toc,
      durChapterIndex: 0,
      durChapterPos: 0,
      durChapterTime: now,
      canUpdate: true,
      order: minOrder(store) - 1,
      originOrder: options.originOrder ?? source.customOrder ?? 0,
    };
    if (namesake) {
      row['durChapterIndex'] = namesake['durChapterIndex'];
      row['durChapterPos'] = namesake['durChapterPos'];
      row['durChapterTitle'] = namesake['durChapterTitle'];
      store.chapters.deleteByBook(namesake.bookUrl);
      books.delete(namesake.bookUrl);
    }
    books.insert(row);
    const n = store.chapters.replaceToc(
      web.bookUrl,
      chapters.map((c) => chapterRow(c, web.bookUrl) as never),
    );
    return namesake
      ? { action: 'replaced', bookUrl: web.bookUrl, chapters: n, replaced: namesake.bookUrl }
      : { action: 'added', bookUrl: web.bookUrl, chapters: n };
  });
}

/**
 * Stores a refetched TOC of a book on the shelf as the app's shelf refresh does
 * (MainViewModel.updateToc): the info fields when the info was fetched again (`web`), the TOC's
 * fields counted against the stored total, the failed-update mark removed, the chapters
 * replaced; the reader's progress stays. One transaction. UnknownWebBookError when the book is
 * not on the shelf.
 */
export function storeWebToc(
  store: AnyStore,
  bookUrl: string,
  web: WebBook | undefined,
  chapters: readonly WebChapter[],
  source: BookSource,
  options: ShelveOptions = {},
): Shelved {
  const now = store.clock();
  return store.transaction(() => {
    const row = store.table('books').get(bookUrl) as BookRow | undefined;
    if (!row) throw new UnknownWebBookError(bookUrl, `no book with the bookUrl ${JSON.stringify(bookUrl)} on the shelf`);
    check('storeWebToc', web ?? (row as unknown as WebBook), chapters);
    return refresh(store, row, web, chapters, source, options, now, true);
  });
}

/** The refresh both share, inside the caller's transaction. */
function refresh(
  store: AnyStore,
  row: BookRow,
  web: WebBook | undefined,
  chapters: readonly WebChapter[],
  source: BookSource,
  options: ShelveOptions,
  now: number,
  clearUpdateError: boolean,
): Shelved {
  const toc = tocFields(row as unknown as TocState, chapters, now, options.displayTitle ?? displayTitle);
  let type = webBookType(store.version, row['type'] as number, source);
  if (clearUpdateError && store.version >= BITMASK_TYPE_FROM) type &= ~UPDATE_ERROR;
  const patch = { ...(web ? infoFields(web, source) : { originName: source.bookSourceName }), type, ...toc };
  store.table('books').update(row.bookUrl, patch);
  const n = store.chapters.replaceToc(
    row.bookUrl,
    chapters.map((c) => chapterRow(c, row.bookUrl) as never),
  );
  return { action: 'refreshed', bookUrl: row.bookUrl, chapters: n };
}
