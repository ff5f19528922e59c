// Per-table row converters generated from the model, for the hot paths of the codec. A loop
// over the columns reads `row[c.field]` with a different key each time, which V8 can only do
// through its slow generic lookup; the generated code reads `row["url"]`, `row["title"]`, ...
// as plain property accesses, and builds rows as object literals of one shape, the way
// hand-written code would. The generated encoder only
// handles rows it can accept without question: anything else (a missing required field, a
// wrong type, a field that is not a column) makes it return false, and the codec's general
// path then encodes the row or raises the error, so behaviour is exactly that of the general path.
import type { Column, Table } from '../schema/index.js';
import type { SqlValue } from './codec.js';
import { isRowObject } from './args.js';
import { isWellFormedText } from './text.js';
import { varyingColumns } from './sql.js';

/** Writes the row's column values into `out` from `at` on; false (out untouched) for a row the general path must take. */
export type FastEncoder = (row: Readonly<Record<string, unknown>>, out: SqlValue[], at: number) => boolean;
export type RowBuilder = (a: readonly unknown[]) => Record<string, unknown>;
/** Turns a row read as an object (keys: the fields, in column order) into the API row, in place. */
export type RowFixer = (row: Record<string, unknown>) => Record<string, unknown>;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

const prop = (field: string): string => `row[${JSON.stringify(field)}]`;

/**
 * The test and conversion of one present, non-null value `v` into `a<i>`; `fail` (by default
 * `return false`) when it is not acceptable as it is.
 */
function convert(c: Column, i: number, fail = 'return false;'): string {
  switch (c.js) {
    case 'string':
      // A lone surrogate goes to the checked path, which refuses it (text.ts).
      return `if (typeof v !== "string" || !WF(v)) ${fail} a${i} = v;`;
    case 'number':
      // An Int: (v | 0) === v holds for integers of 32 bits only. A Long: within ±(2^53-1).
      // A value under the app's minimum goes to the checked path, which names it.
      if (c.min !== undefined) return `if (!(v >= ${c.min})) ${fail} ` + convert({ ...c, min: undefined }, i, fail);
      return c.int32
        ? `if (typeof v === "number") { if ((v | 0) !== v) ${fail} } ` +
            `else if (typeof v !== "bigint" || v < -2147483648n || v > 2147483647n) ${fail} a${i} = v;`
        : `if (typeof v === "number") { if (!Number.isSafeInteger(v)) ${fail} } ` + `else if (typeof v !== "bigint" || v < MIN || v > MAX) ${fail} a${i} = v;`;
    case 'boolean':
      return `if (v === true) a${i} = 1; else if (v === false) a${i} = 0; else ${fail}`;
    case 'bigint':
      return (
        `if (typeof v === "bigint") { if (v < MIN || v > UMAX) ${fail} a${i} = BigInt.asIntN(64, v); } ` +
        `else if (typeof v === "number" && Number.isSafeInteger(v)) a${i} = v; else ${fail}`
      );
  }
}

/**
 * The encoder of full rows for INSERT: column values in column order, written into the caller's
 * array (a bulk write's batch) at an offset. `fallback[i]` is what an omitted field becomes (its
 * default or null), undefined where the field is required.
 */
export function compileEncoder(table: Table, fallback: readonly (SqlValue | undefined)[]): FastEncoder {
  // One per table model (fallback follows from it), shared by every store that opens it: a
  // store opened for a few writes compiles nothing.
  return perTable(encoders, table, (t) => makeEncoder(t, fallback));
}

const encoders = new WeakMap<Table, FastEncoder>();
const builders = new WeakMap<Table, RowBuilder>();
const fixers = new WeakMap<Table, RowFixer>();

function makeEncoder(table: Table, fallback: readonly (SqlValue | undefined)[]): FastEncoder {
  return generated(
    () =>
      encoderFunction(
        table,
        fallback,
        table.columns.map((_, i) => `out[at + ${i}] = a${i};`),
      ) as FastEncoder,
    // Without code generation every row takes the general path, which accepts the same rows.
    () => () => false,
  );
}

/**
 * The encoder's function: every field read, checked and converted into a local `a<i>` (a
 * field it cannot accept as it is returns false), then `store`, the lines that write the locals.
 */
function encoderFunction(table: Table, fallback: readonly (SqlValue | undefined)[], store: readonly string[], fromArray = false): unknown {
  const autoKey = table.autoGenerate ? table.columns.indexOf(table.primaryKey[0]!) : -1;
  // Not a plain object (a Map, a Date, an instance): the general path refuses it.
  const lines: string[] = fromArray ? ['let v, n = 0;'] : ['if (!isRow(row)) return false;', 'let v, n = 0;'];
  table.columns.forEach((c, i) => {
    const nullable = !c.notNull || i === autoKey;
    lines.push(
      `let a${i}; v = ${fromArray ? `row[${i}]` : prop(c.field)};`,
      fallback[i] === undefined ? 'if (v === undefined) return false;' : `if (v === undefined) a${i} = F[${i}]; else {`,
      '  n++;',
      nullable ? `  if (v === null) a${i} = null; else {` : '  if (v === null) return false; {',
      `    ${convert(c, i)}`,
      '  }',
      fallback[i] === undefined ? '' : '}',
    );
  });
  // More keys than fields read: a field given as undefined (taken as left out, as the general
  // path does) or a key that is not a field, which the general path raises as an error.
  // (An array of column values holds nothing else.)
  if (!fromArray) lines.push('if (Object.keys(row).length !== n && !onlyFields(row)) return false;');
  // Room treats an auto-generated key of 0 as "not set" and lets SQLite choose one.
  if (autoKey >= 0) lines.push(`if (a${autoKey} === 0) a${autoKey} = null;`);
  lines.push(...store, 'return true;');
  const fields = new Set(table.columns.map((c) => c.field));
  const onlyFields = (row: object): boolean => Object.keys(row).every((k) => fields.has(k));
  return new Function('F', 'MIN', 'MAX', 'UMAX', 'WF', 'onlyFields', 'isRow', `"use strict"; return function encode(row, out, at) {\n${lines.join('\n')}\n};`)(
    fallback,
    INT64_MIN,
    INT64_MAX,
    UINT64_MAX,
    isWellFormedText,
    onlyFields,
    isRowObject,
  );
}

/** Writes a row given as its field values in column order (undefined: left out) as encodeRow would; false where the general path must take the row. */
export type ValuesEncoder = (values: readonly unknown[], out: SqlValue[], at: number) => boolean;

/**
 * The encoder of rows given as field values in column order (an import's built records): the
 * same checks and conversions as compileEncoder's, without a row object to read.
 */
export function compileValuesEncoder(table: Table, fallback: readonly (SqlValue | undefined)[]): ValuesEncoder {
  return perTable(valuesEncoders, table, (t) =>
    generated(
      () =>
        encoderFunction(
          t,
          fallback,
          t.columns.map((_, i) => `out[at + ${i}] = a${i};`),
          true,
        ) as ValuesEncoder,
      () => () => false,
    ),
  );
}
const valuesEncoders = new WeakMap<Table, ValuesEncoder>();

/**
 * A bulk write's encoder once it knows which columns every row of its batches shares (table.ts,
 * insertSharedSql): it checks the row as the FastEncoder does, writes only the other columns, in
 * column order, into the statement's parameters from `at` on, and returns false as well when a
 * shared column's value is not the one at the front of `out` (out[j] for the j-th shared
 * column). It spares a batch the copy of every value and the two passes that find the shared
 * values and move the others into place. Undefined where code cannot be generated.
 */
export function compileSplitEncoder(table: Table, fallback: readonly (SqlValue | undefined)[], shared: readonly number[]): FastEncoder | undefined {
  let byShared = splitEncoders.get(table);
  if (byShared === undefined) splitEncoders.set(table, (byShared = new Map()));
  const key = shared.join(',');
  let made = byShared.get(key);
  if (made === undefined) {
    const store = [
      ...shared.map((c, j) => `if (a${c} !== out[${j}]) return false;`),
      ...varyingColumns(table, shared).map((c, k) => `out[at + ${k}] = a${c};`),
    ];
    made = generated(
      () => encoderFunction(table, fallback, store) as FastEncoder,
      () => null,
    );
    // A few shared sets per table at most in practice; a bound all the same.
    if (byShared.size >= SPLIT_ENCODERS) byShared.delete(byShared.keys().next().value!);
    byShared.set(key, made);
  }
  return made ?? undefined;
}

const SPLIT_ENCODERS = 16;
const splitEncoders = new WeakMap<Table, Map<string, FastEncoder | null>>();

/**
 * The columns whose field holds one value (===, not an object) in each of the first `n` rows, as
 * given; undefined when one of them is not an object. A bulk write's first guess at the columns
 * its batches share: without it the first batch decided alone, and each later batch that broke a
 * column made another multi-row statement (three for 1,000 real book sources, ~0.2 ms each to
 * prepare on node:sqlite). Only a guess: each batch's encoded values are still compared.
 */
export type SameFields = (rows: readonly unknown[], n: number) => number[] | undefined;

/** compileSameFields' function for the table, made once per model; undefined where code cannot be generated. */
export function compileSameFields(table: Table): SameFields | undefined {
  return perTable(sameFields, table, (t) =>
    generated(
      () => {
        const cols = t.columns;
        const lines = ['let row = rows[0];', 'if (row === null || typeof row !== "object") return undefined;'];
        cols.forEach((c, i) => lines.push(`const v${i} = ${prop(c.field)};`, `let s${i} = v${i} === null || typeof v${i} !== "object";`));
        lines.push('for (let k = 1; k < n; k++) {', 'row = rows[k];', 'if (row === null || typeof row !== "object") return undefined;');
        cols.forEach((c, i) => lines.push(`if (s${i} && ${prop(c.field)} !== v${i}) s${i} = false;`));
        lines.push('}', 'const out = [];', ...cols.map((_, i) => `if (s${i}) out.push(${i});`), 'return out;');
        return new Function(`"use strict"; return function sameFields(rows, n) {\n${lines.join('\n')}\n};`)() as SameFields;
      },
      () => undefined,
    ),
  );
}

const sameFields = new WeakMap<Table, SameFields | undefined>();

/**
 * What `make` generates for these columns of the table, made once per table model and set of
 * columns (as perTable does per model); undefined where code cannot be generated.
 */
function perColumns<T>(cache: WeakMap<Table, Map<string, T | null>>, table: Table, cols: readonly Column[], make: () => T): T | undefined {
  let byCols = cache.get(table);
  if (byCols === undefined) cache.set(table, (byCols = new Map()));
  const key = cols.map((c) => c.field).join(',');
  let made = byCols.get(key);
  if (made === undefined) byCols.set(key, (made = generated(make, () => null)));
  return made ?? undefined;
}

/** What a compiled update setter runs on (prepared.ts, Updater): its statements, hooks and error path. */
export interface UpdateTarget {
  readonly hooks: { readonly active: boolean };
  /** The UPDATE of the fields given, by their bit mask (undefined until prepared). */
  readonly statements: readonly ({ run(...p: unknown[]): { changes: number } } | undefined)[];
  prepare(mask: number): { run(...p: unknown[]): { changes: number } };
  /** The typed error of a failed UPDATE (made only on failure). */
  failed(e: unknown, key: unknown, values: readonly unknown[]): unknown;
}

/**
 * An update of up to UPDATE_ARGS fields by a one-column key, given as arguments: true or false
 * as the row changed, or undefined for the checked path (a value it cannot take as it is, none
 * given, a listener watching: the checked path raises the same errors and reports the write).
 */
export type UpdateSetter = (u: UpdateTarget, key: unknown, ...values: unknown[]) => boolean | undefined;

/** The most fields an UpdateSetter takes: a statement's call per set of fields given, 2^n - 1 of them. */
export const UPDATE_ARGS = 4;

/**
 * The setter of these columns of the table (at most UPDATE_ARGS, the key a single column): each
 * value given is checked and converted as the encoder's are, the key too, and the statement for
 * the mask of those given is called with them as arguments, without an array. Undefined where
 * code cannot be generated. One per table model and set of columns, as the encoders.
 */
export function compileUpdateSetter(table: Table, cols: readonly Column[]): UpdateSetter | undefined {
  if (cols.length > UPDATE_ARGS || table.primaryKey.length !== 1) return undefined;
  return perColumns(setters, table, cols, () => makeUpdateSetter(table, cols));
}
const setters = new WeakMap<Table, Map<string, UpdateSetter | null>>();

function makeUpdateSetter(table: Table, cols: readonly Column[]): UpdateSetter {
  const n = cols.length;
  const pk = table.primaryKey[0]!;
  const args = cols.map((_, i) => `v${i}`);
  const slow = 'return undefined;';
  const lines = [`let v, m = 0, ${[...args.map((_, i) => `a${i}`), `a${n}`].join(', ')};`];
  cols.forEach((c, i) => {
    lines.push(
      `v = v${i};`,
      `if (v !== undefined) {`,
      `  m |= ${1 << i};`,
      c.notNull ? `  if (v === null) ${slow}` : `  if (v === null) a${i} = null; else {`,
      `  ${convert(c, i, slow)}`,
      c.notNull ? '}' : '}}',
    );
  });
  lines.push('v = key;', `if (v === undefined || v === null) ${slow}`, convert(pk, n, slow), `if (m === 0 || u.hooks.active) ${slow}`);
  lines.push('const s = u.statements[m] ?? u.prepare(m);', 'let info;', 'try {', 'switch (m) {');
  for (let m = 1; m < 1 << n; m++) {
    const bound = cols.flatMap((_, i) => (m & (1 << i) ? [`a${i}`] : []));
    lines.push(`case ${m}: info = s.run(${[...bound, `a${n}`].join(', ')}); break;`);
  }
  lines.push('}', '} catch (e) {', `throw u.failed(e, key, [${args.join(', ')}]);`, '}', 'return info.changes > 0;');
  return new Function('MIN', 'MAX', 'UMAX', 'WF', `"use strict"; return function set(u, key, ${args.join(', ')}) {\n${lines.join('\n')}\n};`)(
    INT64_MIN,
    INT64_MAX,
    UINT64_MAX,
    isWellFormedText,
  ) as UpdateSetter;
}

/** What a compiled lookup runs on (prepared.ts, Finder): its statement and its exact re-read. */
export interface FindTarget {
  readonly stmt: { get(...p: unknown[]): unknown } | undefined;
  /** The lookup's statement, prepared (rows as arrays) and kept. */
  prepare(): { get(...p: unknown[]): unknown };
  /** After the builder threw (TableCore.exactly): the row read again with safeIntegers. */
  exact(e: unknown, values: readonly unknown[]): unknown;
}

/** A compiled lookup's answer when the values are not ones it binds as given: the finder's general path then. */
export const CHECKED: unique symbol = Symbol('checked');

/** A lookup by up to FIND_ARGS fields given as arguments: the row, undefined, or CHECKED. */
export type FindGetter = (f: FindTarget, ...values: unknown[]) => unknown;
export const FIND_ARGS = 4;

/**
 * The lookup by these columns of the table (at most FIND_ARGS, each text or integer, which a
 * lookup binds as given: codec.plainKind): each value's type tested in line, the statement
 * called with them as arguments, and the row built by the table's row builder, called directly.
 * A null, a missing value or another type answers CHECKED. Undefined for other columns and
 * where code cannot be generated. One per table model and set of columns.
 */
export function compileFinder(table: Table, cols: readonly Column[]): FindGetter | undefined {
  if (cols.length > FIND_ARGS || !cols.every((c) => c.js === 'string' || c.js === 'number')) return undefined;
  return perColumns(finders, table, cols, () => makeFinder(table, cols));
}
const finders = new WeakMap<Table, Map<string, FindGetter | null>>();

function makeFinder(table: Table, cols: readonly Column[]): FindGetter {
  const args = cols.map((_, i) => `v${i}`);
  const tests = cols.map((c, i) =>
    c.js === 'string'
      ? `if (typeof v${i} !== "string" || !WF(v${i})) return CHECKED;`
      : `if (typeof v${i} !== "number" || !Number.isInteger(v${i})) return CHECKED;`,
  );
  const body = [
    ...tests,
    `const r = (f.stmt ?? f.prepare()).get(${args.join(', ')});`,
    'if (r === undefined) return undefined;',
    'try {',
    '  return build(r);',
    '} catch (e) {',
    `  return f.exact(e, [${args.join(', ')}]);`,
    '}',
  ];
  return new Function('CHECKED', 'build', 'WF', `"use strict"; return function find(f, ${args.join(', ')}) {\n${body.join('\n')}\n};`)(
    CHECKED,
    compileRowBuilder(table),
    isWellFormedText,
  ) as FindGetter;
}

/**
 * The builder of API rows from rows read from SQLite as arrays (better-sqlite3's raw mode), in
 * column order: an object literal with every field, booleans from 0/1 and 64-bit bitmasks as
 * bigints from what selectList reads them as (a safe integer, or decimal text beyond 2^53; a
 * value of another type, which the app never writes, stays as it is). Null stays null.
 * Building the object here is about twice as fast as better-sqlite3 making it, one property at
 * a time, for the wide rows of books and sources.
 */
export function compileRowBuilder(table: Table): RowBuilder {
  return perTable(builders, table, makeRowBuilder);
}

function makeRowBuilder(table: Table): RowBuilder {
  const fields = table.columns.map((c, i) => {
    const a = `a[${i}]`;
    let value = a;
    // Read without safeIntegers (fromExact takes those rows), a boolean is 0 or 1, never 0n:
    // no comparison of a number with a bigint, which V8 does by its generic path.
    if (c.js === 'boolean') value = `(v = ${a}) === null ? null : v !== 0`;
    else if (c.js === 'bigint')
      value = `typeof (v = ${a}) === "number" ? (Number.isSafeInteger(v) ? BigInt(v) : v) : typeof v === "string" && /^-?\\d+$/.test(v) ? BigInt(v) : v`;
    // Its type tested first: a null (or text) compared with a number took the builder off V8's
    // number comparison, 1.5-2% of a chapter read (bench/point-read.ts).
    else if (c.js === 'number') value = `typeof (v = ${a}) === "number" && (v > ${SAFE_MAX} || v < -${SAFE_MAX}) ? inexact() : v`;
    return `${JSON.stringify(c.field)}: ${value}`;
  });
  return generated(
    () => new Function('inexact', `"use strict"; return function build(a) {\nlet v;\nreturn {\n${fields.join(',\n')}\n};\n};`)(inexact) as RowBuilder,
    () => buildRowInterpreted(table),
  );
}

const SAFE_MAX = Number.MAX_SAFE_INTEGER;

/**
 * Thrown (never seen outside the table layer) by a row builder or fixer that met a number
 * column's value past ±(2^53-1): an engine reads an INTEGER that large rounded to the nearest
 * double, so the table reads the query again with safeIntegers (TableCore.exactly).
 * Values the app writes never get there; checking costs two comparisons a field.
 */
export const INEXACT: unique symbol = Symbol('inexact');
function inexact(): never {
  throw INEXACT;
}

/**
 * The builder of rows read with safeIntegers (every INTEGER a bigint): number columns as a
 * number where that is exact, else as the bigint; booleans and bitmasks as always. Only rows
 * that hold such a value are read this way, so it is not generated.
 */
export function compileExactRowBuilder(table: Table): RowBuilder {
  return perTable(exactBuilders, table, (t) => buildRowInterpreted(t, true));
}
const exactBuilders = new WeakMap<Table, RowBuilder>();

/**
 * The API row of a row an engine read as an object (Connection.objectRows), made in place: the
 * booleans from 0/1 (null stays null). Only for tables without 64-bit bitmasks, whose other
 * values are already what the API gives. One per table model, as the builders.
 */
export function compileRowFixer(table: Table): RowFixer {
  return perTable(fixers, table, makeRowFixer);
}

function makeRowFixer(table: Table): RowFixer {
  const booleans = table.columns.filter((c) => c.js === 'boolean').map((c) => c.field);
  const numbers = table.columns.filter((c) => c.js === 'number').map((c) => c.field);
  const lines = [
    ...booleans.map((f) => `v = row[${JSON.stringify(f)}]; if (v !== null) row[${JSON.stringify(f)}] = v !== 0 && v !== 0n;`),
    ...numbers.map((f) => `if ((v = row[${JSON.stringify(f)}]) > ${SAFE_MAX} || v < -${SAFE_MAX}) inexact();`),
  ];
  return generated(
    () => new Function('inexact', `"use strict"; return function fix(row) {\nlet v;\n${lines.join('\n')}\nreturn row;\n};`)(inexact) as RowFixer,
    () => (row) => {
      for (const f of booleans) {
        const v = row[f];
        if (v !== null) row[f] = v !== 0 && v !== 0n;
      }
      for (const f of numbers) {
        const v = row[f] as number;
        if (v > SAFE_MAX || v < -SAFE_MAX) inexact();
      }
      return row;
    },
  );
}

/** A record's values of the table's fields, in column order (undefined where it has none). */
export type FieldPicker = (record: Readonly<Record<string, unknown>>) => unknown[];
/** The row of the values that are not undefined, fields in column order. */
export type SparseRowMaker = (values: readonly unknown[]) => Record<string, unknown>;

/**
 * The picker of a record's fields (an import reads every column of every record): `record["url"]`
 * ... as plain property reads, which V8 answers faster than a loop's `record[c.field]`.
 */
export function compileFieldPicker(table: Table): FieldPicker {
  return perTable(pickers, table, makeFieldPicker);
}

function makeFieldPicker(table: Table): FieldPicker {
  const fields = table.columns.map((c) => c.field);
  return generated(
    () => new Function(`"use strict"; return function pick(row) {\nreturn [${fields.map(prop).join(', ')}];\n};`)() as FieldPicker,
    () => (row) => fields.map((f) => row[f]),
  );
}

/**
 * The maker of a row that holds some of the fields (an imported record's, where a field left
 * out takes the column's default). Added one by one under names that change from one step to
 * the next (`row[c.field] = v`), twenty-odd fields turn an object into a dictionary: slow to
 * read, to encode and to list the keys of. The generated code adds each under its own name, and
 * the row keeps V8's fast layout.
 */
export function compileSparseRowMaker(table: Table): SparseRowMaker {
  return perTable(sparseMakers, table, makeSparseRowMaker);
}

function makeSparseRowMaker(table: Table): SparseRowMaker {
  const fields = table.columns.map((c) => c.field);
  const lines = fields.map((f, i) => `if ((v = a[${i}]) !== undefined) row[${JSON.stringify(f)}] = v;`);
  return generated(
    () => new Function(`"use strict"; return function make(a) {\nconst row = {};\nlet v;\n${lines.join('\n')}\nreturn row;\n};`)() as SparseRowMaker,
    () => (a) => {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < fields.length; i++) if (a[i] !== undefined) row[fields[i]!] = a[i];
      return row;
    },
  );
}

const pickers = new WeakMap<Table, FieldPicker>();
const sparseMakers = new WeakMap<Table, SparseRowMaker>();

/** The same rows as the generated builder, by a loop over the columns. */
function buildRowInterpreted(table: Table, exact = false): RowBuilder {
  const kinds = table.columns.map((c) => (c.js === 'boolean' ? 1 : c.js === 'bigint' ? 2 : c.js === 'number' ? 3 : 0));
  const fields = table.columns.map((c) => c.field);
  return (a) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < fields.length; i++) {
      const v = a[i];
      const kind = kinds[i];
      if (kind === 3) row[fields[i]!] = exact ? exactLong(v) : (v as number) > SAFE_MAX || (v as number) < -SAFE_MAX ? inexact() : v;
      else row[fields[i]!] = v === null ? null : kind === 1 ? v !== 0 && v !== 0n : kind === 2 ? exactBigint(v) : v;
    }
    return row;
  };
}

/** A number column's value read with safeIntegers: a number where that is exact, else the bigint. */
const exactLong = (v: unknown): unknown => (typeof v === 'bigint' && v >= -SAFE_BIG && v <= SAFE_BIG ? Number(v) : v);
const SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);

/** A bitmask as the generated builder makes it: a bigint from a safe integer or from decimal text. */
function exactBigint(v: unknown): unknown {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? BigInt(v) : v;
  return typeof v === 'string' && /^-?\d+$/.test(v) ? BigInt(v) : v;
}

/** What `cache` holds for the table model, made on first use: one per model, shared by every store that opens it. */
function perTable<T>(cache: WeakMap<Table, T>, table: Table, make: (table: Table) => T): T {
  if (cache.has(table)) return cache.get(table) as T;
  const made = make(table);
  cache.set(table, made);
  return made;
}

/**
 * Generated code where the platform allows it; where it does not (a page whose Content Security
 * Policy forbids eval, node --disallow-code-generation-from-strings), the plain version.
 */
export function generated<T>(make: () => T, plain: () => T): T {
  try {
    return make();
  } catch (e) {
    if (e instanceof EvalError) return plain();
    throw e;
  }
}
