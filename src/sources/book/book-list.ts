// Search and explore (WebBook.searchBookAwait / exploreBookAwait, BookList.analyzeBookList): the
// list page read into hits. A page whose final URL matches `bookUrlPattern`, or a list that comes
// out empty on a source without one, is a detail page: one hit read by the info rules, carrying
// the page as `infoHtml`. Hits without a name are dropped, repeats (same bookUrl) too.
import type { RuleContext } from '../analyze.js';
import type { SearchBook, SearchRule, StrResponse } from '../engine/types.js';
import { translateJavaRegex } from '../../text/java-regex.js';
import { RuleError } from '../errors.js';
import { SourceIncompleteError, SourceStepError } from './errors.js';
import { blankBook, fetchPage, listOrder, messageOf, ruleContext, step, VarMap, VarScope, type FlowEnv } from './env.js';
import { absolute, formatBookAuthor, formatBookName, formatHtml, formatWordCount } from './format.js';
import { analyzeBookInfo, type BookDraft } from './info.js';

/** Search: the source's searchUrl with the keyword and page (from 1). */
export async function searchBooks(env: FlowEnv, key: string, page = 1): Promise<SearchBook[]> {
  const searchUrl = env.source.searchUrl;
  if (!searchUrl || searchUrl.trim() === '')
    throw new SourceIncompleteError(env.source, 'searchUrl', undefined, '搜索url不能为空 (the source has no search URL)');
  const ruleData = new VarMap();
  const scope = new VarScope(env.sourceVariables);
  scope.ruleData = ruleData;
  const res = await fetchPage(env, 'searchUrl', searchUrl, { key, page, baseUrl: env.source.bookSourceUrl, variables: scope }, scope);
  return analyzeBookList(env, res, ruleData, true);
}

/** Explore: one explore URL (an ExploreKind's url) with the page. */
export async function exploreBooks(env: FlowEnv, url: string, page = 1): Promise<SearchBook[]> {
  const ruleData = new VarMap();
  const scope = new VarScope(env.sourceVariables);
  scope.ruleData = ruleData;
  const res = await fetchPage(env, 'exploreUrl', url, { page, baseUrl: env.source.bookSourceUrl, variables: scope }, scope);
  return analyzeBookList(env, res, ruleData, false);
}

/** `bookUrlPattern` as Kotlin's `matches`: the whole URL. */
function matchesWhole(env: FlowEnv, pattern: string, url: string): boolean {
  let rx: RegExp;
  try {
    const t = translateJavaRegex(pattern).regex;
    rx = new RegExp(`^(?:${t.source})$`, t.flags.replace('g', ''));
  } catch (e) {
    throw new SourceStepError(env.source, 'bookUrlPattern', url, new RuleError(pattern, e instanceof Error ? e.message : String(e)));
  }
  return rx.test(url);
}

async function analyzeBookList(env: FlowEnv, res: StrResponse, ruleData: VarMap, isSearch: boolean): Promise<SearchBook[]> {
  const { source, log } = env;
  const baseUrl = res.url;
  const body = res.body;
  const hits: SearchBook[] = [];
  log(`≡获取成功:${res.requestUrl}`);
  const scope = new VarScope(env.sourceVariables);
  scope.ruleData = ruleData;
  const ctx = ruleContext(env, scope).setContent(body, baseUrl, baseUrl);
  const pattern = source.bookUrlPattern;
  if (isSearch && pattern !== null && pattern !== undefined && matchesWhole(env, pattern, baseUrl)) {
    log('≡链接为详情页');
    const hit = await infoItem(env, ctx, scope, res, ruleData);
    return hit ? [hit] : [];
  }
  const explore = source.ruleExplore;
  const listRules: SearchRule = isSearch || !explore?.bookList || explore.bookList.trim() === '' ? (source.ruleSearch ?? {}) : explore;
  const field = isSearch || listRules !== explore ? 'ruleSearch' : 'ruleExplore';
  const { rule: listRule, reverse } = listOrder(listRules.bookList);
  log('┌获取书籍列表');
  const items = listRule === '' ? [] : await step(env, `${field}.bookList`, baseUrl, () => ctx.getElements(listRule));
  if (items.length === 0 && !pattern) {
    log('└列表为空,按详情页解析');
    const hit = await infoItem(env, ctx, scope, res, ruleData);
    if (hit) hits.push(hit);
  } else {
    log(`└列表大小:${items.length}`);
    for (let i = 0; i < items.length; i++) {
      const hit = await searchItem(env, ctx, scope, items[i], baseUrl, ruleData, listRules, field, i === 0);
      if (!hit) continue;
      if (hit.bookUrl === baseUrl) hit.infoHtml = body;
      hits.push(hit);
    }
    const seen = new Set<string>();
    const unique = hits.filter((h) => !seen.has(h.bookUrl) && seen.add(h.bookUrl));
    hits.length = 0;
    hits.push(...(reverse ? unique.reverse() : unique));
  }
  log(`◇书籍总数:${hits.length}`);
  return hits;
}

function newHit(env: FlowEnv, variable: string | null): SearchBook {
  const { source } = env;
  return { ...blankBook(source, { variable }), time: env.now(), originOrder: source.customOrder ?? 0 };
}

/** BookList.getInfoItem: the page read as a detail page into one hit (none without a name). */
async function infoItem(env: FlowEnv, ctx: RuleContext, scope: VarScope, res: StrResponse, ruleData: VarMap): Promise<SearchBook | null> {
  const hit = newHit(env, ruleData.text());
  // The page's final URL (after a redirect, the book's page; else the search URL asked for). The
  // app keeps a POST search's options on an unredirected one; the response does not carry them.
  const d: BookDraft = { ...hit, bookUrl: res.url, vars: ruleData.copy() };
  scope.book = d.vars;
  scope.bookObject = d;
  scope.bookName = () => d.name;
  await analyzeBookInfo(env, d, res.body, ctx, res.url, res.url, false);
  if (d.name.trim() === '') return null;
  return {
    ...hit,
    bookUrl: d.bookUrl,
    name: d.name,
    author: d.author,
    kind: d.kind,
    coverUrl: d.coverUrl,
    intro: d.intro,
    wordCount: d.wordCount,
    latestChapterTitle: d.latestChapterTitle,
    tocUrl: d.tocUrl,
    variable: d.vars.text(),
    infoHtml: res.body,
    ...(d.tocHtml !== undefined ? { tocHtml: d.tocHtml } : {}),
  };
}

/** BookList.getSearchItem: one list item; none without a name. */
async function searchItem(
  env: FlowEnv,
  ctx: RuleContext,
  scope: VarScope,
  item: unknown,
  baseUrl: string,
  ruleData: VarMap,
  rules: SearchRule,
  field: string,
  first: boolean,
): Promise<SearchBook | null> {
  const log = (line: string): void => {
    if (first) env.log(line);
  };
  const hit = newHit(env, ruleData.text());
  const vars = ruleData.copy();
  scope.book = vars;
  scope.bookObject = hit;
  scope.bookName = () => hit.name;
  ctx.setContent(item);
  log('┌获取书名');
  hit.name = formatBookName(await step(env, `${field}.name`, baseUrl, () => ctx.getString(rules.name)));
  log(`└${hit.name}`);
  if (hit.name === '') return null;
  log('┌获取作者');
  hit.author = formatBookAuthor(await step(env, `${field}.author`, baseUrl, () => ctx.getString(rules.author)));
  log(`└${hit.author}`);
  const soft = async (title: string, run: () => Promise<string>): Promise<void> => {
    log(title);
    try {
      log(`└${await run()}`);
    } catch (e) {
      log(`└${messageOf(e)}`);
    }
  };
  await soft('┌获取分类', async () => (hit.kind = (await ctx.getStringList(rules.kind))?.join(',') ?? null) ?? '');
  await soft('┌获取字数', async () => (hit.wordCount = formatWordCount(await ctx.getString(rules.wordCount))));
  await soft('┌获取最新章节', async () => (hit.latestChapterTitle = await ctx.getString(rules.lastChapter)));
  await soft('┌获取简介', async () => (hit.intro = formatHtml(await ctx.getString(rules.intro))));
  await soft('┌获取封面链接', async () => {
    const cover = await ctx.getString(rules.coverUrl);
    if (cover !== '') hit.coverUrl = absolute(baseUrl, cover);
    return hit.coverUrl ?? '';
  });
  log('┌获取详情页链接');
  hit.bookUrl = await step(env, `${field}.bookUrl`, baseUrl, () => ctx.getString(rules.bookUrl, { isUrl: true }));
  if (hit.bookUrl === '') hit.bookUrl = baseUrl;
  log(`└${hit.bookUrl}`);
  hit.variable = vars.text();
  return hit;
}
