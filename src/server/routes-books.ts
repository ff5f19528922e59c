// The shelf, chapters, reading progress and the web reader's settings (BookController.kt).
import { BookType, sortBooks } from '../domain/books.js';
import type { Row } from '../schema/row-types.js';
import { readChapter, readChapterAsync, refreshBook, refreshBookAsync } from '../localbook/api.js';
import { bookUrlOutside } from '../localbook/book-url.js';
import { readProgressFile } from '../webdav/progress-file.js';
import type { Routes } from './app.js';
import { NO_ENGINE, type ProgressUpload, type RouteContext } from './context.js';
import { toEntity, readEntity } from './entities.js';
import { fail, ok, type Envelope } from './envelope.js';
import { coverAnswer } from './cover.js';
import { refreshWebBook, webChapterText } from './routes-web.js';

const READ_CONFIG = 'webReadConfig';
const NO_URL = '参数url不能为空，请指定书籍地址';
const BAD_BOOK_URL = '书籍地址不可用 (a book is saved only with a URL or a place in the books folder)';
/** Marks a local book at schema 55 and up; below it, origin `loc_book` does. */
const isLocal = (b: Row<'books'>): boolean => b.origin === 'loc_book' || (Number(b.type) & BookType.local) !== 0;

export function bookRoutes(routes: Routes, ctx: RouteContext): void {
  const { store, options } = ctx;
  const books = () => store.tables.books;

  /** Uploads the position; on success the book's syncTime is set (a failure leaves the saved book as it is). */
  const upload = async (p: ProgressUpload): Promise<void> => {
    if (!options.uploadProgress) return;
    await options.uploadProgress(p);
  };

  routes.get('/getBookshelf', () => {
    const all = books().list() as Row<'books'>[];
    if (all.length === 0) return fail('还没有添加小说');
    return ok(sortBooks(all, options.bookshelfSort ?? 0).map((b) => toEntity(store, 'books', b)));
  });

  routes.post('/saveBook', async ({ body }) => {
    const book = readEntity(store, 'books', body);
    if (!book) return fail('格式不对');
    // A bookUrl naming a file of this machine is refused (a book kept in the books folder, a
    // URL, or a row the store already has, a phone's local book among them, is saved).
    const bookUrl = book.bookUrl ?? '';
    const outside = books().has(bookUrl) ? undefined : bookUrlOutside(bookUrl, options.bookStorage);
    if (outside) return fail(`${BAD_BOOK_URL}: ${JSON.stringify(bookUrl)} is ${outside}`);
    store.books.save(book);
    const saved = store.books.get(book.bookUrl ?? '') as Row<'books'> | undefined;
    if (saved) await upload(progressOf(saved));
    return ok('');
  });

  routes.post('/deleteBook', ({ body }) => {
    const book = readEntity(store, 'books', body);
    if (!book) return fail('格式不对');
    // The chapters go with it: chapters.bookUrl is a foreign key ON DELETE CASCADE.
    books().delete(book.bookUrl ?? '');
    return ok('');
  });

  routes.post('/saveBookProgress', async ({ body }) => {
    const p = body === undefined ? undefined : readProgressFile(body);
    if (!p || 'invalid' in p) return fail('格式不对');
    const book = store.books.getByNameAuthor(p.name, p.author) as Row<'books'> | undefined;
    if (!book) return fail('格式不对');
    const position = {
      durChapterIndex: p.durChapterIndex,
      durChapterPos: p.durChapterPos,
      durChapterTitle: p.durChapterTitle,
      durChapterTime: p.durChapterTime,
    };
    store.books.updateProgress(book.bookUrl, position);
    await upload({ bookUrl: book.bookUrl, name: p.name, author: p.author, ...position });
    return ok('');
  });

  routes.get('/getReadConfig', () => {
    const config = store.cache.get(READ_CONFIG);
    return config == null ? fail('没有配置') : ok(config);
  });

  routes.post('/saveReadConfig', ({ body }) => {
    if (body === undefined) store.cache.delete(READ_CONFIG);
    else store.cache.put(READ_CONFIG, body);
    return ok('');
  });

  const limits = options.ruleTimeLimitMs !== undefined ? { timeLimitMs: options.ruleTimeLimitMs } : {};
  const refreshToc = async (url: string | undefined): Promise<Envelope> => {
    if (!url) return fail(NO_URL);
    const book = store.books.get(url) as Row<'books'> | undefined;
    if (!book) return fail('未在数据库找到对应书籍，请先添加');
    if (isLocal(book)) {
      if (!options.bookStorage) return fail('this server keeps no local book files');
      try {
        if (options.rules) await refreshBookAsync(store as never, options.bookStorage, book.bookUrl, limits, options.rules);
        else refreshBook(store as never, options.bookStorage, book.bookUrl, limits);
      } catch (e) {
        return fail((e as Error).message || 'refresh toc error');
      }
      return ok(store.chapters.list(book.bookUrl).map((c) => toEntity(store, 'chapters', c)));
    }
    if (!store.tables.book_sources.has(book.origin)) return fail('未找到对应书源,请换源');
    return refreshWebBook(ctx, book.bookUrl);
  };

  routes.get('/refreshToc', (req) => refreshToc(req.query('url')));

  routes.get('/getChapterList', (req) => {
    const url = req.query('url');
    if (!url) return fail(NO_URL);
    const chapters = store.chapters.list(url);
    if (chapters.length === 0) return refreshToc(url);
    return ok(chapters.map((c) => toEntity(store, 'chapters', c)));
  });

  routes.get('/getBookContent', async (req) => {
    const url = req.query('url');
    const indexText = req.query('index');
    if (!url) return fail(NO_URL);
    if (indexText === undefined) return fail('参数index不能为空, 请指定目录序号');
    // Kotlin's toInt(): a number that is not an int throws, which the app answers as text.
    if (!/^[+-]?\d+$/.test(indexText) || !Number.isSafeInteger(Number(indexText)) || Math.abs(Number(indexText)) > 2 ** 31) {
      throw new Error(`For input string: "${indexText}"`);
    }
    const book = store.books.get(url) as Row<'books'> | undefined;
    const chapter = store.chapters.get(url, Number(indexText));
    // The app waits up to 30 s for a chapter row that is not there yet; nothing here adds one.
    if (!book || !chapter) return fail('未找到');
    if (isLocal(book) && options.bookStorage) {
      // The file's text after the book's replace rules, title left out, as the app's ContentProcessor gives it.
      try {
        const read = options.rules
          ? await readChapterAsync(store as never, options.bookStorage, book.bookUrl, chapter.index, limits, options.rules)
          : readChapter(store as never, options.bookStorage, book.bookUrl, chapter.index, limits);
        return ok(read.text);
      } catch (e) {
        return fail((e as Error).message);
      }
    }
    if (isLocal(book)) return fail(NO_ENGINE);
    // A cached chapter is read even when its source is gone (as the app reads BookHelp's cache first).
    return webChapterText(ctx, book, chapter.index);
  });

  routes.get('/image', (req) => {
    if (req.query('url') === undefined) return fail('bookUrl为空');
    if (req.query('path') === undefined) return fail('图片链接为空');
    return fail(NO_ENGINE);
  });

  // The app answers these only on its WebSocket port; a client asking here over HTTP gets told why not.
  for (const path of ['/searchBook', '/bookSourceDebug', '/rssSourceDebug']) routes.get(path, () => fail(NO_ENGINE));

  routes.get('/cover', (req) => coverAnswer(req.query('path'), ctx));
}

function progressOf(b: Row<'books'>): ProgressUpload {
  return {
    bookUrl: b.bookUrl,
    name: b.name,
    author: b.author,
    durChapterIndex: b.durChapterIndex,
    durChapterPos: b.durChapterPos,
    durChapterTime: b.durChapterTime, // a bigint past 2^53 (docs/integer-ranges.md), written as its digits
    durChapterTitle: b.durChapterTitle ?? null,
  };
}
