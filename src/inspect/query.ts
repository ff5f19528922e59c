// Read-only SQL for what the typed commands do not cover. Three locks, each enough alone for
// writes: the CLI's connection is read-only (openStore's `readonly`), the statement must be one
// SQLite itself reports as read-only and returning rows (sqlite3_stmt_readonly, the reader
// flag), and its tokens (read as SQLite reads them, comments anywhere) must make one statement
// starting with a reading keyword, a PRAGMA only one that reads, without a value. The shape is
// checked before SQLite compiles the text: some PRAGMAs act while they are compiled.
// Secret columns (cookies, server configs) are not read at all unless asked: a statement whose
// compiled program reads one is refused (secret-reads.ts), so no expression, table function,
// error message or WHERE clause can carry a secret out.
import { InvalidQueryError, LegadoStoreError, SecretRefusedError, WriteRefusedError } from '../errors.js';
import type { Db } from '../engine/connection.js';
import type { Statement } from '../engine/driver.js';
import { engineError } from '../engine/errors.js';
import { secretColumnsRead } from './secret-reads.js';
import { isKeyword, isName, sqlTokens, type SqlToken } from './sql-tokens.js';

export interface QueryOptions {
  /** Let the statement read secret columns (cookie values, server configs); refused otherwise. */
  readonly showSecrets?: boolean;
  /** The store's path, for the typed errors of a failure while rows are read (CORRUPT, BUSY...). */
  readonly path?: string;
}

export interface QueryResult {
  /** Result column names, in select order (repeats allowed). */
  readonly columns: readonly string[];
  /** Rows as arrays in column order; integers outside the safe range as exact bigints. A failure while reading is a typed error. */
  readonly rows: Iterable<unknown[]>;
}

/** PRAGMAs that only report and take an argument in parentheses: the table or index to report on (or a row limit). */
const PRAGMAS_WITH_ARGUMENT = new Set([
  'table_info',
  'table_xinfo',
  'table_list',
  'index_list',
  'index_info',
  'index_xinfo',
  'foreign_key_list',
  'foreign_key_check',
  'integrity_check',
  'quick_check',
]);
/** PRAGMAs that only report: those, and these without an argument. */
const READING_PRAGMAS = new Set([
  ...PRAGMAS_WITH_ARGUMENT,
  'user_version',
  'schema_version',
  'application_id',
  'page_size',
  'page_count',
  'freelist_count',
  'journal_mode',
  'encoding',
  'collation_list',
  'function_list',
  'pragma_list',
  'compile_options',
  'database_list',
  'foreign_keys',
  'data_version',
  'module_list',
]);
const READING_START = ['select', 'with', 'values', 'explain', 'pragma'];
/** Table-valued modules that hand out a file's raw pages (secrets included) where an engine is built with them. */
const RAW_PAGE_MODULES = ['sqlite_dbpage', 'sqlite_dbdata', 'sqlite_dbptr'];

/**
 * Throws unless `sql`'s text is one statement that only reads: WriteRefusedError, or
 * InvalidQueryError for more than one statement. Needs no connection: call it before preparing.
 */
export function checkQueryText(sql: string): void {
  checkText(sql, true);
}

/** checkQueryText; `start` false leaves the first keyword to be checked after SQLite compiled the text (so a typo is a syntax error). */
function checkText(sql: string, start: boolean): void {
  const all = sqlTokens(sql);
  const semicolon = all.findIndex((t) => t.kind === 'punct' && t.text === ';');
  const tokens = semicolon < 0 ? all : all.slice(0, semicolon);
  if (semicolon >= 0 && all.slice(semicolon + 1).some((t) => !(t.kind === 'punct' && t.text === ';'))) {
    throw new InvalidQueryError(sql, 'more than one statement (query runs one)');
  }
  if (start && !READING_START.some((k) => isKeyword(tokens[0], k))) {
    throw new WriteRefusedError(sql, 'only a statement returning rows runs (SELECT, WITH … SELECT, VALUES, EXPLAIN, a reading PRAGMA)');
  }
  const raw = tokens.find((t) => RAW_PAGE_MODULES.some((m) => isName(t, m)));
  if (raw) throw new WriteRefusedError(sql, `${raw.text} reads the file's raw pages, which hold secrets and rows alike`);
  // EXPLAIN [QUERY PLAN] PRAGMA … compiles the PRAGMA too.
  let at = 0;
  if (isKeyword(tokens[0], 'explain')) at = isKeyword(tokens[1], 'query') && isKeyword(tokens[2], 'plan') ? 3 : 1;
  if (isKeyword(tokens[at], 'pragma')) checkPragma(sql, tokens.slice(at + 1));
}

/** `PRAGMA [schema.]name` or `PRAGMA [schema.]name(argument)`, for a reading PRAGMA; nothing else. */
function checkPragma(sql: string, rest: SqlToken[]): void {
  const named = rest[1]?.kind === 'punct' && rest[1].text === '.' ? rest.slice(2) : rest;
  const name = named[0];
  if (!name || (name.kind !== 'word' && name.kind !== 'quoted')) throw new WriteRefusedError(sql, 'a PRAGMA without a name');
  const pragma = name.text.toLowerCase();
  if (!READING_PRAGMAS.has(pragma)) throw new WriteRefusedError(sql, `PRAGMA ${name.text} can change the file or the connection`);
  const args = named.slice(1);
  if (args.length === 0) return;
  const isArgument = (t: SqlToken | undefined): boolean => t !== undefined && t.kind !== 'punct' && t.kind !== 'variable';
  const parenthesised =
    args.length === 3 && args[0]!.kind === 'punct' && args[0]!.text === '(' && isArgument(args[1]) && args[2]!.kind === 'punct' && args[2]!.text === ')';
  if (!parenthesised || !PRAGMAS_WITH_ARGUMENT.has(pragma)) {
    throw new WriteRefusedError(sql, `PRAGMA ${name.text} with a value sets it; only a PRAGMA that reads, without a value, runs`);
  }
}

/** Throws WriteRefusedError unless `sql` is a statement that only reads. Exported for callers with their own connection (checkQueryText first: some PRAGMAs act while compiled). */
export function checkReadOnlySql(sql: string, stmt: { readonly readonly: boolean; readonly reader?: boolean | undefined }): void {
  checkQueryText(sql);
  if (!stmt.readonly) throw new WriteRefusedError(sql, 'the statement writes (SQLite reports it as not read-only)');
  if (stmt.reader === false) {
    throw new WriteRefusedError(sql, 'only a statement returning rows runs (SELECT, WITH … SELECT, VALUES, EXPLAIN, a reading PRAGMA)');
  }
}

/** Runs one read-only SQL statement on `db`; refused when it would read a secret column, unless `showSecrets`. */
export function readOnlyQuery(db: Db, sql: string, options: QueryOptions = {}): QueryResult {
  checkText(sql, false);
  let stmt: Statement;
  try {
    stmt = db.prepare(sql);
  } catch (e) {
    throw failure(sql, e, options);
  }
  checkReadOnlySql(sql, stmt);
  if (!options.showSecrets && !isKeyword(sqlTokens(sql)[0], 'explain')) {
    const secrets = secretColumnsRead(db, sql);
    if (secrets.length) throw new SecretRefusedError(sql, secrets);
  }
  // An engine without column metadata: names from a first row.
  const columns = stmt.columns
    ? stmt.columns().map((c) => c.name)
    : Object.keys((readRows(sql, () => stmt.get(), options) as Record<string, unknown> | undefined) ?? {});
  stmt.raw(true).safeIntegers(true);
  return {
    columns,
    rows: (function* () {
      const it = readRows(sql, () => stmt.iterate() as IterableIterator<unknown[]>, options);
      try {
        for (;;) {
          const next = readRows(sql, () => it.next(), options);
          if (next.done) return;
          const row = next.value;
          for (let i = 0; i < row.length; i++) {
            const v = row[i];
            if (typeof v === 'bigint' && v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER)) row[i] = Number(v);
          }
          yield row;
        }
      } finally {
        // Rows left unread (the reader went away): the statement is reset, so the connection can close.
        it.return?.();
      }
    })(),
  };
}

/** Runs a step of reading rows; an engine failure becomes a typed error naming the SQL and SQLite's message. */
function readRows<T>(sql: string, step: () => T, options: QueryOptions): T {
  try {
    return step();
  } catch (e) {
    throw failure(sql, e, options);
  }
}

function failure(sql: string, e: unknown, options: QueryOptions): LegadoStoreError {
  if (e instanceof LegadoStoreError) return e;
  const typed = engineError(options.path ?? 'the store', e);
  if (typed instanceof LegadoStoreError) return typed;
  const code = (e as { code?: unknown }).code;
  const message = e instanceof Error ? e.message : String(e);
  return new InvalidQueryError(sql, typeof code === 'string' && code.startsWith('SQLITE_') && code !== 'SQLITE_ERROR' ? `${code}: ${message}` : message);
}
