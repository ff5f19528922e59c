// A check's verdict written on the source's row: the three columns the app's check changes,
// in one UPDATE (the app's bookSourceDao.update after each source).
import type { SchemaVersion } from '../../schema/index.js';
import type { Store } from '../../store/store.js';
import type { CheckedRow } from './marks.js';

/** The row's group and comment as a check reads them; undefined when the source is gone. */
export function checkedRow(store: Store<SchemaVersion>, url: string): { bookSourceGroup: string | null; bookSourceComment: string | null } | undefined {
  const row = store.tables.book_sources.get(url) as { bookSourceGroup?: string | null; bookSourceComment?: string | null } | undefined;
  return row && { bookSourceGroup: row.bookSourceGroup ?? null, bookSourceComment: row.bookSourceComment ?? null };
}

/** Writes the verdict; false when the source is no longer in the store. */
export function writeCheckedRow(store: Store<SchemaVersion>, url: string, row: CheckedRow): boolean {
  const table = store.tables.book_sources as unknown as { update(key: string, patch: Record<string, unknown>): boolean };
  return table.update(url, { bookSourceGroup: row.bookSourceGroup, bookSourceComment: row.bookSourceComment, respondTime: row.respondTime });
}
