// The debug run of a source on the real engine against the fixture site, as the app's source
// editor prints it (model/Debug.kt): the stage the key picks, the start and end lines, the blank
// lines between stages, the flows' own lines in between, each with `[mm:ss.SSS] ` since the
// start, and the error line that ends a failed run.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startFixtureSite } from './helpers/fixture-site/node.js';
import { expectedToc, fixtureSources, searchBooks } from './helpers/fixture-site/index.js';
import { fixtureHost } from './helpers/source-flows.js';
import { requestOf as req } from './helpers/check-site.js';
import { openSource } from '../src/sources/engine/session.js';
import type { BookSource } from '../src/sources/engine/types.js';
import { debugSource, debugStage, debugTime, type DebugLine } from '../src/sources/debug/debug.js';

const SEED = 20261210;
const site = await startFixtureSite(SEED);
after(() => site.close());
const m = site.site.model;
const api = fixtureSources(site.url, SEED).find((f) => f.id === 'api')!;
const book = searchBooks(m, m.keywords.many)[0]!;
const chapters = expectedToc(api, book).filter((c) => !c.isVolume);

async function run(key: string) {
  const lines: DebugLine[] = [];
  const before = new Map(site.site.hits);
  const r = await debugSource(
    (log) => openSource(api.source as unknown as BookSource, fixtureHost({ log })),
    key,
    (l) => lines.push(l),
  );
  const requested = [...site.site.hits].filter(([k, n]) => n > (before.get(k) ?? 0)).map(([k]) => k);
  const stamp = /^\[\d\d:\d\d\.\d{3}\] /;
  // Every line has the time stamp but the blank ones between stages.
  for (const l of lines) assert.ok(l.text === '' || stamp.test(l.text), l.text);
  const stages = lines.map((l) => l.text.replace(stamp, '')).filter((t) => /^[⇒︾︽]|^≡(已获取|没有|文件)|^$/.test(t));
  return { ...r, lines, requested, stages, text: lines.map((l) => l.text.replace(stamp, '')) };
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

test("a keyword: search, then the first hit's book page, TOC and first readable chapter, with the app's lines and the flows' between them", async () => {
  const r = await run(m.keywords.many);
  assert.equal(r.ok, true);
  assert.deepEqual(r.stages, [
    `⇒开始搜索关键字:${m.keywords.many}`,
    '︾开始解析搜索页',
    '︽搜索页解析完成',
    '',
    '︾开始解析详情页',
    '︽详情页解析完成',
    '',
    '︾开始解析目录页',
    '︽目录页解析完成',
    '',
    '︾开始解析正文页',
    '︽正文页解析完成',
  ]);
  assert.equal(r.lines.at(-1)?.state, 1000);
  // The flows' lines come between a stage's start and end.
  const i = r.text.indexOf('︾开始解析搜索页');
  assert.ok(r.text.indexOf('︽搜索页解析完成') > i + 1);
  assert.ok(r.requested.includes(req(chapters[0]!.url!)));
  assert.ok(!r.requested.includes(req(chapters[1]!.url!)));
});

test('an absolute URL starts at the book page, ++ at a TOC, -- at a chapter, title::url at an explore page', async () => {
  const info = await run(api.expect.bookUrl(book));
  assert.deepEqual(info.stages.slice(0, 2), [`⇒开始访问详情页:${api.expect.bookUrl(book)}`, '︾开始解析详情页']);
  assert.equal(info.ok, true);
  const tocUrl = `${site.url}/api/book/${book.id}/chapters`;
  const toc = await run(`++${tocUrl}`);
  assert.deepEqual(toc.stages.slice(0, 2), [`⇒开始访目录页:${tocUrl}`, '︾开始解析目录页']);
  assert.ok(toc.requested.includes(req(tocUrl)));
  const c = await run(`--${chapters[2]!.url}`);
  assert.deepEqual(c.stages, [`⇒开始访正文页:${chapters[2]!.url}`, '︾开始解析正文页', '︽正文页解析完成']);
  assert.deepEqual(c.requested, [req(chapters[2]!.url!)]);
  const e = await run(`玄幻::/api/explore?kind=${book.kind}&page=1`);
  assert.deepEqual(e.stages.slice(0, 3), [`⇒开始访问发现页:/api/explore?kind=${book.kind}&page=1`, '︾开始解析发现页', '︽发现页解析完成']);
});

test('endings: nothing found is a -1 line, a failed step its error line', async () => {
  const none = await run(m.keywords.none);
  assert.equal(none.lines.at(-1)?.state, -1);
  assert.match(none.lines.at(-1)!.text, /︽未获取到书籍$/);
  assert.equal(none.ok, false);
  const failed = await run(`--${site.url}/api/chapter?book=0&id=999999`);
  assert.equal(failed.lines.at(-1)?.state, -1);
  assert.match(failed.lines.at(-1)!.text, /^\[\d\d:\d\d\.\d{3}\] [A-Z_]+: /);
  assert.equal(failed.ok, false);
});
