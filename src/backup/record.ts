// One JSON record → one row for a table of the store's version: format conversions first
// (2.0 formats, moved fields), then every column coerced leniently, defaults for what is
// missing, and the key checked. What could not be kept is counted on the kind's report.
import { isColumnAtAnyVersion, type Column, type Table } from '../schema/index.js';
import { Codec, defaultValue, type SqlValue } from '../table/codec.js';
import { compileFieldPicker, compileSparseRowMaker, type FieldPicker, type SparseRowMaker } from '../table/compiled.js';
import { APP_DEFAULTS, NOW, NOW_UNIQUE, type AppDefault } from './app-defaults.js';
import { bookTypeAt } from './book-type.js';
import { coerce, describe, isPlainObject, parseObjectText, type FieldValue } from './coerce.js';
import { gsonPretty } from './gson.js';
import type { TextFacts } from './json-stream.js';
import { convertLegacyBookSource, isLegacyBookSource, LEGACY_SOURCE_KEYS } from './legacy-book-source.js';
import { convertLegacyReplaceRule, isLegacyReplaceRule, LEGACY_REPLACE_KEYS } from './legacy-replace-rule.js';
import { isJsonObjectColumn, NO_OBJECT_TEXT } from './json-columns.js';
import { bump, type KindReport } from './report.js';
import { keepSpecimen } from './specimens.js';

type Rec = Record<string, unknown>;

export interface Skip {
  readonly category: string;
  readonly reason: string;
  readonly key?: string;
}

export interface Built {
  readonly row: Record<string, FieldValue>;
  /** The primary key as the table API takes it. */
  readonly key: unknown;
  /** The primary key as text, to find repeats within one import. */
  readonly keyText: string;
  /**
   * The row's column values as the table's codec encodes them, for a batch to bind as they are;
   * undefined where the row must be encoded (and checked) itself.
   */
  readonly encoded: readonly SqlValue[] | undefined;
}

/** Current time for the app's time defaults; ids it fills with the time are made unique. */
export class Clock {
  readonly now: number;
  private next: number;
  constructor(now = Date.now()) {
    this.now = now;
    this.next = now;
  }
  unique(): number {
    return this.next++;
  }
}

interface Adapted {
  readonly record: Rec;
  /** Keys of the original record the conversion read (not reported as unknown). */
  readonly consumed?: ReadonlySet<string>;
  readonly legacy?: boolean;
}

type Adapter = (o: Rec, isColumn: (field: string) => boolean) => Adapted | Skip;

/** Per-table conversions that run before the columns are read. */
const ADAPTERS: Readonly<Record<string, Adapter>> = {
  book_sources: (o, isColumn) =>
    isLegacyBookSource(o) ? { record: convertLegacyBookSource(o, isColumn), consumed: LEGACY_SOURCE_KEYS, legacy: true } : { record: o },
  replace_rules: (o) => {
    if (!isLegacyReplaceRule(o)) return { record: o };
    const record = convertLegacyReplaceRule(o);
    if (!record) return { category: 'no pattern', reason: 'no pattern (and no 2.0 regex): not a replace rule' };
    return { record, consumed: LEGACY_REPLACE_KEYS, legacy: true };
  },
  books: (o) => {
    // Older backups keep useReplaceRule beside the book; newer ones inside readConfig.
    if (o.useReplaceRule === undefined) return { record: o };
    const { useReplaceRule, ...rest } = o;
    const config = isPlainObject(rest.readConfig)
      ? { ...rest.readConfig }
      : ((typeof rest.readConfig === 'string' ? parseObjectText(rest.readConfig) : undefined) ?? {});
    config.useReplaceRule ??= useReplaceRule;
    return { record: { ...rest, readConfig: config }, consumed: new Set(['useReplaceRule']) };
  },
};

/** A row with its primary key as the table API takes it and as text. */
export function builtRow(table: Table, row: Record<string, FieldValue>): Built {
  const { key, keyText } =
    (table.primaryKey.length === 1 && singleKey(row[table.primaryKey[0]!.field])) ||
    keyOfValues(
      table,
      table.primaryKey.map((c) => row[c.field]),
    );
  return { row, key, keyText, encoded: undefined };
}

/** A one-column key of a string or a finite number, else undefined: the same text as keyOfValues, without its replacer (which slows JSON.stringify down). */
function singleKey(key: unknown): { key: unknown; keyText: string } | undefined {
  if (typeof key === 'string') return { key, keyText: `[${JSON.stringify(key)}]` };
  if (typeof key === 'number' && Number.isFinite(key)) return { key, keyText: `[${key}]` };
  return undefined;
}

/** The key from its values in key order. */
function keyOfValues(table: Table, keyValues: readonly unknown[]): { key: unknown; keyText: string } {
  const key = table.primaryKey.length === 1 ? keyValues[0] : Object.fromEntries(table.primaryKey.map((c, i) => [c.field, keyValues[i]]));
  return { key, keyText: JSON.stringify(keyValues, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)) };
}

/**
 * A built record as its field values in column order (undefined: left out), the row object
 * made on first use: most records of an import are only written, and their encoded values are
 * all the write needs. Once the row is handed out (and may be changed: a rule file keeps what
 * the user set), the encoded values no longer stand for it and are dropped.
 */
class BuiltRecord implements Built {
  readonly key: unknown;
  readonly keyText: string;
  #encoded: readonly SqlValue[] | undefined;
  readonly #values: readonly FieldValue[];
  readonly #make: SparseRowMaker;
  #row: Record<string, FieldValue> | undefined;

  constructor(values: readonly FieldValue[], make: SparseRowMaker, encoded: readonly SqlValue[] | undefined, key: unknown, keyText: string) {
    this.#values = values;
    this.#make = make;
    this.#encoded = encoded;
    this.key = key;
    this.keyText = keyText;
  }

  get encoded(): readonly SqlValue[] | undefined {
    return this.#encoded;
  }

  get row(): Record<string, FieldValue> {
    if (this.#row === undefined) {
      this.#row = this.#make(this.#values) as Record<string, FieldValue>;
      this.#encoded = undefined;
    }
    return this.#row;
  }
}

/** How build takes a column's value when it already has the column's type (the common case), without coerce. */
enum Plain {
  Text,
  Integer,
  Boolean,
  /** A rule object: stored as Gson's pretty text. */
  ObjectText,
  /** Through coerce always (64-bit integers). */
  None,
}

function plainOf(table: Table, c: Column): Plain {
  if (isJsonObjectColumn(table.name, c.field)) return Plain.ObjectText;
  return c.js === 'string' ? Plain.Text : c.js === 'number' ? Plain.Integer : c.js === 'boolean' ? Plain.Boolean : Plain.None;
}

const CHECK_ALL: TextFacts = { depth: Infinity, surrogates: true, separators: true };

/** Deeper records are refused: turning them into text would exhaust the stack, here and in the app. */
export const MAX_DEPTH = 256;

/** True when objects and arrays nest deeper than `max`; walked without recursion. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

/** What a build reads of the import it is part of. */
export interface BuildContext {
  /** Now, for the app's time defaults (ids it fills with the time are made unique). */
  readonly clock: Clock;
}

/** What a record without a column's field gets: a value (undefined: the row is refused), or the import's clock. */
type Missing = FieldValue | undefined | typeof NOW | typeof NOW_UNIQUE;

/** A missing field's value: the app's default, null, the column default, or ''/0/false. Undefined for a key without a default. */
function missingValue(table: Table, c: Column, appDefault: AppDefault | undefined): Missing {
  if (appDefault !== undefined) return appDefault;
  if (c.pk > 0) {
    // A key's column default is a key only when it is not blank (keyboardAssists.type 0, not books.bookUrl '').
    const dflt = defaultValue(c);
    return dflt === null || (typeof dflt === 'string' && dflt.trim() === '') ? undefined : dflt;
  }
  if (isJsonObjectColumn(table.name, c.field)) return NO_OBJECT_TEXT;
  if (!c.notNull || c.default !== undefined) return null;
  return c.js === 'string' ? '' : c.js === 'boolean' ? false : c.js === 'bigint' ? 0n : 0;
}

/** RowBuilder.of's builders, per table model and version. */
const builders = new WeakMap<Table, Map<number, RowBuilder>>();

export class RowBuilder {
  readonly table: Table;
  private readonly version: number;
  private readonly defaults: Readonly<Record<string, AppDefault>>;
  private readonly plain: readonly Plain[];
  private readonly pick: FieldPicker;
  private readonly makeRow: SparseRowMaker;
  /** Per column, what a record without the field gets (missingValue), found once. */
  private readonly missing: readonly Missing[];
  /** Column indexes of the primary key. */
  private readonly keyAt: readonly number[];
  private readonly codec: Codec;
  /** books: the columns of the type and the origin (bookType). */
  private readonly typeAt: number;
  private readonly originAt: number;

  /**
   * The builder of a table model at a version, one for every import: a builder made per import
   * would take its hidden class with it when collected, and with that the code V8 optimized for
   * it, to be compiled again by the next import (a cost the size of a small import).
   */
  static of(table: Table, version: number): RowBuilder {
    let byVersion = builders.get(table);
    if (byVersion === undefined) builders.set(table, (byVersion = new Map()));
    let b = byVersion.get(version);
    if (b === undefined) byVersion.set(version, (b = new RowBuilder(table, version)));
    return b;
  }

  private constructor(table: Table, version: number) {
    this.table = table;
    this.version = version;
    this.defaults = APP_DEFAULTS[table.name] ?? {};
    this.plain = table.columns.map((c) => plainOf(table, c));
    this.pick = compileFieldPicker(table);
    this.makeRow = compileSparseRowMaker(table);
    this.missing = table.columns.map((c) => missingValue(table, c, this.defaults[c.field]));
    this.keyAt = table.primaryKey.map((c) => table.columns.indexOf(c));
    this.codec = new Codec(table, version);
    this.typeAt = table.columns.findIndex((c) => c.field === 'type');
    this.originAt = table.columns.findIndex((c) => c.field === 'origin');
  }

  /** `text`: what the reader knows of the record's JSON text (JsonRecord.text), which spares checks it rules out. */
  build(value: unknown, report: KindReport, context: BuildContext, text: TextFacts = CHECK_ALL): Built | Skip {
    if (!isPlainObject(value)) return { category: 'not an object', reason: `not a JSON object: ${describe(value)}` };
    if (text.depth > MAX_DEPTH && nestedDeeperThan(value, MAX_DEPTH)) {
      return { category: 'too deeply nested', reason: `nested deeper than ${MAX_DEPTH} levels (no rule of the app comes near that)` };
    }
    const adapt = ADAPTERS[this.table.name];
    const adapted = adapt ? adapt(value, (f) => this.table.column(f) !== undefined) : { record: value };
    if ('category' in adapted) return adapted;
    if (adapted.legacy) report.legacyConverted++;
    this.countUnstored(value, adapted, report);

    // The record's values in column order, replaced where coerced or defaulted (undefined: the
    // column's own default), encoded for the write; the row object is made only if asked for.
    const values = this.pick(adapted.record);
    const columns = this.table.columns;
    for (let i = 0; i < columns.length; i++) {
      const c = columns[i]!;
      const given = values[i];
      if (given !== undefined && given !== null) {
        // A value of the column's own type is taken as it is (what coerce would return).
        switch (this.plain[i]) {
          case Plain.Text:
            if (typeof given === 'string' && !text.surrogates) continue;
            break;
          case Plain.Integer:
            if (typeof given === 'number' && Number.isSafeInteger(given)) continue;
            break;
          case Plain.Boolean:
            if (typeof given === 'boolean') continue;
            break;
          case Plain.ObjectText:
            if (isPlainObject(given)) {
              values[i] = gsonPretty(given, text.separators);
              continue;
            }
            break;
        }
        const r = coerce(this.table.name, c, given, text);
        if ('refuse' in r) return { category: `unstorable ${c.field}`, reason: `${c.field}: ${r.refuse}` };
        if ('value' in r && !(c.pk > 0 && r.lossy)) {
          if (r.changed) bump(report.coercedFields, c.field);
          if (r.value !== null) {
            values[i] = r.value;
            continue;
          }
        } else {
          const why = 'invalid' in r ? r.invalid : r.lossy!;
          if (c.pk > 0) return { category: `invalid key ${c.field}`, reason: `${c.field}: ${why}` };
          bump(report.defaultedFields, c.field);
        }
      }
      let d = this.missing[i];
      if (d === NOW) d = context.clock.now;
      else if (d === NOW_UNIQUE) d = context.clock.unique();
      if (d === undefined) return { category: `missing key ${c.field}`, reason: `no ${c.field}` };
      values[i] = d === null ? undefined : d;
    }
    for (const k of this.keyAt) {
      const c = columns[k]!;
      const v = values[k];
      if (c.js === 'string' && typeof v === 'string' && v.trim() === '' && this.defaults[c.field] !== v) {
        return { category: `blank key ${c.field}`, reason: `${c.field} is ${JSON.stringify(v)}` };
      }
    }
    if (this.table.name === 'books') this.bookType(values, report);
    const keyAt = this.keyAt;
    const { key, keyText } =
      (keyAt.length === 1 && singleKey(values[keyAt[0]!])) ||
      keyOfValues(
        this.table,
        keyAt.map((k) => values[k]),
      );
    return new BuiltRecord(values as FieldValue[], this.makeRow, this.codec.encodeValues(values), key, keyText);
  }

  /** Per book, whatever else the file holds: a type below 8 is an old code (Book.upType()). */
  private bookType(values: unknown[], report: KindReport): void {
    const at = this.typeAt;
    const type = values[at];
    if (typeof type !== 'number') return;
    const now = bookTypeAt(this.version, type, values[this.originAt]);
    if (now !== type) bump(report.coercedFields, 'type');
    values[at] = now;
  }

  /** Counts the record's fields that have no column here: dropped (a column at another version) or unknown. */
  private countUnstored(original: Rec, adapted: Adapted, report: KindReport): void {
    const consumed = adapted.consumed;
    // for-in, not Object.keys: no array of names per record (records are plain objects, checked by build).
    for (const k in adapted.record) {
      if (this.table.column(k)) continue;
      if (isColumnAtAnyVersion(this.table.name, k)) bump(report.droppedFields, k);
      else if (!consumed?.has(k)) bump(report.unknownFields, k);
    }
    if (adapted.record !== original) {
      for (const k in original) {
        if (!(k in adapted.record) && !consumed?.has(k) && !this.table.column(k) && !isColumnAtAnyVersion(this.table.name, k)) bump(report.unknownFields, k);
      }
    }
  }
}

keepSpecimen(new Clock());
keepSpecimen(new BuiltRecord([], () => ({}), [], '', '[""]'));
