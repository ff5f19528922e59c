// Book info (model/webBook/BookInfo.kt): the detail page read into the book. `init` re-roots the
// content; name and author are replaced only when the source may rename (canReName) or they are
// empty; the other fields only when the rule gave something; the TOC URL defaults to the book URL,
// and then the page is kept for the TOC step. A file source (type 3) reads download URLs instead.
import type { RuleContext } from '../analyze.js';
import type { SearchBook, WebBook } from '../engine/types.js';
import { SourceIncompleteError, SourceStepError } from './errors.js';
import { bookTypeOf, fetchPage, messageOf, ruleContext, step, VarMap, VarScope, type FlowEnv } from './env.js';
import { absolute, formatBookAuthor, formatBookName, formatHtml, formatWordCount } from './format.js';

/** A book while a flow fills it: the WebBook fields and its variables. */
export interface BookDraft extends WebBook {
  vars: VarMap;
}

const WEB_FILE = 128;
const TYPE_BITS = 8 | 32 | 64 | 128;

export function draftOf(book: SearchBook | WebBook): BookDraft {
  return {
    bookUrl: book.bookUrl,
    tocUrl: book.tocUrl ?? '',
    origin: book.origin,
    originName: book.originName,
    name: book.name ?? '',
    author: book.author ?? '',
    kind: book.kind ?? null,
    coverUrl: book.coverUrl ?? null,
    intro: book.intro ?? null,
    wordCount: book.wordCount ?? null,
    latestChapterTitle: book.latestChapterTitle ?? null,
    type: book.type ?? 8,
    variable: book.variable ?? null,
    ...(book.infoHtml !== undefined ? { infoHtml: book.infoHtml } : {}),
    ...(book.tocHtml !== undefined ? { tocHtml: book.tocHtml } : {}),
    ...('downloadUrls' in book && book.downloadUrls ? { downloadUrls: book.downloadUrls } : {}),
    vars: new VarMap(book.variable),
  };
}

/** The draft as the WebBook it gives back (variables as the app's JSON map text). */
export function bookOf(d: BookDraft): WebBook {
  const { vars, ...book } = d;
  return { ...book, variable: vars.text() ?? d.variable };
}

/** A scope whose book is the draft. */
export function bookScope(env: FlowEnv, d: BookDraft): VarScope {
  const scope = new VarScope(env.sourceVariables);
  scope.book = d.vars;
  scope.bookObject = d;
  scope.bookName = () => d.name;
  return scope;
}

/** The info step: `infoHtml` when the hit carried it, else the book URL fetched. */
export async function bookInfo(env: FlowEnv, book: SearchBook | WebBook, canReName = true): Promise<WebBook> {
  const d = draftOf(book);
  await fillInfo(env, d, canReName);
  return bookOf(d);
}

/** The info step into a draft in place (preUpdateJs's `java.refreshTocUrl()` re-runs it on the TOC's book). */
export async function fillInfo(env: FlowEnv, d: BookDraft, canReName: boolean): Promise<void> {
  d.type = (d.type & ~TYPE_BITS) | bookTypeOf(env.source);
  const scope = bookScope(env, d);
  let body: string;
  let redirectUrl = d.bookUrl;
  if (d.infoHtml) body = d.infoHtml;
  else {
    const res = await fetchPage(env, 'bookUrl', d.bookUrl, { baseUrl: env.source.bookSourceUrl, book: d, variables: scope }, scope);
    body = res.body;
    redirectUrl = res.url;
  }
  env.log(`≡获取成功:${d.bookUrl}`);
  const ctx = ruleContext(env, scope).setContent(body, d.bookUrl, redirectUrl);
  await analyzeBookInfo(env, d, body, ctx, d.bookUrl, redirectUrl, canReName);
}

/** BookInfo.analyzeBookInfo on a context already holding the page. */
export async function analyzeBookInfo(
  env: FlowEnv,
  d: BookDraft,
  body: string,
  ctx: RuleContext,
  baseUrl: string,
  redirectUrl: string,
  canReName: boolean,
): Promise<void> {
  const rule = env.source.ruleBookInfo ?? {};
  const log = env.log;
  if (rule.init && rule.init.trim() !== '') {
    log('≡执行详情页初始化规则');
    const root = await step(env, 'ruleBookInfo.init', baseUrl, () => ctx.getElement(rule.init!));
    // The app's setContent refuses null: an init that matches nothing fails the step.
    if (root === null || root === undefined)
      throw new SourceStepError(env.source, 'ruleBookInfo.init', baseUrl, new Error('内容不可空 (the init rule matched nothing)'));
    ctx.setContent(root);
  }
  const mayRename = canReName && !!rule.canReName && rule.canReName.trim() !== '';
  log('┌获取书名');
  const name = formatBookName(await step(env, 'ruleBookInfo.name', baseUrl, () => ctx.getString(rule.name)));
  if (name !== '' && (mayRename || d.name === '')) d.name = name;
  log(`└${name}`);
  log('┌获取作者');
  const author = formatBookAuthor(await step(env, 'ruleBookInfo.author', baseUrl, () => ctx.getString(rule.author)));
  if (author !== '' && (mayRename || d.author === '')) d.author = author;
  log(`└${author}`);
  // The other fields fail alone: the error is logged and the field left as it was.
  const soft = async (title: string, run: () => Promise<void>): Promise<void> => {
    log(title);
    try {
      await run();
    } catch (e) {
      log(`└${messageOf(e)}`);
    }
  };
  await soft('┌获取分类', async () => {
    const kinds = await ctx.getStringList(rule.kind);
    if (kinds === null) return log('└');
    const kind = kinds.join(',');
    if (kind !== '') d.kind = kind;
    log(`└${kind}`);
  });
  await soft('┌获取字数', async () => {
    const wc = formatWordCount(await ctx.getString(rule.wordCount));
    if (wc !== '') d.wordCount = wc;
    log(`└${wc}`);
  });
  await soft('┌获取最新章节', async () => {
    const last = await ctx.getString(rule.lastChapter);
    if (last !== '') d.latestChapterTitle = last;
    log(`└${last}`);
  });
  await soft('┌获取简介', async () => {
    const intro = formatHtml(await ctx.getString(rule.intro));
    if (intro !== '') d.intro = intro;
    log(`└${intro}`);
  });
  await soft('┌获取封面链接', async () => {
    const cover = await ctx.getString(rule.coverUrl);
    if (cover !== '') d.coverUrl = absolute(redirectUrl, cover);
    log(`└${cover}`);
  });
  if ((d.type & WEB_FILE) === 0) {
    log('┌获取目录链接');
    const tocUrl = await step(env, 'ruleBookInfo.tocUrl', baseUrl, () => ctx.getString(rule.tocUrl, { isUrl: true }));
    d.tocUrl = tocUrl === '' ? baseUrl : tocUrl;
    if (d.tocUrl === baseUrl) d.tocHtml = body;
    log(`└${d.tocUrl}`);
  } else {
    log('┌获取文件下载链接');
    const urls = await step(env, 'ruleBookInfo.downloadUrls', baseUrl, () => ctx.getStringList(rule.downloadUrls, { isUrl: true }));
    if (!urls || urls.length === 0) {
      log('└');
      throw new SourceIncompleteError(env.source, 'ruleBookInfo.downloadUrls', baseUrl, '下载链接为空 (no download URL)');
    }
    d.downloadUrls = urls;
    log(`└${urls.join('，\n')}`);
  }
}
