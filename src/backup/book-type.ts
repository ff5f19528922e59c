// books.type: a bitmask from schema 55 on, the old BookSourceType code before (reference 2.1).
// Converted both ways, per book: an old code (any type below 8: every bitmask book has one of the
// text, audio, image or webFile bits) up to the bitmask for a store at 55 or later, as the app's
// Book.upType() does on restore, and the bitmask down to the old code for an older store.
import { BITMASK_TYPE_FROM, FIRST_BIT } from '../schema/book-types.js';

/** The type a book has in a store of `version`, whichever format it was given in. */
export const bookTypeAt = (version: number, type: number, origin: unknown): number =>
  version >= BITMASK_TYPE_FROM ? toBitmaskType(type, origin) : toOldType(type);

/** Old code → bit, in the order Migration_54_55 and Book.upType() use. */
export const OLD_TYPE_BITS: readonly (readonly [code: number, bit: number])[] = [
  [1, 32], // audio
  [2, 64], // image
  [3, 128], // file → webFile
  [0, 8], // text
];
export const TEXT_BIT = 8;
export const LOCAL_BIT = 256;

export const isLocalOrigin = (origin: unknown): boolean => typeof origin === 'string' && (origin === 'loc_book' || origin.startsWith('webDav::'));

/** The bitmask type of a book whose type may still be an old code (Book.upType()). */
export function toBitmaskType(type: number, origin: unknown): number {
  if (type >= FIRST_BIT) return type;
  const bit = OLD_TYPE_BITS.find(([code]) => code === type)?.[1] ?? TEXT_BIT;
  return isLocalOrigin(origin) ? bit | LOCAL_BIT : bit;
}

/** The schema-49 code of a book whose type may be a bitmask. */
export function toOldType(type: number): number {
  if (type < FIRST_BIT) return type;
  for (const [code, bit] of OLD_TYPE_BITS) if (code !== 0 && (type & bit) !== 0) return code;
  return 0;
}
