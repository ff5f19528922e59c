// A book's table of contents (legado-data-layer.md 2.4), always in chapter index order.
import type { NewRow, Row } from '../schema/row-types.js';
import type { TableOf } from '../table/typed.js';
import { checkRows, checkText, isRowObject } from '../table/args.js';
import { insertInTransaction } from '../table/in-transaction.js';
import type { Finder, TableApi } from '../table/table.js';
import { Area, containing } from './support.js';

/** A chapter as replaceToc takes it: its bookUrl comes from the call. */
export type TocEntry = Omit<NewRow<'chapters'>, 'bookUrl'> & { readonly bookUrl?: string };

export class Chapters extends Area {
  private readonly t: TableOf<'chapters'>;
  // Made with the store, as the areas are (Store's constructor says why); prepared on first use.
  private readonly byIndex: Finder<Row<'chapters'>>;
  private readonly byTitle: Finder<Row<'chapters'>>;

  constructor(store: ConstructorParameters<typeof Area>[0]) {
    super(store);
    this.t = this.table('chapters');
    this.byIndex = this.t.finder(['bookUrl', 'index']);
    this.byTitle = this.t.finder(['bookUrl', 'title'], 'index');
  }

  /**
   * Replaces the book's whole table of contents in one transaction, as the app's TOC refresh
   * does: the old chapters are deleted, the new ones inserted. All or nothing: a failing
   * chapter (or a book that does not exist: ForeignKeyError) leaves the old list in place.
   * Returns the number of chapters stored.
   */
  replaceToc(bookUrl: string, chapters: Iterable<TocEntry>): number {
    checkRows('chapters.replaceToc', chapters, 'chapters');
    return this.store.transaction(() => {
      this.deleteByBook(bookUrl);
      return insertInTransaction(this.t as unknown as TableApi<object, NewRow<'chapters'>, object, unknown>, ofBook(chapters, bookUrl));
    });
  }

  /** All chapters of the book, by index. */
  list(bookUrl: string): Row<'chapters'>[] {
    return this.t.list({ where: { bookUrl }, orderBy: 'index' });
  }

  /** Chapters `start` to `end` (both included), by index. */
  range(bookUrl: string, start: number, end: number): Row<'chapters'>[] {
    return this.t.list({ where: { bookUrl, index: { gte: start, lte: end } }, orderBy: 'index' });
  }

  get(bookUrl: string, index: number): Row<'chapters'> | undefined {
    return this.byIndex.get(bookUrl, index);
  }

  /** The first chapter (by index) with exactly this title. */
  getByTitle(bookUrl: string, title: string): Row<'chapters'> | undefined {
    return this.byTitle.get(bookUrl, title);
  }

  /** Chapters whose title contains `key`, by index. */
  search(bookUrl: string, key: string): Row<'chapters'>[] {
    checkText('chapters.search', 'key', key);
    const m = this.like('title', containing(key));
    return this.t.select(`WHERE bookUrl = ? AND ${m.sql} ORDER BY \`index\``, [bookUrl, ...m.params]);
  }

  count(bookUrl: string): number {
    return this.t.count({ bookUrl });
  }

  deleteByBook(bookUrl: string): number {
    return this.t.deleteWhere('WHERE bookUrl = ?', [bookUrl]);
  }
}

/** The chapters with the book's url: as they are when they carry it already, else a copy that does. */
function* ofBook(chapters: Iterable<TocEntry>, bookUrl: string): Generator<NewRow<'chapters'>> {
  // A Map or an instance goes as it is, for the table to refuse: a copy would lose its fields.
  for (const c of chapters) yield c.bookUrl === bookUrl || !isRowObject(c) ? (c as NewRow<'chapters'>) : { ...c, bookUrl };
}
