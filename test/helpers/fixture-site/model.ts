// The seeded model the fixture site serves: books, their chapters and paragraphs. Every expected
// answer a test checks (search hits, book info, TOC, chapter text as the app shows it) is derived
// here, from the model, never from an engine's output.
import { rng, type Rng } from './prng.js';

export interface Chapter {
  /** Position in the TOC, 0-based, volumes included (the app numbers chapters so). */
  readonly index: number;
  /** The site's chapter id (in URLs); volumes have none. */
  readonly id: number;
  readonly title: string;
  readonly isVolume: boolean;
  readonly isVip: boolean;
  readonly isPay: boolean;
  /** Plain text paragraphs, no whitespace inside; may hold `&`, `<`, `>` and quotes. Empty for a volume. */
  readonly paragraphs: readonly string[];
}

export interface Book {
  readonly id: number;
  readonly name: string;
  readonly author: string;
  readonly intro: string;
  readonly kind: string;
  /** As every page of the site shows it (`12.3万字`), so no engine formatting is in question. */
  readonly wordCount: string;
  /** Path of the cover on the site, shared by every shape. */
  readonly coverPath: string;
  readonly chapters: readonly Chapter[];
  /** Title of the last chapter that is not a volume. */
  readonly latestChapter: string;
}

export interface Model {
  readonly seed: number;
  readonly books: readonly Book[];
  /** Keywords with a known number of hits: one book, several books, none. */
  readonly keywords: { readonly one: string; readonly many: string; readonly none: string };
}

export interface ModelOptions {
  readonly books?: number;
  readonly minChapters?: number;
  readonly maxChapters?: number;
}

// Common characters, all in GBK (the GBK pages must be able to carry every character).
const HAN =
  '天地玄黄宇宙洪荒日月盈昃辰宿列张寒来暑往秋收冬藏云腾致雨露结为霜金生丽水玉出昆冈剑号巨阙珠称夜光果珍李柰菜重芥姜海咸河淡鳞潜羽翔龙师火帝鸟官人皇始制文字乃服衣裳推位让国有虞陶唐吊民伐罪周发殷汤坐朝问道垂拱平章爱育黎首臣伏戎羌遐迩一体率宾归王鸣凤在竹白驹食场化被草木赖及万方盖此身发四大五常恭惟鞠养岂敢毁伤女慕贞洁男效才良知过必改得能莫忘';
const STEMS = ['青云', '星河', '剑来', '长夜', '山海', '归途'];
export const KINDS = ['玄幻', '仙侠', '都市', '历史', '科幻', '武侠'];
const SURNAMES = ['李', '王', '张', '刘', '陈', '杨', '赵', '黄', '周', '吴'];
const ENDS = ['。', '！', '？', '；', '……'];
const NUMS = '一二三四五六七八九十';

const HAN_LIST = [...HAN];

const word = (r: Rng, lo: number, hi: number): string => {
  let s = '';
  for (let n = r.int(lo, hi); n > 0; n--) s += r.pick(HAN_LIST);
  return s;
};

/** A paragraph: a few clauses, sometimes quoted speech or a character HTML must escape. */
function paragraph(r: Rng): string {
  const parts: string[] = [];
  for (let n = r.int(1, 3); n > 0; n--) {
    let clause = word(r, 4, 12);
    const special = r.int(0, 9);
    if (special === 0) clause = `“${word(r, 2, 6)}&${word(r, 2, 4)}”`;
    else if (special === 1) clause = `${word(r, 2, 4)}<${word(r, 2, 4)}>${word(r, 1, 3)}`;
    else if (special === 2) clause = `“${clause}”`;
    parts.push(clause + (r.chance(0.5) ? '，' + word(r, 3, 8) : '') + r.pick(ENDS));
  }
  return parts.join('');
}

function chapters(r: Rng, count: number, volumes: boolean): Chapter[] {
  const out: Chapter[] = [];
  let id = r.int(10, 90) * 100;
  let vol = 0;
  const vipFrom = Math.floor(count * 0.7);
  for (let n = 1; n <= count; n++) {
    if (volumes && (n === 1 || n === Math.ceil(count / 2) + 1)) {
      out.push({ index: out.length, id: 0, title: `第${NUMS[vol++]}卷 ${word(r, 2, 4)}`, isVolume: true, isVip: false, isPay: false, paragraphs: [] });
    }
    id += r.int(1, 3);
    const paragraphs = Array.from({ length: r.int(6, 14) }, () => paragraph(r));
    const isVip = n > vipFrom;
    out.push({ index: out.length, id, title: `第${n}章 ${word(r, 2, 5)}`, isVolume: false, isVip, isPay: isVip && n % 2 === 0, paragraphs });
  }
  return out;
}

const countText = (n: number): string => (n >= 10000 ? `${(n / 10000).toFixed(1)}万字` : `${n}字`);

export function model(seed: number, options: ModelOptions = {}): Model {
  const r = rng(seed);
  const names = new Set<string>();
  const books: Book[] = [];
  const count = options.books ?? 12;
  for (let i = 0; i < count; i++) {
    let name: string;
    do name = STEMS[i % STEMS.length]! + word(r, 2, 2);
    while (names.has(name));
    names.add(name);
    const list = chapters(r, r.int(options.minChapters ?? 7, options.maxChapters ?? 13), i % 3 === 2);
    const words = list.reduce((sum, c) => sum + c.paragraphs.join('').length, 0) * 40;
    books.push({
      id: 1001 + i * 7,
      name,
      author: r.pick(SURNAMES) + word(r, 1, 2),
      intro: `${word(r, 6, 12)}，${word(r, 6, 12)}。`,
      kind: KINDS[i % KINDS.length]!,
      wordCount: countText(words),
      coverPath: `/covers/${1001 + i * 7}.jpg`,
      chapters: list,
      latestChapter: list.filter((c) => !c.isVolume).at(-1)!.title,
    });
  }
  return { seed, books, keywords: { one: books[0]!.name, many: STEMS[0]!, none: '无此书名' } };
}

/** Books a keyword finds: its name or author contains the keyword, in the model's order. */
export function searchBooks(m: Model, keyword: string): Book[] {
  if (!keyword) return [];
  return m.books.filter((b) => b.name.includes(keyword) || b.author.includes(keyword));
}

export function bookById(m: Model, id: number): Book | undefined {
  return m.books.find((b) => b.id === id);
}

export function chapterById(book: Book, id: number): Chapter | undefined {
  return id ? book.chapters.find((c) => c.id === id) : undefined;
}

/** The chapter after `c` that has a page (volumes skipped), or undefined at the end. */
export function nextReadable(book: Book, c: Chapter): Chapter | undefined {
  return book.chapters.slice(c.index + 1).find((x) => !x.isVolume);
}

/**
 * A chapter's text as the app shows it (HtmlFormatter then entity decoding, rule-engine.md §4):
 * one paragraph a line, each indented with two U+3000, no trailing newline.
 */
export function chapterText(c: Chapter): string {
  return c.paragraphs.map((p) => `\u3000\u3000${p}`).join('\n');
}

/** The TOC as the app stores it, in order: title and flags (URLs depend on the shape). */
export function expectedToc(book: Book): { title: string; isVolume: boolean; isVip: boolean; isPay: boolean }[] {
  return book.chapters.map((c) => ({ title: c.title, isVolume: c.isVolume, isVip: c.isVip, isPay: c.isPay }));
}

/** Splits a chapter's paragraphs into `pages` runs as even as can be (paged content). */
export function pagesOf(c: Chapter): string[][] {
  const pages = 2 + (c.id % 2); // 2 or 3 pages, fixed by the id so every shape agrees
  const size = Math.ceil(c.paragraphs.length / pages);
  const out: string[][] = [];
  for (let i = 0; i < c.paragraphs.length; i += size) out.push(c.paragraphs.slice(i, i + size));
  return out;
}
