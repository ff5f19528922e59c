// The check of one source against flows that answer as told: which flows the app's check calls
// in which order (CheckSourceService.doCheckSource/checkBook), with the check keyword, what the
// settings leave out, how each error is filed, the time limit and cancelling. The flows over a
// real site are tested in sources-check-cli.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BookSource, SearchBook, SourceFlows, WebBook, WebChapter } from '../src/sources/engine/types.js';
import { checkSource, failureKind, type CheckSteps } from '../src/sources/checker/run.js';
import { LegadoStoreError } from '../src/errors.js';

const SOURCE: BookSource = {
  bookSourceUrl: 'https://a.example',
  bookSourceName: '甲',
  searchUrl: '/s?q={{key}}',
  exploreUrl: '热门::/hot\n空::',
};

const hit = (name: string, tocUrl = ''): SearchBook => ({
  bookUrl: `https://a.example/b/${name}`,
  origin: SOURCE.bookSourceUrl,
  originName: '甲',
  type: 8,
  name,
  author: 'x',
  kind: null,
  coverUrl: null,
  intro: null,
  wordCount: null,
  latestChapterTitle: null,
  tocUrl,
  time: 0,
  variable: null,
  originOrder: 0,
});
const chapter = (i: number, fields: Partial<WebChapter> = {}): WebChapter => ({
  url: `https://a.example/c/${i}`,
  title: `第${i}章`,
  isVolume: false,
  baseUrl: '',
  bookUrl: '',
  index: i,
  isVip: false,
  isPay: false,
  tag: null,
  variable: null,
  ...fields,
});
const typed = (code: string, message = code): Error => new LegadoStoreError(code as never, message);

type Script = Partial<{ [K in keyof Omit<SourceFlows, 'source'>]: SourceFlows[K] }>;

/** Flows that record each call and answer from `script` (a flow not scripted fails the test). */
function flows(script: Script, source: BookSource = SOURCE) {
  const calls: string[] = [];
  const wrap =
    <A extends unknown[], R>(name: keyof Script, fn: ((...a: A) => Promise<R>) | undefined) =>
    (...a: A): Promise<R> => {
      calls.push(
        `${name}(${a.map((x) => (typeof x === 'object' && x ? ((x as { bookUrl?: string; url?: string }).url ?? (x as { bookUrl?: string }).bookUrl) : String(x))).join(', ')})`,
      );
      if (!fn) throw new Error(`${name} was not expected`);
      return fn(...a);
    };
  const f: SourceFlows = {
    source,
    search: wrap('search', script.search),
    exploreKinds: wrap('exploreKinds', script.exploreKinds),
    explore: wrap('explore', script.explore),
    bookInfo: wrap('bookInfo', script.bookInfo),
    toc: wrap('toc', script.toc),
    content: wrap('content', script.content),
  };
  return { open: () => f, calls };
}

const info = async (b: SearchBook | WebBook): Promise<WebBook> => ({ ...(b as WebBook), tocUrl: `${b.bookUrl}/toc` });
const good: Script = {
  search: async () => [hit('一'), hit('二')],
  exploreKinds: async () => [
    { title: '标题', url: '' },
    { title: '热门', url: '/hot' },
  ],
  explore: async () => [hit('三')],
  bookInfo: info,
  toc: async () => [chapter(0, { isVolume: true, url: '第0章', title: '第0章' }), chapter(1), chapter(2), chapter(3)],
  content: async () => '　　正文',
};

test("a full check: search with the keyword, the first hit's info, TOC and first chapter (the next readable one as its stop), then explore's first URL the same way", async () => {
  const { open, calls } = flows(good);
  const run = await checkSource(open, { keyword: '斗破' });
  assert.deepEqual(calls, [
    'search(斗破)',
    'bookInfo(https://a.example/b/一)',
    'toc(https://a.example/b/一)',
    // A volume whose URL starts with its title is passed over; the chapter after is the stop.
    'content(https://a.example/b/一, https://a.example/c/1, https://a.example/c/2)',
    'exploreKinds()',
    'explore(/hot)',
    'bookInfo(https://a.example/b/三)',
    'toc(https://a.example/b/三)',
    'content(https://a.example/b/三, https://a.example/c/1, https://a.example/c/2)',
  ]);
  assert.deepEqual(run.outcome.steps, [
    { step: 'search', result: 'found' },
    { step: 'book', of: 'search', result: 'ok' },
    { step: 'explore', result: 'found' },
    { step: 'book', of: 'explore', result: 'ok' },
  ]);
  assert.deepEqual(run.outcome.end, { end: 'done' });
  assert.equal(run.findings.searchHits, 2);
  assert.equal(run.findings.chapters, 4);
});

test("the source's checkKeyWord wins over the keyword given; a hit that carries its TOC URL skips the info page", async () => {
  const { open, calls } = flows(
    { ...good, search: async () => [hit('一', 'https://a.example/toc/1')] },
    { ...SOURCE, exploreUrl: null, ruleSearch: { checkKeyWord: '凡人' } },
  );
  await checkSource(open, { keyword: '斗破' });
  assert.deepEqual(calls.slice(0, 2), ['search(凡人)', 'toc(https://a.example/b/一)']);
  // A blank checkKeyWord is no keyword: the app's 我的 is the default.
  const blank = flows(good, { ...SOURCE, exploreUrl: '', ruleSearch: { checkKeyWord: '  ' } });
  await checkSource(blank.open);
  assert.equal(blank.calls[0], 'search(我的)');
});

test('settings: without info nothing after the search runs; without TOC no content; a file source stops after info; none of these clears or adds a book group', async () => {
  const cases: [Partial<CheckSteps>, string[], BookSource?][] = [
    [{ info: false, toc: false, content: false, explore: false }, ['search(我的)']],
    [{ toc: false, content: false, explore: false }, ['search(我的)', 'bookInfo(https://a.example/b/一)']],
    [{ content: false, explore: false }, ['search(我的)', 'bookInfo(https://a.example/b/一)', 'toc(https://a.example/b/一)']],
    [{ explore: false }, ['search(我的)', 'bookInfo(https://a.example/b/一)'], { ...SOURCE, bookSourceType: 3 }],
    [{ search: false, info: false }, ['exploreKinds()', 'explore(/hot)']],
  ];
  for (const [steps, want, source] of cases) {
    const { open, calls } = flows(good, source);
    const run = await checkSource(open, { steps: { search: true, explore: true, info: true, toc: true, content: true, ...steps } });
    assert.deepEqual(calls, want, JSON.stringify(steps));
    assert.ok(run.outcome.steps.every((s) => s.step !== 'book' || s.result === 'partial'));
  }
});

test("no searchUrl, no explore entry with a URL, nothing found: the app's group-marking steps, no flow called for them", async () => {
  const { open, calls } = flows({ exploreKinds: async () => [{ title: 'ERROR:x', url: '' }] }, { ...SOURCE, searchUrl: ' ' });
  const run = await checkSource(open);
  assert.deepEqual(calls, ['exploreKinds()']);
  assert.deepEqual(run.outcome.steps, [
    { step: 'search', result: 'no-url' },
    { step: 'explore', result: 'no-url' },
  ]);
  const empty = flows({ search: async () => [], explore: async () => [], exploreKinds: good.exploreKinds! });
  const r2 = await checkSource(empty.open);
  assert.deepEqual(r2.outcome.steps, [
    { step: 'search', result: 'empty' },
    { step: 'explore', result: 'empty' },
  ]);
});

test('an empty TOC or empty text marks the book and the check goes on to explore; other errors end the check', async () => {
  const { open, calls } = flows({ ...good, toc: async () => Promise.reject(typed('TOC_EMPTY')), content: async () => Promise.reject(typed('CONTENT_EMPTY')) });
  const run = await checkSource(open);
  assert.deepEqual(run.outcome.steps, [
    { step: 'search', result: 'found' },
    { step: 'book', of: 'search', result: 'toc-empty' },
    { step: 'explore', result: 'found' },
    { step: 'book', of: 'explore', result: 'toc-empty' },
  ]);
  assert.equal(calls.filter((c) => c.startsWith('content')).length, 0);
  const bad = flows({ ...good, bookInfo: async () => Promise.reject(typed('FETCH_FAILED', 'refused')) });
  const r2 = await checkSource(bad.open);
  assert.deepEqual(r2.outcome.end, { end: 'failed', kind: 'site', message: 'refused' });
  assert.ok(!bad.calls.includes('exploreKinds()'));
});

test('errors are filed as the app files them: scripts js, a source lacking a field quiet, the rest the site', () => {
  for (const c of ['SCRIPT_TIMEOUT', 'SCRIPT_MEMORY', 'SCRIPT_ERROR', 'JS_UNAVAILABLE', 'HELPER_FAILED']) assert.equal(failureKind(typed(c)), 'js', c);
  assert.equal(failureKind(typed('SOURCE_INCOMPLETE')), 'quiet');
  for (const c of ['FETCH_FAILED', 'FETCH_TIMEOUT', 'ADDRESS_REFUSED', 'BAD_RULE', 'SOURCE_FAILED']) assert.equal(failureKind(typed(c)), 'site', c);
  assert.equal(failureKind(new TypeError('x')), 'site');
});

test('a source that hangs ends at the time limit: the fetch signal aborts, the steps done so far count, the error is CHECK_TIMEOUT', async () => {
  let signal: AbortSignal | undefined;
  const hang: Script = { ...good, toc: () => new Promise<WebChapter[]>((_, reject) => signal!.addEventListener('abort', () => reject(new Error('aborted')))) };
  const f = flows(hang);
  const run = await checkSource(
    (s) => {
      signal = s;
      return f.open();
    },
    { timeoutMs: 50 },
  );
  assert.equal(signal?.aborted, true);
  assert.deepEqual(run.outcome.steps, [{ step: 'search', result: 'found' }]);
  assert.equal(run.outcome.end.end, 'failed');
  assert.equal(run.outcome.end.end === 'failed' && run.outcome.end.kind, 'timeout');
  assert.equal((run.error as LegadoStoreError).code, 'CHECK_TIMEOUT');
  assert.match((run.error as Error).message, /source "甲" \(https:\/\/a\.example\/\): the check did not end within 50 ms/);
});

test('a cancelled check ends as cancelled, whatever the flows were doing', async () => {
  const c = new AbortController();
  const f = flows({ ...good, search: () => new Promise<SearchBook[]>(() => c.abort()) });
  const run = await checkSource(f.open, { signal: c.signal });
  assert.deepEqual(run.outcome.end, { end: 'cancelled' });
  const before = new AbortController();
  before.abort();
  const g = flows(good);
  assert.deepEqual((await checkSource(g.open, { signal: before.signal })).outcome.end, { end: 'cancelled' });
  assert.deepEqual(g.calls, []);
});
