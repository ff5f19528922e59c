// Before an import writes: the store's pages, so that a damaged page the import would not touch
// is not left behind a successful import.
import { refuseDamaged } from '../engine/integrity.js';
import { CorruptError, type Damage } from '../errors.js';
import { appNotes } from '../domain/invariants.js';
import { engineError } from '../engine/errors.js';
import { markDamaged } from '../store/guard.js';
import type { SchemaVersion } from '../schema/index.js';
import type { Store } from '../store/store.js';

/**
 * After an import's write: what the store holds that the app lives with but a reader may want to
 * know (domain/invariants.ts appNotes), for the import's report; nothing when there is none.
 */
export function afterImportNotes(store: Store<SchemaVersion>): { warnings?: readonly Damage[] } {
  const warnings = appNotes(store.db, store.schema);
  return warnings.length > 0 ? { warnings } : {};
}

/**
 * CORRUPT when the store is damaged: its pages (quick_check), and the indexes of `tables` (the
 * ones the import writes; 'all': every table) against their rows, since a write trusts them. A
 * closed store is STORE_CLOSED, as any call on it.
 */
export function refuseDamagedStore(store: Store<SchemaVersion>, tables: readonly string[] | 'all' = []): void {
  const present = store.schema.tables.map((t) => t.name);
  const checked = tables === 'all' ? present : present.filter((t) => tables.includes(t));
  try {
    refuseDamaged(store.db, store.path, 'none', undefined, checked);
  } catch (e) {
    const typed = engineError(store.path, e);
    // Closed as any store SQLite found damaged: a -wal that was beside it stays apart from it.
    if (typed instanceof CorruptError) markDamaged(store);
    throw typed;
  }
}
