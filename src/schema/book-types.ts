// books.type's two formats (reference 2.1): the old source-kind code below schema 55, a bitmask
// from 55 on in which every book has the text, audio, image or webFile bit (8, 32, 64, 128).

/** books.type is a bitmask from this schema version on; an old source-kind code below it. */
export const BITMASK_TYPE_FROM = 55;
/** The lowest kind bit (text): every bitmask type is at least this; a type below it is an old code. */
export const FIRST_BIT = 8;
