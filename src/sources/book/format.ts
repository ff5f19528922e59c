// The app's text shaping in the flows beside HtmlFormatter (../html-format.ts): BookHelp's name
// and author cleaning, StringUtils.wordCountFormat, String.isTrue, URLs made absolute. The
// patterns are the app's own (Java regexes, so `\s` is ICU's: U+3000 and nbsp count), run
// through the one translator.
import { decodeHTMLStrict } from 'entities';
import { translateJavaRegex } from '../../text/java-regex.js';
import { resolveUrl } from '../url.js';
import { splitUrlOptions } from '../html-format.js';
import { javaTrim } from '../split.js';

export { formatHtml, formatKeepImg } from '../html-format.js';

const java = (pattern: string, caseInsensitive = false): RegExp => translateJavaRegex(pattern, { caseInsensitive }).regex;

const NAME_TAIL = java('\\s+作\\s*者.*|\\s+\\S+\\s+著');
const AUTHOR_MARK = java('^\\s*作\\s*者[:：\\s]+|\\s+著');
const FALSE_WORDS = java('^(false|no|not|0)$', true);

const INDENT = '\u3000\u3000';

/** A URL with its `,{options}` kept aside, the URL part made absolute (BookChapter.getAbsoluteURL's way). */
export function absoluteWithOptions(base: string | undefined, url: string): string {
  const [path, options] = splitUrlOptions(url);
  return options ? `${absolute(base, path)},${options}` : absolute(base, url);
}

/** NetworkUtils.getAbsoluteURL(String, String): the base cut at its first `,` (URL options). */
export function absolute(base: string | undefined, url: string): string {
  if (!base) return url.trim();
  const cut = base.indexOf(',');
  return resolveUrl(cut < 0 ? base : base.slice(0, cut), url);
}

/** StringEscapeUtils.unescapeHtml4 as the content step applies it (only when there is a `&`). */
export function unescapeHtml(text: string): string {
  return text.includes('&') ? decodeHTMLStrict(text) : text;
}

/** BookHelp.formatBookName: a trailing "作者…" or "… 著" cut. */
export function formatBookName(name: string): string {
  return javaTrim(name.replace(NAME_TAIL, ''));
}

/** BookHelp.formatBookAuthor: a leading "作者：" and a " 著" cut. */
export function formatBookAuthor(author: string): string {
  return javaTrim(author.replace(AUTHOR_MARK, ''));
}

/** StringUtils.wordCountFormat: a bare count of words as the app writes it (`12.3万字`, `800字`), other text as it is. */
export function formatWordCount(wc: string): string {
  if (!/^-?[0-9]+$/.test(wc)) return wc;
  const words = Number(wc);
  // Past Int the app's toInt() throws, which the flows log and skip.
  if (!Number.isSafeInteger(words) || words > 2147483647 || words < -2147483648) throw new RangeError(`For input string: "${wc}"`);
  if (words <= 0) return '';
  if (words <= 10000) return `${words}字`;
  // DecimalFormat("#.#"), HALF_EVEN, of words / 10000: tenths with the remainder of words / 1000.
  let tenths = Math.floor(words / 1000);
  const rest = words % 1000;
  if (rest > 500 || (rest === 500 && tenths % 2 === 1)) tenths += 1;
  const whole = Math.floor(tenths / 10);
  const digit = tenths % 10;
  return `${digit === 0 ? whole : `${whole}.${digit}`}万字`;
}

/** String?.isTrue(): true unless blank, "null", or false/no/not/0 (any case). */
export function isTrue(value: string | null | undefined): boolean {
  if (value === null || value === undefined || value.trim() === '' || value === 'null') return false;
  FALSE_WORDS.lastIndex = 0;
  return !FALSE_WORDS.test(value.trim());
}

/** Each line indented with two U+3000 (replaceRegex puts the indent back so). */
export const indentLines = (text: string): string =>
  text
    .split('\n')
    .map((l) => INDENT + l)
    .join('\n');
