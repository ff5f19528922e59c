// Bulk writes as multi-row statements: `INSERT ... VALUES (...), (...), ...` binds a batch of
// rows in one call and one statement step, which costs less per row than a statement per row
// (0.70x of one-row statements at 128 rows of chapters, better-sqlite3). A batch holds as many
// rows as the engine's limit on bound variables allows, up to BATCH_ROWS.
import type { Connection } from '../engine/driver.js';

/** Rows per multi-row statement at most: beyond, the gain is a few percent and the SQL long. */
const BATCH_ROWS = 256;

const limits = new WeakMap<Connection, number>();

/** SQLite's limit on variables in one statement: 32766 from 3.32 on, 999 before (the compile-time defaults). */
function variableLimit(db: Connection): number {
  let limit = limits.get(db);
  if (limit === undefined) {
    const version = String(db.prepare('SELECT sqlite_version()').pluck().get());
    const [major = 0, minor = 0] = version.split('.').map(Number);
    limit = major > 3 || (major === 3 && minor >= 32) ? 32766 : 999;
    limits.set(db, limit);
  }
  return limit;
}

/** How many rows of `width` values one statement of a bulk write takes. */
export function batchRows(db: Connection, width: number): number {
  return Math.max(1, Math.min(BATCH_ROWS, Math.floor(variableLimit(db) / width)));
}
