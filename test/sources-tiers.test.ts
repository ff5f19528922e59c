// What a source needs, read from its text: the fixture sources against the tiers their README
// gives them (T0 no JS, T1 plain JS, T2 the java.* helpers, T3 a login), and hand-written
// sources for each thing the engine does not do (a browser, Java classes, a login form).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureSources } from './helpers/fixture-site/index.js';
import type { BookSource } from '../src/sources/engine/types.js';
import { scriptPieces, sourceNeeds } from '../src/sources/tiers.js';

const base = (fields: Partial<BookSource>): BookSource => ({ bookSourceUrl: 'https://a.example', bookSourceName: 'a', ...fields });

test('every fixture source is in the tier its README names', () => {
  for (const f of fixtureSources('http://127.0.0.1:1', 7)) {
    const needs = sourceNeeds(f.source as unknown as BookSource);
    assert.equal(needs.tier, f.tier, f.id);
    assert.equal(needs.unsupported, null, f.id);
    assert.equal(needs.login, f.id === 'login', f.id);
  }
});

test('script pieces: <js>, @js:, {{js}} but not {{key}}/{{page}} arithmetic or inner rules, the js URL option', () => {
  assert.deepEqual(scriptPieces('/s?q={{key}}&p={{page-1}}'), []);
  assert.deepEqual(scriptPieces('https://x/{{$.id}}/{{@@a@href}}'), []);
  assert.deepEqual(scriptPieces('a@text<js>result.trim()</js>##x'), ['result.trim()']);
  assert.deepEqual(scriptPieces('class.c@text@JS:result + 1'), ['result + 1']);
  assert.deepEqual(scriptPieces('/s?t={{Date.now()}}'), ['Date.now()']);
  assert.equal(scriptPieces('/s,{"js":"java.url"}').length, 1);
});

test('what the engine does not do: a browser, Java classes (Jsoup.parse aside), a login page or form', () => {
  const cases: [Partial<BookSource>, Partial<ReturnType<typeof sourceNeeds>>][] = [
    [{ searchUrl: '/s?q={{key}},{"webView":true}' }, { tier: 'T3', browser: true, unsupported: 'browser' }],
    [{ searchUrl: '/s?q={{key}},{"webView":false}' }, { tier: 'T0', browser: false, unsupported: null }],
    [{ ruleContent: { content: 'id.c@html', webJs: 'document.title' } }, { tier: 'T3', browser: true, unsupported: 'browser' }],
    [{ ruleContent: { content: '@js:java.startBrowserAwait(baseUrl, "验证").body()' } }, { tier: 'T3', browser: true, helpers: true }],
    [{ ruleToc: { chapterList: '@js:var d = Packages.java.util.Date; result' } }, { tier: 'T3', java: true, unsupported: 'java' }],
    [{ ruleToc: { chapterList: '@js:org.jsoup.Jsoup.parse(result).select("li")' } }, { tier: 'T3', java: true, unsupported: null }],
    [{ loginUrl: 'https://a.example/login' }, { tier: 'T3', login: true, unsupported: null }],
    [
      { loginUi: '[{"name":"user","type":"text"}]', loginUrl: 'function login() { java.ajax("x") }' },
      { tier: 'T3', login: true, helpers: true },
    ],
    [{ loginCheckJs: 'result' }, { tier: 'T1', login: false, js: true }],
    [{ ruleSearch: { bookList: 'li', name: 'a@text', bookUrl: '<js>source.getKey() + result</js>' } }, { tier: 'T2', helpers: true }],
    [{ jsLib: 'function f(x) { return x }' }, { tier: 'T1', js: true, helpers: false }],
    [{ ruleSearch: { bookList: 'li', checkKeyWord: '@js:java.x()' } }, { tier: 'T0', js: false }],
  ];
  for (const [fields, want] of cases) {
    const got = sourceNeeds(base(fields));
    for (const [k, v] of Object.entries(want)) assert.equal(got[k as keyof typeof got], v, `${JSON.stringify(fields)}: ${k}`);
  }
});
