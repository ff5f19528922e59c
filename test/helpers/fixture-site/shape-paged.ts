// The paged shape (UTF-8): a TOC over several pages (a "下一页" chain and a <select> of every
// page), chapter text over 2-3 pages whose last "next" link is the next chapter's URL, volumes and
// VIP marks in the TOC, an explore listing by kind.
import { bookById, chapterById, KINDS, nextReadable, pagesOf, searchBooks, type Book, type Chapter } from './model.js';
import { esc, htmlPage, notFound, num, pageOf, pParagraphs, type Ctx } from './page.js';

export const TOC_PAGE = 5;

export const pagedBookPath = (b: Book): string => `/paged/book/${b.id}.html`;
export const pagedTocPath = (b: Book, n: number): string => `/paged/book/${b.id}/toc_${n}.html`;
/** Page 1 of a chapter; pages 2 and 3 add `_2`, `_3`. */
export const pagedChapterPath = (b: Book, c: Chapter, page = 1): string => `/paged/read/${b.id}/${c.id}${page > 1 ? `_${page}` : ''}.html`;
export const tocPages = (b: Book): number => Math.ceil(b.chapters.length / TOC_PAGE);

/** A list of books, as the search and explore pages show it. */
export function bookList(books: readonly Book[], bookPath: (b: Book) => string): string {
  const items = books.map(
    (b) =>
      `<div class="book-item">\n<img class="cover" src="/static/loading.gif" data-original="${b.coverPath}">\n` +
      `<h3><a href="${bookPath(b)}">${esc(b.name)}</a></h3>\n<p class="author">作者：${esc(b.author)}</p>\n` +
      `<p class="kind">${esc(b.kind)}</p><span class="words">${esc(b.wordCount)}</span>\n<p class="intro">${esc(b.intro)}</p>\n` +
      `<a class="latest" href="${bookPath(b)}">${esc(b.latestChapter)}</a>\n</div>`,
  );
  return `<div class="result-list">\n${items.join('\n')}\n</div>`;
}

function info(b: Book): Response {
  const body =
    `<div class="book-info">\n<img class="cover" src="${b.coverPath}">\n<h1 class="title">${esc(b.name)}</h1>\n` +
    `<p class="author">作者：<a href="/paged/author/${encodeURIComponent(b.author)}">${esc(b.author)}</a></p>\n` +
    `<p class="kind">类别：${esc(b.kind)}</p>\n<p class="words">字数：${esc(b.wordCount)}</p>\n` +
    `<p class="latest">最新：<a href="${pagedChapterPath(b, b.chapters.filter((c) => !c.isVolume).at(-1)!)}">${esc(b.latestChapter)}</a></p>\n` +
    `<div class="intro">${esc(b.intro)}</div>\n<a class="read" href="${pagedTocPath(b, 1)}">查看目录</a>\n</div>`;
  return htmlPage(b.name, body, { head: `<meta name="book_id" content="${b.id}">\n` });
}

function toc(b: Book, n: number): Response | undefined {
  const pages = tocPages(b);
  if (n < 1 || n > pages) return undefined;
  const items = b.chapters.slice((n - 1) * TOC_PAGE, n * TOC_PAGE).map((c) => {
    if (c.isVolume) return `<li class="volume">${esc(c.title)}</li>`;
    const marks = (c.isVip ? '<em class="vip">VIP</em>' : '') + (c.isPay ? '<em class="pay">订阅</em>' : '');
    return `<li><a href="${pagedChapterPath(b, c)}">${esc(c.title)}</a>${marks}</li>`;
  });
  const options = Array.from({ length: pages }, (_, i) => `<option value="${pagedTocPath(b, i + 1)}"${i + 1 === n ? ' selected' : ''}>第${i + 1}页</option>`);
  const prev = n > 1 ? `<a href="toc_${n - 1}.html">上一页</a>` : '<a>上一页</a>';
  const next = n < pages ? `<a href="toc_${n + 1}.html">下一页</a>` : '<a>没有了</a>';
  const body =
    `<h1>${esc(b.name)} 目录</h1>\n<ul class="chapters">\n${items.join('\n')}\n</ul>\n` +
    `<div class="page">${prev}<select name="pageselect">${options.join('')}</select>${next}</div>`;
  return htmlPage(`${b.name}目录`, body);
}

function content(b: Book, c: Chapter, page: number): Response | undefined {
  const pages = pagesOf(c);
  if (page < 1 || page > pages.length) return undefined;
  const last = page === pages.length;
  const after = last ? nextReadable(b, c) : undefined;
  // On the last page the same "next" link leads to the next chapter (or back to the book).
  const nextHref = !last ? pagedChapterPath(b, c, page + 1) : after ? pagedChapterPath(b, after) : pagedBookPath(b);
  const label = !last ? '下一页' : after ? '下一章' : '返回目录';
  const body =
    `<h1 class="chapter-title">${esc(c.title)}（${page}/${pages.length}）</h1>\n` +
    `<div id="chaptercontent">\n${pParagraphs(pages[page - 1]!)}\n</div>\n` +
    `<div class="pager"><a href="${pagedTocPath(b, 1)}">目录</a><a id="next_url" href="${nextHref}">${label}</a></div>`;
  return htmlPage(c.title, body);
}

export function pagedShape(ctx: Ctx): Response | undefined {
  const { pathname: path, searchParams: q } = ctx.url;
  if (path === '/paged/search') return htmlPage('搜索', bookList(pageOf(searchBooks(ctx.model, q.get('q') ?? ''), num(q.get('page'))), pagedBookPath));
  let m = /^\/paged\/sort\/(\d+)\/(\d+)\.html$/.exec(path);
  if (m) {
    const kind = KINDS[num(m[1]) - 1];
    if (!kind) return notFound();
    return htmlPage(
      kind,
      bookList(
        pageOf(
          ctx.model.books.filter((b) => b.kind === kind),
          num(m[2]),
        ),
        pagedBookPath,
      ),
    );
  }
  m = /^\/paged\/book\/(\d+)\.html$/.exec(path);
  if (m) {
    const b = bookById(ctx.model, num(m[1]));
    return b ? info(b) : notFound();
  }
  m = /^\/paged\/book\/(\d+)\/toc_(\d+)\.html$/.exec(path);
  if (m) {
    const b = bookById(ctx.model, num(m[1]));
    return (b && toc(b, num(m[2]))) || notFound();
  }
  m = /^\/paged\/read\/(\d+)\/(\d+)(?:_(\d+))?\.html$/.exec(path);
  if (m) {
    const b = bookById(ctx.model, num(m[1]));
    const c = b && chapterById(b, num(m[2]));
    return (b && c && content(b, c, m[3] ? num(m[3]) : 1)) || notFound();
  }
  return undefined;
}
