// The SQL text of an upgrade, in the form Room's AutoMigrationWriter generates it
// (legado-data-layer.md 5.1), built from the schema model.
import { createIndexSql, createTableSql, q } from '../schema/ddl.js';
import type { Column, Table, View } from '../schema/model.js';
import type { RebuiltTable } from './plan.js';

/** Room writes `DEFAULT NULL` for a new column that declares no default. */
export function addColumnSql(table: Table, c: Column): string {
  return `ALTER TABLE ${q(table.name)} ADD COLUMN ${q(c.name)} ${c.affinity}${c.notNull ? ' NOT NULL' : ''} DEFAULT ${c.default ?? 'NULL'}`;
}

export const newTableName = (table: Table): string => `_new_${table.name}`;

/** The statements of one rebuild, split where the runner checks the copy before the drop. */
export function rebuildSql(r: RebuiltTable): { create: string; copy: string; replace: string[] } {
  const name = r.to.name;
  const cols = r.copied.map(q).join(', ');
  return {
    create: createTableSql(r.to, newTableName(r.to)),
    copy: `INSERT INTO ${q(newTableName(r.to))} (${cols}) SELECT ${cols} FROM ${q(name)}`,
    replace: [`DROP TABLE ${q(name)}`, `ALTER TABLE ${q(newTableName(r.to))} RENAME TO ${q(name)}`, ...createIndexSql(r.to)],
  };
}

export const dropViewSql = (v: View): string => `DROP VIEW ${q(v.name)}`;
