// Turning API rows into SQL values and back, checked against the model: required fields,
// defaults, value types, booleans as 0/1, 64-bit bitmasks as bigint.
import { MissingFieldError, UnknownFieldError, ValueTypeError } from '../errors.js';
import type { Column, Table } from '../schema/index.js';
import { isRowObject, ROW_OBJECT } from './args.js';
import { isWellFormedText, loneSurrogateError } from './text.js';
import {
  compileEncoder,
  compileExactRowBuilder,
  compileRowBuilder,
  compileRowFixer,
  compileSplitEncoder,
  compileValuesEncoder,
  type FastEncoder,
  type RowBuilder,
  type RowFixer,
  type ValuesEncoder,
} from './compiled.js';

export type SqlValue = string | number | bigint | null;

const INT64_MIN = -(2n ** 63n);
const INT32 = [-(2 ** 31), 2 ** 31 - 1] as const;
const SAFE = [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER] as const;
const INT64 = [-(2n ** 63n), 2n ** 63n - 1n] as const;
const UINT64_MAX = 2n ** 64n - 1n;

/**
 * Which values of a column a point lookup binds as given, without encodeValue: text in a string
 * column (1), integers in a number column (2); 0 sends every value through encodeValue.
 */
export const plainKind = (c: Column): number => (c.js === 'string' ? 1 : c.js === 'number' ? 2 : 0);

/** True when encodeValue would return `v` unchanged for a column of this plainKind. */
export const isPlain = (kind: number, v: unknown): boolean =>
  kind === 1 ? typeof v === 'string' && isWellFormedText(v) : kind === 2 && typeof v === 'number' && Number.isInteger(v);

/** The SQL value of a column's DDL default literal, or undefined when it has none. */
export function defaultValue(c: Column): SqlValue | undefined {
  // The app's entity default where it differs from the DDL's: what the app writes for a field
  // not given (Room writes every column, so the DDL default never reaches the app's own rows).
  const d = c.entityDefault ?? c.default;
  if (d === undefined) return undefined;
  if (d.startsWith("'")) return d.slice(1, -1).replace(/''/g, "'");
  return c.js === 'bigint' ? BigInt(d) : Number(d);
}

const fallbacks = new WeakMap<Table, readonly (SqlValue | undefined)[]>();

/**
 * What each omitted field of the table becomes (Codec.fallback), found once per table model:
 * a store makes a codec per table at every open.
 */
function fallbackOf(table: Table): readonly (SqlValue | undefined)[] {
  let f = fallbacks.get(table);
  if (f === undefined) {
    f = table.columns.map((c) => {
      const d = defaultValue(c);
      if (d !== undefined) return d;
      if (!c.notNull || (table.autoGenerate && c.pk === 1)) return null;
      return undefined;
    });
    fallbacks.set(table, f);
  }
  return f;
}

const isBigint = (c: Column): boolean => c.js === 'bigint';

export class Codec {
  readonly table: Table;
  readonly version: number;
  private readonly cols: readonly Column[];
  /** What an omitted field becomes: its default, null, or `undefined` for "required". */
  private readonly fallback: readonly (SqlValue | undefined)[];
  /** True when the table has a 64-bit bitmask column: its rows are read as arrays, for the builder to make the bigints. */
  readonly bigintRows: boolean;
  /** Column index of an auto-generated key, or -1. */
  private readonly autoKey: number;
  /** Generated from the model on first use (so opening a store compiles nothing): encodeRow for rows it accepts as they are, and fromRaw. */
  private fastEncode: FastEncoder | undefined;
  private valuesEncode: ValuesEncoder | undefined;
  private build: RowBuilder | undefined;
  private fix: RowFixer | undefined;

  constructor(table: Table, version: number) {
    this.table = table;
    this.version = version;
    this.cols = table.columns;
    this.fallback = fallbackOf(table);
    this.bigintRows = table.columns.some(isBigint);
    this.autoKey = table.autoGenerate ? table.columns.indexOf(table.primaryKey[0]!) : -1;
  }

  /** All column values, in column order, for a full-row INSERT. */
  encodeRow(row: Readonly<Record<string, unknown>>): SqlValue[] {
    if (row !== null && typeof row === 'object' && !Array.isArray(row)) {
      const out = new Array<SqlValue>(this.cols.length);
      if ((this.fastEncode ??= compileEncoder(this.table, this.fallback))(row, out, 0)) return out;
    }
    return this.encodeRowChecked(row);
  }

  /**
   * A row given as its field values in column order (undefined: left out), encoded as
   * encodeRow would encode the row of those fields; undefined where only the general path can
   * tell (a value it would convert or refuse), which the row itself then takes.
   */
  encodeValues(values: readonly unknown[]): SqlValue[] | undefined {
    const out = new Array<SqlValue>(this.cols.length);
    return (this.valuesEncode ??= compileValuesEncoder(this.table, this.fallback))(values, out, 0) ? out : undefined;
  }

  /** encodeRow into `out` from `at` on (a bulk write's batch), without an array per row. */
  encodeInto(row: Readonly<Record<string, unknown>>, out: SqlValue[], at: number): void {
    if (row !== null && typeof row === 'object' && !Array.isArray(row) && (this.fastEncode ??= compileEncoder(this.table, this.fallback))(row, out, at)) return;
    const vals = this.encodeRowChecked(row);
    for (let i = 0; i < vals.length; i++) out[at + i] = vals[i]!;
  }

  /**
   * A bulk write's encoder for rows whose `shared` columns hold the values at the front of its
   * output (compileSplitEncoder); undefined where code cannot be generated.
   */
  splitEncoder(shared: readonly number[]): FastEncoder | undefined {
    return compileSplitEncoder(this.table, this.fallback, shared);
  }

  /** encodeRow for every row: the general path, which also raises the errors. */
  private encodeRowChecked(row: Readonly<Record<string, unknown>>): SqlValue[] {
    if (!isRowObject(row)) {
      throw new ValueTypeError(this.table.name, '(row)', row, ROW_OBJECT);
    }
    const cols = this.cols;
    const out = new Array<SqlValue>(cols.length);
    let present = 0;
    for (let i = 0; i < cols.length; i++) {
      const c = cols[i]!;
      const v = row[c.field];
      if (v === undefined) {
        const d = this.fallback[i];
        if (d === undefined) throw new MissingFieldError(this.table.name, c.field, undefined);
        out[i] = d;
      } else {
        present++;
        out[i] = this.encodeValue(c, v);
      }
    }
    if (Object.keys(row).length !== present) this.checkFields(row);
    // Room treats an auto-generated key of 0 as "not set" and lets SQLite choose one.
    if (this.autoKey >= 0 && out[this.autoKey] === 0) out[this.autoKey] = null;
    return out;
  }

  /** One field's SQL value; null is allowed only where the column is nullable. */
  encodeValue(c: Column, v: unknown): SqlValue {
    if (v === null) {
      // An auto-generated key given as null asks SQLite for a new id, as Room does.
      if (c.notNull && !(this.table.autoGenerate && c.pk === 1)) throw new MissingFieldError(this.table.name, c.field, null);
      return null;
    }
    switch (c.js) {
      case 'string':
        if (typeof v === 'string') {
          if (isWellFormedText(v)) return v;
          // What the engine would store is not the text given (text.ts).
          throw loneSurrogateError(this.table.name, c.field, v);
        }
        break;
      case 'number': {
        // What the app can read: an Int's 32 bits; a Long's 64, given as a number within
        // ±(2^53-1) (one past that was already rounded by JavaScript) or as a bigint. A Long
        // past 2^53 reads back as the bigint it is (compiled.ts INEXACT). Ranges indexed, not
        // destructured: a destructuring was a third of this method's time on a progress save.
        if (typeof v === 'number') {
          const range = c.int32 ? INT32 : SAFE;
          if (Number.isInteger(v) && v >= (c.min ?? range[0]) && v <= range[1]) return v;
        } else if (typeof v === 'bigint') {
          const range = c.int32 ? INT32 : INT64;
          if (v >= (c.min ?? range[0]) && v <= range[1]) return v;
        }
        break;
      }
      case 'boolean':
        if (v === true) return 1;
        if (v === false) return 0;
        break;
      case 'bigint':
        if (typeof v === 'bigint') {
          // Bit 63 may be given unsigned (2^63) or signed (-2^63): both store the same 64 bits.
          if (v >= INT64_MIN && v <= UINT64_MAX) return BigInt.asIntN(64, v);
        } else if (typeof v === 'number' && Number.isSafeInteger(v)) {
          return v;
        }
        break;
    }
    throw new ValueTypeError(this.table.name, c.field, v, expectation(c));
  }

  /** Raises the error for the first key of `row` that is not a field of the table. */
  checkFields(row: Readonly<Record<string, unknown>>): void {
    for (const k of Object.keys(row)) {
      if (!this.table.column(k)) throw new UnknownFieldError(this.table.name, k, this.version);
    }
  }

  /**
   * The API row of a row read from SQLite as an array (raw mode) in column order: booleans
   * from 0/1, 64-bit bitmasks as bigints.
   */
  fromRaw<R>(values: readonly unknown[]): R {
    return (this.build ??= compileRowBuilder(this.table))(values) as R;
  }

  /** The API row of a row read with safeIntegers (TableCore.exactly): integers past ±(2^53-1) as bigints. */
  fromExact<R>(values: readonly unknown[]): R {
    return compileExactRowBuilder(this.table)(values) as R;
  }

  /**
   * The API row of a row read as an object (the select list names each column by its field),
   * made in place: booleans from 0/1. Not for tables with 64-bit bitmasks (bigintRows).
   */
  fromObject<R>(row: Record<string, unknown>): R {
    return (this.fix ??= compileRowFixer(this.table))(row) as R;
  }
}

function expectation(c: Column): string {
  switch (c.js) {
    case 'string':
      return 'a string';
    case 'number':
      if (c.min !== undefined) return `an integer of at least ${c.min} (the app's own values of this field at this version)`;
      return c.int32
        ? "a 32-bit integer (the app's Int: -2147483648 to 2147483647)"
        : "an integer within ±(2^53-1), or a bigint within 64 bits (the app's Long)";
    case 'boolean':
      return 'a boolean';
    case 'bigint':
      return 'a 64-bit integer (bigint, or a safe-integer number)';
  }
}
