// The bookshelf as the app shows it: the visible tabs in order, each tab's books in the tab's
// order, with reading progress, latest chapter and the book's groups by name. Built only from
// the domain operations (store.bookGroups, store.books), so it has the app's meaning at every
// schema version.
import { UnknownGroupError } from '../errors.js';
import { BookshelfSort, type BookshelfSortValue } from '../domain/books.js';
import { SpecialGroupId } from '../domain/special-groups.js';
import type { SchemaVersion } from '../schema/index.js';
import type { Store } from '../store/store.js';

export interface ShelfBook {
  readonly bookUrl: string;
  readonly name: string;
  readonly author: string;
  /** Names of the user groups the book is in. */
  readonly groups: readonly string[];
  /** 1-based chapter being read, of `totalChapters` (as the app's "read / total"). */
  readonly chapter: number;
  readonly totalChapters: number;
  readonly chapterTitle: string | null;
  /** When the book was last read (epoch ms). */
  readonly readAt: number;
  readonly latestChapterTitle: string | null;
  readonly latestChapterAt: number;
  /** Chapters after the one being read (the app's unread badge). */
  readonly unread: number;
}

export interface ShelfTab {
  readonly groupId: bigint;
  readonly name: string;
  /** The ordering used: 0 last read, 1 latest chapter, 2 name, 3 manual. */
  readonly sort: BookshelfSortValue;
  readonly books: readonly ShelfBook[];
}

export interface BookshelfOptions {
  /** Only the tab of this group (by name, as the app shows it: 全部, 本地, a user group, ...). */
  readonly group?: string;
  /** The app's global bookshelf order, used by groups without their own (default 0, last read). */
  readonly defaultSort?: BookshelfSortValue;
}

export const SORT_NAMES: Readonly<Record<BookshelfSortValue, string>> = {
  [BookshelfSort.lastRead]: 'last read',
  [BookshelfSort.latestChapter]: 'latest chapter',
  [BookshelfSort.name]: 'name',
  [BookshelfSort.manual]: 'manual',
};

/** The tabs of the bookshelf (or the one named), each with its books. */
export function bookshelf(store: Store<SchemaVersion>, options: BookshelfOptions = {}): ShelfTab[] {
  const groups = store.bookGroups;
  let tabs: { groupId: bigint; groupName: string }[];
  if (options.group !== undefined) {
    // A hidden group is still shown when asked for by name.
    const g = groups.getByName(options.group);
    if (!g)
      throw new UnknownGroupError(
        options.group,
        groups.all().map((x) => x.groupName),
      );
    tabs = [g];
  } else {
    tabs = groups.visible();
    // The app inserts 全部 whenever it is missing; a file written by other tools may lack it.
    if (!groups.get(SpecialGroupId.all)) tabs.unshift({ groupId: SpecialGroupId.all, groupName: '全部' });
  }
  const defaultSort = options.defaultSort ?? BookshelfSort.lastRead;
  const names = new Map<bigint, string[]>();
  const namesOf = (mask: bigint): string[] => {
    let n = names.get(mask);
    if (!n) names.set(mask, (n = groups.namesOf(mask)));
    return n;
  };
  return tabs.map((tab) => {
    const own = groups.bookSortOf(tab.groupId);
    const sort = (own >= 0 ? own : defaultSort) as BookshelfSortValue;
    const books = store.books.shelf(tab.groupId, { defaultSort }).map((b): ShelfBook => {
      const r = b as unknown as Record<string, unknown>;
      const total = Number(r.totalChapterNum ?? 0);
      const at = Number(r.durChapterIndex ?? 0);
      return {
        bookUrl: b.bookUrl,
        name: b.name,
        author: b.author,
        groups: namesOf(BigInt(b.group as bigint)),
        chapter: total > 0 ? Math.min(at + 1, total) : 0,
        totalChapters: total,
        chapterTitle: (r.durChapterTitle as string | null | undefined) ?? null,
        readAt: Number(r.durChapterTime ?? 0),
        latestChapterTitle: (r.latestChapterTitle as string | null | undefined) ?? null,
        latestChapterAt: Number(r.latestChapterTime ?? 0),
        unread: Math.max(0, total - at - 1),
      };
    });
    return { groupId: BigInt(tab.groupId), name: tab.groupName, sort, books };
  });
}
