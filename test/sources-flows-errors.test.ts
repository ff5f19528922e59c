// Bad sources meet the fixture site (127.0.0.1): each failure is a typed error naming the source
// (name and URL), the rule and the page, never a crash; where the app gives no error (a search
// with no hit, an info rule that matches nothing) there is none.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startFixtureSite } from './helpers/fixture-site/node.js';
import { fixtureSources, safetySources, type BookSourceJson } from './helpers/fixture-site/index.js';
import { ContentEmptyError, SourceFlowError, SourceIncompleteError, SourceStepError, TocEmptyError } from '../src/sources/book/index.js';
import { openSource } from '../src/sources/engine/session.js';
import { parseBookSource } from '../src/sources/engine/source.js';
import type { SourceFlows } from '../src/sources/engine/types.js';
import { fixtureHost } from './helpers/source-flows.js';

const SEED = 20261207;
const running = await startFixtureSite(SEED);
after(() => running.close());
const m = running.site.model;
const paged = fixtureSources(running.url, SEED).find((x) => x.id === 'paged')!.source;
const api = fixtureSources(running.url, SEED).find((x) => x.id === 'api')!.source;

const host = fixtureHost();

function flowsOf(json: BookSourceJson): SourceFlows {
  return openSource(json, host);
}

const with_ = (s: BookSourceJson, part: keyof BookSourceJson, rules: Record<string, string>): BookSourceJson => ({
  ...s,
  [part]: { ...(s[part] as Record<string, string>), ...rules },
});

/** The error names the source by name and URL, and the rule. */
function names(e: unknown, code: string, rule: string, source: BookSourceJson): boolean {
  assert.ok(e instanceof SourceFlowError, `a SourceFlowError, got ${String(e)}`);
  assert.equal(e.code, code);
  assert.equal(e.rule, rule);
  assert.equal(e.sourceUrl, source.bookSourceUrl);
  assert.equal(e.sourceName, source.bookSourceName);
  assert.ok(e.message.includes(source.bookSourceName) && e.message.includes(source.bookSourceUrl) && e.message.includes(rule), e.message);
  return true;
}

test('a TOC rule that matches nothing: TOC_EMPTY naming ruleToc.chapterList and the page', async () => {
  const s = with_(paged, 'ruleToc', { chapterList: 'class.nothing@tag.li' });
  const flows = flowsOf(s);
  const book = await flows.bookInfo((await flows.search(m.keywords.one))[0]!);
  await assert.rejects(flows.toc(book), (e) => e instanceof TocEmptyError && names(e, 'TOC_EMPTY', 'ruleToc.chapterList', s) && e.page === book.tocUrl);
});

test('a content rule that matches nothing: CONTENT_EMPTY (内容为空); a volume is not an error', async () => {
  const s = with_(paged, 'ruleContent', { content: 'id.nothing@html', nextContentUrl: '' });
  const flows = flowsOf(s);
  const book = await flows.bookInfo((await flows.search(m.keywords.one))[0]!);
  const toc = await flows.toc(book);
  const chapter = toc.find((c) => !c.isVolume)!;
  await assert.rejects(
    flows.content(book, chapter),
    (e) => e instanceof ContentEmptyError && names(e, 'CONTENT_EMPTY', 'ruleContent.content', s) && /内容为空/.test(e.message),
  );
  const volume = toc.find((c) => c.isVolume);
  if (volume) assert.equal(await flows.content(book, volume), '', 'a volume gives its tag unfetched');
});

test('no searchUrl: SOURCE_INCOMPLETE (搜索url不能为空)', async () => {
  const s = { ...paged, searchUrl: '' };
  await assert.rejects(flowsOf(s).search('x'), (e) => e instanceof SourceIncompleteError && names(e, 'SOURCE_INCOMPLETE', 'searchUrl', s));
});

test('a rule that cannot be read keeps its code (BAD_RULE) and names the rule', async () => {
  const s = with_(paged, 'ruleSearch', { name: '@css:h3:nosuch@text' });
  await assert.rejects(flowsOf(s).search(m.keywords.one), (e) => e instanceof SourceStepError && names(e, 'BAD_RULE', 'ruleSearch.name', s));
});

test('JavaScript with no sandbox given: JS_UNAVAILABLE naming the rule', async () => {
  const s = with_(paged, 'ruleSearch', { bookUrl: 'tag.h3@tag.a@href@js:result' });
  await assert.rejects(flowsOf(s).search(m.keywords.one), (e) => e instanceof SourceStepError && names(e, 'JS_UNAVAILABLE', 'ruleSearch.bookUrl', s));
});

test('an init rule that matches nothing fails the info step (the app refuses null content)', async () => {
  const s = with_(api, 'ruleBookInfo', { init: '$.nothing' });
  const flows = flowsOf(s);
  const [hit] = await flows.search(m.keywords.one);
  await assert.rejects(flows.bookInfo(hit!), (e) => names(e, 'SOURCE_FAILED', 'ruleBookInfo.init', s));
});

test('info rules that match nothing leave the hit’s fields as they were, as the app does', async () => {
  const s = with_(paged, 'ruleBookInfo', { name: 'class.nothing@text', author: 'class.nothing@text', intro: 'class.nothing@text' });
  const flows = flowsOf(s);
  const [hit] = await flows.search(m.keywords.one);
  const book = await flows.bookInfo(hit!);
  assert.equal(book.name, hit!.name);
  assert.equal(book.author, hit!.author);
  assert.equal(book.intro, hit!.intro);
});

test('a file source (type 3) without download URLs: SOURCE_INCOMPLETE (下载链接为空)', async () => {
  const s = { ...with_(paged, 'ruleBookInfo', { downloadUrls: 'class.nothing@href' }), bookSourceType: 3 };
  const flows = flowsOf(s);
  const [hit] = await flows.search(m.keywords.one);
  assert.equal(hit!.type, 8 | 128);
  await assert.rejects(flows.bookInfo(hit!), (e) => names(e, 'SOURCE_INCOMPLETE', 'ruleBookInfo.downloadUrls', s) && /下载链接为空/.test((e as Error).message));
  const ok = { ...with_(paged, 'ruleBookInfo', { downloadUrls: 'class.read@href' }), bookSourceType: 3 };
  const book = await flowsOf(ok).bookInfo(hit!);
  assert.deepEqual(book.downloadUrls, [`${running.url}/paged/book/${m.books.find((b) => b.name === hit!.name)!.id}/toc_1.html`]);
  assert.equal(book.tocUrl, '', 'no TOC URL is worked out for a file');
});

test('a store row: rule columns read leniently as the app’s converters do, one that cannot be read is no rule', async () => {
  const row = {
    ...paged,
    ruleSearch: JSON.stringify(paged.ruleSearch),
    ruleBookInfo: JSON.stringify(paged.ruleBookInfo),
    ruleContent: JSON.stringify(paged.ruleContent),
  };
  // Single quotes and bare keys, as Gson's lenient reader takes them.
  const lenient = {
    ...row,
    ruleToc: "{chapterList:'class.chapters@tag.li', chapterName:'tag.a@text||text', chapterUrl:'tag.a@href', nextTocUrl:'text.下一页@href'}",
  };
  const parsed = parseBookSource(lenient);
  assert.equal(parsed.ruleToc?.chapterList, 'class.chapters@tag.li');
  const flows = openSource(lenient, host);
  const book = await flows.bookInfo((await flows.search(m.keywords.one))[0]!);
  assert.ok((await flows.toc(book)).length > 0);
  // A column that is not an object at all: no TOC rule, so the TOC comes out empty, named.
  const broken = { ...row, ruleToc: '{chapterList:' };
  assert.equal(parseBookSource(broken).ruleToc, null);
  await assert.rejects(openSource(broken, host).toc(book), (e) => names(e, 'TOC_EMPTY', 'ruleToc.chapterList', paged));
  assert.throws(
    () => parseBookSource({ bookSourceName: 'x' }),
    (e: Error & { code?: string }) => e.code === 'INVALID_ARGUMENT' && e.message.includes('bookSourceUrl'),
  );
});

test('refused addresses and dead sites: the fetch error’s code, naming the source and searchUrl', async () => {
  const port = new URL(running.url).port;
  const guarded = { ...fixtureHost(), allowPrivateHosts: false, reachableHosts: [`127.0.0.1:${port}`] };
  for (const s of safetySources(running.url).filter((x) => /#safety-(to-metadata|direct-private)$/.test(x.bookSourceUrl))) {
    await assert.rejects(openSource(s, guarded).search('x'), (e) => names(e, 'ADDRESS_REFUSED', 'searchUrl', s));
  }
  // A port nobody listens on (a server opened, then closed).
  const gone = await startFixtureSite(SEED);
  const dead = fixtureSources(gone.url, SEED).find((x) => x.id === 'paged')!.source;
  await gone.close();
  await assert.rejects(openSource(dead, host).search('x'), (e) => names(e, 'FETCH_FAILED', 'searchUrl', dead));
});

test('the signal given to openSource ends a slow flow: FETCH_TIMEOUT naming the source', async () => {
  const slow = safetySources(running.url).find((x) => x.bookSourceUrl.endsWith('#safety-slow'))!;
  // The host's own limit is far away: only the signal can end this.
  const patient = { ...fixtureHost(), timeoutMs: 600_000 };
  await assert.rejects(openSource(slow, patient, { signal: AbortSignal.timeout(200) }).search('x'), (e) => names(e, 'FETCH_TIMEOUT', 'searchUrl', slow));
});
