// The requests a source check (search, info, TOC, first chapter) makes on the site, derived from
// the model: the floor a `sources check` benchmark compares with (the time of the requests alone).
import { pagesOf, searchBooks, type Book, type Model } from './model.js';
import { base64Utf8, plainToken, searchSign } from './codec.js';
import { gbkPercentEncode } from './gbk.js';
import { COOKIE_NAME, sessionValue } from './shape-guarded.js';
import { partsOf } from './shape-js.js';
import { pagedChapterPath, pagedTocPath, tocPages } from './shape-paged.js';
import type { FixtureSource } from './source-shape.js';

export interface PlannedRequest {
  readonly url: string;
  readonly init?: RequestInit;
}

/** Search for `keyword` (its first hit must exist), the hit's info, TOC and first chapter. */
export function checkPlan(m: Model, f: FixtureSource, keyword: string): PlannedRequest[] {
  const base = f.source.bookSourceUrl.replace(/#.*$/, '');
  const b: Book | undefined = searchBooks(m, keyword)[0];
  if (!b) throw new Error(`no book matches ${keyword}`);
  const first = b.chapters.find((c) => !c.isVolume)!;
  const q = encodeURIComponent(keyword);
  const at = (path: string, init?: RequestInit): PlannedRequest => ({ url: base + path, ...(init ? { init } : {}) });
  const book = f.expect.bookUrl(b);
  const chapter = f.expect.chapterUrl(b, first);
  const plain = (search: string): PlannedRequest[] => [at(search), { url: book }, { url: chapter }];
  switch (f.id) {
    case 'gbk': {
      const body = `searchkey=${gbkPercentEncode(keyword)}&searchtype=articlename`;
      return [
        at('/gbk/modules/article/search.php', { method: 'POST', body, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }),
        { url: book },
        { url: chapter },
      ];
    }
    case 'paged':
    case 'pagelist': {
      const toc = Array.from({ length: tocPages(b) }, (_, i) => at(pagedTocPath(b, i + 1)));
      const pages = pagesOf(first).map((_, i) => at(pagedChapterPath(b, first, i + 1)));
      return [at(`/paged/search?q=${q}&page=1`), { url: book }, ...toc, ...pages];
    }
    case 'api':
      return [at(`/api/search?keyword=${q}&page=1`), { url: book }, at(`/api/book/${b.id}/chapters`), { url: chapter }];
    case 'xpath':
      return [at(`/xpath/search?searchkey=${q}`), { url: book }, at(`/xpath/book/${b.id}/list.html`), { url: chapter }];
    case 'aio':
      return plain(`/aio/search?wd=${q}`);
    case 'js-plain':
      return plain(`/js/s?wd=${q}&t=${plainToken(keyword)}`);
    case 'js-java': {
      const parts = Array.from({ length: partsOf(b) }, (_, i) => at(`/js/part?book=${b.id}&n=${i + 1}`));
      const search = at(`/js/search?k=${encodeURIComponent(base64Utf8(keyword))}&sign=${searchSign(keyword)}`, {
        headers: { 'X-Requested-With': 'XMLHttpRequest' },
      });
      return [search, { url: book }, ...parts, { url: chapter }];
    }
    case 'cookie': {
      const headers = { Cookie: `${COOKIE_NAME}=${sessionValue(m.seed)}` };
      return [at(`/guard/search?kw=${q}`), { url: book, init: { headers } }, { url: chapter, init: { headers } }];
    }
    default:
      throw new Error(`no check plan for the ${f.id} source`);
  }
}
