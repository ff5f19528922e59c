// Chapter text (WebBook.getContentAwait, BookContent.kt). The content rule's HTML is read without
// decoding entities, formatted as the app formats it (HtmlFormatter.formatKeepImg), then decoded.
// One next-page URL is followed while new and until it is the next chapter's; several are
// fetched side by side; pages are joined with lines. `replaceRegex` runs on the whole text.
import type { RuleContext } from '../analyze.js';
import type { WebBook, WebChapter } from '../engine/types.js';
import { ContentEmptyError } from './errors.js';
import type { RuleExtra } from '../java/index.js';
import { fetchMore, fetchPage, mapInOrder, messageOf, ruleContext, step, VarMap, type VarScope, type FlowEnv } from './env.js';
import { absolute, formatKeepImg, indentLines, unescapeHtml } from './format.js';
import { bookScope, draftOf, type BookDraft } from './info.js';
import { chapterUrl } from './toc.js';

interface Page {
  readonly text: string;
  readonly next: string[];
}

/**
 * A chapter's text in the app's display form. A `title` rule that gives something renames the
 * chapter given (`chapter.title`), as the app updates its row.
 */
export async function content(env: FlowEnv, book: WebBook, chapter: WebChapter, nextChapterUrl?: string): Promise<string> {
  const rule = env.source.ruleContent ?? {};
  if (!rule.content) {
    env.log(`⇒正文规则为空,使用章节链接:${chapter.url}`);
    return chapter.url;
  }
  if (chapter.isVolume && chapter.url.startsWith(chapter.title)) {
    env.log('⇒一级目录正文不解析规则');
    return chapter.tag ?? '';
  }
  const d = draftOf(book);
  const vars = new VarMap(chapter.variable);
  const scope = chapterScope(env, d, chapter, vars);
  const url = chapterUrl(chapter);
  let body: string;
  let redirectUrl = url;
  if (chapter.url === d.bookUrl && d.tocHtml) body = d.tocHtml;
  else {
    const res = await fetchPage(env, 'chapterUrl', url, { baseUrl: d.tocUrl, book: d, chapter, variables: scope }, scope);
    body = res.body;
    redirectUrl = res.url;
  }
  const text = await analyzeContent(env, d, chapter, scope, url, redirectUrl, body, nextChapterUrl || undefined);
  const variable = vars.text();
  if (variable !== null) chapter.variable = variable;
  return text;
}

function chapterScope(env: FlowEnv, d: BookDraft, chapter: WebChapter, vars: VarMap): VarScope {
  const scope = bookScope(env, d);
  scope.chapter = vars;
  scope.chapterObject = chapter;
  scope.title = () => chapter.title;
  return scope;
}

async function analyzeContent(
  env: FlowEnv,
  d: BookDraft,
  chapter: WebChapter,
  scope: VarScope,
  baseUrl: string,
  redirectUrl: string,
  body: string,
  nextChapterUrl: string | undefined,
): Promise<string> {
  const { log } = env;
  const rule = env.source.ruleContent ?? {};
  log(`≡获取成功:${baseUrl}`);
  const extra: RuleExtra = nextChapterUrl ? { nextChapterUrl } : {};
  const ctx = ruleContext(env, scope, extra).setContent(body, baseUrl, redirectUrl);
  if (rule.title && rule.title.trim() !== '') {
    try {
      const title = await ctx.getString(rule.title);
      if (title.trim() !== '') chapter.title = title;
    } catch (e) {
      log(`获取标题出错, ${messageOf(e)}`);
    }
  }
  const pages: string[] = [];
  const first = await contentPage(env, scope, extra, baseUrl, redirectUrl, body, true, true);
  pages.push(first.text);
  if (first.next.length === 1) {
    const seen = [redirectUrl];
    let next = first.next[0]!;
    const stop = nextChapterUrl ? absolute(redirectUrl, nextChapterUrl) : undefined;
    while (next !== '' && !seen.includes(next)) {
      if (stop !== undefined && absolute(redirectUrl, next) === stop) break;
      seen.push(next);
      const res = await fetchMore(env, 'ruleContent.nextContentUrl', next, next, { book: d, variables: scope });
      const page = await contentPage(env, scope, extra, next, res.url, res.body, true, false);
      next = page.next[0] ?? '';
      pages.push(page.text);
      log(`第${pages.length}页完成`);
    }
    log(`◇本章总页数:${seen.length}`);
  } else if (first.next.length > 1) {
    log(`◇并发解析正文,总页数:${first.next.length}`);
    const more = await mapInOrder(first.next, async (url) => {
      const res = await fetchMore(env, 'ruleContent.nextContentUrl', url, url, { book: d, variables: scope });
      return (await contentPage(env, scope, extra, url, res.url, res.body, false, false)).text;
    });
    pages.push(...more);
  }
  let text = pages.join('\n');
  if (rule.replaceRegex) {
    // Kotlin's trim() here: every white space, the indent's U+3000 too, put back after.
    const trimmed = text
      .split('\n')
      .map((l) => l.trim())
      .join('\n');
    text = indentLines(await step(env, 'ruleContent.replaceRegex', redirectUrl, () => ctx.getString(rule.replaceRegex, { content: trimmed })));
  }
  log('┌获取章节名称');
  log(`└${chapter.title}`);
  log('┌获取正文内容');
  log(`└\n${text}`);
  if (!chapter.isVolume && text.trim() === '') throw new ContentEmptyError(env.source, redirectUrl);
  return text;
}

/** One page of a chapter: its text formatted, and when asked its next-page URLs. */
async function contentPage(
  env: FlowEnv,
  scope: VarScope,
  extra: RuleExtra,
  baseUrl: string,
  redirectUrl: string,
  body: string,
  getNext: boolean,
  printLog: boolean,
): Promise<Page> {
  const rule = env.source.ruleContent ?? {};
  const ctx: RuleContext = ruleContext(env, scope, extra).setContent(body, baseUrl, redirectUrl);
  const html = await step(env, 'ruleContent.content', redirectUrl, () => ctx.getString(rule.content, { unescape: false }));
  const text = unescapeHtml(formatKeepImg(html, redirectUrl));
  const next: string[] = [];
  if (getNext && rule.nextContentUrl) {
    if (printLog) env.log('┌获取正文下一页链接');
    next.push(...((await step(env, 'ruleContent.nextContentUrl', redirectUrl, () => ctx.getStringList(rule.nextContentUrl, { isUrl: true }))) ?? []));
    if (printLog) env.log(`└${next.join('，')}`);
  }
  return { text, next };
}
