// The JSON API shape: search, book, chapter list and chapter text as JSON, as app back-ends serve.
import { bookById, chapterById, searchBooks, type Book, type Chapter } from './model.js';
import { json, num, pageOf, type Ctx } from './page.js';

export const apiBookPath = (b: Book): string => `/api/book/${b.id}`;
export const apiChapterPath = (b: Book, c: Chapter): string => `/api/chapter?book=${b.id}&id=${c.id}`;

const summary = (b: Book) => ({
  id: b.id,
  name: b.name,
  author: b.author,
  category: b.kind,
  intro: b.intro,
  cover: b.coverPath,
  words: b.wordCount,
  lastChapter: b.latestChapter,
});

const missing = () => json({ code: 404, msg: '书籍不存在', data: null }, 404);

export function apiShape(ctx: Ctx): Response | undefined {
  const { pathname: path, searchParams: q } = ctx.url;
  if (path === '/api/search') {
    const hits = searchBooks(ctx.model, q.get('keyword') ?? '');
    return json({ code: 200, msg: 'ok', data: { total: hits.length, list: pageOf(hits, num(q.get('page'))).map(summary) } });
  }
  if (path === '/api/explore') {
    const books = ctx.model.books.filter((b) => b.kind === q.get('kind'));
    return json({ code: 200, msg: 'ok', data: { total: books.length, list: pageOf(books, num(q.get('page'))).map(summary) } });
  }
  if (path === '/api/chapter') {
    const b = bookById(ctx.model, num(q.get('book')));
    const c = b && chapterById(b, num(q.get('id')));
    if (!b || !c) return missing();
    return json({ code: 200, msg: 'ok', data: { bookId: b.id, id: c.id, title: c.title, content: c.paragraphs.join('\n') } });
  }
  const m = /^\/api\/book\/(\d+)(\/chapters)?$/.exec(path);
  if (!m) return undefined;
  const b = bookById(ctx.model, num(m[1]));
  if (!b) return missing();
  if (!m[2]) return json({ code: 200, msg: 'ok', data: { ...summary(b), chapterCount: b.chapters.filter((c) => !c.isVolume).length } });
  const list = b.chapters.map((c) => ({ bookId: b.id, id: c.id, title: c.title, volume: c.isVolume, vip: c.isVip, pay: c.isPay }));
  return json({ code: 200, msg: 'ok', data: list });
}
