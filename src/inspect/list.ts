// Rows of any table through its typed API (booleans as booleans, bitmasks as exact bigints),
// chosen by simple `field=value` filters given as text, e.g. on a command line.
import { InvalidArgumentError, UnknownFieldError } from '../errors.js';
import type { Column, Table } from '../schema/index.js';
import type { Store } from '../store/store.js';
import type { SchemaVersion } from '../schema/index.js';
import type { OrderTerm, Query } from '../table/query.js';
import { maskRow } from './secrets.js';

export interface ListOptions {
  /** Filters as text: `field=value`, also `!=`, `>`, `>=`, `<`, `<=`, and `~` for a LIKE pattern. All must hold. */
  readonly where?: readonly string[];
  /** `field` or `field:desc`, comma-separated for several. Default: the primary key. */
  readonly order?: string;
  readonly limit?: number;
  /** Only these fields, in this order. Default: every field of the table at the store's version. */
  readonly fields?: readonly string[];
  /** Print cookies and server configs as they are (masked by default). */
  readonly showSecrets?: boolean;
}

export interface RowListing {
  readonly table: string;
  readonly fields: readonly string[];
  /** Rows with only `fields`, read one at a time (a table may be larger than memory wants). */
  readonly rows: Iterable<Record<string, unknown>>;
}

const FILTER = /^([A-Za-z_][A-Za-z0-9_]*)\s*(!=|>=|<=|=|>|<|~)(.*)$/s;
const OPS: Record<string, string> = { '=': 'eq', '!=': 'ne', '>': 'gt', '>=': 'gte', '<': 'lt', '<=': 'lte', '~': 'like' };

/** The rows of `table` (a SQL table name) that pass the filters, in order, as the API types them. */
export function listRows(store: Store<SchemaVersion>, table: string, options: ListOptions = {}): RowListing {
  const api = store.table(table);
  const t = store.schema.table(table)!;
  const fields = options.fields?.length ? options.fields.map((f) => field(t, f, store.version).field) : t.columns.map((c) => c.field);
  const where: Record<string, Record<string, unknown>> = {};
  for (const text of options.where ?? []) {
    const m = FILTER.exec(text);
    if (!m) throw new InvalidArgumentError(`--where ${text}`, 'expected field=value (or !=, >, >=, <, <=, ~ for a LIKE pattern)');
    const [, name, op, raw] = m as unknown as [string, string, string, string];
    const c = field(t, name, store.version);
    const key = OPS[op]!;
    (where[c.field] ??= {})[key] = key === 'like' ? raw : parseValue(c, raw, text);
  }
  const orderBy: OrderTerm<Record<string, unknown>>[] = [];
  for (const term of (options.order ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name, dir = 'asc', ...rest] = term.split(':');
    if (rest.length || (dir !== 'asc' && dir !== 'desc')) throw new InvalidArgumentError(`--order ${term}`, 'expected field or field:desc');
    orderBy.push([field(t, name!, store.version).field, dir]);
  }
  if (!orderBy.length) for (const c of t.primaryKey) orderBy.push([c.field, 'asc']);
  if (options.limit !== undefined && (!Number.isSafeInteger(options.limit) || options.limit < 0)) {
    throw new InvalidArgumentError(`--limit ${options.limit}`, 'expected a whole number, 0 or more');
  }
  const query: Query<Record<string, unknown>> = { where, orderBy, ...(options.limit !== undefined ? { limit: options.limit } : {}) };
  const rows = api.iterate(query);
  return { table, fields, rows: project(rows, table, fields, options.showSecrets ?? false) };
}

function* project(rows: Iterable<Record<string, unknown>>, table: string, fields: readonly string[], showSecrets: boolean) {
  for (const row of rows) {
    const out: Record<string, unknown> = {};
    for (const f of fields) out[f] = row[f];
    yield showSecrets ? out : maskRow(table, out);
  }
}

/** A column by field name or by SQL column name (replace_rules `order` is column `sortOrder`). */
function field(t: Table, name: string, version: number): Column {
  const c = t.column(name) ?? t.columns.find((x) => x.name === name);
  if (!c) throw new UnknownFieldError(t.name, name, version);
  return c;
}

/** A filter value given as text, as the field's API type. */
export function parseValue(c: Column, raw: string, context = raw): unknown {
  const bad = (what: string) => new InvalidArgumentError(context, `${c.field} is ${what}, not ${JSON.stringify(raw)}`);
  switch (c.js) {
    case 'string':
      return raw;
    case 'boolean':
      if (/^(true|1)$/i.test(raw)) return true;
      if (/^(false|0)$/i.test(raw)) return false;
      throw bad('a boolean (true or false)');
    case 'number': {
      if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw bad('an integer');
      return Number(raw);
    }
    case 'bigint': {
      if (!/^-?\d+$/.test(raw)) throw bad('a 64-bit integer');
      const v = BigInt(raw);
      if (v < -(2n ** 63n) || v >= 2n ** 64n) throw bad('a 64-bit integer');
      return BigInt.asIntN(64, v);
    }
  }
}
