// Lenient conversion of one JSON value to what a column takes, in the spirit of the app's Gson
// setup (reference 4.2): numbers given as strings, strings given as numbers, objects given for
// string fields, rule objects given as JSON strings, and `[]` or other non-objects for a rule
// meaning "no rule". The core codec stays strict; this layer runs before it.
import type { Column } from '../schema/index.js';
import { loneSurrogateAt, loneSurrogateReason } from '../table/text.js';
import { gsonCompact, gsonPretty } from './gson.js';
import { isJsonObjectColumn, NO_OBJECT_TEXT } from './json-columns.js';

export type FieldValue = string | number | bigint | boolean | null;

export type Coerced =
  /** The value as given, or a faithful conversion of it (`changed`: it had another JSON type). */
  | { readonly value: FieldValue; readonly changed?: boolean; readonly lossy?: string }
  /** Nothing usable: the caller falls back to the default, or skips the record for a key. */
  | { readonly invalid: string }
  /**
   * A value the store cannot hold exactly (an integer beyond 2^53 for a number field, a string
   * with a lone surrogate): the record is refused rather than stored changed.
   */
  | { readonly refuse: string };

const INT_TEXT = /^[+-]?\d+$/;
const DECIMAL_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** What the value's JSON text rules out (json-stream.ts TextFacts): a lone surrogate, a line or paragraph separator. */
export interface TextChecks {
  readonly surrogates: boolean;
  readonly separators: boolean;
}

const CHECK_ALL: TextChecks = { surrogates: true, separators: true };

/** `text`: what the value's JSON text rules out, which spares those checks; everything is checked without it. */
export function coerce(table: string, c: Column, v: unknown, text: TextChecks = CHECK_ALL): Coerced {
  if (v === null || v === undefined) return { value: null };
  if (isJsonObjectColumn(table, c.field)) return toObjectText(v, text.separators);
  switch (c.js) {
    case 'string':
      return !text.surrogates && typeof v === 'string' ? { value: v } : toText(v, text.separators);
    case 'boolean':
      return toBoolean(v);
    case 'number':
      return toInteger(v, false, c.int32 !== true);
    case 'bigint':
      return toInteger(v, true, false);
  }
}

function toText(v: unknown, separators: boolean): Coerced {
  if (typeof v === 'string') {
    // SQLite keeps UTF-8: a lone UTF-16 surrogate would come back as replacement characters.
    const at = loneSurrogateAt(v);
    return at < 0 ? { value: v } : { refuse: loneSurrogateReason(at) };
  }
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return { value: String(v), changed: true };
  return { value: gsonCompact(v, separators), changed: true };
}

/** A rule object as stored: pretty JSON text, or the app's 'null' text for "no rule". */
function toObjectText(v: unknown, separators: boolean): Coerced {
  if (isPlainObject(v)) return { value: gsonPretty(v, separators) };
  if (typeof v === 'string') {
    const parsed = parseObjectText(v);
    if (parsed !== undefined) return { value: gsonPretty(parsed, separators), changed: true };
  }
  return { value: NO_OBJECT_TEXT, changed: true };
}

/** The object a JSON string holds, or undefined when it holds none. */
export function parseObjectText(text: string): Record<string, unknown> | undefined {
  const t = text.trim();
  if (!t.startsWith('{')) return undefined;
  try {
    const v: unknown = JSON.parse(t);
    return isPlainObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

function toBoolean(v: unknown): Coerced {
  if (typeof v === 'boolean') return { value: v };
  if (typeof v === 'number' && Number.isFinite(v)) return { value: v !== 0, changed: true };
  if (typeof v === 'bigint') return { value: v !== 0n, changed: true };
  if (typeof v === 'string') {
    const t = v.trim().toLowerCase();
    if (t === 'true' || t === '1') return { value: true, changed: true };
    if (t === 'false' || t === '0') return { value: false, changed: true };
  }
  return { invalid: `not a boolean: ${describe(v)}` };
}

/**
 * `wide`: a bitmask (bigint column, all 64 bits, given signed or unsigned). `long`: the app's
 * Long, which the store keeps exactly up to the signed 64-bit range (a bigint where a number
 * cannot hold it); a JSON number past 2^53 that reaches here was already rounded by its parser.
 */
function toInteger(v: unknown, wide: boolean, long: boolean): Coerced {
  if (typeof v === 'number') {
    if (Number.isInteger(v)) return fits(v, wide) ? { value: wide ? BigInt(v) : v } : inexact(v);
    // The app's Int fields truncate a fraction (IntJsonDeserializer); a key must not be rounded.
    if (Number.isFinite(v) && Number.isSafeInteger(Math.trunc(v))) {
      return { value: wide ? BigInt(Math.trunc(v)) : Math.trunc(v), changed: true, lossy: `not an integer: ${v}` };
    }
    return { invalid: `not an integer: ${v}` };
  }
  if (typeof v === 'bigint') {
    if (!inInt64(v)) return { invalid: `out of the 64-bit range: ${v}` };
    if (wide || Number.isSafeInteger(Number(v))) return { value: wide ? v : Number(v) };
    return long && v <= INT64_MAX ? { value: v } : inexact(v);
  }
  if (typeof v === 'string') {
    const t = v.trim();
    if (INT_TEXT.test(t)) {
      const big = BigInt(t);
      if (!inInt64(big)) return { invalid: `out of the 64-bit range: ${t}` };
      const n = Number(big);
      if (!wide && !Number.isSafeInteger(n)) return long && big <= INT64_MAX ? { value: big, changed: true } : inexact(big);
      return { value: wide ? big : n, changed: true };
    }
    if (DECIMAL_TEXT.test(t)) return { invalid: `not an integer: ${JSON.stringify(v)}` };
  }
  return { invalid: `not a number: ${describe(v)}` };
}

/** An Int field, or a Long given as a JSON number its parser rounded: the exact integer is not known or not storable. */
const inexact = (v: number | bigint): Coerced => ({
  refuse: `the integer ${typeof v === 'bigint' ? v : BigInt(v)} is beyond ±2^53, which this field cannot hold exactly`,
});

const inInt64 = (v: bigint): boolean => v >= INT64_MIN && v <= UINT64_MAX;
const fits = (v: number, wide: boolean): boolean => Number.isSafeInteger(v) || (wide && inInt64(BigInt(v)));

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function describe(v: unknown): string {
  if (Array.isArray(v)) return 'an array';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'an object';
  const text = typeof v === 'string' ? JSON.stringify(v) : String(v);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
