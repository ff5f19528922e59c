// Differences between two stores, table by table and row by row, keyed by each table's primary
// key: rows only in a, only in b, and rows in both whose fields differ (and which fields).
// Both sides are read in key order and merged, so a table of any size is compared in one pass.
import { gsonCompact } from '../backup/gson.js';
import { isJsonObjectColumn, NO_OBJECT_TEXT } from '../backup/json-columns.js';
import type { SchemaVersion, Table } from '../schema/index.js';
import type { Store } from '../store/store.js';
import { isSecretField, MASK } from './secrets.js';

export interface FieldChange {
  readonly field: string;
  readonly a: unknown;
  readonly b: unknown;
}

export interface ChangedRow {
  readonly key: unknown;
  readonly fields: readonly FieldChange[];
}

export interface TableDiff {
  readonly table: string;
  /** Keys (the value for one-field keys, an object for composite ones) of rows only in a, only in b. */
  readonly onlyInA: readonly unknown[];
  readonly onlyInB: readonly unknown[];
  readonly changed: readonly ChangedRow[];
  /** Rows in both and equal in every compared field. */
  readonly same: number;
  /** Fields this table has at one side's schema version only (not compared). */
  readonly fieldsOnlyInA: readonly string[];
  readonly fieldsOnlyInB: readonly string[];
}

export interface StoreDiff {
  readonly equal: boolean;
  readonly tables: readonly TableDiff[];
  /** Tables of one side's schema version only (not compared). */
  readonly tablesOnlyInA: readonly string[];
  readonly tablesOnlyInB: readonly string[];
}

export interface DiffOptions {
  /** Show cookie and server-config values that differ (masked by default). */
  readonly showSecrets?: boolean;
  /** Only these tables. */
  readonly tables?: readonly string[];
}

/** Compares every table both stores have, by primary key. */
export function diffStores(a: Store<SchemaVersion>, b: Store<SchemaVersion>, options: DiffOptions = {}): StoreDiff {
  const wanted = options.tables ? new Set(options.tables) : undefined;
  const pick = (t: Table) => !wanted || wanted.has(t.name);
  const tablesOnlyInA = a.schema.tables.filter((t) => pick(t) && !b.schema.table(t.name)).map((t) => t.name);
  const tablesOnlyInB = b.schema.tables.filter((t) => pick(t) && !a.schema.table(t.name)).map((t) => t.name);
  const tables: TableDiff[] = [];
  for (const ta of a.schema.tables) {
    const tb = b.schema.table(ta.name);
    if (!tb || !pick(ta)) continue;
    tables.push(diffTable(a, b, ta, tb, options.showSecrets ?? false));
  }
  const equal = tables.every((t) => t.onlyInA.length === 0 && t.onlyInB.length === 0 && t.changed.length === 0);
  return { equal, tables, tablesOnlyInA, tablesOnlyInB };
}

function diffTable(a: Store<SchemaVersion>, b: Store<SchemaVersion>, ta: Table, tb: Table, showSecrets: boolean): TableDiff {
  const fields = ta.columns.filter((c) => tb.column(c.field)).map((c) => c.field);
  const keyFields = ta.primaryKey.map((c) => c.field);
  const order = keyFields.map((f) => [f, 'asc'] as const);
  const rowsA = a.table(ta.name).iterate({ orderBy: order });
  const rowsB = b.table(tb.name).iterate({ orderBy: order });
  const keyOf = (r: Record<string, unknown>): unknown => (keyFields.length === 1 ? r[keyFields[0]!] : Object.fromEntries(keyFields.map((f) => [f, r[f]])));
  const onlyInA: unknown[] = [];
  const onlyInB: unknown[] = [];
  const changed: ChangedRow[] = [];
  let same = 0;
  try {
    merge();
  } finally {
    // A read that failed (a damaged page) leaves the other side's statement open: closed here, or
    // closing its store would fail with "busy executing a query" and hide the real error.
    rowsA.return?.();
    rowsB.return?.();
  }
  function merge(): void {
    let ra = rowsA.next();
    let rb = rowsB.next();
    while (!ra.done || !rb.done) {
      const c = ra.done ? 1 : rb.done ? -1 : compareKeys(keyFields, ra.value, rb.value);
      if (c < 0) {
        onlyInA.push(keyOf(ra.value!));
        ra = rowsA.next();
      } else if (c > 0) {
        onlyInB.push(keyOf(rb.value!));
        rb = rowsB.next();
      } else {
        const diffs: FieldChange[] = [];
        for (const f of fields) {
          const va = ra.value![f];
          const vb = rb.value![f];
          if (sameValue(va, vb) || (isJsonObjectColumn(ta.name, f) && sameObjectText(va, vb))) continue;
          const hide = !showSecrets && isSecretField(ta.name, f);
          diffs.push({ field: f, a: hide && va != null ? MASK : va, b: hide && vb != null ? MASK : vb });
        }
        if (diffs.length) changed.push({ key: keyOf(ra.value!), fields: diffs });
        else same++;
        ra = rowsA.next();
        rb = rowsB.next();
      }
    }
  }
  return {
    table: ta.name,
    onlyInA,
    onlyInB,
    changed,
    same,
    fieldsOnlyInA: ta.columns.filter((c) => !tb.column(c.field)).map((c) => c.field),
    fieldsOnlyInB: tb.columns.filter((c) => !ta.column(c.field)).map((c) => c.field),
  };
}

/** Equal as the store holds them: a bigint and a number of the same value are equal. */
function sameValue(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (x instanceof Uint8Array && y instanceof Uint8Array) return compareBytes(x, y) === 0;
  // biome-ignore lint/suspicious/noDoubleEquals: a bigint and a number compare by value only with ==
  if ((typeof x === 'bigint' || typeof x === 'number') && (typeof y === 'bigint' || typeof y === 'number')) return x == y;
  return false;
}

/**
 * The app's nested-object columns (rules, readConfig) hold JSON text: equal when they hold the
 * same JSON, however laid out, and null equals the text "null" (what the app's converter writes).
 */
function sameObjectText(x: unknown, y: unknown): boolean {
  const canon = (v: unknown): string | undefined => {
    if (v === null || v === undefined || v === NO_OBJECT_TEXT) return NO_OBJECT_TEXT;
    if (typeof v !== 'string') return undefined;
    try {
      return gsonCompact(JSON.parse(v));
    } catch {
      return v;
    }
  };
  const cx = canon(x);
  return cx !== undefined && cx === canon(y);
}

function compareKeys(fields: readonly string[], x: Record<string, unknown>, y: Record<string, unknown>): number {
  for (const f of fields) {
    const c = compareSql(x[f], y[f]);
    if (c !== 0) return c;
  }
  return 0;
}

/**
 * SQLite's order for ORDER BY with the BINARY collation, so the merge walks both sides as
 * SQLite sorted them: NULL, then numbers by value, then text by UTF-8 bytes (code points), then
 * blobs by their bytes (a key column may hold a blob: SQLite does not enforce the type).
 */
export function compareSql(x: unknown, y: unknown): number {
  const rank = (v: unknown) => (v === null || v === undefined ? 0 : typeof v === 'string' ? 2 : v instanceof Uint8Array ? 3 : 1);
  const rx = rank(x);
  const ry = rank(y);
  if (rx !== ry) return rx - ry;
  if (rx === 0) return 0;
  if (rx === 3) return compareBytes(x as Uint8Array, y as Uint8Array);
  if (rx === 1) {
    const nx = typeof x === 'boolean' ? Number(x) : (x as number | bigint);
    const ny = typeof y === 'boolean' ? Number(y) : (y as number | bigint);
    return nx < ny ? -1 : nx > ny ? 1 : 0;
  }
  return compareCodePoints(x as string, y as string);
}

/** Strings by code point (= UTF-8 byte order), not by UTF-16 unit as `<` does. */
function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let ca = a.charCodeAt(i);
    let cb = b.charCodeAt(i);
    if (ca === cb) continue;
    // Surrogates (D800-DFFF) encode code points above FFFF: move them above E000-FFFF.
    if (ca >= 0xd800 && cb >= 0xd800) {
      ca = ca >= 0xe000 ? ca - 0x800 : ca + 0x2000;
      cb = cb >= 0xe000 ? cb - 0x800 : cb + 0x2000;
    }
    return ca < cb ? -1 : 1;
  }
  return a.length - b.length;
}

/** Blobs as SQLite compares them: memcmp, then the shorter first. */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}
