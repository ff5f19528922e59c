// The JS shape: URLs a source must compute (an md5 sign and a base64 keyword; a plain-JS token),
// an AJAX search that wants X-Requested-With, a TOC in parts fetched one `java.ajax` per part,
// chapter text base64-packed in a script, and a JSONP search and a state blob for plain JS.
import { bookById, chapterById, searchBooks, type Book, type Chapter } from './model.js';
import { base64Utf8, fromBase64Utf8, plainToken, searchSign } from './codec.js';
import { esc, htmlPage, json, notFound, num, pParagraphs, readable, type Ctx } from './page.js';

export const PART_SIZE = 4;

export const jsBookPath = (b: Book): string => `/js/book?id=${b.id}`;
export const jsChapterPath = (b: Book, c: Chapter): string => `/js/read?book=${b.id}&id=${c.id}`;
export const js1BookPath = (b: Book): string => `/js/b/${b.id}`;
export const js1ChapterPath = (b: Book, c: Chapter): string => `/js/c/${b.id}/${c.id}`;
export const partsOf = (b: Book): number => Math.ceil(readable(b).length / PART_SIZE);
/** Junk the T1 chapter pages hide inside paragraphs; its source removes it with a script. */
export const JUNK = '<span class="hide">本章未完</span>';

const summary = (b: Book, path: (b: Book) => string) => ({
  id: b.id,
  name: b.name,
  author: b.author,
  kind: b.kind,
  intro: b.intro,
  cover: b.coverPath,
  wordCount: b.wordCount,
  latest: b.latestChapter,
  url: path(b),
});

function t2Search(ctx: Ctx): Response {
  if (ctx.req.headers.get('x-requested-with') !== 'XMLHttpRequest') return json({ code: 403, msg: '非法请求' }, 403);
  const key = fromBase64Utf8(ctx.url.searchParams.get('k') ?? '');
  if (key === undefined || ctx.url.searchParams.get('sign') !== searchSign(key)) return json({ code: 403, msg: '签名错误' }, 403);
  return json({ code: 0, list: searchBooks(ctx.model, key).map((b) => summary(b, jsBookPath)) });
}

function t2Book(b: Book): Response {
  const parts = Array.from({ length: partsOf(b) }, (_, i) => i + 1).join(',');
  const body =
    `<div id="bookinfo" data-id="${b.id}">\n<h1>${esc(b.name)}</h1>\n<p class="author">${esc(b.author)}</p>\n<p class="kind">${esc(b.kind)}</p>\n` +
    `<p class="words">${esc(b.wordCount)}</p>\n<p class="latest">${esc(b.latestChapter)}</p>\n<img src="${b.coverPath}">\n<div class="intro">${esc(b.intro)}</div>\n</div>\n` +
    `<div id="parts" data-parts="${parts}"></div>`;
  return htmlPage(b.name, body);
}

function t2Part(b: Book, n: number): Response {
  const list = readable(b).slice((n - 1) * PART_SIZE, n * PART_SIZE);
  if (n < 1 || !list.length) return json({ code: 404, chapters: [] }, 404);
  return json({ code: 0, chapters: list.map((c) => ({ title: c.title, url: jsChapterPath(b, c), vip: c.isVip })) });
}

function t2Read(c: Chapter): Response {
  const packed = base64Utf8(pParagraphs(c.paragraphs));
  return htmlPage(c.title, `<h1>${esc(c.title)}</h1>\n<div id="content">正在加载…</div>\n<script>var chapterData = "${packed}";</script>`);
}

function t1Search(ctx: Ctx): Response {
  const key = ctx.url.searchParams.get('wd') ?? '';
  const ok = ctx.url.searchParams.get('t') === String(plainToken(key));
  const data = ok ? searchBooks(ctx.model, key).map((b) => summary(b, js1BookPath)) : [];
  const text = `searchCallback(${JSON.stringify({ code: ok ? 0 : 1, msg: ok ? 'ok' : 'token error', data })});`;
  return new Response(text, { headers: { 'Content-Type': 'application/javascript; charset=utf-8' } });
}

function t1Book(b: Book): Response {
  const chapters = b.chapters.map((c) => ({ title: c.title, url: c.isVolume ? '' : js1ChapterPath(b, c), volume: c.isVolume, vip: c.isVip, pay: c.isPay }));
  const state = { book: summary(b, js1BookPath), chapters };
  return htmlPage(b.name, `<div id="app"></div>\n<script>window.__STATE__ = ${JSON.stringify(state)};</script>`);
}

function t1Read(c: Chapter): Response {
  const paras = c.paragraphs.map((p, i) => `<p>${esc(p)}${i % 3 === 1 ? JUNK : ''}</p>`).join('\n');
  return htmlPage(c.title, `<h1>${esc(c.title)}</h1>\n<div id="content">\n${paras}\n</div>`);
}

export function jsShape(ctx: Ctx): Response | undefined {
  const { pathname: path, searchParams: q } = ctx.url;
  if (path === '/js/search') return t2Search(ctx);
  if (path === '/js/s') return t1Search(ctx);
  if (path === '/js/book' || path === '/js/part' || path === '/js/read') {
    const b = bookById(ctx.model, num(q.get(path === '/js/book' ? 'id' : 'book')));
    if (!b) return notFound();
    if (path === '/js/book') return t2Book(b);
    if (path === '/js/part') return t2Part(b, num(q.get('n')));
    const c = chapterById(b, num(q.get('id')));
    return c ? t2Read(c) : notFound();
  }
  const m = /^\/js\/(?:b\/(\d+)|c\/(\d+)\/(\d+))$/.exec(path);
  if (!m) return undefined;
  const b = bookById(ctx.model, num(m[1] ?? m[2]));
  if (!b) return notFound();
  if (m[1]) return t1Book(b);
  const c = chapterById(b, num(m[3]));
  return c ? t1Read(c) : notFound();
}
