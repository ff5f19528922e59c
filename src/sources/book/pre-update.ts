// The TOC's preUpdateJs (WebBook.runPreUpdateJs): a rule script over the book, run before the TOC
// is fetched, with the two helpers only it may call (AnalyzeRule.reGetBook / refreshTocUrl).
// Both change the book in place, so the TOC that follows reads the new URLs.
import { searchBooks } from './book-list.js';
import { SourceStepError } from './errors.js';
import { ruleContext, step, VarMap, type FlowEnv, type VarScope } from './env.js';
import { fillInfo, type BookDraft } from './info.js';

const RULE = 'ruleToc.preUpdateJs';

export async function preUpdate(env: FlowEnv, d: BookDraft, scope: VarScope): Promise<void> {
  const pre = env.source.ruleToc?.preUpdateJs;
  if (!pre || pre.trim() === '' || !env.js) return;
  const ctx = ruleContext(env, scope);
  const hooks = { reGetBook: () => reGetBook(env, d), refreshTocUrl: () => refreshTocUrl(env, d) };
  const js = env.js.ruleJs(ctx, { book: d, bookVariables: d.vars, rule: RULE, ...hooks });
  await step(env, RULE, d.tocUrl, () => js.eval(pre, { result: undefined, baseUrl: d.bookUrl, src: undefined, java: ctx }));
}

/**
 * `java.refreshTocUrl()`: the info step again, without renaming, from the book page itself (a
 * shelf book carries no page of its own in the app; the one kept here would be the stale one).
 */
async function refreshTocUrl(env: FlowEnv, d: BookDraft): Promise<void> {
  delete d.infoHtml;
  delete d.tocHtml;
  await fillInfo(env, d, false);
}

/**
 * `java.reGetBook()`: WebBook.preciseSearchAwait (the first hit with the same name and author)
 * gives the book URL and its variables, then the info step as refreshTocUrl.
 */
async function reGetBook(env: FlowEnv, d: BookDraft): Promise<void> {
  const hits = await searchBooks(env, d.name);
  const hit = hits.find((h) => h.name === d.name && h.author === d.author);
  if (!hit) throw new SourceStepError(env.source, RULE, undefined, new Error(`java.reGetBook: 未搜索到 ${d.name}(${d.author}) 书籍`));
  d.bookUrl = hit.bookUrl;
  for (const [k, v] of new VarMap(hit.variable).entries()) d.vars.put(k, v);
  await refreshTocUrl(env, d);
}
