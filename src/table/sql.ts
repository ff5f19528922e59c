// The SQL text of each table operation, built from the model once per table.
import { q } from '../schema/ddl.js';
import type { Column, Table } from '../schema/index.js';

/** The select list, aliasing renamed columns back to their field names. */
export function selectList(table: Table): string {
  return table.columns.map((c) => (c.name === c.field ? q(c.name) : `${q(c.name)} AS ${q(c.field)}`)).join(', ');
}

export const keyWhere = (table: Table): string => table.primaryKey.map((c) => `${q(c.name)} = ?`).join(' AND ');

/** An INSERT of every column, for `rows` rows in one statement (bulk writes, batch.ts). */
export function insertSql(table: Table, rows = 1): string {
  const cols = table.columns.map((c) => q(c.name)).join(', ');
  const tuple = `(${table.columns.map(() => '?').join(', ')})`;
  return `INSERT INTO ${q(table.name)} (${cols}) VALUES ${Array<string>(rows).fill(tuple).join(', ')}`;
}

/** Insert, or update the existing row in place: never INSERT OR REPLACE, which deletes and cascades. */
export function upsertSql(table: Table, rows = 1): string {
  const rest = table.columns.filter((c) => c.pk === 0);
  const target = table.primaryKey.map((c) => q(c.name)).join(', ');
  const action = rest.length === 0 ? 'DO NOTHING' : `DO UPDATE SET ${rest.map((c) => `${q(c.name)} = excluded.${q(c.name)}`).join(', ')}`;
  return `${insertSql(table, rows)} ON CONFLICT(${target}) ${action}`;
}

export const getSql = (table: Table): string => `SELECT ${selectList(table)} FROM ${q(table.name)} WHERE ${keyWhere(table)}`;
export const hasSql = (table: Table): string => `SELECT 1 FROM ${q(table.name)} WHERE ${keyWhere(table)}`;
export const deleteSql = (table: Table): string => `DELETE FROM ${q(table.name)} WHERE ${keyWhere(table)}`;

export function updateSql(table: Table, cols: readonly Column[]): string {
  return `UPDATE ${q(table.name)} SET ${cols.map((c) => `${q(c.name)} = ?`).join(', ')} WHERE ${keyWhere(table)}`;
}
