// Search hits as the app keeps them (legado-data-layer.md 2.6, model/webBook/SearchModel.kt):
// every hit is a `searchBooks` row (REPLACE by bookUrl, the page HTML dropped), and what the
// user sees is one entry per name + author with the sources that found it (`origins`), exact
// matches of the keyword first, then entries containing it, each group by number of sources,
// then the rest (left out by a precision search).
import type { AnyStore } from '../../store/store.js';
import type { SearchBook } from '../engine/types.js';

/** A hit with every source that found the same name and author, in the order they came. */
export interface MergedSearchBook extends SearchBook {
  readonly origins: readonly string[];
}

/** The `searchBooks` fields of a hit, in the table's order (SearchBook.kt). */
const ROW_FIELDS = [
  'bookUrl',
  'origin',
  'originName',
  'type',
  'name',
  'author',
  'kind',
  'coverUrl',
  'intro',
  'wordCount',
  'latestChapterTitle',
  'tocUrl',
  'time',
  'variable',
  'originOrder',
] as const satisfies readonly (keyof SearchBook)[];

/** The `searchBooks` row of a hit: its fields the store's version has, without the page HTML it carried. */
export function searchBookRow(hit: SearchBook, has: (field: string) => boolean = () => true): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const f of ROW_FIELDS) if (has(f)) row[f] = hit[f];
  return row;
}

/**
 * Stores hits as the app's SearchBookDao.insert does (REPLACE: a row with the same bookUrl is
 * replaced whole, its later columns back to their defaults), all in one transaction.
 * Returns how many rows were written.
 */
export function saveSearchBooks(store: AnyStore, hits: readonly SearchBook[]): number {
  const t = store.table('searchBooks');
  const has = (f: string): boolean => store.schema.table('searchBooks')?.column(f) !== undefined;
  return store.transaction(() => {
    for (const hit of hits) {
      t.delete(hit.bookUrl);
      t.insert(searchBookRow(hit, has));
    }
    return hits.length;
  });
}

/** The search's filter in precision mode (SearchModel passes it to searchBookAwait): name or author contains the keyword. */
export function matchesKeyword(key: string): (name: string, author: string) => boolean {
  return (name, author) => name.includes(key) || author.includes(key);
}

type Kind = 'equal' | 'contains' | 'other';

const kindOf = (b: SearchBook, key: string): Kind =>
  b.name === key || b.author === key ? 'equal' : b.name.includes(key) || b.author.includes(key) ? 'contains' : 'other';

/** Stable, most sources first (Kotlin's sortByDescending is stable). */
const byOrigins = (list: MergedSearchBook[]): MergedSearchBook[] => list.sort((a, b) => b.origins.length - a.origins.length);

/**
 * One step of SearchModel.mergeItems: the hits of one source merged into the list so far.
 * A hit whose name and author an entry of its group already has adds its source to that entry
 * (once); any other becomes a new entry. Pure: `current` is not changed.
 */
export function mergeSearchBooks(current: readonly MergedSearchBook[], batch: readonly SearchBook[], key: string, precision = false): MergedSearchBook[] {
  if (batch.length === 0) return [...current];
  const groups: Record<Kind, MergedSearchBook[]> = { equal: [], contains: [], other: [] };
  for (const b of current) groups[kindOf(b, key)].push({ ...b, origins: [...b.origins] });
  for (const hit of batch) {
    const kind = kindOf(hit, key);
    if (kind === 'other' && precision) continue;
    const list = groups[kind];
    let same = false;
    for (let i = 0; i < list.length; i++) {
      const b = list[i]!;
      if (b.name !== hit.name || b.author !== hit.author) continue;
      same = true;
      if (!b.origins.includes(hit.origin)) list[i] = { ...b, origins: [...b.origins, hit.origin] };
    }
    if (!same) list.push({ ...withoutHtml(hit), origins: [hit.origin] });
  }
  const out = byOrigins(groups.equal);
  out.push(...byOrigins(groups.contains));
  if (!precision) out.push(...groups.other);
  return out;
}

/** Every source's hits merged in the order given (the app merges them as they arrive). */
export function mergeAllSearchBooks(batches: Iterable<readonly SearchBook[]>, key: string, precision = false): MergedSearchBook[] {
  let merged: MergedSearchBook[] = [];
  for (const batch of batches) merged = mergeSearchBooks(merged, batch, key, precision);
  return merged;
}

/** The hit without the pages it carried (SearchBook.releaseHtmlData, done before the app keeps a hit). */
export function withoutHtml<T extends SearchBook>(hit: T): T {
  if (hit.infoHtml === undefined && hit.tocHtml === undefined) return hit;
  const { infoHtml: _info, tocHtml: _toc, ...rest } = hit;
  return rest as T;
}
