// `legado-store serve`: book sources, RSS sources and replace rules over real HTTP on 127.0.0.1,
// the answers spelled out from BookSourceController.kt, RssSourceController.kt,
// ReplaceRuleController.kt and CacheDao.deleteSourceVariables, quirks included.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NewRow } from 'legado-store';
import { source as sourceRow } from './helpers/builders.js';
import { envelopeText, served } from './helpers/serve.js';
import './helpers/engine.js'; // Node's engines, as the package's entry installs them

const DONE = envelopeText(true, '', '"已执行"');
const SAVED = envelopeText(true, '', '""');
/** ReturnData as created: what saveReplaceRule and deleteReplaceRule answer even when they worked. */
const UNTOUCHED = '{\n  "isSuccess": false,\n  "errorMsg": "未知错误,请联系开发者!"\n}';

const source = (url: string, name: string, extra: Partial<NewRow<'book_sources'>> = {}) => sourceRow(url, { bookSourceName: name, ...extra });

test('book sources: empty list, one by url, not found, missing url', async () => {
  const s = await served();
  assert.equal((await s.get('/getBookSources')).text, envelopeText(false, '设备源列表为空'));
  assert.equal((await s.get('/getBookSource')).text, envelopeText(false, '参数url不能为空，请指定源地址'));
  assert.equal((await s.get('/getBookSource?url=https%3A%2F%2Fnone')).text, envelopeText(false, '未找到源，请检查书源地址'));
  s.store.tables.book_sources.insert(source('https://a', '甲', { ruleSearch: '{"bookList":"class.item"}' }));
  const one = await s.get('/getBookSource?url=https%3A%2F%2Fa');
  assert.equal(
    one.text,
    envelopeText(
      true,
      '',
      '{\n  "bookSourceUrl": "https://a",\n  "bookSourceName": "甲",\n  "bookSourceType": 0,\n  "customOrder": 0,\n  "enabled": true,\n  "enabledExplore": true,\n  "enabledCookieJar": false,\n  "lastUpdateTime": 0,\n  "respondTime": 180000,\n  "weight": 0,\n  "ruleSearch": {\n    "bookList": "class.item"\n  }\n}',
    ),
  );
});

test("saveBookSource: insert or replace; blank name or URL, no body, not a source: the app's messages, nothing written", async () => {
  const s = await served();
  assert.equal((await s.post('/saveBookSource', JSON.stringify(source('https://a', '甲')))).text, SAVED);
  assert.equal((await s.post('/saveBookSource', JSON.stringify(source('https://a', '甲二')))).text, SAVED);
  assert.deepEqual(s.rows('SELECT bookSourceUrl, bookSourceName FROM book_sources'), [{ bookSourceUrl: 'https://a', bookSourceName: '甲二' }]);
  assert.equal((await s.post('/saveBookSource', JSON.stringify({ bookSourceUrl: 'https://b' }))).text, envelopeText(false, '源名称和URL不能为空'));
  assert.equal((await s.post('/saveBookSource', '')).text, envelopeText(false, '数据不能为空'));
  assert.equal((await s.post('/saveBookSource', '{"bookSourceUrl": ')).text, envelopeText(false, '转换源失败'));
  assert.equal(s.sql('SELECT count(*) FROM book_sources'), 1);
});

test('saveBookSources: blank ones skipped, data lists the saved ones; no list: 转换源失败', async () => {
  const s = await served();
  const a = await s.post(
    '/saveBookSources',
    JSON.stringify([source('https://a', '甲'), source('https://b', '  '), source(' ', '丙'), source('https://d', '丁')]),
  );
  const answer = a.json() as { isSuccess: boolean; errorMsg: string; data: { bookSourceUrl: string }[] };
  assert.equal(answer.isSuccess, true);
  assert.deepEqual(
    answer.data.map((x) => x.bookSourceUrl),
    ['https://a', 'https://d'],
  );
  assert.deepEqual(s.rows('SELECT bookSourceUrl FROM book_sources ORDER BY bookSourceUrl'), [{ bookSourceUrl: 'https://a' }, { bookSourceUrl: 'https://d' }]);
  assert.equal((await s.post('/saveBookSources', '[]')).text, envelopeText(false, '转换源失败'));
  assert.equal((await s.post('/saveBookSources', '{"a":1}')).text, envelopeText(false, '转换源失败'));
  assert.equal((await s.post('/saveBookSources', '')).text, envelopeText(false, '数据为空'));
});

test('deleteBookSources: the sources and their cached variables (v_<url>_%, userInfo_, loginHeader_, sourceVariable_) in one call', async () => {
  const s = await served({}, (st) => {
    st.tables.book_sources.insert(source('https://a', '甲'));
    st.tables.book_sources.insert(source('https://b', '乙'));
    for (const key of [
      'v_https://a_token',
      'userInfo_https://a',
      'loginHeader_https://a',
      'sourceVariable_https://a',
      'v_https://b_token',
      'userInfo_https://b',
      'webReadConfig',
      'v_https://a',
    ])
      st.cache.put(key, 'x');
  });
  assert.equal((await s.post('/deleteBookSources', JSON.stringify([source('https://a', '甲')]))).text, DONE);
  assert.deepEqual(s.rows('SELECT bookSourceUrl FROM book_sources'), [{ bookSourceUrl: 'https://b' }]);
  // `v_https://a` has no `_` after the URL: the app's LIKE 'v_' || url || '_%' keeps it.
  assert.deepEqual(
    s.rows('SELECT key FROM caches ORDER BY key').map((r) => r.key),
    ['userInfo_https://b', 'v_https://a', 'v_https://b_token', 'webReadConfig'],
  );
  assert.equal((await s.post('/deleteBookSources', 'not json')).text, envelopeText(false, '数据格式错误'));
  assert.equal(s.sql('SELECT count(*) FROM book_sources'), 1);
});

test("RSS sources: the same pattern, their messages; delete removes the source's articles and cached variables", async () => {
  const rss = (url: string, name: string) => ({ sourceUrl: url, sourceName: name });
  const s = await served();
  assert.equal((await s.get('/getRssSources')).text, envelopeText(false, '源列表为空'));
  assert.equal((await s.get('/getRssSource')).text, envelopeText(false, '参数url不能为空，请指定书源地址'));
  assert.equal((await s.get('/getRssSource?url=x')).text, envelopeText(false, '未找到源，请检查源地址'));
  assert.equal((await s.post('/saveRssSource', JSON.stringify(rss('https://r1', '')))).text, envelopeText(false, '源名称和URL不能为空'));
  assert.equal((await s.post('/saveRssSource', JSON.stringify(rss('https://r1', '新闻')))).text, SAVED);
  const saved = (await s.post('/saveRssSources', JSON.stringify([rss('https://r2', '二'), rss('', '空')]))).json() as { data: { sourceUrl: string }[] };
  assert.deepEqual(
    saved.data.map((x) => x.sourceUrl),
    ['https://r2'],
  );
  assert.equal((await s.post('/saveRssSources', '')).text, envelopeText(false, '数据不能为空'));
  const list = (await s.get('/getRssSources')).json() as { data: { sourceUrl: string; sourceName: string; enabled: boolean }[] };
  assert.deepEqual(
    list.data.map((x) => [x.sourceUrl, x.sourceName, x.enabled]),
    [
      ['https://r1', '新闻', true],
      ['https://r2', '二', true],
    ],
  );

  s.store.rss.addArticles('https://r1', 'all', [
    { title: 't', link: 'https://r1/1' },
    { title: 'u', link: 'https://r1/2' },
  ]);
  s.store.rss.addArticles('https://r2', 'all', [{ title: 'v', link: 'https://r2/1' }]);
  s.store.cache.put('sourceVariable_https://r1', 'x');
  assert.equal((await s.post('/deleteRssSources', JSON.stringify([rss('https://r1', '新闻')]))).text, DONE);
  assert.deepEqual(s.rows('SELECT sourceUrl FROM rssSources'), [{ sourceUrl: 'https://r2' }]);
  assert.deepEqual(s.rows('SELECT origin FROM rssArticles'), [{ origin: 'https://r2' }]);
  assert.equal(s.sql('SELECT count(*) FROM caches'), 0);
  // The app's RSS delete swallows a parse failure and still answers 已执行; no body: 没有传递数据.
  assert.equal((await s.post('/deleteRssSources', 'not json')).text, DONE);
  assert.equal((await s.post('/deleteRssSources', '')).text, envelopeText(false, '没有传递数据'));
  assert.equal(s.sql('SELECT count(*) FROM rssSources'), 1);
});

test('replace rules: the list as a JSON string; save/delete answer isSuccess false with the default message and still work', async () => {
  const s = await served();
  assert.equal((await s.get('/getReplaceRules')).text, envelopeText(true, '', '"[]"'));
  // order left out is Int.MIN_VALUE: it becomes max(sortOrder) + 1, 1 on an empty table.
  assert.equal(
    (await s.post('/saveReplaceRule', JSON.stringify({ id: 7, name: '去广告', pattern: 'ad\\d+', replacement: '', isRegex: true }))).text,
    UNTOUCHED,
  );
  assert.equal((await s.post('/saveReplaceRule', JSON.stringify({ id: 8, name: '二', pattern: 'x', order: -2147483648 }))).text, UNTOUCHED);
  assert.deepEqual(s.rows('SELECT id, name, sortOrder FROM replace_rules ORDER BY id'), [
    { id: 7, name: '去广告', sortOrder: 1 },
    { id: 8, name: '二', sortOrder: 2 },
  ]);
  const rules = (await s.get('/getReplaceRules')).json() as { data: string };
  assert.equal(typeof rules.data, 'string');
  const inner = JSON.parse(rules.data) as { id: number; order: number }[];
  assert.deepEqual(
    inner.map((r) => [r.id, r.order]),
    [
      [7, 1],
      [8, 2],
    ],
  );
  assert.equal(rules.data, JSON.stringify(inner, null, 2), 'the inner text is pretty-printed by the same Gson');
  // Saving the same id replaces it.
  assert.equal((await s.post('/saveReplaceRule', JSON.stringify({ id: 7, name: '改', pattern: 'ad', order: 5 }))).text, UNTOUCHED);
  assert.deepEqual(s.rows('SELECT id, name, sortOrder FROM replace_rules WHERE id = 7'), [{ id: 7, name: '改', sortOrder: 5 }]);
  assert.equal((await s.post('/deleteReplaceRule', JSON.stringify({ id: 8 }))).text, UNTOUCHED);
  assert.equal(s.sql('SELECT count(*) FROM replace_rules'), 1);
  assert.equal((await s.post('/saveReplaceRule', '{')).text, envelopeText(false, '格式不对'));
  assert.equal((await s.post('/deleteReplaceRule', '')).text, envelopeText(false, '数据不能为空'));
  assert.equal(s.sql('SELECT count(*) FROM replace_rules'), 1);
});

test("testReplaceRule: regex with Java's $n replacement, plain text, rule given as a string; its messages", async () => {
  const s = await served();
  const run = async (rule: unknown, text: unknown) => (await s.post('/testReplaceRule', JSON.stringify({ rule, text }))).text;
  assert.equal(await run({ pattern: '(\\d+)章', replacement: '第$1回', isRegex: true }, '12章与3章'), envelopeText(true, '', '"第12回与第3回"'));
  assert.equal(await run({ pattern: 'a.c', replacement: '\\$x', isRegex: false }, 'a.c abc a.c'), envelopeText(true, '', '"\\\\$x abc \\\\$x"'));
  assert.equal(await run(JSON.stringify({ pattern: 'b', replacement: 'B', isRegex: true }), 'abc'), envelopeText(true, '', '"aBc"'));
  // The rule is the app's Java regex: an inline flag at the start and a possessive quantifier,
  // which JavaScript spells otherwise, work as on the phone.
  assert.equal(await run({ pattern: '(?i)b\\d++', replacement: 'X', isRegex: true }, 'aB12c'), envelopeText(true, '', '"aXc"'));
  // Java: a backslash makes the next character literal.
  assert.equal(await run({ pattern: 'b', replacement: '\\$1', isRegex: true }, 'abc'), envelopeText(true, '', '"a$1c"'));
  // An empty pattern: the app's "替换规则不能为空" is overwritten by setData (kept).
  assert.equal(await run({ pattern: '', replacement: '-', isRegex: false }, 'ab'), envelopeText(true, '', '"-a-b-"'));
  assert.equal((await s.post('/testReplaceRule', '[1]')).text, envelopeText(false, '格式不对'));
  assert.equal((await s.post('/testReplaceRule', '{"rule": 5, "text": "x"}')).text, envelopeText(false, '格式不对'));
  assert.equal((await s.post('/testReplaceRule', '')).text, envelopeText(false, '数据不能为空'));
  assert.equal(s.sql('SELECT count(*) FROM replace_rules'), 0);
});
