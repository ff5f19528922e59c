// The checks around an upgrade: before it, that nothing stands where it will create tables or views;
// after it, inside the transaction, that the tables it wrote break no foreign key.
import type { Db } from '../engine/connection.js';
import type { ForeignKeyViolation, StructureDifference } from '../errors.js';
import { q } from '../schema/ddl.js';
import type { Table } from '../schema/model.js';
import { namesCreated, type UpgradePlan } from './plan.js';

/** Tables and views the upgrade would create (new ones, `_new_<t>` for rebuilds) that already exist. */
export function tablesInTheWay(db: Db, plan: UpgradePlan): StructureDifference[] {
  const created = namesCreated(plan);
  const exists = db.prepare('SELECT type FROM sqlite_master WHERE name = ?').pluck();
  return [...created.tables, ...created.views]
    .filter((name) => exists.get(name) !== undefined)
    .map((name) => ({
      table: name,
      kind: 'table-in-the-way' as const,
      message: `${name}: a ${exists.get(name) as string} of this name already exists; the upgrade to ${plan.to.version} creates it`,
    }));
}

/**
 * PRAGMA foreign_key_check on the tables the upgrade rewrote, as Room does after a rebuild.
 * References into a rebuilt table stay valid because the rebuild copies every key (the runner
 * checks the row count), so the children (chapters, searchBooks) need no scan: that keeps the
 * cost of an upgrade independent of how many chapters a file holds.
 */
export function foreignKeyViolations(db: Db, tables: readonly Table[]): ForeignKeyViolation[] {
  const out: ForeignKeyViolation[] = [];
  for (const t of tables) {
    if (t.foreignKeys.length === 0) continue;
    const rows = db.prepare(`PRAGMA foreign_key_check(${q(t.name)})`).all() as { table: string; rowid: number | null; parent: string }[];
    // A loop, not push(...rows): past ~120,000 arguments a spread overflows the stack.
    for (const r of rows) out.push({ table: r.table, rowid: r.rowid, parent: r.parent });
  }
  return out;
}
