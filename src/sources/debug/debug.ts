// A source's debug run as the app's source editor runs it (model/Debug.kt startDebug): the key
// picks the stage (an absolute URL: the book page, then TOC and first chapter; `…::url`: an
// explore page; `++url`: a TOC; `--url`: a chapter; anything else: a search, then the first
// hit's info, TOC and first chapter), and every line, the flows' own included, is printed with
// the time since the start as the app prints it (`[mm:ss.SSS] `). Platform-free: the flows are
// opened by the caller with the log this gives.
import type { DebugLog, SearchBook, SourceFlows, WebBook, WebChapter } from '../engine/types.js';
import { asBook, readableChapters } from '../checker/hit.js';
import { blankBook } from '../book/env.js';

/** A printed line: `state` 1 a step, -1 the error that ended the run, 1000 the end (the app's states). */
export interface DebugLine {
  readonly state: number;
  readonly text: string;
}

export interface DebugOptions {
  /** Epoch ms (a fixed clock in tests). */
  readonly now?: () => number;
}

export type DebugStage = 'info' | 'explore' | 'toc' | 'content' | 'search';

/** The stage a key starts at, and the URL or keyword it carries (Debug.startDebug's `when`). */
export function debugStage(key: string): { stage: DebugStage; arg: string } {
  if (/^https?:\/\//i.test(key)) return { stage: 'info', arg: key };
  const at = key.indexOf('::');
  if (at >= 0) return { stage: 'explore', arg: key.slice(at + 2) };
  if (key.startsWith('++')) return { stage: 'toc', arg: key.slice(2) };
  if (key.startsWith('--')) return { stage: 'content', arg: key.slice(2) };
  return { stage: 'search', arg: key };
}

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

/** The app's `[mm:ss.SSS]` of a duration (minutes wrap at the hour, as SimpleDateFormat's do). */
export function debugTime(ms: number): string {
  const t = Math.max(0, Math.floor(ms));
  return `[${pad(Math.floor(t / 60_000) % 60, 2)}:${pad(Math.floor(t / 1000) % 60, 2)}.${pad(t % 1000, 3)}]`;
}

const WEB_FILE = 0b1000_0000; // BookType.webFile

/**
 * Runs the debug of `key` and prints each line. Resolves with whether the run reached its end
 * (the last stage passed); a failure is printed as a line, never thrown.
 */
export async function debugSource(
  open: (log: DebugLog) => SourceFlows,
  key: string,
  print: (line: DebugLine) => void,
  options: DebugOptions = {},
): Promise<{ ok: boolean }> {
  const now = options.now ?? Date.now;
  const started = now();
  let ok = false;
  const say = (text: string, state = 1, showTime = true): void => {
    if (state === 1000) ok = true;
    print({ state, text: showTime ? `${debugTime(now() - started)} ${text}` : text });
  };
  const blank = (): void => say('', 1, false);
  const flows = open((line) => say(line));
  const source = flows.source;
  const emptyBook = (fields: Partial<WebBook>): WebBook => blankBook(source, fields);

  const content = async (book: WebBook, chapter: WebChapter, next: string | undefined): Promise<void> => {
    say('︾开始解析正文页');
    await flows.content(book, chapter, next);
    say('︽正文页解析完成', 1000);
  };
  const toc = async (book: WebBook): Promise<void> => {
    say('︾开始解析目录页');
    const chapters = await flows.toc(book);
    say('︽目录页解析完成');
    blank();
    const readable = readableChapters(chapters);
    const first = readable[0];
    if (!first) return say('≡没有正文章节');
    await content(book, first, (readable[1] ?? first).url);
  };
  const info = async (book: WebBook): Promise<void> => {
    if (book.tocUrl.trim() !== '') {
      say('≡已获取目录链接,跳过详情页');
      blank();
      return toc(book);
    }
    say('︾开始解析详情页');
    const filled = await flows.bookInfo(book);
    say('︽详情页解析完成');
    blank();
    if ((filled.type & WEB_FILE) !== 0 || source.bookSourceType === 3) return say('≡文件类书源跳过解析目录', 1000);
    await toc(filled);
  };
  const list = async (what: '搜索' | '发现', hits: () => Promise<SearchBook[]>): Promise<void> => {
    say(`︾开始解析${what}页`);
    const found = await hits();
    const first = found[0];
    if (!first) return say('︽未获取到书籍', -1);
    say(`︽${what}页解析完成`);
    blank();
    await info(asBook(first));
  };

  const { stage, arg } = debugStage(key);
  try {
    if (stage === 'info') {
      say(`⇒开始访问详情页:${arg}`);
      await info(emptyBook({ bookUrl: arg }));
    } else if (stage === 'explore') {
      say(`⇒开始访问发现页:${arg}`);
      await list('发现', () => flows.explore(arg, 1));
    } else if (stage === 'toc') {
      say(`⇒开始访目录页:${arg}`);
      await toc(emptyBook({ tocUrl: arg }));
    } else if (stage === 'content') {
      say(`⇒开始访正文页:${arg}`);
      const chapter: WebChapter = {
        url: arg,
        title: '调试',
        isVolume: false,
        baseUrl: arg,
        bookUrl: '',
        index: 0,
        isVip: false,
        isPay: false,
        tag: null,
        variable: null,
      };
      await content(emptyBook({}), chapter, undefined);
    } else {
      say(`⇒开始搜索关键字:${arg}`);
      await list('搜索', () => flows.search(arg, 1));
    }
  } catch (e) {
    const code = (e as { code?: unknown } | null)?.code;
    say(`${typeof code === 'string' ? `${code}: ` : ''}${e instanceof Error ? e.message : String(e)}`, -1);
    ok = false;
  }
  return { ok };
}
