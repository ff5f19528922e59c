// The public API's arguments, checked once where they come in: a wrong type is an
// InvalidArgumentError naming the method and the argument, never a TypeError, a SyntaxError or
// an engine error from deep inside (and never a silent default, as a blank row for `[]`).
import { InvalidArgumentError } from '../errors.js';

const isPlainObject = (v: unknown): boolean => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array);

/** Rows for a bulk write: an iterable of rows that is not a string. */
export function checkRows(method: string, rows: unknown, argument = 'rows'): void {
  const iterable = rows !== null && typeof rows === 'object' && typeof (rows as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function';
  if (!iterable) throw new InvalidArgumentError(`${method}: ${argument}`, rows, 'an array (or another iterable) of row objects');
}

/** An options or query object, or nothing. */
export function checkOptions(method: string, argument: string, value: unknown): void {
  if (value !== undefined && !isPlainObject(value)) throw new InvalidArgumentError(`${method}: ${argument}`, value, 'an object, or nothing');
}

/** A row or patch object (not an array, not null). */
export function isRowObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return isPlainObject(value);
}

/** A whole number (a number or a bigint), within `min`..`max` when given. */
export function checkInteger(method: string, argument: string, value: unknown, expected = 'an integer', min = -Infinity, max = Infinity): void {
  const ok = (typeof value === 'number' && Number.isInteger(value)) || typeof value === 'bigint';
  if (!ok || (value as number) < min || (value as number) > max) throw new InvalidArgumentError(`${method}: ${argument}`, value, expected);
}
