// JSON text the way the app's Gson instance writes it (GsonExtensions.kt): 2-space pretty print,
// no HTML escaping, U+2028/U+2029 escaped, 64-bit integers exact. JSON.stringify already writes
// the same layout; this adds the two things it does not do, and only pays for them when the
// text needs them (a replacer function or a regex pass over every text would double the cost).

const BIG = '\uE000bigint:'; // a private-use character: JSON.stringify leaves it as is
const bigReplacer = (_key: string, v: unknown): unknown => (typeof v === 'bigint' ? `${BIG}${v}${BIG}` : v);
const BIG_RE = new RegExp(`"${BIG}(-?\\d+)${BIG}"`, 'g');
const SEPARATORS = /[\u2028\u2029]/g;

function stringify(value: unknown, indent: number | undefined): string {
  try {
    return JSON.stringify(value, undefined, indent);
  } catch (e) {
    // JSON.stringify refuses BigInt: write those values as the exact integers they are.
    if (!(e instanceof TypeError) || !/BigInt/.test(e.message)) throw e;
    return JSON.stringify(value, bigReplacer, indent).replace(BIG_RE, '$1');
  }
}

function escapeSeparators(text: string): string {
  if (text.indexOf('\u2028') === -1 && text.indexOf('\u2029') === -1) return text;
  return text.replace(SEPARATORS, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
}

/**
 * Pretty-printed (2 spaces), as Gson's setPrettyPrinting writes it. `separators`: false when
 * the value is known to hold no U+2028 or U+2029 (the import's TextFacts), which spares the search.
 */
export function gsonPretty(value: unknown, separators = true): string {
  const text = stringify(value, 2);
  return separators ? escapeSeparators(text) : text;
}

/** Compact, as the app's StringJsonDeserializer keeps an object given for a string field. */
export function gsonCompact(value: unknown, separators = true): string {
  const text = stringify(value, undefined);
  return separators ? escapeSeparators(text) : text;
}
