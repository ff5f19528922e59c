// The smaller rule tables, each in the order the app lists it (legado-data-layer.md 2.10,
// 2.14, 2.16 and 2.18 to 2.21): bookmarks, TXT TOC rules, HTTP TTS engines, dictionary rules,
// keyboard assists, servers and rule subscriptions.
import type { SchemaVersion } from '../schema/index.js';
import type { Row, TableName } from '../schema/row-types.js';
import type { TableOf } from '../table/typed.js';
import { byKeys } from './collation.js';
import { checkText } from '../table/args.js';
import { Area, containing } from './support.js';

export class Bookmarks extends Area {
  private get t() {
    return this.table('bookmarks');
  }

  /**
   * Every bookmark by book name and author (the app's `collate localized`: Chinese-aware here),
   * then chapter and position.
   */
  all(): Row<'bookmarks'>[] {
    return this.t.list().sort(
      byKeys(
        (b) => b.bookName,
        (b) => b.bookAuthor,
        (b) => b.chapterIndex,
        (b) => b.chapterPos,
      ),
    );
  }

  /** A book's bookmarks (books are matched by name and author), in chapter order. */
  ofBook(bookName: string, bookAuthor: string): Row<'bookmarks'>[] {
    return this.t.list({ where: { bookName, bookAuthor }, orderBy: ['chapterIndex', 'chapterPos'] });
  }

  /**
   * A book's bookmarks whose chapter name or text contains `key`. (The app's query lacks
   * parentheses and so also returns matching bookmarks of other books; this one does not.)
   */
  search(bookName: string, bookAuthor: string, key: string): Row<'bookmarks'>[] {
    checkText('bookmarks.search', 'key', key);
    const m = this.likeAny(['chapterName', 'content'], containing(key));
    return this.t.select(`WHERE bookName = ? AND bookAuthor = ? AND ${m.sql} ORDER BY chapterIndex, chapterPos`, [bookName, bookAuthor, ...m.params]);
  }
}

/**
 * A table the app lists in the order of one column. The table is looked up when the area is
 * made, so a table the store's version lacks is an UnknownTableError at once.
 */
abstract class Ordered<N extends TableName<62>, R = Row<N>> extends Area {
  private readonly name: N;
  private readonly orderBy: string;

  constructor(store: ConstructorParameters<typeof Area>[0], name: N, orderBy: string) {
    super(store);
    this.name = name;
    this.orderBy = orderBy;
    this.table(name);
  }

  protected get t(): TableOf<N> {
    return this.table(this.name);
  }

  /** Every row, in the app's order. */
  all(): R[] {
    return this.t.select(`ORDER BY \`${this.orderBy}\``) as R[];
  }

  /** Rows matching an SQL condition, in the app's order. */
  protected where(condition: string, params: readonly unknown[] = []): R[] {
    return this.t.select(`WHERE ${condition} ORDER BY \`${this.orderBy}\``, params) as R[];
  }

  protected orderExtreme(kind: 'min' | 'max'): number {
    return this.extreme(kind, this.name, this.orderBy);
  }

  /** Deletes the built-in rows (negative ids), as the app does before re-importing them. */
  protected deleteNegativeIds(): number {
    return this.sql(`DELETE FROM \`${this.name}\` WHERE id < 0`).run().changes;
  }
}

/** TXT table-of-contents rules, by serialNumber. */
export class TxtTocRules<V extends SchemaVersion = 62> extends Ordered<'txtTocRules', Row<'txtTocRules', V>> {
  constructor(store: ConstructorParameters<typeof Area>[0]) {
    super(store, 'txtTocRules', 'serialNumber');
  }

  enabled(): Row<'txtTocRules', V>[] {
    return this.where('enable = 1');
  }

  disabled(): Row<'txtTocRules', V>[] {
    return this.where('enable != 1');
  }

  minOrder(): number {
    return this.orderExtreme('min');
  }

  maxOrder(): number {
    return this.orderExtreme('max');
  }

  deleteDefault(): number {
    return this.deleteNegativeIds();
  }
}

/** HTTP TTS engines, by name (the app sorts in SQL here, so plain binary order). */
export class HttpTts extends Ordered<'httpTTS'> {
  constructor(store: ConstructorParameters<typeof Area>[0]) {
    super(store, 'httpTTS', 'name');
  }

  deleteDefault(): number {
    return this.deleteNegativeIds();
  }
}

/** Dictionary rules, by sortNumber: schema 62 only (UnknownTableError at 49). */
export class DictRules extends Ordered<'dictRules'> {
  constructor(store: ConstructorParameters<typeof Area>[0]) {
    super(store, 'dictRules', 'sortNumber');
  }

  enabled(): Row<'dictRules'>[] {
    return this.where('enabled = 1');
  }
}

/** Keyboard assists, by serialNo. */
export class KeyboardAssists extends Ordered<'keyboardAssists'> {
  constructor(store: ConstructorParameters<typeof Area>[0]) {
    super(store, 'keyboardAssists', 'serialNo');
  }

  byType(type: number): Row<'keyboardAssists'>[] {
    return this.where('type = ?', [type]);
  }

  maxSerialNo(): number {
    return this.orderExtreme('max');
  }
}

/** Servers (WebDAV), by sortNumber: schema 62 only (UnknownTableError at 49). */
export class Servers extends Ordered<'servers'> {
  constructor(store: ConstructorParameters<typeof Area>[0]) {
    super(store, 'servers', 'sortNumber');
  }

  deleteDefault(): number {
    return this.deleteNegativeIds();
  }
}

/** Rule subscriptions, by customOrder. */
export class RuleSubs extends Ordered<'ruleSubs'> {
  constructor(store: ConstructorParameters<typeof Area>[0]) {
    super(store, 'ruleSubs', 'customOrder');
  }

  findByUrl(url: string): Row<'ruleSubs'> | undefined {
    return this.t.list({ where: { url }, limit: 1 })[0];
  }

  /** The largest customOrder (the app's maxOrder query returns the smallest by mistake). */
  maxOrder(): number {
    return this.orderExtreme('max');
  }
}
