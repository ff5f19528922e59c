// Books on the shelf (legado-data-layer.md 2.1), with the app's meaning of book types, group
// bits, the special bookshelf tabs and the four bookshelf orderings.
import type { SchemaVersion } from '../schema/index.js';
import type { NewRow, Row } from '../schema/row-types.js';
import { BookGroups, type GroupId } from './book-groups.js';
import { byKeys } from './collation.js';
import { bookKindsAt, specialGroupBooks } from './special-groups.js';
import type { TableOf } from '../table/typed.js';
import type { Finder, Updater } from '../table/table.js';
import { checkObject, checkText, isRowObject, ROW_OBJECT } from '../table/args.js';
import { MissingFieldError, ValueTypeError } from '../errors.js';
import { Area, containing } from './support.js';

/** `books.type` bits (BookType, schema 55 on). */
export const BookType = {
  text: 8,
  updateError: 16,
  audio: 32,
  image: 64,
  webFile: 128,
  local: 256,
  archive: 512,
} as const;

/** The bookshelf orderings (BookGroup.bookSort and the global `bookshelfSort` setting). */
export const BookshelfSort = {
  /** 0: last read first (durChapterTime, descending). */
  lastRead: 0,
  /** 1: latest chapter first (latestChapterTime, descending). */
  latestChapter: 1,
  /** 2: by name, Chinese-aware. */
  name: 2,
  /** 3: manual order (`order`, ascending). */
  manual: 3,
} as const;
export type BookshelfSortValue = (typeof BookshelfSort)[keyof typeof BookshelfSort];

export interface ShelfOptions {
  /** Sort this way, whatever the group says. */
  readonly sort?: BookshelfSortValue;
  /** The app's global `bookshelfSort` setting, used when the group's own bookSort is -1 (default 0). */
  readonly defaultSort?: BookshelfSortValue;
}

/** Reading position, as the app's progress sync (BookProgress) carries it. */
export interface BookProgress {
  readonly durChapterIndex: number;
  readonly durChapterPos: number;
  readonly durChapterTitle?: string | null;
  /** Default: now (the store's clock). */
  readonly durChapterTime?: number;
}

type SortableBook = Pick<Row<'books'>, 'name' | 'order' | 'durChapterTime' | 'latestChapterTime'>;

const SORTS: Record<BookshelfSortValue, (a: SortableBook, b: SortableBook) => number> = {
  0: byKeys({ desc: (b) => b.durChapterTime }),
  1: byKeys({ desc: (b) => b.latestChapterTime }),
  2: byKeys((b) => b.name),
  3: byKeys((b) => b.order),
};

/** Sorts books (in place, stably) by one of the bookshelf orderings. */
export function sortBooks<B extends SortableBook>(books: B[], sort: BookshelfSortValue): B[] {
  const compare = SORTS[sort];
  if (!compare) throw new RangeError(`bookshelf sort must be 0, 1, 2 or 3, got ${String(sort)}`);
  return books.sort(compare);
}

/** The fields a progress update sets, in the order updateProgress gives them (a title left out is not set). */
const PROGRESS = ['durChapterIndex', 'durChapterPos', 'durChapterTitle', 'durChapterTime'] as const;

export class Books<V extends SchemaVersion = 62> extends Area {
  private readonly t: TableOf<'books'>;
  // Made with the store, as the areas are (Store's constructor says why); prepared on first use.
  private readonly byNameAuthor: Finder<Row<'books'>>;
  private readonly setProgress: Updater<string>;

  constructor(store: ConstructorParameters<typeof Area>[0]) {
    super(store);
    this.t = this.table('books');
    this.byNameAuthor = this.t.finder(['name', 'author']);
    this.setProgress = this.t.updater(PROGRESS);
  }

  /**
   * Saves a book the way the app's Book.save() does: an existing bookUrl is updated in place
   * (only the fields given), a new one is inserted. Never a delete-and-reinsert, so the
   * book's chapters survive, and a (name, author) clash with another book is a
   * UniqueViolationError instead of silently deleting that book.
   */
  save(book: NewRow<'books', V>): 'inserted' | 'updated' {
    if (!isRowObject(book)) throw new ValueTypeError('books', '(row)', book, ROW_OBJECT);
    // A save without a bookUrl would update (or make) the blank-key book: the key is required.
    if ((book as NewRow<'books'>).bookUrl === undefined) throw new MissingFieldError('books', 'bookUrl', undefined);
    const { bookUrl = '', ...patch } = book as NewRow<'books'>;
    return this.store.transaction(() => {
      if (!this.t.has(bookUrl)) {
        this.t.insert(book as NewRow<'books'>);
        return 'inserted';
      }
      this.t.update(bookUrl, patch);
      return 'updated';
    });
  }

  get(bookUrl: string): Row<'books', V> | undefined {
    return this.t.get(bookUrl) as Row<'books', V> | undefined;
  }

  getByNameAuthor(name: string, author: string): Row<'books', V> | undefined {
    return this.byNameAuthor.get(name, author) as Row<'books', V> | undefined;
  }

  /**
   * The books of a bookshelf tab. Special ids: -1 all, -2 local, -3 audio, -4 net books in no
   * user group, -5 local books in no user group, -11 last update failed. Any other id must be
   * a user group (a power of two, -2^63 for the 64th): books whose `group` has that bit.
   * Ordered by `options.sort`, else the group's own bookSort, else `options.defaultSort` (0).
   * "Local", "audio" and "text" mean the `type` bits at schema 62; at 49, where `type` was
   * the source type, audio is type 1 and local is origin `loc_book`, as the v49 app had it.
   */
  shelf(groupId: GroupId, options: ShelfOptions = {}): Row<'books', V>[] {
    checkObject('books.shelf', 'options', options, true);
    const gid = BookGroups.check(groupId);
    const special = specialGroupBooks(this.version).get(gid);
    const rows = special !== undefined ? this.t.select(`WHERE ${special}`, { mask: this.groups.userMask() }) : this.t.select('WHERE (`group` & ?) != 0', [gid]);
    const own = this.groups.bookSortOf(gid);
    const sort = options.sort ?? (own >= 0 ? (own as BookshelfSortValue) : (options.defaultSort ?? BookshelfSort.lastRead));
    return this.out(sortBooks(rows, sort));
  }

  /** Books whose name or author contains `key` (the app's search; `%` and `_` match literally). */
  search(key: string): Row<'books', V>[] {
    checkText('books.search', 'key', key);
    const m = this.likeAny(['name', 'author'], containing(key));
    return this.out(this.t.select(`WHERE ${m.sql}`, m.params));
  }

  /** Sets the reading position of a book; false when there is no such book. */
  updateProgress(bookUrl: string, progress: BookProgress): boolean {
    checkObject('books.updateProgress', 'progress', progress);
    return this.setProgress.setArgs(bookUrl, progress.durChapterIndex, progress.durChapterPos, progress.durChapterTitle, progress.durChapterTime ?? this.now());
  }

  /** The same, finding the book by (name, author) as the app's progress sync does. */
  updateProgressByNameAuthor(name: string, author: string, progress: BookProgress): boolean {
    checkObject('books.updateProgressByNameAuthor', 'progress', progress);
    const book = this.byNameAuthor.get(name, author);
    return book !== undefined && this.updateProgress(book.bookUrl, progress);
  }

  /** The books a bookshelf refresh checks: `canUpdate` and not local. */
  toRefresh(): Row<'books', V>[] {
    return this.out(this.t.select(`WHERE canUpdate = 1 AND NOT (${bookKindsAt(this.version).local})`));
  }

  /** The text book read most recently. */
  lastRead(): Row<'books', V> | undefined {
    return this.out(this.t.select(`WHERE ${bookKindsAt(this.version).text} ORDER BY durChapterTime DESC LIMIT 1`))[0];
  }

  /** Puts a book in exactly these groups (a bitmask of user group ids). */
  setGroups(bookUrl: string, mask: GroupId): boolean {
    return this.t.update(bookUrl, { group: mask });
  }

  private get groups(): BookGroups<V> {
    return this.store.bookGroups as unknown as BookGroups<V>;
  }

  private out(rows: readonly unknown[]): Row<'books', V>[] {
    return rows as Row<'books', V>[];
  }
}
