// Before an import writes: the store's pages, so that a damaged page the import would not touch
// is not left behind a successful import.
import { refuseDamaged } from '../engine/integrity.js';
import { CorruptError } from '../errors.js';
import { engineError } from '../engine/errors.js';
import { markDamaged } from '../store/guard.js';
import type { SchemaVersion } from '../schema/index.js';
import type { Store } from '../store/store.js';

/** CORRUPT when the store is damaged; a closed store is STORE_CLOSED, as any call on it. */
export function refuseDamagedStore(store: Store<SchemaVersion>): void {
  try {
    refuseDamaged(store.db, store.path, 'none');
  } catch (e) {
    const typed = engineError(store.path, e);
    // Closed as any store SQLite found damaged: a -wal that was beside it stays apart from it.
    if (typed instanceof CorruptError) markDamaged(store);
    throw typed;
  }
}
