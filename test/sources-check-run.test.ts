// The check of one source on the real engine against the fixture site: which pages the app's
// check reads (CheckSourceService.doCheckSource/checkBook: the search with the check keyword,
// the first hit's book page, TOC and first readable chapter, explore's first entry the same way),
// what the settings leave out, how each ending is filed, the time limit and cancelling. The
// requests are the site's own count; the books and chapters come from its model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expectedExplore, expectedSearch, expectedToc, searchBooks, type BookSourceJson, type FixtureSource } from './helpers/fixture-site/index.js';
import { checkSite, requestOf as req } from './helpers/check-site.js';
import { openSource } from '../src/sources/engine/session.js';
import type { BookSource, EngineHost } from '../src/sources/engine/types.js';
import { checkSource, failureKind, type CheckOptions, type CheckSteps } from '../src/sources/checker/run.js';
import type { LegadoStoreError } from '../src/errors.js';

const { site, model: m, host, api, variant, slow } = await checkSite(20261209);
const ALL: CheckSteps = { search: true, explore: true, info: true, toc: true, content: true };

/** Runs a check and gives the requests the site saw during it (`GET /path?query` → count). */
async function check(source: BookSourceJson, options: CheckOptions = {}, h: EngineHost = host) {
  const before = new Map(site.site.hits);
  const run = await checkSource((signal) => openSource(source as unknown as BookSource, h, { signal }), options);
  const requested = [...site.site.hits].filter(([k, n]) => n > (before.get(k) ?? 0)).map(([k]) => k);
  return { run, requested };
}
const readable = (f: FixtureSource, keyword: string) => {
  const book = searchBooks(m, keyword)[0]!;
  const toc = expectedToc(f, book).filter((c) => !c.isVolume);
  return { book, first: toc[0]!, second: toc[1]! };
};
const firstKind = (JSON.parse(api.source.exploreUrl!) as { title: string; url: string }[])[0]!;

test("a full check reads the first search hit's book page, TOC and first readable chapter, then the first explore entry's first hit the same way", async () => {
  const keyword = m.keywords.many;
  const { run, requested } = await check(api.source, { keyword });
  assert.deepEqual(run.outcome.steps, [
    { step: 'search', result: 'found' },
    { step: 'book', of: 'search', result: 'ok' },
    { step: 'explore', result: 'found' },
    { step: 'book', of: 'explore', result: 'ok' },
  ]);
  assert.deepEqual(run.outcome.end, { end: 'done' });
  assert.equal(run.findings.searchHits, expectedSearch(m, api, keyword).length);
  const s = readable(api, keyword);
  assert.ok(requested.includes(req(api.expect.bookUrl(s.book))));
  assert.ok(requested.includes(req(s.first.url!)), 'the first readable chapter');
  assert.ok(!requested.includes(req(s.second.url!)), 'the next chapter is only its stop');
  const explored = expectedExplore(m, api, firstKind.title)[0]!;
  assert.equal(run.findings.book?.bookUrl, explored.bookUrl);
  assert.ok(
    requested.some(
      (r) => r.startsWith(`GET /api/explore?kind=${encodeURIComponent(firstKind.title)}`) || r.startsWith(`GET /api/explore?kind=${firstKind.title}`),
    ),
  );
});

test("the source's checkKeyWord wins over the keyword given", async () => {
  const { run } = await check(variant('kw', { ruleSearch: { ...api.source.ruleSearch, checkKeyWord: m.keywords.one } }), {
    keyword: m.keywords.many,
    steps: { ...ALL, explore: false },
  });
  assert.equal(run.findings.keyword, m.keywords.one);
  assert.equal(run.findings.searchHits, expectedSearch(m, api, m.keywords.one).length);
});

test('settings: without info only the search page is read; without content no chapter page', async () => {
  const keyword = m.keywords.many;
  const s = readable(api, keyword);
  const a = await check(api.source, { keyword, steps: { search: true, explore: false, info: false, toc: false, content: false } });
  assert.deepEqual(a.run.outcome.steps, [
    { step: 'search', result: 'found' },
    { step: 'book', of: 'search', result: 'partial' },
  ]);
  assert.ok(
    a.requested.every((r) => r.startsWith('GET /api/search?')),
    a.requested.join(' '),
  );
  const b = await check(api.source, { keyword, steps: { search: true, explore: false, info: true, toc: true, content: false } });
  assert.equal(b.run.outcome.steps[1]?.step === 'book' && b.run.outcome.steps[1].result, 'partial');
  assert.ok(b.requested.includes(req(api.expect.bookUrl(s.book))));
  assert.ok(!b.requested.some((r) => r.startsWith('GET /api/chapter?')));
});

test('no searchUrl and no explore entry with a URL: nothing fetched; no hit: empty', async () => {
  const none = await check(variant('none', { searchUrl: '', exploreUrl: '标题::' }));
  assert.deepEqual(none.run.outcome.steps, [
    { step: 'search', result: 'no-url' },
    { step: 'explore', result: 'no-url' },
  ]);
  assert.deepEqual(none.requested, []);
  const empty = await check(api.source, { keyword: m.keywords.none, steps: { ...ALL, explore: false } });
  assert.deepEqual(empty.run.outcome.steps, [{ step: 'search', result: 'empty' }]);
});

test('a TOC or text rule matching nothing marks the book of each hit and the check goes on', async () => {
  const keyword = m.keywords.many;
  const toc = await check(variant('toc', { ruleToc: { ...api.source.ruleToc, chapterList: '$.nothing[*]' } }), { keyword });
  assert.deepEqual(
    toc.run.outcome.steps.map((s) => (s.step === 'book' ? s.result : s.step)),
    ['search', 'toc-empty', 'explore', 'toc-empty'],
  );
  const text = await check(variant('text', { ruleContent: { content: '$.data.nothing' } }), { keyword, steps: { ...ALL, explore: false } });
  assert.deepEqual(text.run.outcome.steps[1], { step: 'book', of: 'search', result: 'content-empty' });
});

test("endings filed as the app files them: a script error js, a refused address the site's", async () => {
  const script = await check(variant('js', { searchUrl: '@js:throw new Error("boom")' }), { keyword: m.keywords.many });
  assert.equal(script.run.outcome.end.end === 'failed' && script.run.outcome.end.kind, 'js');
  const refused = await check(api.source, { keyword: m.keywords.many }, { ...host, allowPrivateHosts: false });
  assert.equal(refused.run.outcome.end.end === 'failed' && refused.run.outcome.end.kind, 'site');
  assert.equal((refused.run.error as LegadoStoreError).code, 'ADDRESS_REFUSED');
  for (const c of ['SCRIPT_TIMEOUT', 'SCRIPT_MEMORY', 'SCRIPT_ERROR', 'JS_UNAVAILABLE', 'HELPER_FAILED']) assert.equal(failureKind({ code: c }), 'js', c);
  assert.equal(failureKind({ code: 'SOURCE_INCOMPLETE' }), 'quiet');
  for (const c of ['FETCH_FAILED', 'FETCH_TIMEOUT', 'ADDRESS_REFUSED', 'BAD_RULE', 'SOURCE_FAILED']) assert.equal(failureKind({ code: c }), 'site', c);
});

test('a source that hangs ends at the time limit with CHECK_TIMEOUT', async () => {
  const { run } = await check(slow, { timeoutMs: 300 });
  assert.equal(run.outcome.end.end === 'failed' && run.outcome.end.kind, 'timeout');
  assert.equal((run.error as LegadoStoreError).code, 'CHECK_TIMEOUT');
  assert.match((run.error as Error).message, /source "安全测试 slow" \(.*#safety-slow\): the check did not end within 300 ms/);
});

test('a cancelled check ends as cancelled; one cancelled before it starts fetches nothing', async () => {
  const c = new AbortController();
  setTimeout(() => c.abort(), 200);
  const { run } = await check(slow, { signal: c.signal });
  assert.deepEqual(run.outcome.end, { end: 'cancelled' });
  const before = new AbortController();
  before.abort();
  const early = await check(api.source, { signal: before.signal, keyword: m.keywords.many });
  assert.deepEqual(early.run.outcome.end, { end: 'cancelled' });
  assert.deepEqual(early.requested, []);
});
