// Read-only SQL for what the typed commands do not cover. Three locks, each enough alone for
// writes: the CLI's connection is read-only (openStore's `readonly`), the statement must be one
// SQLite itself reports as read-only and returning rows (sqlite3_stmt_readonly, the reader
// flag), and it must start with a reading keyword, with PRAGMAs limited to ones that only read.
// Secret columns (cookies, server configs) are masked, also inside expressions and unions.
import { InvalidQueryError, WriteRefusedError } from '../errors.js';
import type { Db } from '../engine/connection.js';
import type { ColumnInfo, Statement } from '../engine/driver.js';
import type { Schema } from '../schema/index.js';
import { MASK, secretColumns, SECRET_FIELDS } from './secrets.js';

export interface QueryOptions {
  readonly showSecrets?: boolean;
}

export interface QueryResult {
  /** Result column names, in select order (repeats allowed). */
  readonly columns: readonly string[];
  /** Which result columns were masked. */
  readonly masked: readonly string[];
  /** Rows as arrays in column order; integers outside the safe range as exact bigints. */
  readonly rows: Iterable<unknown[]>;
}

/** PRAGMAs that only report, and may take a table or index name. */
const READING_PRAGMAS = new Set([
  'table_info', 'table_xinfo', 'table_list', 'index_list', 'index_info', 'index_xinfo', 'foreign_key_list',
  'foreign_key_check', 'integrity_check', 'quick_check', 'user_version', 'schema_version', 'application_id',
  'page_size', 'page_count', 'freelist_count', 'journal_mode', 'encoding', 'collation_list', 'function_list',
  'pragma_list', 'compile_options', 'database_list', 'foreign_keys', 'data_version', 'module_list',
]);
const READING_START = /^(select|with|values|explain|pragma)\b/i;

/** Leading whitespace and comments removed, so the first keyword can be read. */
function withoutLeadingComments(sql: string): string {
  let s = sql;
  for (;;) {
    const t = s.replace(/^\s+/, '');
    if (t.startsWith('--')) s = t.slice(t.indexOf('\n') < 0 ? t.length : t.indexOf('\n') + 1);
    else if (t.startsWith('/*')) s = t.slice(t.indexOf('*/') < 0 ? t.length : t.indexOf('*/') + 2);
    else return t;
  }
}

/** Throws WriteRefusedError unless `sql` is a statement that only reads. Exported for callers with their own connection. */
export function checkReadOnlySql(sql: string, stmt: { readonly readonly: boolean; readonly reader?: boolean }): void {
  const body = withoutLeadingComments(sql);
  if (!stmt.readonly) throw new WriteRefusedError(sql, 'the statement writes (SQLite reports it as not read-only)');
  if (stmt.reader === false || !READING_START.test(body)) {
    throw new WriteRefusedError(sql, 'only a statement returning rows runs (SELECT, WITH … SELECT, VALUES, EXPLAIN, a reading PRAGMA)');
  }
  const pragma = /^pragma\s+(?:[A-Za-z_]\w*\s*\.\s*)?([A-Za-z_]\w*)\s*(.*)$/is.exec(body);
  if (pragma) {
    const [, name, rest] = pragma as unknown as [string, string, string];
    if (!READING_PRAGMAS.has(name.toLowerCase()) || rest.trimStart().startsWith('=')) {
      throw new WriteRefusedError(sql, `PRAGMA ${name} with a value, or a PRAGMA that can change the file or the connection`);
    }
    if (rest.trim() !== '' && rest.trim() !== ';' && !/^(table_info|table_xinfo|table_list|index_list|index_info|index_xinfo|foreign_key_list|foreign_key_check|integrity_check|quick_check)$/i.test(name)) {
      throw new WriteRefusedError(sql, `PRAGMA ${name}(…) sets a value`);
    }
  }
}

/** Runs one read-only SQL statement on `db` (the schema tells which columns are secret). */
export function readOnlyQuery(db: Db, schema: Schema, sql: string, options: QueryOptions = {}): QueryResult {
  let stmt: Statement;
  try {
    stmt = db.prepare(sql);
  } catch (e) {
    throw new InvalidQueryError(sql, (e as Error).message);
  }
  checkReadOnlySql(sql, stmt);
  // An engine without column metadata: names from a first row, origins unknown (so every
  // column of a statement reading a secret table is masked).
  const cols: ColumnInfo[] = stmt.columns
    ? stmt.columns()
    : Object.keys((stmt.get() as Record<string, unknown> | undefined) ?? {}).map((name) => ({ name, table: null, column: null }));
  const columns = cols.map((c) => c.name);
  const masked = new Set<number>();
  if (!options.showSecrets) {
    // A secret can only be read by opening its table (no index holds a secret column). When the
    // statement does, every column is masked except a plain non-secret column of a simple
    // select: an expression (upper(cookie), a subquery) or a compound select (whose column
    // names come from its first part) may carry a secret under another name.
    const secret = secretColumns(schema);
    const readsSecrets = readsTables(db, sql, Object.keys(SECRET_FIELDS));
    const compound = /\b(union|intersect|except)\b/i.test(sql);
    cols.forEach((c, i) => {
      const origin = c.table !== null && c.column !== null ? `${c.table}.${c.column}` : undefined;
      if (origin !== undefined && secret.has(origin)) masked.add(i);
      else if (readsSecrets && (origin === undefined || compound)) masked.add(i);
    });
  }
  stmt.raw(true).safeIntegers(true);
  const run = (): IterableIterator<unknown> => {
    try {
      return stmt.iterate() as IterableIterator<unknown>;
    } catch (e) {
      throw new InvalidQueryError(sql, (e as Error).message);
    }
  };
  return {
    columns,
    masked: [...masked].map((i) => columns[i]!),
    rows: (function* () {
      for (const row of run() as Iterable<unknown[]>) {
        for (let i = 0; i < row.length; i++) {
          const v = row[i];
          if (masked.has(i) && v !== null) row[i] = MASK;
          else if (typeof v === 'bigint' && v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER)) row[i] = Number(v);
        }
        yield row;
      }
    })(),
  };
}

/** Whether the statement's program opens any of `tables` for reading (by root page, from EXPLAIN). */
function readsTables(db: Db, sql: string, tables: readonly string[]): boolean {
  if (/^(explain|pragma)\b/i.test(withoutLeadingComments(sql))) return false;
  const roots = new Set(
    db
      .prepare(`SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name IN (${tables.map(() => '?').join(', ')})`)
      .pluck()
      .all(...tables) as number[],
  );
  try {
    const program = db.prepare(`EXPLAIN ${sql}`).all() as { opcode: string; p2: number }[];
    return program.some((op) => op.opcode === 'OpenRead' && roots.has(op.p2));
  } catch {
    return true; // cannot tell: treat as reading them
  }
}
