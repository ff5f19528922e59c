// The values no listing prints unless asked: a site's cookies (session tokens) and a server's
// config (WebDAV account and password). Shown as MASK by list, query and diff.
import type { Schema } from '../schema/index.js';

/** Secret fields per table (field names; the SQL column names are the same). */
export const SECRET_FIELDS: Readonly<Record<string, readonly string[]>> = {
  cookies: ['cookie'],
  servers: ['config'],
};

/** What a secret value is shown as. */
export const MASK = '***';

export const isSecretField = (table: string, field: string): boolean => SECRET_FIELDS[table]?.includes(field) ?? false;

/** The row with its secret fields masked (null stays null: it holds nothing). A new object; the row is left as it is. */
export function maskRow<R extends Record<string, unknown>>(table: string, row: R): R {
  const secret = SECRET_FIELDS[table];
  if (!secret) return row;
  const out: Record<string, unknown> = { ...row };
  for (const f of secret) if (out[f] !== null && out[f] !== undefined) out[f] = MASK;
  return out as R;
}

/** SQL column names of the secret columns of a schema, as `table.column`. */
export function secretColumns(schema: Schema): Set<string> {
  const out = new Set<string>();
  for (const [table, fields] of Object.entries(SECRET_FIELDS)) {
    const t = schema.table(table);
    if (!t) continue;
    for (const f of fields) {
      const c = t.column(f);
      if (c) out.add(`${table}.${c.name}`);
    }
  }
  return out;
}
