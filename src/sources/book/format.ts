// The app's text shaping in the flows: HtmlFormatter (intro and chapter text), BookHelp's name and
// author cleaning, StringUtils.wordCountFormat and String.isTrue. The patterns are the app's own
// (Java regexes, so `\s` is ICU's: U+3000 and nbsp count), run through the one translator.
import { decodeHTMLStrict } from 'entities';
import { translateJavaRegex } from '../../text/java-regex.js';
import { resolveUrl } from '../url.js';
import { javaTrim } from '../split.js';

const java = (pattern: string, caseInsensitive = false): RegExp => translateJavaRegex(pattern, { caseInsensitive }).regex;

const NBSP = java('(&nbsp;)+');
const ESP = java('(&ensp;|&emsp;)');
const NO_PRINT = java('(&thinsp;|&zwnj;|&zwj;|\u2009|\u200C|\u200D)');
const WRAP_TAG = java('</?(?:div|p|br|hr|h\\d|article|dd|dl)[^>]*>');
const COMMENT = java('<!--[^>]*-->');
const NOT_IMG_TAG = java('</?(?!img)[a-zA-Z]+(?=[ >])[^<>]*>');
const ANY_TAG = java('</?[a-zA-Z]+(?=[ >])[^<>]*>');
const INDENT_INNER = java('\\s*\\n+\\s*');
const INDENT_START = java('^[\\n\\s]+');
const TRAILING = java('[\\n\\s]+$');
const IMG = java(
  '<img[^>]*\\ssrc\\s*=\\s*[\'"]([^\'"{>]*\\{(?:[^{}]|\\{[^}>]+\\})+\\})[\'"][^>]*>' +
    '|<img[^>]*\\s(?:data-src|src)\\s*=\\s*[\'"]([^\'">]+)[\'"][^>]*>' +
    '|<img[^>]*\\sdata-[^=>]*=\\s*[\'"]([^\'">]*)[\'"][^>]*>',
  true,
);
/** AnalyzeUrl.paramPattern: where a URL's `,{options}` begin. */
const URL_OPTIONS = java('\\s*,\\s*(?=\\{)');
const NAME_TAIL = java('\\s+作\\s*者.*|\\s+\\S+\\s+著');
const AUTHOR_MARK = java('^\\s*作\\s*者[:：\\s]+|\\s+著');
const FALSE_WORDS = java('^(false|no|not|0)$', true);

const INDENT = '\u3000\u3000';

/** HtmlFormatter.format: entities of spaces, block tags to lines, other tags dropped, each line indented. */
export function formatHtml(html: string | null | undefined, otherTags: RegExp = ANY_TAG): string {
  if (html === null || html === undefined) return '';
  return html
    .replace(NBSP, ' ')
    .replace(ESP, ' ')
    .replace(NO_PRINT, '')
    .replace(WRAP_TAG, '\n')
    .replace(COMMENT, '')
    .replace(otherTags, '')
    .replace(INDENT_INNER, `\n${INDENT}`)
    .replace(INDENT_START, INDENT)
    .replace(TRAILING, '');
}

/** A URL with its `,{options}` kept aside, the URL part made absolute (BookChapter.getAbsoluteURL's way). */
export function absoluteWithOptions(base: string | undefined, url: string): string {
  URL_OPTIONS.lastIndex = 0;
  const m = URL_OPTIONS.exec(url);
  if (!m) return absolute(base, url);
  return `${absolute(base, url.slice(0, m.index))},${url.slice(m.index + m[0].length)}`;
}

/** NetworkUtils.getAbsoluteURL(String, String): the base cut at its first `,` (URL options). */
export function absolute(base: string | undefined, url: string): string {
  if (!base) return url.trim();
  const cut = base.indexOf(',');
  return resolveUrl(cut < 0 ? base : base.slice(0, cut), url);
}

/**
 * HtmlFormatter.formatKeepImg: as formatHtml but `<img>` kept, rewritten to `<img src="abs">` (a
 * `src` with `,{options}` keeps them; else `data-src`/`src`, else any `data-*`).
 */
export function formatKeepImg(html: string | null | undefined, redirectUrl: string | undefined): string {
  if (html === null || html === undefined) return '';
  const text = formatHtml(html, NOT_IMG_TAG);
  IMG.lastIndex = 0;
  let out = '';
  let at = 0;
  let m: RegExpExecArray | null;
  while ((m = IMG.exec(text))) {
    let src: string;
    if (m[1] !== undefined) src = absoluteWithOptions(redirectUrl, m[1]);
    else src = redirectUrl ? resolveUrl(redirectUrl, m[2] ?? m[3] ?? '') : (m[2] ?? m[3] ?? '').trim();
    out += `${text.slice(at, m.index)}<img src="${src}">`;
    at = m.index + m[0].length;
    if (m[0].length === 0) IMG.lastIndex++;
  }
  return out + text.slice(at);
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

/** Each line trimmed (the app's `trim()`: chars up to U+0020), for replaceRegex on the whole text. */
export function trimLines(text: string): string {
  return text
    .split('\n')
    .map((l) => javaTrim(l))
    .join('\n');
}

export const indentLines = (text: string): string =>
  text
    .split('\n')
    .map((l) => INDENT + l)
    .join('\n');
