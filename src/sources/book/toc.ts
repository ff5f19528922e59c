// The TOC (WebBook.getChapterListAwait, BookChapterList.kt). One next-page URL is followed page
// by page until a URL repeats or none comes; several are fetched side by side and appended in
// their order. Chapters are de-duplicated by URL (the last kept in reading order; with the `-`
// mark the first, then reversed), numbered from 0, and renamed by `formatJs` when it gives
// something. Chapter URLs stay as the rule gives them, beside the page they were listed on
// (`baseUrl`), as the app stores them; `chapterUrl()` makes one absolute.
import type { RuleContext } from '../analyze.js';
import type { SearchBook, StrResponse, WebBook, WebChapter } from '../engine/types.js';
import { TocEmptyError } from './errors.js';
import { fetchMore, fetchPage, listOrder, mapInOrder, messageOf, ruleContext, step, VarMap, type FlowEnv } from './env.js';
import { absoluteWithOptions, isTrue } from './format.js';
import { bookScope, draftOf, type BookDraft } from './info.js';
import { preUpdate } from './pre-update.js';

/** BookChapter.getAbsoluteURL: a volume without a URL of its own reads its TOC page; options kept. */
export function chapterUrl(c: Pick<WebChapter, 'url' | 'title' | 'isVolume' | 'baseUrl'>): string {
  if (c.isVolume && c.url.startsWith(c.title)) return c.baseUrl;
  return absoluteWithOptions(c.baseUrl, c.url);
}

interface Page {
  readonly chapters: ChapterDraft[];
  readonly next: string[];
}

interface ChapterDraft extends WebChapter {
  vars: VarMap;
}

/** The whole TOC of a book (`tocHtml` when the info step kept the book page as the TOC). */
export async function toc(env: FlowEnv, book: WebBook | SearchBook): Promise<WebChapter[]> {
  const d = draftOf(book);
  const scope = bookScope(env, d);
  await preUpdate(env, d, scope);
  let body: string;
  let redirectUrl = d.tocUrl;
  if (d.bookUrl === d.tocUrl && d.tocHtml) body = d.tocHtml;
  else {
    const res = await fetchPage(env, 'tocUrl', d.tocUrl, { baseUrl: d.bookUrl, book: d, variables: scope }, scope);
    body = res.body;
    redirectUrl = res.url;
  }
  return analyzeToc(env, d, d.tocUrl, redirectUrl, body);
}

async function analyzeToc(env: FlowEnv, d: BookDraft, baseUrl: string, redirectUrl: string, body: string): Promise<WebChapter[]> {
  const { log } = env;
  log(`≡获取成功:${baseUrl}`);
  const rule = env.source.ruleToc ?? {};
  const { rule: listRule, reverse } = listOrder(rule.chapterList);
  const chapters: ChapterDraft[] = [];
  const first = await tocPage(env, d, baseUrl, redirectUrl, body, listRule, true, true);
  chapters.push(...first.chapters);
  if (first.next.length === 1) {
    const seen = [redirectUrl];
    let next = first.next[0]!;
    while (next !== '' && !seen.includes(next)) {
      seen.push(next);
      const res = await fetchNext(env, d, next);
      const page = await tocPage(env, d, next, next, res.body, listRule, true, false);
      next = page.next[0] ?? '';
      chapters.push(...page.chapters);
    }
    log(`◇目录总页数:${seen.length}`);
  } else if (first.next.length > 1) {
    log(`◇并发解析目录,总页数:${first.next.length}`);
    const pages = await mapInOrder(first.next, async (url) => {
      const res = await fetchNext(env, d, url);
      return (await tocPage(env, d, url, res.url, res.body, listRule, false, false)).chapters;
    });
    for (const p of pages) chapters.push(...p);
  }
  if (chapters.length === 0) throw new TocEmptyError(env.source, redirectUrl);
  // LinkedHashSet over the list read backwards keeps the last of each URL; with `-` the first.
  const ordered = reverse ? chapters : chapters.slice().reverse();
  const seen = new Set<string>();
  const list = ordered.filter((c) => !seen.has(c.url) && seen.add(c.url)).reverse();
  log(`◇目录总数:${list.length}`);
  list.forEach((c, i) => (c.index = i));
  await formatTitles(env, list);
  return list.map(({ vars, ...c }) => ({ ...c, variable: vars.text() }));
}

function fetchNext(env: FlowEnv, d: BookDraft, url: string): Promise<StrResponse> {
  const scope = bookScope(env, d);
  return fetchMore(env, 'ruleToc.nextTocUrl', url, url, { book: d, variables: scope });
}

/**
 * `formatJs` per chapter: `index` from 1, `chapter`, `title`, `gInt`; a value renames it, a
 * failure is logged. The app binds `gInt = 0` once into the scope all chapters' calls share, so
 * what a call leaves in it (`gInt++`) the next one reads: here it is read back after each call.
 */
async function formatTitles(env: FlowEnv, list: ChapterDraft[]): Promise<void> {
  const code = env.source.ruleToc?.formatJs;
  const scripts = env.js;
  if (!code || code.trim() === '' || !scripts) return;
  let gInt: unknown = 0;
  // The script's value stays the completion value; the finally reads gInt back even after a throw.
  const wrapped = `try { eval(${JSON.stringify(code)}) } finally { __legadoKeepGInt(gInt) }`;
  const keep = (v: unknown): void => void (gInt = v);
  for (let i = 0; i < list.length; i++) {
    const c = list[i]!;
    try {
      const { vars: _vars, ...chapter } = c;
      const bindings = { index: i + 1, chapter, title: c.title, gInt, __legadoKeepGInt: keep };
      const v = await scripts.sourceScript(wrapped, bindings, 'ruleToc.formatJs');
      if (v !== null && v !== undefined) c.title = String(v);
    } catch (e) {
      env.log(`格式化标题出错, ${messageOf(e)}`);
    }
  }
}

/** One TOC page: its chapters and, when asked, its next-page URLs (the page itself left out). */
async function tocPage(
  env: FlowEnv,
  d: BookDraft,
  baseUrl: string,
  redirectUrl: string,
  body: string,
  listRule: string,
  getNext: boolean,
  printLog: boolean,
): Promise<Page> {
  const rule = env.source.ruleToc ?? {};
  const log = (line: string): void => {
    if (printLog) env.log(line);
  };
  const scope = bookScope(env, d);
  const ctx: RuleContext = ruleContext(env, scope).setContent(body, baseUrl, redirectUrl);
  log('┌获取目录列表');
  const items = listRule === '' ? [] : await step(env, 'ruleToc.chapterList', redirectUrl, () => ctx.getElements(listRule));
  log(`└列表大小:${items.length}`);
  const next: string[] = [];
  if (getNext && rule.nextTocUrl) {
    log('┌获取目录下一页列表');
    const urls = await step(env, 'ruleToc.nextTocUrl', redirectUrl, () => ctx.getStringList(rule.nextTocUrl, { isUrl: true }));
    for (const u of urls ?? []) if (u !== redirectUrl) next.push(u);
    log(`└${next.join('，\n')}`);
  }
  const chapters: ChapterDraft[] = [];
  if (items.length === 0) return { chapters, next };
  log('┌解析目录列表');
  const read = (field: 'chapterName' | 'chapterUrl' | 'updateTime' | 'isVolume' | 'isVip' | 'isPay') =>
    step(env, `ruleToc.${field}`, redirectUrl, () => ctx.getString(rule[field]));
  for (let index = 0; index < items.length; index++) {
    ctx.setContent(items[index]);
    const c: ChapterDraft = {
      url: '',
      title: '',
      isVolume: false,
      baseUrl: redirectUrl,
      bookUrl: d.bookUrl,
      index: 0,
      isVip: false,
      isPay: false,
      tag: null,
      variable: null,
      vars: new VarMap(),
    };
    scope.chapterObject = c;
    scope.chapter = c.vars;
    scope.title = () => c.title;
    c.title = await read('chapterName');
    c.url = await read('chapterUrl');
    c.tag = await read('updateTime');
    c.isVolume = isTrue(await read('isVolume'));
    if (c.url === '') {
      if (c.isVolume) {
        c.url = c.title + index;
        env.log(`⇒一级目录${index}未获取到url,使用标题替代`);
      } else {
        c.url = baseUrl;
        env.log(`⇒目录${index}未获取到url,使用baseUrl替代`);
      }
    }
    if (c.title === '') continue;
    c.isVip = isTrue(await read('isVip'));
    c.isPay = isTrue(await read('isPay'));
    chapters.push(c);
  }
  log('└目录列表解析完成');
  if (chapters.length === 0) log('◇章节列表为空');
  else {
    const c = chapters[0]!;
    log('≡首章信息');
    log(`◇章节名称:${c.title}`);
    log(`◇章节链接:${c.url}`);
    log(`◇章节信息:${c.tag ?? ''}`);
    log(`◇是否VIP:${c.isVip}`);
    log(`◇是否购买:${c.isPay}`);
  }
  return { chapters, next };
}
