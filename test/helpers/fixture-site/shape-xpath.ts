// The XPath shape: tables written without <tbody> (JSoup adds it, so XPath rules that name tbody
// match only on an HTML5 tree), three chapters a table row with empty cells at the end.
import { bookById, chapterById, searchBooks, type Book, type Chapter } from './model.js';
import { esc, htmlPage, notFound, num, readable, pParagraphs, type Ctx } from './page.js';

export const xpathBookPath = (b: Book): string => `/xpath/book/${b.id}/`;
export const xpathChapterPath = (b: Book, c: Chapter): string => `/xpath/book/${b.id}/${c.id}.html`;

function results(books: readonly Book[]): Response {
  const rows = books.map(
    (b) =>
      `<tr><td class="odd"><a href="${xpathBookPath(b)}">${esc(b.name)}</a></td><td class="even"><a href="${xpathBookPath(b)}">${esc(b.latestChapter)}</a></td>` +
      `<td class="odd">${esc(b.author)}</td><td class="even">${esc(b.wordCount)}</td><td class="odd">${esc(b.kind)}</td></tr>`,
  );
  const head = '<tr><th>书名</th><th>最新章节</th><th>作者</th><th>字数</th><th>分类</th></tr>';
  return htmlPage('搜索结果', `<table class="grid" cellspacing="1">\n${head}\n${rows.join('\n')}\n</table>`);
}

function info(b: Book): Response {
  const row = (k: string, v: string) => `<tr><th>${k}</th><td>${esc(v)}</td></tr>`;
  const body =
    `<div class="cover"><img src="${b.coverPath}" alt="${esc(b.name)}"></div>\n<table class="info">\n` +
    [row('书名', b.name), row('作者', b.author), row('分类', b.kind), row('字数', b.wordCount), row('最新', b.latestChapter)].join('\n') +
    `\n</table>\n<div id="intro">${esc(b.intro)}</div>\n<a class="toc" href="list.html">章节目录</a>`;
  return htmlPage(b.name, body);
}

function list(b: Book): Response {
  const cells = readable(b).map((c) => `<td><a href="${c.id}.html">${esc(c.title)}</a></td>`);
  while (cells.length % 3) cells.push('<td></td>');
  const rows: string[] = [];
  for (let i = 0; i < cells.length; i += 3) rows.push(`<tr>${cells.slice(i, i + 3).join('')}</tr>`);
  return htmlPage(`${b.name}目录`, `<h1>${esc(b.name)}</h1>\n<table class="chapters">\n${rows.join('\n')}\n</table>`);
}

export function xpathShape(ctx: Ctx): Response | undefined {
  const path = ctx.url.pathname;
  if (path === '/xpath/search') return results(searchBooks(ctx.model, ctx.url.searchParams.get('searchkey') ?? ''));
  const m = /^\/xpath\/book\/(\d+)\/(?:(list|\d+)\.html)?$/.exec(path);
  const b = m && bookById(ctx.model, num(m[1]));
  if (!m || !b) return undefined;
  if (!m[2]) return info(b);
  if (m[2] === 'list') return list(b);
  const c = chapterById(b, num(m[2]));
  return c ? htmlPage(c.title, `<h1>${esc(c.title)}</h1>\n<div id="content">\n${pParagraphs(c.paragraphs)}\n</div>`) : notFound();
}
