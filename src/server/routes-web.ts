// Web books through the API (the web branches of BookController's refreshToc and getBookContent):
// the info (when the book has no TOC URL) and the TOC fetched through the book's source and stored
// as the app stores them, a chapter read through the chapter cache with the book's replace rules.
// Each request's fetches end at the host's source time limit, and the answer never waits past it.
import { UnknownSourceError } from '../errors.js';
import { inThread, replaceJob } from '../localbook/api.js';
import { NetworkPolicyError } from '../net/errors.js';
import { readWebChapter, refreshWebToc, type ShelfEngine } from '../sources/shelf/index.js';
import { NO_ENGINE, type RouteContext, type WebSources } from './context.js';
import { toEntity } from './entities.js';
import { fail, ok, type Envelope } from './envelope.js';

/** The app's time limit of a source's step (SearchModel, the content's 30 s wait). */
export const SOURCE_TIMEOUT_MS = 30_000;

/** Runs `work` with an engine whose fetches end at the time limit; past it, rejects with FETCH_TIMEOUT. */
async function limited<T>(sources: WebSources, what: string, work: (engine: ShelfEngine) => Promise<T>): Promise<T> {
  const ms = sources.timeoutMs ?? SOURCE_TIMEOUT_MS;
  const stop = new AbortController();
  const engine: ShelfEngine = { source: (url) => sources.engine.source(url), open: (source) => sources.engine.open(source, stop.signal) };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const e = new NetworkPolicyError('FETCH_TIMEOUT', what, `the book's source did not answer within ${ms} ms (serve --source-timeout)`);
      stop.abort(e);
      reject(e);
    }, ms);
  });
  try {
    return await Promise.race([work(engine), late]);
  } finally {
    clearTimeout(timer);
  }
}

const message = (e: unknown, fallback: string): string => (e instanceof Error && e.message) || fallback;

/** /refreshToc of a web book: its TOC (and info when it has no TOC URL) fetched and stored; the new chapters. */
export async function refreshWebBook({ store, options }: RouteContext, bookUrl: string): Promise<Envelope> {
  const sources = options.sources;
  if (!sources) return fail(NO_ENGINE);
  try {
    await limited(sources, bookUrl, (engine) => refreshWebToc(store as never, bookUrl, engine));
  } catch (e) {
    if (e instanceof UnknownSourceError) return fail('未找到对应书源,请换源');
    return fail(message(e, 'refresh toc error'));
  }
  return ok(store.chapters.list(bookUrl).map((c) => toEntity(store, 'chapters', c)));
}

/** /getBookContent of a web book: the cached text, else fetched and cached; then the book's replace rules, title left out. */
export async function webChapterText(
  { store, options }: RouteContext,
  book: { bookUrl: string; name: string } & Record<string, unknown>,
  index: number,
): Promise<Envelope> {
  const sources = options.sources;
  if (!sources) return fail(store.tables.book_sources.has(String(book['origin'])) ? NO_ENGINE : '未找到书源');
  let read: Awaited<ReturnType<typeof readWebChapter>>;
  try {
    read = await limited(sources, book.bookUrl, (engine) => readWebChapter(store as never, book.bookUrl, index, engine, sources.cache));
  } catch (e) {
    if (e instanceof UnknownSourceError) return fail('未找到书源');
    return fail(message(e, 'get content error'));
  }
  try {
    const limits = options.ruleTimeLimitMs !== undefined ? { timeLimitMs: options.ruleTimeLimitMs } : {};
    const job = replaceJob(store as never, book, read.text, read.title, limits);
    if (!job) return ok(read.text);
    const replaced = options.rules ? await options.rules.replace(job) : inThread.replace(job);
    return ok(replaced.text);
  } catch (e) {
    return fail(message(e, 'replace error'));
  }
}
