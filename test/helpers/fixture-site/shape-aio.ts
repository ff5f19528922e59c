// The AllInOne shape: lists as plain repeated markup, read by `:regex` rules with $1, $2…; the
// chapter text split over two blocks that a source joins with `&&`.
import { bookById, chapterById, searchBooks, type Book, type Chapter } from './model.js';
import { brParagraphs, esc, htmlPage, notFound, num, readable, type Ctx } from './page.js';

export const aioBookPath = (b: Book): string => `/aio/book/${b.id}.html`;
export const aioChapterPath = (b: Book, c: Chapter): string => `/aio/book/${b.id}/${c.id}.html`;

function results(books: readonly Book[]): Response {
  const lines = books.map(
    (b) =>
      `<div class="r"><a href="${aioBookPath(b)}" title="${esc(b.name)}">${esc(b.name)}</a> <span class="a">${esc(b.author)}</span> ` +
      `<span class="k">${esc(b.kind)}</span> <em>${esc(b.latestChapter)}</em></div>`,
  );
  return htmlPage('搜索', `<div id="results">\n${lines.join('\n')}\n</div>`);
}

function info(b: Book): Response {
  const items = readable(b).map((c) => `<li><a href="/aio/book/${b.id}/${c.id}.html">${esc(c.title)}</a></li>`);
  const body =
    `<h1>${esc(b.name)}</h1>\n<img class="cover" src="${b.coverPath}">\n` +
    `<div class="info">作者：${esc(b.author)} 分类：${esc(b.kind)} 字数：${esc(b.wordCount)} 最新：${esc(b.latestChapter)}</div>\n` +
    `<div id="intro">${esc(b.intro)}</div>\n<ul class="list">\n${items.join('\n')}\n</ul>`;
  return htmlPage(b.name, body);
}

function chapter(c: Chapter): Response {
  const half = Math.ceil(c.paragraphs.length / 2);
  const body =
    `<h1>${esc(c.title)}</h1>\n<div id="c1">${brParagraphs(c.paragraphs.slice(0, half))}</div>\n` +
    `<div class="ad">广告位招租</div>\n<div id="c2">${brParagraphs(c.paragraphs.slice(half))}</div>`;
  return htmlPage(c.title, body);
}

export function aioShape(ctx: Ctx): Response | undefined {
  const path = ctx.url.pathname;
  if (path === '/aio/search') return results(searchBooks(ctx.model, ctx.url.searchParams.get('wd') ?? ''));
  const m = /^\/aio\/book\/(\d+)(?:\.html|\/(\d+)\.html)$/.exec(path);
  const b = m && bookById(ctx.model, num(m[1]));
  if (!m || !b) return undefined;
  if (!m[2]) return info(b);
  const c = chapterById(b, num(m[2]));
  return c ? chapter(c) : notFound();
}
