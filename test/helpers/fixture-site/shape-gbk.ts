// The GBK shape (a biquge-style site): pages in GBK declared only in <meta>, a POST search whose
// keyword arrives GBK-percent-encoded, a 302 to the detail page when one book matches.
import { bookById, chapterById, nextReadable, searchBooks, type Book, type Chapter } from './model.js';
import { gbkForm } from './gbk.js';
import { brParagraphs, esc, htmlPage, notFound, num, readable, redirect, type Ctx } from './page.js';

export const GBK_AD = '请记住本书首发域名：fixture.test。笔趣阁手机版阅读网址：m.fixture.test';

export const gbkBookPath = (b: Book): string => `/gbk/book/${b.id}/`;
export const gbkChapterPath = (b: Book, c: Chapter): string => `/gbk/book/${b.id}/${c.id}.html`;

function results(books: readonly Book[]): Response {
  const rows = books.map(
    (b) =>
      `<li><span class="s1">${esc(b.kind)}</span><span class="s2"><a href="${gbkBookPath(b)}">${esc(b.name)}</a></span>` +
      `<span class="s3"><a href="${gbkBookPath(b)}">${esc(b.latestChapter)}</a></span><span class="s4">${esc(b.author)}</span><span class="s5">${esc(b.wordCount)}</span></li>`,
  );
  const head =
    '<li><span class="s1">作品分类</span><span class="s2">作品名称</span><span class="s3">最新章节</span><span class="s4">作者</span><span class="s5">字数</span></li>';
  return htmlPage('搜索结果', `<div class="novelslist2">\n<ul>\n${[head, ...rows].join('\n')}\n</ul>\n</div>`, { gbk: true });
}

function detail(b: Book): Response {
  const meta = [
    ['og:type', 'novel'],
    ['og:novel:book_name', b.name],
    ['og:novel:author', b.author],
    ['og:novel:category', b.kind],
    ['og:description', b.intro],
    ['og:image', b.coverPath],
    ['og:novel:latest_chapter_name', b.latestChapter],
  ]
    .map(([p, v]) => `<meta property="${p}" content="${esc(v!)}" />`)
    .join('\n');
  const list = readable(b);
  // The "latest chapters" block before the full list, as biquge pages have: sources skip it by position.
  const latest = list
    .slice(-3)
    .reverse()
    .map((c) => `<dd><a href="${c.id}.html">${esc(c.title)}</a></dd>`);
  const all = list.map((c) => `<dd><a href="${c.id}.html">${esc(c.title)}</a></dd>`);
  const body =
    `<div id="fmimg"><img alt="${esc(b.name)}" src="${b.coverPath}" /></div>\n` +
    `<div id="info"><h1>${esc(b.name)}</h1><p>作&nbsp;&nbsp;&nbsp;&nbsp;者：${esc(b.author)}</p><p>字数：${esc(b.wordCount)}</p>` +
    `<p>最新章节：<a href="${list.at(-1)!.id}.html">${esc(b.latestChapter)}</a></p></div>\n` +
    `<div id="intro"><p>${esc(b.intro)}</p></div>\n` +
    `<div id="list"><dl>\n<dt>《${esc(b.name)}》最新章节</dt>\n${latest.join('\n')}\n<dt>《${esc(b.name)}》正文</dt>\n${all.join('\n')}\n</dl></div>`;
  return htmlPage(`${b.name}最新章节`, body, { gbk: true, head: meta + '\n' });
}

function chapter(b: Book, c: Chapter): Response {
  const next = nextReadable(b, c);
  const body =
    `<div class="bookname"><h1>${esc(c.title)}</h1><div class="bottem1"><a href="${next ? `${next.id}.html` : './'}">下一章</a></div></div>\n` +
    `<div id="content">${brParagraphs(c.paragraphs)}\n${GBK_AD}</div>`;
  return htmlPage(c.title, body, { gbk: true });
}

export async function gbkShape(ctx: Ctx): Promise<Response | undefined> {
  const path = ctx.url.pathname;
  if (path === '/gbk/modules/article/search.php') {
    if (ctx.req.method !== 'POST') return htmlPage('错误', '<h1>请使用表单搜索</h1>', { gbk: true, status: 405 });
    const form = gbkForm(await ctx.req.text());
    const hits = searchBooks(ctx.model, form.get('searchkey') ?? '');
    return hits.length === 1 ? redirect(ctx, gbkBookPath(hits[0]!)) : results(hits);
  }
  const m = /^\/gbk\/book\/(\d+)\/(?:(\d+)\.html)?$/.exec(path);
  const book = m && bookById(ctx.model, num(m[1]));
  if (!m || !book) return undefined;
  if (!m[2]) return detail(book);
  const c = chapterById(book, num(m[2]));
  return c ? chapter(book, c) : notFound();
}
