// The debug run of a source as the app's source editor prints it (model/Debug.kt): the stage the
// key picks, the start and end lines, the blank lines between stages, the flows' own lines in
// between, each with `[mm:ss.SSS] ` since the start, and the error line that ends a failed run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BookSource, DebugLog, SearchBook, SourceFlows, WebBook, WebChapter } from '../src/sources/engine/types.js';
import { debugSource, debugStage, debugTime, type DebugLine } from '../src/sources/debug/debug.js';
import { LegadoStoreError } from '../src/errors.js';

const SOURCE: BookSource = { bookSourceUrl: 'https://a.example', bookSourceName: '甲', searchUrl: '/s?q={{key}}' };
const hit = (tocUrl = ''): SearchBook => ({
  bookUrl: 'https://a.example/b/1',
  origin: SOURCE.bookSourceUrl,
  originName: '甲',
  type: 8,
  name: '书',
  author: '某',
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
const ch = (i: number, isVolume = false): WebChapter => ({
  url: isVolume ? `卷${i}` : `https://a.example/c/${i}`,
  title: `卷${i}`,
  isVolume,
  baseUrl: '',
  bookUrl: '',
  index: i,
  isVip: false,
  isPay: false,
  tag: null,
  variable: null,
});

/** Flows that log one line per call (as the real ones log theirs) on a clock that moves 1,234 ms a call. */
function run(key: string, over: Partial<SourceFlows> = {}, source: BookSource = SOURCE) {
  let t = 1_700_000_000_000;
  const lines: DebugLine[] = [];
  const seen: string[] = [];
  const open = (log: DebugLog): SourceFlows => {
    const step =
      <A extends unknown[], R>(name: string, value: (...a: A) => R) =>
      async (...a: A): Promise<Awaited<R>> => {
        t += 1234;
        seen.push(`${name} ${a.map((x) => (typeof x === 'object' && x ? JSON.stringify(x).slice(0, 60) : String(x))).join(' ')}`);
        log(`≡${name}`);
        return await value(...a);
      };
    return {
      source,
      search: step('search', () => [hit()]),
      exploreKinds: step('kinds', () => []),
      explore: step('explore', () => [hit('https://a.example/toc/1')]),
      bookInfo: step('info', (b: SearchBook | WebBook) => ({ ...(b as WebBook), tocUrl: `${b.bookUrl}/toc` })),
      toc: step('toc', () => [ch(0, true), ch(1), ch(2)]),
      content: step('content', () => '　　正文'),
      ...over,
    };
  };
  return debugSource(open, key, (l) => lines.push(l), { now: () => t }).then((r) => ({ ...r, lines, seen, text: lines.map((l) => l.text) }));
}

test('the key picks the stage as Debug.startDebug does', () => {
  assert.deepEqual(debugStage('https://a.example/b/1'), { stage: 'info', arg: 'https://a.example/b/1' });
  assert.deepEqual(debugStage('HTTP://A/b::x'), { stage: 'info', arg: 'HTTP://A/b::x' });
  assert.deepEqual(debugStage('玄幻::/sort/1'), { stage: 'explore', arg: '/sort/1' });
  assert.deepEqual(debugStage('++/toc/1'), { stage: 'toc', arg: '/toc/1' });
  assert.deepEqual(debugStage('--/c/1'), { stage: 'content', arg: '/c/1' });
  assert.deepEqual(debugStage('斗破'), { stage: 'search', arg: '斗破' });
  assert.deepEqual(debugStage('a::b::c'), { stage: 'explore', arg: 'b::c' });
});

test('the time prefix is [mm:ss.SSS] of the time since the start, minutes wrapping at the hour', () => {
  assert.equal(debugTime(0), '[00:00.000]');
  assert.equal(debugTime(61_005), '[01:01.005]');
  assert.equal(debugTime(3_600_000 + 2_000), '[00:02.000]');
});

test("a keyword: search, then the first hit's info, TOC and first readable chapter, with the app's lines", async () => {
  const r = await run('斗破');
  assert.equal(r.ok, true);
  assert.deepEqual(r.text, [
    '[00:00.000] ⇒开始搜索关键字:斗破',
    '[00:00.000] ︾开始解析搜索页',
    '[00:01.234] ≡search',
    '[00:01.234] ︽搜索页解析完成',
    '',
    '[00:01.234] ︾开始解析详情页',
    '[00:02.468] ≡info',
    '[00:02.468] ︽详情页解析完成',
    '',
    '[00:02.468] ︾开始解析目录页',
    '[00:03.702] ≡toc',
    '[00:03.702] ︽目录页解析完成',
    '',
    '[00:03.702] ︾开始解析正文页',
    '[00:04.936] ≡content',
    '[00:04.936] ︽正文页解析完成',
  ]);
  assert.equal(r.lines.at(-1)?.state, 1000);
  // The first readable chapter is read, the next one its stop; the volume is passed over.
  assert.match(r.seen.at(-1)!, /^content .*"url":"https:\/\/a\.example\/c\/1".* https:\/\/a\.example\/c\/2$/);
});

test('an explore key; a hit with a TOC URL skips the info page', async () => {
  const r = await run('热门::/hot');
  assert.deepEqual(r.text.slice(0, 7), [
    '[00:00.000] ⇒开始访问发现页:/hot',
    '[00:00.000] ︾开始解析发现页',
    '[00:01.234] ≡explore',
    '[00:01.234] ︽发现页解析完成',
    '',
    '[00:01.234] ≡已获取目录链接,跳过详情页',
    '',
  ]);
  assert.equal(r.seen[0], 'explore /hot 1');
  assert.ok(!r.seen.some((s) => s.startsWith('info')));
});

test('++ a TOC, -- a chapter titled 调试 with no stop, an absolute URL the info page', async () => {
  const toc = await run('++https://a.example/toc/9');
  assert.equal(toc.text[0], '[00:00.000] ⇒开始访目录页:https://a.example/toc/9');
  assert.match(toc.seen[0]!, /^toc .*"tocUrl":"https:\/\/a\.example\/toc\/9"/);
  const c = await run('--https://a.example/c/7');
  assert.deepEqual(c.text, [
    '[00:00.000] ⇒开始访正文页:https://a.example/c/7',
    '[00:00.000] ︾开始解析正文页',
    '[00:01.234] ≡content',
    '[00:01.234] ︽正文页解析完成',
  ]);
  assert.match(c.seen[0]!, /"title":"调试".* undefined$/);
  const i = await run('https://a.example/b/5');
  assert.equal(i.text[0], '[00:00.000] ⇒开始访问详情页:https://a.example/b/5');
  assert.match(i.seen[0]!, /^info .*"bookUrl":"https:\/\/a\.example\/b\/5"/);
});

test('endings: nothing found (-1), no readable chapter, a file source after info (1000), and an error line (-1)', async () => {
  const none = await run('x', { search: async () => [] });
  assert.deepEqual(none.lines.at(-1), { state: -1, text: '[00:00.000] ︽未获取到书籍' });
  assert.equal(none.ok, false);
  const vols = await run('x', { toc: async () => [ch(0, true)] });
  assert.equal(vols.text.at(-1), '[00:02.468] ≡没有正文章节');
  assert.equal(vols.ok, false);
  const file = await run('x', {}, { ...SOURCE, bookSourceType: 3 });
  assert.deepEqual(file.lines.at(-1), { state: 1000, text: '[00:02.468] ≡文件类书源跳过解析目录' });
  const failed = await run('x', { toc: async () => Promise.reject(new LegadoStoreError('TOC_EMPTY' as never, 'source "甲": 目录为空')) });
  assert.deepEqual(failed.lines.at(-1), { state: -1, text: '[00:02.468] TOC_EMPTY: source "甲": 目录为空' });
  assert.equal(failed.ok, false);
});
