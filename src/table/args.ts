// The public API's arguments, checked once where they come in: a wrong type is an
// InvalidArgumentError naming the method and the argument, never a TypeError, a SyntaxError or
// an engine error from deep inside (and never a silent default, as a blank row for `[]`).
import { InvalidArgumentError } from '../errors.js';

const isPlainObject = (v: unknown): boolean => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array);

/** Rows for a bulk write: an iterable of rows that is not a string. */
export function checkRows(method: string, rows: unknown, argument = 'rows', expected = 'an array (or another iterable) of row objects'): void {
  const iterable = rows !== null && typeof rows === 'object' && typeof (rows as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function';
  if (!iterable) throw new InvalidArgumentError(`${method}: ${argument}`, rows, expected);
}

/** A string argument (a key, a name, a search text): null or undefined is refused, not read as "null". */
export function checkText(method: string, argument: string, value: unknown): asserts value is string {
  if (typeof value !== 'string') throw new InvalidArgumentError(`${method}: ${argument}`, value, 'a string');
}

/** An object argument (a row to store, a progress): a plain object; an options object may also be left out. */
export function checkObject(method: string, argument: string, value: unknown, optional = false): void {
  if (!(isRowObject(value) || (optional && value === undefined))) {
    throw new InvalidArgumentError(`${method}: ${argument}`, value, optional ? 'a plain object, or nothing' : 'a plain object');
  }
}

/** An options or query object, or nothing. */
export function checkOptions(method: string, argument: string, value: unknown): void {
  if (value !== undefined && !isPlainObject(value)) throw new InvalidArgumentError(`${method}: ${argument}`, value, 'an object, or nothing');
}

/**
 * A row or patch object: a plain object (its prototype is Object.prototype, of any realm, or
 * null). An array, a Map, a Date or a class instance is not one: its fields would be read as
 * missing and written as defaults (a Map's entries are not properties).
 */
export function isRowObject(value: unknown): value is Readonly<Record<string, unknown>> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as object | null;
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** What a row or patch argument must be, for the errors that refuse one. */
export const ROW_OBJECT = 'a plain object (not an array, a Map, a Date or a class instance)';

/** A whole number (a number or a bigint), within `min`..`max` when given. */
export function checkInteger(method: string, argument: string, value: unknown, expected = 'an integer', min = -Infinity, max = Infinity): void {
  const ok = (typeof value === 'number' && Number.isInteger(value)) || typeof value === 'bigint';
  if (!ok || (value as number) < min || (value as number) > max) throw new InvalidArgumentError(`${method}: ${argument}`, value, expected);
}
