// Enabling and disabling book sources by group or by URL, as the app's source manager does
// (BookSourceDao enable/disable by url, in one transaction).
import { UnknownGroupError, UnknownSourceError } from '../errors.js';
import type { SchemaVersion } from '../schema/index.js';
import type { Store } from '../store/store.js';

export interface SourceTarget {
  /** Every source in this group (the app's comma-aware group match). */
  readonly group?: string;
  /** These sources, by bookSourceUrl. */
  readonly urls?: readonly string[];
}

export interface EnableResult {
  /** The sources the target names. */
  readonly sources: readonly string[];
  /** How many of them changed (the others already were so). */
  readonly changed: number;
}

/**
 * Sets `enabled` on the named sources, in one transaction. A group no source is in, or a URL
 * of no source, is an error and nothing is changed.
 */
export function setSourcesEnabled(store: Store<SchemaVersion>, target: SourceTarget, enabled: boolean): EnableResult {
  const urls = new Set<string>();
  if (target.group !== undefined) {
    const inGroup = store.bookSources.byGroup(target.group);
    if (inGroup.length === 0) throw new UnknownGroupError(target.group, store.bookSources.groups(), 'source group');
    for (const s of inGroup) urls.add(s.bookSourceUrl);
  }
  const table = store.tables.book_sources;
  const missing = (target.urls ?? []).filter((u) => !table.has(u));
  if (missing.length) throw new UnknownSourceError('book_sources', missing);
  for (const u of target.urls ?? []) urls.add(u);
  const changed = store.bookSources.setEnabled(urls, enabled);
  return { sources: [...urls], changed };
}
