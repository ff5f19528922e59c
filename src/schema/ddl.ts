// SQL text for a schema, written the way Room writes it (room-conventions.md section 1), so
// a file we create is the file the app would create.
import type { Column, Schema, Table, View } from './model.js';

export const q = (identifier: string): string => `\`${identifier}\``;

function columnDdl(table: Table, c: Column): string {
  if (table.autoGenerate && c.pk === 1) return `${q(c.name)} ${c.affinity} PRIMARY KEY AUTOINCREMENT NOT NULL`;
  let sql = `${q(c.name)} ${c.affinity}`;
  if (c.notNull) sql += ' NOT NULL';
  if (c.default !== undefined) sql += ` DEFAULT ${c.default}`;
  return sql;
}

/** CREATE TABLE for one table; `name` lets a migration build `_new_<table>` from it. */
export function createTableSql(table: Table, name = table.name): string {
  const parts = table.columns.map((c) => columnDdl(table, c));
  if (!table.autoGenerate) parts.push(`PRIMARY KEY(${table.primaryKey.map((c) => q(c.name)).join(', ')})`);
  for (const fk of table.foreignKeys) {
    parts.push(
      `FOREIGN KEY(${fk.columns.map(q).join(', ')}) REFERENCES ${q(fk.parent)}(${fk.parentColumns.map(q).join(', ')})` +
        ` ON UPDATE ${fk.onUpdate} ON DELETE ${fk.onDelete}`,
    );
  }
  // Room ends each FOREIGN KEY clause with a space, so its DDL reads `... ON DELETE CASCADE )`.
  const close = table.foreignKeys.length ? ' )' : ')';
  return `CREATE TABLE IF NOT EXISTS ${q(name)} (${parts.join(', ')}${close}`;
}

export function createIndexSql(table: Table): string[] {
  return table.indices.map(
    (ix) => `CREATE ${ix.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${q(ix.name)} ON ${q(table.name)} (${ix.columns.map(q).join(', ')})`,
  );
}

/** Room writes a view as `CREATE VIEW `name` AS ` + the declared query, and checks it by that text. */
export function createViewSql(view: View): string {
  return `CREATE VIEW ${q(view.name)} AS ${view.query}`;
}

export const MASTER_TABLE_SQL = 'CREATE TABLE IF NOT EXISTS room_master_table (id INTEGER PRIMARY KEY,identity_hash TEXT)';

export function masterRowSql(identityHash: string): string {
  return `INSERT OR REPLACE INTO room_master_table (id,identity_hash) VALUES(42, '${identityHash}')`;
}

/** Every statement Room runs to create a new database of this schema, in its order. */
export function createSchemaSql(schema: Schema, identityHash: string): string[] {
  const out: string[] = [];
  for (const t of schema.tables) out.push(createTableSql(t), ...createIndexSql(t));
  for (const v of schema.views) out.push(createViewSql(v));
  out.push(MASTER_TABLE_SQL, masterRowSql(identityHash));
  return out;
}
