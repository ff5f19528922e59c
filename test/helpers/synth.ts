// Large book-source collections for the scale benchmark and the kill test: built from the
// corpora when they are there, otherwise from a generator of realistic-looking sources.
import { closeSync, existsSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

type Json = Record<string, unknown>;

/** One generated source of roughly `size` bytes of JSON. */
export function generatedSource(i: number, size = 2500): Json {
  const filler = '规则'.repeat(Math.max(0, Math.floor((size - 1100) / 6)));
  return {
    bookSourceUrl: `https://gen${i}.example.com`,
    bookSourceName: `📚 生成书源 ${i}`,
    bookSourceGroup: i % 3 === 0 ? '精选, 生成' : '生成',
    bookSourceType: i % 10 === 0 ? '1' : 0,
    customOrder: i,
    enabled: i % 7 !== 0,
    enabledExplore: true,
    header: '{"User-Agent":"Mozilla/5.0 (Linux; Android 10)"}',
    lastUpdateTime: String(1700000000000 + i),
    respondTime: 180000,
    weight: 0,
    exploreUrl: `玄幻::/cat/1/{{page}}.html\n都市::/cat/2/{{page}}.html`,
    searchUrl: `/search.php?q={{key}}&p={{page}},{"charset":"gbk"}`,
    ruleSearch: { bookList: '.result-list li', name: 'h3@text', author: '.author@text', bookUrl: 'a@href', intro: filler },
    ruleExplore: i % 5 === 0 ? [] : { bookList: '.list li', name: 'a@text' },
    ruleBookInfo: JSON.stringify({ name: 'h1@text', author: '.info@text##作者：' }),
    ruleToc: { chapterList: '#list dd', chapterName: 'a@text', chapterUrl: 'a@href' },
    ruleContent: { content: '#content@html', replaceRegex: '##本章未完.*' },
  };
}

const CORPUS_SOURCE_FILES = [
  'booksources-yck-1263/5873_1d8cd8bda3bc9481e6a5f3c45a6c9c15.json',
  'booksources-checked-shidahuilang/good.json',
  'booksources-yoval/bookSource.json',
  'booksources-legado-export-2005/exportBookSource5.json',
  'booksources-legacy-1537/input_1.json',
  'booksources-daiaji/漫画.json',
];

/** Real sources from the corpora (modern and 2.0 format), or undefined when they are absent. */
export function corpusSources(corpora: string): Json[] | undefined {
  if (!existsSync(corpora) || readdirSync(corpora).length === 0) return undefined;
  const out: Json[] = [];
  for (const f of CORPUS_SOURCE_FILES) {
    const path = join(corpora, f);
    if (!existsSync(path)) continue;
    for (const s of JSON.parse(readFileSync(path, 'utf8')) as Json[]) {
      if (typeof s.bookSourceUrl === 'string' && s.bookSourceUrl.trim() !== '') out.push(s);
    }
  }
  return out.length ? out : undefined;
}

/**
 * Writes a JSON array of `count` sources, streaming, pretty-printed like the app's exports.
 * Each source gets a unique URL (`<url>#<n>`) so every record is a new row. Returns the bytes.
 */
export function writeCollection(path: string, count: number, pool?: readonly Json[], urlPrefix = ''): number {
  const fd = openSync(path, 'w');
  let bytes = 0;
  try {
    bytes += writeSync(fd, '[\n');
    for (let i = 0; i < count; i++) {
      const base = pool ? pool[i % pool.length]! : generatedSource(i);
      const s = pool
        ? { ...base, bookSourceUrl: `${urlPrefix}${String(base.bookSourceUrl).trim()}#${i}` }
        : { ...base, bookSourceUrl: `${urlPrefix}${String(base.bookSourceUrl)}` };
      const text = JSON.stringify(s, null, 2).replace(/\n/g, '\n  ');
      bytes += writeSync(fd, `${i === 0 ? '' : ',\n'}  ${text}`);
    }
    bytes += writeSync(fd, '\n]\n');
  } finally {
    closeSync(fd);
  }
  return bytes;
}
