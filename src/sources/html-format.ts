// The app's HtmlFormatter (utils/HtmlFormatter.kt): chapter HTML to display text. Entities of
// spaces become spaces, zero-width characters go, block tags become line breaks, other tags are
// stripped (`formatKeepImg` keeps <img> with an absolute src and its URL options), and every line
// is indented with two U+3000. The app's own patterns, read as Android reads them (ICU: `\s`
// takes U+3000 and U+00A0 too) through the one Java regex translator.
import { translateJavaRegex } from '../text/java-regex.js';
import { resolveUrl } from './url.js';

const re = (pattern: string, caseInsensitive = false): RegExp => translateJavaRegex(pattern, { caseInsensitive }).regex;

const NBSP = re('(&nbsp;)+');
const ESP = re('(&ensp;|&emsp;)');
const NO_PRINT = re('(&thinsp;|&zwnj;|&zwj;|\u2009|\u200C|\u200D)');
const WRAP = re('</?(?:div|p|br|hr|h\\d|article|dd|dl)[^>]*>');
const COMMENT = re('<!--[^>]*-->');
const NOT_IMG = re('</?(?!img)[a-zA-Z]+(?=[ >])[^<>]*>');
const OTHER = re('</?[a-zA-Z]+(?=[ >])[^<>]*>');
const INDENT1 = re('\\s*\\n+\\s*');
const INDENT2 = re('^[\\n\\s]+');
const LAST = re('[\\n\\s]+$');
const IMG = re(
  '<img[^>]*\\ssrc\\s*=\\s*[\'"]([^\'"{>]*\\{(?:[^{}]|\\{[^}>]+\\})+\\})[\'"][^>]*>' +
    '|<img[^>]*\\s(?:data-src|src)\\s*=\\s*[\'"]([^\'">]+)[\'"][^>]*>' +
    '|<img[^>]*\\sdata-[^=>]*=\\s*[\'"]([^\'">]*)[\'"][^>]*>',
  true,
);
/** AnalyzeUrl.paramPattern: where a URL's options start. */
const PARAM = re('\\s*,\\s*(?=\\{)');

/** HtmlFormatter.format: tags stripped (every tag, or those `strip` matches). */
export function formatHtml(html: string | null | undefined, strip: RegExp = OTHER): string {
  if (html === null || html === undefined) return '';
  return html
    .replace(NBSP, ' ')
    .replace(ESP, ' ')
    .replace(NO_PRINT, '')
    .replace(WRAP, '\n')
    .replace(COMMENT, '')
    .replace(strip, '')
    .replace(INDENT1, '\n\u3000\u3000')
    .replace(INDENT2, '\u3000\u3000')
    .replace(LAST, '');
}

/**
 * A URL and its `,{options}` (AnalyzeUrl.paramPattern: a comma before `{`, spaces around it
 * dropped), the options without the comma; '' when there are none.
 */
export function splitUrlOptions(url: string): [string, string] {
  PARAM.lastIndex = 0;
  const p = PARAM.exec(url);
  return p ? [url.slice(0, p.index), url.slice(p.index + p[0].length)] : [url, ''];
}

/**
 * HtmlFormatter.formatKeepImg: as formatHtml, each <img> kept as `<img src="absolute[,{options}]">`
 * (NetworkUtils.getAbsoluteURL: without a base the URL is only trimmed).
 */
export function formatKeepImg(html: string | null | undefined, baseUrl?: string): string {
  if (html === null || html === undefined) return '';
  return formatHtml(html, NOT_IMG).replace(IMG, (_m, withOptions: string | undefined, src: string | undefined, data: string | undefined) => {
    const [url, options] = withOptions !== undefined ? splitUrlOptions(withOptions) : [src ?? data ?? '', ''];
    return `<img src="${baseUrl ? resolveUrl(baseUrl, url) : url.trim()}${options ? `,${options}` : ''}">`;
  });
}
