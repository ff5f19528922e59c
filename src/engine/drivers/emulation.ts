// What the adapters that emulate better-sqlite3's statements share.

/** better-sqlite3 spreads arrays given as parameters; the other engines would bind them as values. */
export function bindable(params: unknown[]): unknown[] {
  for (const p of params) if (Array.isArray(p)) return params.flat();
  return params;
}

/** How a statement returns rows: objects, arrays (raw), or the first column's value (pluck). */
export enum RowMode {
  Objects,
  Raw,
  Pluck,
}

/** Statements that cannot write, where the engine does not tell (sqlite3_stmt_readonly): a SELECT or VALUES. */
export const READ_ONLY_SQL = /^\s*(SELECT|VALUES)\b/i;

/**
 * Statements that write whatever they match: SQLite begins a write transaction for every
 * INSERT, REPLACE, UPDATE and DELETE (a view's with INSTEAD OF triggers too), so
 * sqlite3_stmt_readonly is false for them without reading their program.
 */
export const WRITE_SQL = /^\s*(INSERT|REPLACE|UPDATE|DELETE)\b/i;

/**
 * Whether `sql` holds more than one statement: anything but blanks, comments and semicolons after
 * the first top-level `;`. node:sqlite, bun:sqlite and the WASM build prepare the first statement
 * and drop the rest silently; better-sqlite3 refuses, and so do the adapters (see refuseTail).
 */
export function hasTail(sql: string): boolean {
  // Without a `;` there is one statement (a second one after the first without it is a syntax
  // error, which the engine reports). The scan below took ~40 µs for a 34-row upsert's text.
  if (sql.indexOf(';') < 0) return false;
  let i = 0;
  const n = sql.length;
  let ended = false; // past the first top-level `;`
  while (i < n) {
    const c = sql[i]!;
    if (c === '-' && sql[i + 1] === '-') {
      const nl = sql.indexOf('\n', i);
      i = nl < 0 ? n : nl + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === ';') {
      ended = true;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f') {
      i++;
    } else if (ended) {
      return true;
    } else if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      let j = i + 1;
      for (;;) {
        const k = sql.indexOf(close, j);
        if (k < 0) return false; // unterminated: the engine reports the syntax error
        if (close !== ']' && sql[k + 1] === close)
          j = k + 2; // doubled quote inside
        else {
          i = k + 1;
          break;
        }
      }
    } else {
      i++;
    }
  }
  return false;
}

/** Throws as better-sqlite3 does when `sql` holds more than one statement. */
export function refuseTail(sql: string): void {
  if (hasTail(sql)) throw new RangeError('The supplied SQL string contains more than one statement');
}

/**
 * sqlite3_stmt_readonly from a statement's EXPLAIN program, for an engine that does not expose
 * it: SQLite marks a program as writing when it opens a write transaction on any database (the
 * temp one included) or checkpoints, vacuums or changes the journal mode.
 */
export function readonlyFromProgram(program: readonly { opcode: string; p2: number | bigint }[]): boolean {
  for (const op of program) {
    if (op.opcode === 'Transaction' && Number(op.p2) !== 0) return false;
    if (op.opcode === 'Checkpoint' || op.opcode === 'Vacuum' || op.opcode === 'JournalMode') return false;
  }
  return true;
}

/**
 * `sql` without a leading EXPLAIN or EXPLAIN QUERY PLAN (and the blanks and comments before it):
 * sqlite3_stmt_readonly answers for an EXPLAIN as for the statement it explains.
 */
export function explained(sql: string): string {
  const m = /^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*explain\b(?:\s+query\s+plan\b)?/i.exec(sql);
  return m === null ? sql : sql.slice(m[0].length);
}
