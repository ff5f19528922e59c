// Search history (legado-data-layer.md 2.7): each use of a word counts.
import type { Row } from '../schema/row-types.js';
import { checkObject, checkText } from '../table/args.js';
import { Area, containing, startingWith } from './support.js';

export interface KeywordSearch {
  /** Match only words that start with the key (default: anywhere in the word). */
  readonly prefix?: boolean;
  readonly limit?: number;
}

export class SearchKeywords extends Area {
  private get t() {
    return this.table('search_keywords');
  }

  /**
   * Records one search for `word`, as the app does: a new word is stored with usage 1, a known
   * one gets usage + 1; either way lastUseTime becomes now. Returns the stored row.
   */
  recordUse(word: string, now: number = this.now()): Row<'search_keywords'> {
    this.sql(
      'INSERT INTO search_keywords (word, usage, lastUseTime) VALUES (?, 1, ?) ' +
        'ON CONFLICT(word) DO UPDATE SET usage = usage + 1, lastUseTime = excluded.lastUseTime',
    ).run(word, now);
    return this.t.get(word)!;
  }

  get(word: string): Row<'search_keywords'> | undefined {
    return this.t.get(word);
  }

  /** Most used first. */
  byUsage(limit?: number): Row<'search_keywords'>[] {
    return this.t.list({ orderBy: [['usage', 'desc']], ...(limit === undefined ? {} : { limit }) });
  }

  /** Most recently used first. */
  byTime(limit?: number): Row<'search_keywords'>[] {
    return this.t.list({ orderBy: [['lastUseTime', 'desc']], ...(limit === undefined ? {} : { limit }) });
  }

  /** Words containing (or, with `prefix`, starting with) `key`, most used first. */
  search(key: string, options: KeywordSearch = {}): Row<'search_keywords'>[] {
    checkText('searchKeywords.search', 'key', key);
    checkObject('searchKeywords.search', 'options', options, true);
    const m = this.like('word', options.prefix ? startingWith(key) : containing(key));
    const limit = options.limit === undefined ? '' : ' LIMIT ?';
    const params = options.limit === undefined ? m.params : [...m.params, options.limit];
    return this.t.select(`WHERE ${m.sql} ORDER BY usage DESC${limit}`, params);
  }

  delete(word: string): boolean {
    return this.t.delete(word);
  }

  clear(): number {
    return this.sql('DELETE FROM search_keywords').run().changes;
  }
}
