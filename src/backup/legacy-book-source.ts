// The 阅读 2.0 book-source format (flat ruleSearchUrl, ruleBookName, enable, serialNumber, ...)
// converted to the current one, following the app's SourceAnalyzer (reference 4.3). The field
// mapping is data; the two rewriting functions are the app's toNewRule and toNewUrl.
import { gsonPretty } from './gson.js';

type Rec = Record<string, unknown>;

/** Plain copies: legacy key → current field. */
export const LEGACY_SOURCE_FIELDS: Readonly<Record<string, string>> = {
  bookSourceUrl: 'bookSourceUrl',
  bookSourceName: 'bookSourceName',
  bookSourceGroup: 'bookSourceGroup',
  loginUrl: 'loginUrl',
  loginUi: 'loginUi',
  loginCheckJs: 'loginCheckJs',
  coverDecodeJs: 'coverDecodeJs',
  bookSourceComment: 'bookSourceComment',
  ruleBookUrlPattern: 'bookUrlPattern',
  serialNumber: 'customOrder',
  enable: 'enabled',
};

/** Rule objects: current rule column → { rule field: legacy key }. Values go through toNewRule. */
export const LEGACY_RULE_FIELDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  ruleSearch: {
    bookList: 'ruleSearchList',
    name: 'ruleSearchName',
    author: 'ruleSearchAuthor',
    intro: 'ruleSearchIntroduce',
    kind: 'ruleSearchKind',
    bookUrl: 'ruleSearchNoteUrl',
    coverUrl: 'ruleSearchCoverUrl',
    lastChapter: 'ruleSearchLastChapter',
  },
  ruleExplore: {
    bookList: 'ruleFindList',
    name: 'ruleFindName',
    author: 'ruleFindAuthor',
    intro: 'ruleFindIntroduce',
    kind: 'ruleFindKind',
    bookUrl: 'ruleFindNoteUrl',
    coverUrl: 'ruleFindCoverUrl',
    lastChapter: 'ruleFindLastChapter',
  },
  ruleBookInfo: {
    init: 'ruleBookInfoInit',
    name: 'ruleBookName',
    author: 'ruleBookAuthor',
    intro: 'ruleIntroduce',
    kind: 'ruleBookKind',
    coverUrl: 'ruleCoverUrl',
    lastChapter: 'ruleBookLastChapter',
    tocUrl: 'ruleChapterUrl',
  },
  ruleToc: {
    chapterList: 'ruleChapterList',
    chapterName: 'ruleChapterName',
    chapterUrl: 'ruleContentUrl',
    nextTocUrl: 'ruleChapterUrlNext',
  },
  ruleContent: {
    content: 'ruleBookContent',
    replaceRegex: 'ruleBookContentReplace',
    nextContentUrl: 'ruleContentUrlNext',
  },
};

/** Keys that need more than a copy: the user agent, the two URLs and the type. */
export const LEGACY_SPECIAL = {
  userAgent: 'httpUserAgent',
  searchUrl: 'ruleSearchUrl',
  exploreUrl: 'ruleFindUrl',
  type: 'bookSourceType',
} as const;

/** Every key the 2.0 format has that the current one does not. */
const LEGACY_ONLY = new Set<string>([
  ...Object.keys(LEGACY_SOURCE_FIELDS).filter((k) => LEGACY_SOURCE_FIELDS[k] !== k),
  ...Object.values(LEGACY_RULE_FIELDS).flatMap((m) => Object.values(m)),
  LEGACY_SPECIAL.userAgent,
  LEGACY_SPECIAL.searchUrl,
  LEGACY_SPECIAL.exploreUrl,
]);

/** Keys the conversion reads (all others are copied when they are current fields too). */
export const LEGACY_SOURCE_KEYS: ReadonlySet<string> = new Set([...LEGACY_ONLY, ...Object.keys(LEGACY_SOURCE_FIELDS), LEGACY_SPECIAL.type]);

/**
 * The app treats a source without a ruleToc as 2.0 format; this also asks for one 2.0-only
 * key, so that a current source that merely lacks rules keeps its fields.
 */
export function isLegacyBookSource(o: Rec): boolean {
  if (o.ruleToc !== undefined && o.ruleToc !== null) return false;
  return Object.keys(o).some((k) => LEGACY_ONLY.has(k));
}

const str = (v: unknown): string | undefined =>
  v === undefined || v === null ? undefined : typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
const blank = (s: string | undefined): s is undefined => s === undefined || s.trim() === '';

/**
 * A current-format source from a 2.0 one. Fields the mapping does not name but that exist with
 * the same name in the current format (weight, lastUpdateTime, ...) are kept, so nothing with a
 * column is lost; the caller coerces the result like any other record.
 */
export function convertLegacyBookSource(o: Rec, isColumn: (field: string) => boolean): Rec {
  const out: Rec = {};
  for (const [k, v] of Object.entries(o)) if (!LEGACY_SOURCE_KEYS.has(k) && isColumn(k)) out[k] = v;
  for (const [from, to] of Object.entries(LEGACY_SOURCE_FIELDS)) if (o[from] !== undefined) out[to] = o[from];
  out.bookSourceName ??= '';
  out.bookSourceComment ??= '';
  out.customOrder ??= 0;
  out.enabled ??= true;
  const ua = str(o[LEGACY_SPECIAL.userAgent]);
  out.header = ua ? gsonPretty({ 'User-Agent': ua }) : null;
  out.searchUrl = toNewUrl(str(o[LEGACY_SPECIAL.searchUrl]));
  out.exploreUrl = toNewUrls(str(o[LEGACY_SPECIAL.exploreUrl]));
  out.bookSourceType = str(o[LEGACY_SPECIAL.type]) === 'AUDIO' ? 1 : 0;
  if (blank(out.exploreUrl as string | undefined)) out.enabledExplore = false;
  for (const [column, fields] of Object.entries(LEGACY_RULE_FIELDS)) {
    const rule: Rec = {};
    for (const [field, from] of Object.entries(fields)) {
      const v = toNewRule(str(o[from]));
      if (v !== undefined) rule[field] = v;
    }
    out[column] = rule;
  }
  const content = out.ruleContent as Rec;
  let text = (content.content as string | undefined) ?? '';
  if (text.startsWith('$') && !text.startsWith('$.')) text = text.slice(1);
  const { content: _old, ...rest } = content;
  out.ruleContent = { content: text, ...rest };
  return out;
}

/**
 * 2.0 rule syntax → current: `#` → `##`, `|` → `||` (before the first `##`), `&` → `&&`
 * (unless the rule has `http` or starts with `/`); CSS, XPath, JSONPath-like, regex and JS rules
 * are left alone; a leading `-` (reverse) and `+` are kept. (The app applies the `#` step to the
 * rule with its prefixes, which doubles a leading `-`; this follows the documented intent.)
 */
export function toNewRule(oldRule: string | undefined): string | undefined {
  if (blank(oldRule)) return undefined;
  let rule = oldRule;
  const reverse = rule.startsWith('-');
  if (reverse) rule = rule.slice(1);
  const allInOne = rule.startsWith('+');
  if (allInOne) rule = rule.slice(1);
  const lower = rule.toLowerCase();
  const keep =
    lower.startsWith('@css:') ||
    lower.startsWith('@xpath:') ||
    rule.startsWith('//') ||
    rule.startsWith('##') ||
    rule.startsWith(':') ||
    lower.includes('@js:') ||
    lower.includes('<js>');
  if (!keep) {
    if (rule.includes('#') && !rule.includes('##')) rule = rule.replaceAll('#', '##');
    if (rule.includes('|') && !rule.includes('||')) {
      if (rule.includes('##')) {
        const [head, ...rest] = rule.split('##');
        if (head!.includes('|')) rule = [head!.replaceAll('|', '||'), ...rest].join('##');
      } else {
        rule = rule.replaceAll('|', '||');
      }
    }
    if (rule.includes('&') && !rule.includes('&&') && !rule.includes('http') && !rule.startsWith('/')) {
      rule = rule.replaceAll('&', '&&');
    }
  }
  if (allInOne) rule = `+${rule}`;
  if (reverse) rule = `-${rule}`;
  return rule;
}

/** Explore URLs: several `name::url` entries split on `&&` or new lines, each converted (empty ones dropped, where the app writes "null"). */
export function toNewUrls(oldUrls: string | undefined): string | undefined {
  if (blank(oldUrls)) return undefined;
  if (oldUrls.startsWith('@js:') || oldUrls.startsWith('<js>')) return oldUrls;
  if (!oldUrls.includes('\n') && !oldUrls.includes('&&')) return toNewUrl(oldUrls);
  return oldUrls
    .split(/(?:&&|\r?\n)+/)
    .flatMap((u) => toNewUrl(u)?.replace(/\n\s*/g, '') ?? [])
    .join('\n');
}

const HEADER = /@Header:\{.+?\}/i;
const JS_BLOCK = /\{\{.+?\}\}/gi;

/** 2.0 search URL → current: searchKey/searchPage placeholders, `|char=`, `@Header:`, `@` POST body. */
export function toNewUrl(oldUrl: string | undefined): string | undefined {
  if (blank(oldUrl)) return undefined;
  let url = oldUrl;
  if (url.toLowerCase().startsWith('<js>')) {
    return url.replaceAll('=searchKey', '={{key}}').replaceAll('=searchPage', '={{page}}');
  }
  // Insertion order is also the order Java's HashMap gives these four keys.
  const options: Record<string, string> = {};
  const header = HEADER.exec(url)?.[0];
  if (header !== undefined) {
    url = url.replaceAll(header, '');
    options.headers = header.slice(8);
  }
  let parts = url.split('|');
  url = parts[0]!;
  if (parts.length > 1) {
    const charset = parts[1]!.split('=')[1];
    if (charset !== undefined) options.charset = charset;
  }
  const js = url.match(JS_BLOCK) ?? [];
  js.forEach((block, i) => (url = url.replaceAll(block, `$${i}`)));
  url = url.replaceAll('{', '<').replaceAll('}', '>');
  url = url.replaceAll('searchKey', '{{key}}');
  url = url
    .replace(/<searchPage([-+]1)>/g, '{{page$1}}')
    .replace(/searchPage([-+]1)/g, '{{page$1}}')
    .replaceAll('searchPage', '{{page}}');
  js.forEach((block, i) => (url = url.replaceAll(`$${i}`, block.replaceAll('searchKey', 'key').replaceAll('searchPage', 'page'))));
  parts = url.split('@');
  url = parts[0]!;
  if (parts.length > 1) {
    options.method = 'POST';
    options.body = parts[1]!;
  }
  if (Object.keys(options).length > 0) url += `,${gsonPretty(options)}`;
  return url;
}
