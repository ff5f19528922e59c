// Bulk writes as multi-row statements: `INSERT ... VALUES (...), (...), ...` binds a batch of
// rows in one call and one statement step, which costs less per row than a statement per row
// (0.70x of one-row statements at 128 rows of chapters, better-sqlite3). A batch holds as many
// rows as BATCH_VALUES values allow (66 chapters, 34 book sources), within the engine's limit
// (its capabilities.maxParameters: 100 on a Durable Object).
// Columns every row of a batch shares are bound once instead (table.ts, insertSharedSql).
import type { Connection } from '../engine/driver.js';

/**
 * Values per multi-row statement at most. Beyond, the gain per row is a few percent while the
 * statement takes longer to prepare (once per store and table): 256 rows of 29 columns cost a
 * 1,000-source upsert more than it saved.
 */
const BATCH_VALUES = 1000;

const limits = new WeakMap<Connection, number>();

/**
 * SQLite's limit on variables in one statement: 32766 from 3.32 on, 999 before (the compile-time
 * defaults), or the engine's own when it says it takes fewer (a Durable Object: 100; it also
 * refuses sqlite_version()).
 */
function variableLimit(db: Connection): number {
  let limit = limits.get(db);
  if (limit === undefined && db.capabilities.maxParameters < 999) limits.set(db, (limit = db.capabilities.maxParameters));
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
  return Math.max(1, Math.floor(Math.min(BATCH_VALUES, variableLimit(db), db.capabilities.maxParameters) / width));
}
