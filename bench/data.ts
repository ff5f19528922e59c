// Deterministic data for the benchmarks: the same seed gives the same rows on every run and
// for every contender. Book sources are grown from the real collections in ../shared/corpora
// when they are there, and made up by a built-in generator otherwise.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NewRow } from '../src/schema/row-types.js';

export type BookIn = NewRow<'books'> & { readonly bookUrl: string };
export type ChapterIn = NewRow<'chapters'>;
export type SourceIn = NewRow<'book_sources'>;
export type ReplaceRuleIn = NewRow<'replace_rules'>;

/** mulberry32: a small, fast, seeded generator; good enough to pick data. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HAN =
  '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严';
const han = (r: () => number, n: number): string => {
  let s = '';
  for (let i = 0; i < n; i++) s += HAN[Math.floor(r() * HAN.length)];
  return s;
};
const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/** Fisher-Yates, seeded. */
export function shuffle<T>(xs: T[], r: () => number): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}

const BASE_TIME = 1_700_000_000_000;
/** How many user groups the made-up bookshelf uses (bits 0 to GROUP_BITS - 1). */
export const GROUP_BITS = 8;

/** A bookshelf of `n` net books, each in 0 to 3 user groups, with distinct reading times. */
export function books(n: number, seed = 1): BookIn[] {
  const r = random(seed);
  const out: BookIn[] = [];
  const times = shuffle(
    Array.from({ length: n }, (_, i) => i),
    r,
  );
  for (let i = 0; i < n; i++) {
    let group = 0n;
    const k = Math.floor(r() * 4);
    for (let g = 0; g < k; g++) group |= 1n << BigInt(Math.floor(r() * GROUP_BITS));
    const host = `https://www.site${i % 37}.example.com`;
    const total = 200 + Math.floor(r() * 3000);
    const dur = Math.floor(r() * total);
    out.push({
      bookUrl: `${host}/book/${i}/`,
      tocUrl: `${host}/book/${i}/index.html`,
      origin: host,
      originName: `书源${i % 37}`,
      name: `${han(r, 2 + Math.floor(r() * 5))}${i}`,
      author: han(r, 2 + Math.floor(r() * 2)),
      kind: `${han(r, 2)},${han(r, 2)}`,
      coverUrl: `${host}/cover/${i}.jpg`,
      intro: han(r, 80 + Math.floor(r() * 200)),
      type: 8,
      group,
      latestChapterTitle: `第${total}章 ${han(r, 6)}`,
      latestChapterTime: BASE_TIME - Math.floor(r() * 1e9),
      lastCheckTime: BASE_TIME - Math.floor(r() * 1e8),
      lastCheckCount: Math.floor(r() * 5),
      totalChapterNum: total,
      durChapterTitle: `第${dur + 1}章 ${han(r, 6)}`,
      durChapterIndex: dur,
      durChapterPos: Math.floor(r() * 5000),
      // Distinct, so every contender returns the same order for ORDER BY durChapterTime.
      durChapterTime: BASE_TIME - times[i]! * 1000,
      wordCount: `${Math.floor(r() * 300)}万字`,
      canUpdate: r() < 0.9,
      order: i,
      originOrder: i % 37,
      variable: r() < 0.2 ? '{"custom":"1"}' : null,
    });
  }
  return out;
}

/** The chapter fields of local books (positions in a file) and variables, empty in the made-up chapters. */
const NO_POSITIONS = { start: null, end: null, startFragmentId: null, endFragmentId: null, variable: null } as const;

/** A table of contents of `n` chapters (every hundredth a volume heading). */
export function chapters(bookUrl: string, n: number, seed = 2): ChapterIn[] {
  const r = random(seed);
  const out: ChapterIn[] = [];
  for (let i = 0; i < n; i++) {
    out.push({
      url: `${bookUrl}${i}.html`,
      title: i % 100 === 0 ? `第${i / 100 + 1}卷 ${han(r, 4)}` : `第${i + 1}章 ${han(r, 4 + Math.floor(r() * 8))}`,
      isVolume: i % 100 === 0,
      baseUrl: `${bookUrl}index.html`,
      bookUrl,
      index: i,
      isVip: r() < 0.1,
      isPay: false,
      resourceUrl: null,
      tag: r() < 0.3 ? `更新于${han(r, 2)}` : null,
      ...NO_POSITIONS,
    });
  }
  return out;
}

/** Where the shared corpora are: LEGADO_CORPORA, else ../shared/corpora beside the repository. */
export function corporaDir(): string | undefined {
  const env = process.env.LEGADO_CORPORA;
  if (env) return existsSync(env) ? env : undefined;
  // dist/bench/data.js (compiled) or bench/data.ts: the repository is two or one levels up.
  const here = dirname(fileURLToPath(import.meta.url));
  for (const up of ['../..', '..']) {
    const root = resolve(here, up);
    if (existsSync(join(root, 'package.json'))) {
      const dir = resolve(root, '../shared/corpora');
      return existsSync(dir) ? dir : undefined;
    }
  }
  return undefined;
}

/** Collections of Legado 3.x book sources (nested rule objects) in the corpora. */
const SOURCE_FILES = [
  'booksources-legado-export-2005/exportBookSource5.json',
  'booksources-yck-1263',
  'booksources-checked-shidahuilang/good.json',
  'booksources-yoval/bookSource.json',
];

const RULE_FIELDS = ['ruleExplore', 'ruleSearch', 'ruleBookInfo', 'ruleToc', 'ruleContent', 'ruleReview'] as const;
const TEXT_FIELDS = [
  'bookSourceGroup',
  'bookUrlPattern',
  'concurrentRate',
  'header',
  'loginUrl',
  'loginUi',
  'loginCheckJs',
  'coverDecodeJs',
  'bookSourceComment',
  'variableComment',
  'exploreUrl',
  'searchUrl',
] as const;

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const int = (v: unknown): number => {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : 0;
  return Number.isSafeInteger(n) ? n : 0;
};

/** A 3.x source object from a collection as a book_sources row: rule objects become their JSON text. */
function sourceRow(o: Record<string, unknown>): SourceIn | undefined {
  const url = text(o.bookSourceUrl);
  const name = text(o.bookSourceName);
  if (!url || !name) return undefined;
  const row: Record<string, unknown> = {
    bookSourceUrl: url,
    bookSourceName: name,
    bookSourceType: int(o.bookSourceType),
    customOrder: int(o.customOrder),
    enabled: o.enabled !== false,
    enabledExplore: o.enabledExplore !== false,
    enabledCookieJar: o.enabledCookieJar === true,
    lastUpdateTime: int(o.lastUpdateTime),
    respondTime: int(o.respondTime) || 180000,
    weight: int(o.weight),
  };
  for (const f of TEXT_FIELDS) row[f] = text(o[f]);
  for (const f of RULE_FIELDS) {
    const v = o[f];
    row[f] = v !== null && typeof v === 'object' && !Array.isArray(v) ? JSON.stringify(v) : typeof v === 'string' ? v : null;
  }
  // A copy: the fields added one by one above leave V8 a dictionary-mode object, slow to read
  // and to list the keys of; rows from JSON.parse or an object literal, what programs pass, are not.
  return { ...row } as SourceIn;
}

function corpusSources(): SourceIn[] {
  const dir = corporaDir();
  if (!dir) return [];
  const out: SourceIn[] = [];
  const seen = new Set<string>();
  for (const entry of SOURCE_FILES) {
    const p = join(dir, entry);
    if (!existsSync(p)) continue;
    const files = p.endsWith('.json')
      ? [p]
      : readdirSync(p)
          .filter((f) => f.endsWith('.json'))
          .sort()
          .map((f) => join(p, f));
    for (const f of files) {
      let list: unknown;
      try {
        list = JSON.parse(readFileSync(f, 'utf8'));
      } catch {
        continue;
      }
      if (!Array.isArray(list)) continue;
      for (const o of list) {
        if (o === null || typeof o !== 'object') continue;
        const row = sourceRow(o as Record<string, unknown>);
        if (row && !seen.has(row.bookSourceUrl)) {
          seen.add(row.bookSourceUrl);
          out.push(row);
        }
      }
    }
  }
  return out;
}

/** A made-up 3.x source with rules of the size and shape real ones have. */
function madeUpSource(i: number, r: () => number): SourceIn {
  const host = `https://m.novel${i}.example.net`;
  const rule = (keys: readonly string[]) =>
    JSON.stringify(Object.fromEntries(keys.map((k) => [k, `class.${han(r, 2)}-${k}@tag.a.${Math.floor(r() * 9)}@text##${han(r, 3)}`])));
  return {
    bookSourceUrl: host,
    bookSourceName: `${han(r, 4)}小说`,
    bookSourceGroup: pick(r, ['精品', '优质', '男频,女频', null]),
    bookSourceType: 0,
    customOrder: i,
    enabled: r() < 0.8,
    enabledExplore: r() < 0.5,
    enabledCookieJar: false,
    header: '{"User-Agent":"Mozilla/5.0 (Linux; Android 10) AppleWebKit/537.36 Chrome/88.0 Mobile Safari/537.36"}',
    lastUpdateTime: BASE_TIME - Math.floor(r() * 1e10),
    respondTime: 180000,
    weight: 0,
    exploreUrl: Array.from({ length: 8 }, (_, k) => `${han(r, 4)}::/list/${k + 1}_{{page}}.html`).join('\n'),
    searchUrl: `${host}/search.php?q={{key}}&page={{page}},{"charset":"gbk"}`,
    ruleExplore: rule(['bookList', 'name', 'author', 'intro', 'kind', 'bookUrl', 'coverUrl']),
    ruleSearch: rule(['bookList', 'name', 'author', 'intro', 'kind', 'lastChapter', 'bookUrl', 'coverUrl', 'wordCount']),
    ruleBookInfo: rule(['init', 'name', 'author', 'intro', 'kind', 'lastChapter', 'coverUrl', 'tocUrl']),
    ruleToc: rule(['chapterList', 'chapterName', 'chapterUrl', 'nextTocUrl']),
    ruleContent: rule(['content', 'nextContentUrl', 'replaceRegex']),
  };
}

let corpusCache: SourceIn[] | undefined;

/**
 * `n` book sources: the corpora's real sources, cycled with a distinct url per copy when `n`
 * is larger than the collections, or made-up ones when the corpora are not there.
 */
export function sources(n: number, seed = 3): { rows: SourceIn[]; fromCorpora: number } {
  corpusCache ??= corpusSources();
  const base = corpusCache;
  const r = random(seed);
  const rows: SourceIn[] = [];
  for (let i = 0; i < n; i++) {
    if (base.length === 0) {
      rows.push(madeUpSource(i, r));
      continue;
    }
    const b = base[i % base.length]!;
    const copy = Math.floor(i / base.length);
    rows.push(copy === 0 ? b : { ...b, bookSourceUrl: `${b.bookSourceUrl}#${copy}`, customOrder: i });
  }
  return { rows, fromCorpora: base.length };
}

/** Replace rules as a user's backup has them. */
export function replaceRules(n: number, seed = 4): ReplaceRuleIn[] {
  const r = random(seed);
  return Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    name: `净化${han(r, 3)}${i}`,
    group: pick(r, ['广告', '净化', null]),
    pattern: r() < 0.7 ? `(${han(r, 2)}|${han(r, 3)})[\\s\\S]{0,${1 + Math.floor(r() * 20)}}` : han(r, 6),
    replacement: r() < 0.8 ? '' : han(r, 2),
    scope: r() < 0.3 ? `${han(r, 4)};https://www.site${i % 37}.example.com` : null,
    scopeTitle: false,
    scopeContent: true,
    isEnabled: r() < 0.9,
    isRegex: r() < 0.7,
    timeoutMillisecond: 3000,
    order: i,
  }));
}

/** Cache entries: a third never expire, a third live past the reads, a third expire before them. */
export interface CacheEntry {
  readonly key: string;
  readonly value: string;
  /** Seconds to live; 0 never expires. */
  readonly ttl: number;
}

/** Seconds between the puts and the gets of the cache workload. */
export const CACHE_READ_AFTER_S = 3600;

export function cacheEntries(n: number, seed = 5): { entries: CacheEntry[]; reads: string[] } {
  const r = random(seed);
  const entries: CacheEntry[] = [];
  for (let i = 0; i < n; i++) {
    const kind = i % 3;
    const ttl = kind === 0 ? 0 : kind === 1 ? CACHE_READ_AFTER_S * 24 : 60 + Math.floor(r() * (CACHE_READ_AFTER_S - 120));
    entries.push({ key: `cache:${i.toString(36)}:${han(r, 2)}`, value: `{"v":"${han(r, 10 + Math.floor(r() * 40))}","n":${i}}`, ttl });
  }
  // Every key read once, in random order, plus one missing key in twenty.
  const reads = shuffle(
    entries.map((e, i) => (i % 20 === 19 ? `missing:${i}` : e.key)),
    r,
  );
  return { entries, reads };
}

/** Random chapter indexes to read, spread over the book. */
export function chapterPicks(chapterCount: number, n: number, seed = 6): number[] {
  const r = random(seed);
  return Array.from({ length: n }, () => Math.floor(r() * chapterCount));
}

/** Reading-progress saves: random books, forward positions. */
export interface ProgressSave {
  readonly bookUrl: string;
  readonly durChapterIndex: number;
  readonly durChapterPos: number;
  readonly durChapterTime: number;
}

export function progressSaves(shelf: readonly BookIn[], n: number, seed = 7): ProgressSave[] {
  const r = random(seed);
  return Array.from({ length: n }, (_, i) => {
    const b = shelf[Math.floor(r() * shelf.length)]!;
    return {
      bookUrl: b.bookUrl,
      durChapterIndex: Math.floor(r() * 3000),
      durChapterPos: Math.floor(r() * 8000),
      durChapterTime: BASE_TIME + i * 1000,
    };
  });
}

/**
 * The bulk insert's chapters: a pattern SQLite can produce by itself too (c-floor.ts makes the
 * same rows with one INSERT … SELECT), so every contender's table ends the same as the floor's.
 */
export function bulkChapters(bookUrl: string, n: number): ChapterIn[] {
  const out: ChapterIn[] = new Array(n);
  const baseUrl = `${bookUrl}index.html`;
  for (let i = 0; i < n; i++) {
    out[i] = {
      url: `${bookUrl}${i}.html`,
      title: `第${i + 1}章`,
      isVolume: i % 100 === 0,
      baseUrl,
      bookUrl,
      index: i,
      isVip: i % 10 === 1,
      isPay: false,
      resourceUrl: null,
      tag: i % 3 === 0 ? `tag${i % 7}` : null,
      ...NO_POSITIONS,
    };
  }
  return out;
}

/** bulkChapters in SQL: one statement that inserts the same `n` rows (parameters: n - 1, bookUrl, baseUrl, bookUrl). */
export const BULK_CHAPTERS_SQL =
  'WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?) ' +
  'INSERT INTO chapters (url, title, isVolume, baseUrl, bookUrl, `index`, isVip, isPay, resourceUrl, tag, start, `end`, startFragmentId, endFragmentId, variable) ' +
  "SELECT ? || i || '.html', '第' || (i + 1) || '章', i % 100 = 0, ?, ?, i, i % 10 = 1, 0, NULL, " +
  "CASE WHEN i % 3 = 0 THEN 'tag' || (i % 7) END, NULL, NULL, NULL, NULL, NULL FROM n";
