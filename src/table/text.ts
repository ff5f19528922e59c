// Text SQLite cannot keep as given: it stores UTF-8, where a lone UTF-16 surrogate has no
// form, so the engine writes U+FFFD instead and the value reads back changed. The typed API and
// the import refuse such text with this one check.

import { ValueTypeError } from '../errors.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

type WellFormed = (text: string) => boolean;
// String.prototype.isWellFormed (ES2024) where the engine has it: constant time for the
// one-byte strings most text is; the pattern elsewhere.
const native = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;
/** True when the text holds no lone surrogate. */
export const isWellFormedText: WellFormed = native ? (text) => native.call(text) : (text) => !LONE_SURROGATE.test(text);

/** The index (in UTF-16 code units) of the text's first lone surrogate, or -1 when it has none. */
export function loneSurrogateAt(text: string): number {
  return isWellFormedText(text) ? -1 : text.search(LONE_SURROGATE);
}

/** Why a text with a lone surrogate at `at` is refused, for the errors and the import's report. */
export const loneSurrogateReason = (at: number): string => `holds a lone UTF-16 surrogate at index ${at}, which UTF-8 text cannot store`;

/** The error for a text field given a lone surrogate: the table, the field and where in the text. */
export function loneSurrogateError(table: string, field: string, text: string): ValueTypeError {
  return new ValueTypeError(table, field, text, `text without a lone UTF-16 surrogate (one at index ${loneSurrogateAt(text)}: UTF-8 cannot store it)`);
}
