// The SQL and the value mapping the hand-written contenders share: column lists, upserts, the
// parameters of a row, and rows (objects or arrays) back to the values the store returns
// (booleans as booleans, books.group as an exact bigint).
import type { BookIn, ChapterIn, ReplaceRuleIn, SourceIn } from '../data.js';

export type Obj = Record<string, unknown>;

export const b = (v: boolean | null | undefined): number | null => (v === undefined || v === null ? null : v ? 1 : 0);

const list = (columns: string): string[] => columns.split(', ');
const marks = (n: number): string => `(${Array.from({ length: n }, () => '?').join(', ')})`;
/** `ON CONFLICT(key) DO UPDATE SET c = excluded.c, ...` for every column but the key. */
const upsertTail = (columns: string, key: string): string =>
  ` ON CONFLICT(${key}) DO UPDATE SET ${list(columns)
    .filter((c) => c !== key)
    .map((c) => `${c} = excluded.${c}`)
    .join(', ')}`;

export const BOOK_COLUMNS =
  'bookUrl, tocUrl, origin, originName, name, author, kind, customTag, coverUrl, customCoverUrl, intro, customIntro, charset, type, ' +
  '`group`, latestChapterTitle, latestChapterTime, lastCheckTime, lastCheckCount, totalChapterNum, durChapterTitle, durChapterIndex, ' +
  'durChapterPos, durChapterTime, wordCount, canUpdate, `order`, originOrder, variable, readConfig';
/**
 * `group` is a 64-bit mask: read as a number where that is exact and as text otherwise, so
 * BigInt() of either is exact without reading every integer of the row as a bigint.
 */
export const BOOK_SELECT = BOOK_COLUMNS.replace(
  '`group`',
  'CASE WHEN `group` BETWEEN -9007199254740991 AND 9007199254740991 THEN `group` ELSE CAST(`group` AS TEXT) END AS `group`',
);
export const BOOK_UPSERT = `INSERT INTO books (${BOOK_COLUMNS}) VALUES ${marks(30)}${upsertTail(BOOK_COLUMNS, 'bookUrl')}`;

export const bookRow = (r: Obj): Obj => {
  r.group = BigInt(r.group as number | string);
  r.canUpdate = r.canUpdate !== 0;
  return r;
};
/** A row of BOOK_SELECT as an array, as the object the store returns. */
export const bookFromArray = (r: unknown[]): Obj => ({
  bookUrl: r[0],
  tocUrl: r[1],
  origin: r[2],
  originName: r[3],
  name: r[4],
  author: r[5],
  kind: r[6],
  customTag: r[7],
  coverUrl: r[8],
  customCoverUrl: r[9],
  intro: r[10],
  customIntro: r[11],
  charset: r[12],
  type: r[13],
  group: BigInt(r[14] as number | string),
  latestChapterTitle: r[15],
  latestChapterTime: r[16],
  lastCheckTime: r[17],
  lastCheckCount: r[18],
  totalChapterNum: r[19],
  durChapterTitle: r[20],
  durChapterIndex: r[21],
  durChapterPos: r[22],
  durChapterTime: r[23],
  wordCount: r[24],
  canUpdate: r[25] !== 0,
  order: r[26],
  originOrder: r[27],
  variable: r[28],
  readConfig: r[29],
});
export const bookParams = (x: BookIn): unknown[] => [
  x.bookUrl,
  x.tocUrl ?? '',
  x.origin ?? 'loc_book',
  x.originName ?? '',
  x.name ?? '',
  x.author ?? '',
  x.kind ?? null,
  x.customTag ?? null,
  x.coverUrl ?? null,
  x.customCoverUrl ?? null,
  x.intro ?? null,
  x.customIntro ?? null,
  x.charset ?? null,
  x.type ?? 0,
  BigInt.asIntN(64, BigInt(x.group ?? 0)),
  x.latestChapterTitle ?? null,
  x.latestChapterTime ?? 0,
  x.lastCheckTime ?? 0,
  x.lastCheckCount ?? 0,
  x.totalChapterNum ?? 0,
  x.durChapterTitle ?? null,
  x.durChapterIndex ?? 0,
  x.durChapterPos ?? 0,
  x.durChapterTime ?? 0,
  x.wordCount ?? null,
  b(x.canUpdate ?? true),
  x.order ?? 0,
  x.originOrder ?? 0,
  x.variable ?? null,
  x.readConfig ?? null,
];

export const CHAPTER_COLUMNS =
  'url, title, isVolume, baseUrl, bookUrl, `index`, isVip, isPay, resourceUrl, tag, start, `end`, startFragmentId, endFragmentId, variable';
export const CHAPTER_FIELDS = 15;
/** A multi-row chapter insert of `n` rows. */
export const chapterInsert = (n: number): string =>
  `INSERT INTO chapters (${CHAPTER_COLUMNS}) VALUES ${Array.from({ length: n }, () => marks(CHAPTER_FIELDS)).join(', ')}`;
export const chapterRow = (r: Obj): Obj => {
  r.isVolume = r.isVolume !== 0;
  r.isVip = r.isVip !== 0;
  r.isPay = r.isPay !== 0;
  return r;
};
export const chapterFromArray = (r: unknown[]): Obj => ({
  url: r[0],
  title: r[1],
  isVolume: r[2] !== 0,
  baseUrl: r[3],
  bookUrl: r[4],
  index: r[5],
  isVip: r[6] !== 0,
  isPay: r[7] !== 0,
  resourceUrl: r[8],
  tag: r[9],
  start: r[10],
  end: r[11],
  startFragmentId: r[12],
  endFragmentId: r[13],
  variable: r[14],
});
export const chapterParams = (c: ChapterIn, bookUrl: string): unknown[] => [
  c.url,
  c.title,
  b(c.isVolume),
  c.baseUrl,
  bookUrl,
  c.index,
  b(c.isVip),
  b(c.isPay),
  c.resourceUrl ?? null,
  c.tag ?? null,
  c.start ?? null,
  c.end ?? null,
  c.startFragmentId ?? null,
  c.endFragmentId ?? null,
  c.variable ?? null,
];
/** Appends a chapter's parameters to `out` (multi-row statements bind one flat list). */
export function pushChapter(out: unknown[], c: ChapterIn, bookUrl: string): void {
  out.push(
    c.url,
    c.title,
    c.isVolume ? 1 : 0,
    c.baseUrl,
    bookUrl,
    c.index,
    c.isVip ? 1 : 0,
    c.isPay ? 1 : 0,
    c.resourceUrl ?? null,
    c.tag ?? null,
    c.start ?? null,
    c.end ?? null,
    c.startFragmentId ?? null,
    c.endFragmentId ?? null,
    c.variable ?? null,
  );
}

export const SOURCE_COLUMNS =
  'bookSourceUrl, bookSourceName, bookSourceGroup, bookSourceType, bookUrlPattern, customOrder, enabled, enabledExplore, ' +
  'enabledReview, enabledCookieJar, concurrentRate, header, loginUrl, loginUi, loginCheckJs, coverDecodeJs, bookSourceComment, ' +
  'variableComment, lastUpdateTime, respondTime, weight, exploreUrl, ruleExplore, searchUrl, ruleSearch, ruleBookInfo, ruleToc, ' +
  'ruleContent, ruleReview';
export const SOURCE_FIELDS = 29;
const sourceTail = upsertTail(SOURCE_COLUMNS, 'bookSourceUrl');
export const SOURCE_UPSERT = `INSERT INTO book_sources (${SOURCE_COLUMNS}) VALUES ${marks(SOURCE_FIELDS)}${sourceTail}`;
/** A multi-row upsert of `n` sources (the rows of one statement must have distinct urls). */
export const sourceUpsert = (n: number): string =>
  `INSERT INTO book_sources (${SOURCE_COLUMNS}) VALUES ${Array.from({ length: n }, () => marks(SOURCE_FIELDS)).join(', ')}${sourceTail}`;
export const sourceParams = (s: SourceIn): unknown[] => [
  s.bookSourceUrl,
  s.bookSourceName,
  s.bookSourceGroup ?? null,
  s.bookSourceType,
  s.bookUrlPattern ?? null,
  s.customOrder,
  b(s.enabled),
  b(s.enabledExplore),
  b(s.enabledReview),
  b(s.enabledCookieJar ?? false),
  s.concurrentRate ?? null,
  s.header ?? null,
  s.loginUrl ?? null,
  s.loginUi ?? null,
  s.loginCheckJs ?? null,
  s.coverDecodeJs ?? null,
  s.bookSourceComment ?? null,
  s.variableComment ?? null,
  s.lastUpdateTime,
  s.respondTime,
  s.weight,
  s.exploreUrl ?? null,
  s.ruleExplore ?? null,
  s.searchUrl ?? null,
  s.ruleSearch ?? null,
  s.ruleBookInfo ?? null,
  s.ruleToc ?? null,
  s.ruleContent ?? null,
  s.ruleReview ?? null,
];

export const RULE_UPSERT =
  'INSERT INTO replace_rules (id, name, `group`, pattern, replacement, scope, scopeTitle, scopeContent, isEnabled, isRegex, timeoutMillisecond, sortOrder) ' +
  'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET name = excluded.name, `group` = excluded.`group`, ' +
  'pattern = excluded.pattern, replacement = excluded.replacement, scope = excluded.scope, scopeTitle = excluded.scopeTitle, ' +
  'scopeContent = excluded.scopeContent, isEnabled = excluded.isEnabled, isRegex = excluded.isRegex, ' +
  'timeoutMillisecond = excluded.timeoutMillisecond, sortOrder = excluded.sortOrder';
export const ruleParams = (r: ReplaceRuleIn): unknown[] => [
  r.id,
  r.name ?? '',
  r.group ?? null,
  r.pattern ?? '',
  r.replacement ?? '',
  r.scope ?? null,
  b(r.scopeTitle ?? false),
  b(r.scopeContent ?? true),
  b(r.isEnabled ?? true),
  b(r.isRegex ?? true),
  r.timeoutMillisecond ?? 3000,
  r.order ?? 0,
];

export const CACHE_PUT =
  'INSERT INTO caches (key, value, deadline) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, deadline = excluded.deadline';
export const CACHE_GET = 'SELECT value FROM caches WHERE key = ? AND (deadline = 0 OR deadline > ?)';
export const PROGRESS_UPDATE = 'UPDATE books SET durChapterIndex = ?, durChapterPos = ?, durChapterTime = ? WHERE bookUrl = ?';

/** Rows in statements of `size` rows, then one statement for the rest: calls `flush(n)` after filling `params` with n rows. */
export function inBatches<T>(rows: readonly T[], size: number, push: (params: unknown[], row: T) => void, flush: (n: number, params: unknown[]) => void): void {
  let params: unknown[] = [];
  let n = 0;
  for (const r of rows) {
    push(params, r);
    if (++n === size) {
      flush(n, params);
      params = [];
      n = 0;
    }
  }
  if (n > 0) flush(n, params);
}
