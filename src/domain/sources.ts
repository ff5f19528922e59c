// Book sources and RSS sources (legado-data-layer.md 2.3 and 2.9) share their list, search
// and group logic; the two differ only in field names, written once here as a parameter.
import type { SchemaVersion } from '../schema/index.js';
import type { Row } from '../schema/row-types.js';
import { compareLocalized } from './collation.js';
import { checkObject, checkRows, checkText } from '../table/args.js';
import { Area, containing, splitGroups } from './support.js';

/** Which columns of a source table play which part. */
interface SourceColumns {
  readonly table: 'book_sources' | 'rssSources';
  readonly url: string;
  readonly group: string;
  /** The columns the app's search looks in. */
  readonly searchIn: readonly string[];
}

export interface SourceFilter {
  /** Only enabled sources. */
  readonly enabledOnly?: boolean;
}

class Sources<R> extends Area {
  private readonly c: SourceColumns;

  constructor(store: ConstructorParameters<typeof Area>[0], columns: SourceColumns) {
    super(store);
    this.c = columns;
  }

  private get t() {
    return this.table(this.c.table);
  }

  /** The area's name on the store, for argument errors. */
  protected get area(): string {
    return this.c.table === 'book_sources' ? 'bookSources' : 'rssSources';
  }

  /** Every source, in customOrder. */
  all(): R[] {
    return this.where('1');
  }

  enabled(): R[] {
    return this.where('enabled = 1');
  }

  disabled(): R[] {
    return this.where('enabled = 0');
  }

  /** Sources with `key` in any of the searched fields (the app's search). */
  search(key: string, filter: SourceFilter = {}): R[] {
    checkText(`${this.area}.search`, 'key', key);
    checkObject(`${this.area}.search`, 'filter', filter, true);
    const m = this.likeAny(this.c.searchIn, containing(key));
    return this.where(m.sql, m.params, filter);
  }

  /** Sources in `group`: the group list is exactly it, or has it as a `,`-separated item. */
  byGroup(group: string, filter: SourceFilter = {}): R[] {
    checkText(`${this.area}.byGroup`, 'group', group);
    checkObject(`${this.area}.byGroup`, 'filter', filter, true);
    const m = this.groupMatch(this.c.group, group);
    return this.where(m.sql, m.params, filter);
  }

  /** Sources without a group (empty, or containing 未分组 as the app counts it). */
  noGroup(): R[] {
    const g = this.c.group;
    return this.where(`(${g} IS NULL OR ${g} = '' OR ${g} LIKE '%未分组%')`);
  }

  /** The distinct group names, split on `,;，；`, sorted Chinese-aware as the app does. */
  groups(): string[] {
    const lists = this.sqlValue(`SELECT DISTINCT ${this.c.group} FROM ${this.c.table} WHERE trim(${this.c.group}) <> ''`).all() as string[];
    const names = new Set<string>();
    for (const list of lists) for (const g of splitGroups(list)) names.add(g);
    return [...names].sort(compareLocalized);
  }

  /** Sources with a login URL. */
  withLogin(): R[] {
    return this.where("loginUrl IS NOT NULL AND loginUrl != ''");
  }

  /** The smallest customOrder, 0 when there are no sources. */
  minOrder(): number {
    return this.extreme('min', this.c.table, 'customOrder');
  }

  /** The largest customOrder, 0 when there are no sources. */
  maxOrder(): number {
    return this.extreme('max', this.c.table, 'customOrder');
  }

  /** Enables or disables many sources in one transaction; returns how many rows changed. */
  setEnabled(urls: Iterable<string>, enabled: boolean): number {
    checkRows(`${this.area}.setEnabled`, urls, 'urls', 'an array of source URLs');
    const stmt = this.sql(`UPDATE ${this.c.table} SET enabled = ? WHERE ${this.c.url} = ? AND enabled != ?`);
    const flag = enabled ? 1 : 0;
    return this.store.transaction(() => {
      let n = 0;
      for (const url of urls) n += stmt.run(flag, url, flag).changes;
      return n;
    });
  }

  /**
   * Deletes sources as the app's source manager and web API do (SourceHelp.deleteBookSource /
   * deleteRssSource), in one transaction: each source and its cached variables (Cache
   * deleteSourceVariables), and what `also` removes with it. Returns how many sources went.
   */
  remove(urls: Iterable<string>): number {
    checkRows(`${this.area}.remove`, urls, 'urls', 'an array of source URLs');
    const del = this.sql(`DELETE FROM ${this.c.table} WHERE ${this.c.url} = ?`);
    return this.store.transaction(() => {
      let n = 0;
      for (const url of urls) {
        checkText(`${this.area}.remove`, `urls[${n}]`, url);
        n += del.run(url).changes;
        this.store.cache.deleteSourceVariables(url);
        this.also(url);
      }
      return n;
    });
  }

  /** What else goes with a deleted source (nothing for book sources). */
  protected also(_url: string): void {}

  protected where(condition: string, params: readonly unknown[] = [], filter: SourceFilter = {}): R[] {
    const enabled = filter.enabledOnly ? ' AND enabled = 1' : '';
    return this.t.select(`WHERE ${condition}${enabled} ORDER BY customOrder`, params) as R[];
  }
}

export class BookSources<V extends SchemaVersion = 62> extends Sources<Row<'book_sources', V>> {
  constructor(store: ConstructorParameters<typeof Area>[0]) {
    super(store, {
      table: 'book_sources',
      url: 'bookSourceUrl',
      group: 'bookSourceGroup',
      searchIn: ['bookSourceName', 'bookSourceGroup', 'bookSourceUrl', 'bookSourceComment'],
    });
  }

  /**
   * Sources shown on the explore (discovery) page: explore enabled and an explore URL set;
   * with `key`, only those whose group or name contains it.
   */
  explore(key?: string): Row<'book_sources', V>[] {
    const base = "enabledExplore = 1 AND trim(exploreUrl) <> ''";
    if (key === undefined || key === '') return this.where(base);
    checkText('bookSources.explore', 'key', key);
    const m = this.likeAny(['bookSourceGroup', 'bookSourceName'], containing(key));
    return this.where(`${base} AND ${m.sql}`, m.params);
  }
}

export class RssSources<V extends SchemaVersion = 62> extends Sources<Row<'rssSources', V>> {
  constructor(store: ConstructorParameters<typeof Area>[0]) {
    // The v62 RSS search does not look at sourceComment (HEAD does).
    super(store, { table: 'rssSources', url: 'sourceUrl', group: 'sourceGroup', searchIn: ['sourceName', 'sourceUrl', 'sourceGroup'] });
  }

  /** A deleted RSS source's articles go with it. */
  protected override also(url: string): void {
    this.store.rss.deleteArticles(url);
  }
}
