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
