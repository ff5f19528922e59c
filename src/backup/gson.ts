// JSON text the way the app's Gson instance writes it (GsonExtensions.kt): 2-space pretty print,
// no HTML escaping, U+2028/U+2029 escaped, 64-bit integers exact. JSON.stringify already writes
// the same layout; this adds the two things it does not do.

const BIG = '\uE000bigint:'; // a private-use character: JSON.stringify leaves it as is
const bigReplacer = (_key: string, v: unknown): unknown => (typeof v === 'bigint' ? `${BIG}${v}${BIG}` : v);
const BIG_RE = new RegExp(`"${BIG}(-?\\d+)${BIG}"`, 'g');
const SEPARATORS = /[\u2028\u2029]/g;

function finish(text: string, hasBig: boolean): string {
  if (hasBig) text = text.replace(BIG_RE, '$1');
  return text.replace(SEPARATORS, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
}

/** Pretty-printed (2 spaces), as Gson's setPrettyPrinting writes it. */
export function gsonPretty(value: unknown, hasBigint = false): string {
  return finish(JSON.stringify(value, hasBigint ? bigReplacer : undefined, 2), hasBigint);
}

/** Compact, as the app's StringJsonDeserializer keeps an object given for a string field. */
export function gsonCompact(value: unknown): string {
  return finish(JSON.stringify(value, bigReplacer), true);
}

/** Indents every line after the first, to nest pretty-printed text one level deeper. */
export function indentNested(text: string, indent: string): string {
  return text.replace(/\n/g, `\n${indent}`);
}
