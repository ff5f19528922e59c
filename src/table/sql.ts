// The SQL text of each table operation, built from the model once per table.
import { q } from '../schema/ddl.js';
import type { Column, Table } from '../schema/index.js';

/** The select list, aliasing renamed columns back to their field names. */
export function selectList(table: Table): string {
  return table.columns.map((c) => (c.js === 'bigint' ? exactInteger(q(c.name)) : c.name === c.field ? q(c.name) : `${q(c.name)} AS ${q(c.field)}`)).join(', ');
}

/**
 * A 64-bit bitmask column (books.group, book_groups.groupId) as a number where that is exact
 * and as decimal text where it is not, so that the row builder makes either an exact bigint.
 * Reading the row with safeIntegers instead makes every integer of it a bigint: a shelf of
 * 11,691 books took 82 ms to read against 58 ms. Left unnamed: an alias would be what
 * ORDER BY "group" sorts by.
 */
const exactInteger = (col: string): string =>
  `CASE WHEN ${col} BETWEEN -9007199254740991 AND 9007199254740991 THEN ${col} WHEN typeof(${col}) = 'integer' THEN CAST(${col} AS TEXT) ELSE ${col} END`;

export const keyWhere = (table: Table): string => table.primaryKey.map((c) => `${q(c.name)} = ?`).join(' AND ');

/** An INSERT of every column, for `rows` rows in one statement (bulk writes, batch.ts); `verb` may name a conflict clause. */
export function insertSql(table: Table, rows = 1, verb: 'INSERT' | 'INSERT OR FAIL' = 'INSERT'): string {
  const cols = table.columns.map((c) => q(c.name)).join(', ');
  const tuple = `(${table.columns.map(() => '?').join(', ')})`;
  return `${verb} INTO ${q(table.name)} (${cols}) VALUES ${Array<string>(rows).fill(tuple).join(', ')}`;
}

/**
 * A multi-row INSERT whose `shared` columns (indices) hold the same value in every row: those
 * are bound once, before the rows, which bind only the other columns. SQLite copies a shared
 * value into each row in C, where binding it again per row costs a call from JavaScript each:
 * `INSERT INTO t (...) SELECT s.c4, v.column1, ... FROM (SELECT ? AS c4, ...) AS s,
 * (VALUES (?, ...), ...) AS v WHERE true`. The rows go in VALUES order, as in insertSql.
 */
export function insertSharedSql(table: Table, rows: number, shared: readonly number[]): string {
  const cols = table.columns.map((c) => q(c.name)).join(', ');
  const varying = varyingColumns(table, shared);
  const select = table.columns.map((_, i) => (varying.includes(i) ? `v.column${varying.indexOf(i) + 1}` : `s.c${i}`)).join(', ');
  const tuple = `(${Array<string>(varying.length).fill('?').join(', ')})`;
  // WHERE true: an upsert after INSERT … SELECT needs it (SQLite's parsing of ON CONFLICT).
  return (
    `INSERT INTO ${q(table.name)} (${cols}) SELECT ${select} FROM (SELECT ${shared.map((i) => `? AS c${i}`).join(', ')}) AS s, ` +
    `(VALUES ${Array<string>(rows).fill(tuple).join(', ')}) AS v WHERE true`
  );
}

/**
 * The columns insertSharedSql binds in each row (every column not in `shared`), in column
 * order: the layout of its VALUES tuples, and so of every parameter list made for it.
 */
export function varyingColumns(table: Table, shared: readonly number[]): number[] {
  return table.columns.map((_, i) => i).filter((i) => !shared.includes(i));
}

/** Insert, or update the existing row in place: never INSERT OR REPLACE, which deletes and cascades. */
export function upsertSql(table: Table, rows = 1): string {
  return `${insertSql(table, rows)}${upsertAction(table)}`;
}

/** upsertSql in insertSharedSql's form. */
export function upsertSharedSql(table: Table, rows: number, shared: readonly number[]): string {
  return `${insertSharedSql(table, rows, shared)}${upsertAction(table)}`;
}

function upsertAction(table: Table): string {
  const rest = table.columns.filter((c) => c.pk === 0);
  const target = table.primaryKey.map((c) => q(c.name)).join(', ');
  const action = rest.length === 0 ? 'DO NOTHING' : `DO UPDATE SET ${rest.map((c) => `${q(c.name)} = excluded.${q(c.name)}`).join(', ')}`;
  return ` ON CONFLICT(${target}) ${action}`;
}

/** The SQL of a table's one-row operations (TableApi's), made once per table model, not per store. */
export interface TableSql {
  readonly insert: string;
  readonly upsert: string;
  readonly get: string;
  readonly has: string;
  readonly delete: string;
  /** `SELECT <every column> FROM <table>`, for lists and finders to go on from. */
  readonly from: string;
}

const tableSqls = new WeakMap<Table, TableSql>();

export function tableSql(table: Table): TableSql {
  let sql = tableSqls.get(table);
  if (sql === undefined) {
    sql = {
      insert: insertSql(table),
      upsert: upsertSql(table),
      get: getSql(table),
      has: hasSql(table),
      delete: deleteSql(table),
      from: `SELECT ${selectList(table)} FROM ${q(table.name)}`,
    };
    tableSqls.set(table, sql);
  }
  return sql;
}

export const getSql = (table: Table): string => `SELECT ${selectList(table)} FROM ${q(table.name)} WHERE ${keyWhere(table)}`;
export const hasSql = (table: Table): string => `SELECT 1 FROM ${q(table.name)} WHERE ${keyWhere(table)}`;
export const deleteSql = (table: Table): string => `DELETE FROM ${q(table.name)} WHERE ${keyWhere(table)}`;

export function updateSql(table: Table, cols: readonly Column[]): string {
  return `UPDATE ${q(table.name)} SET ${cols.map((c) => `${q(c.name)} = ?`).join(', ')} WHERE ${keyWhere(table)}`;
}
