// Every rule string of every book source in ../shared/corpora read by the rule parser (no
// content, parse only): each one compiles, needs JavaScript, or fails with a typed RuleError,
// and none crashes the parser. The counts are printed: what would run without JavaScript, what
// needs it, what needs a browser or a login UI (not supported), and what cannot be read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkRule, RuleError } from '../../src/sources/index.js';
import { bookSourceFiles, corpora } from './shared.js';

type Json = Record<string, unknown>;

// 3.x rule objects and their fields (entities/rule/*.kt); list rules take `:`, `-` and `+`.
const LIST = new Set(['bookList', 'chapterList', 'init']);
const JS_FIELDS = new Set(['formatJs', 'preUpdateJs', 'webJs', 'payAction', 'imageDecode']);
const NOT_RULES = new Set(['checkKeyWord', 'imageStyle', 'sourceRegex']);
const OBJECTS = ['ruleSearch', 'ruleExplore', 'ruleBookInfo', 'ruleToc', 'ruleContent'];
// 2.0 flat keys: URLs and patterns are not rules.
const LEGACY_NOT_RULES = new Set(['ruleSearchUrl', 'ruleFindUrl', 'ruleBookUrlPattern']);
const LEGACY_LIST = new Set(['ruleSearchList', 'ruleFindList', 'ruleChapterList', 'ruleBookInfoInit']);

interface Rule {
  readonly field: string;
  readonly text: string;
  readonly list: boolean;
  /** Read on JSON content: the section's list or content rule is JSONPath (bare keys then are too). */
  readonly json: boolean;
}

const JSON_RULE = /^(\$\.|\$\[|@json:)/i;

function rulesOf(src: Json): { legacy: boolean; rules: Rule[]; jsFields: number } {
  const rules: Rule[] = [];
  let jsFields = 0;
  const legacy = !OBJECTS.some((k) => k in src) && Object.keys(src).some((k) => k.startsWith('rule'));
  if (legacy) {
    for (const [k, v] of Object.entries(src)) {
      if (k.startsWith('rule') && !LEGACY_NOT_RULES.has(k) && typeof v === 'string' && v.trim() !== '')
        rules.push({ field: k, text: v, list: LEGACY_LIST.has(k), json: false });
    }
    return { legacy, rules, jsFields };
  }
  for (const name of OBJECTS) {
    let obj = src[name];
    if (typeof obj === 'string') {
      try {
        obj = JSON.parse(obj);
      } catch {
        obj = null; // the app's deserializer gives no rule object
      }
    }
    if (!obj || typeof obj !== 'object' || Array.isArray(obj)) continue;
    const section = obj as Json;
    const json = ['bookList', 'chapterList', 'content', 'init'].some((k) => JSON_RULE.test(String(section[k] ?? '')));
    for (const [k, v] of Object.entries(section)) {
      if (typeof v !== 'string' || v.trim() === '' || NOT_RULES.has(k)) continue;
      if (JS_FIELDS.has(k)) jsFields++;
      else rules.push({ field: `${name}.${k}`, text: v, list: LIST.has(k), json: json && !LIST.has(k) });
    }
  }
  return { legacy, rules, jsFields };
}

const BROWSER = /webView|startBrowser|webJs/i;

test('every rule of every book source in the corpora is read: compiled, JavaScript, or a typed error', () => {
  const root = corpora();
  const files = bookSourceFiles(root);
  assert.ok(files.length >= 12, `book-source files found: ${files.join(', ')}`);
  const count = { sources: 0, legacy: 0, rules: 0, compiled: 0, js: 0, typed: 0, legacyTyped: 0 };
  const perSource = { noJs: 0, js: 0, browser: 0, login: 0, unreadable: 0 };
  const crashes: string[] = [];
  const typed = new Map<string, number>();
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    if (text.trim() === '') continue;
    const list = JSON.parse(text) as unknown;
    for (const src of Array.isArray(list) ? list : [list]) {
      if (!src || typeof src !== 'object') continue;
      const s = src as Json;
      const { legacy, rules, jsFields } = rulesOf(s);
      count.sources++;
      if (legacy) count.legacy++;
      let js = jsFields > 0;
      let bad = false;
      for (const r of rules) {
        count.rules++;
        try {
          if (checkRule(r.text, { list: r.list, json: r.json }).js) {
            count.js++;
            js = true;
          } else count.compiled++;
        } catch (e) {
          if (e instanceof RuleError) {
            bad = true;
            if (legacy) count.legacyTyped++;
            else count.typed++;
            const why = e.reason.replace(/[\d"'].*$/s, '').slice(0, 60);
            typed.set(why, (typed.get(why) ?? 0) + 1);
          } else crashes.push(`${file} ${String(s['bookSourceUrl'])} ${r.field}: ${e instanceof Error ? e.stack : String(e)}`);
        }
      }
      const all = JSON.stringify(s);
      if (s['loginUrl'] || s['loginUi'] || s['loginCheckJs']) perSource.login++;
      else if (BROWSER.test(all)) perSource.browser++;
      else if (bad) perSource.unreadable++;
      else if (js || /@js:|<js>/i.test(String(s['searchUrl'] ?? '')) || /@js:|<js>/i.test(String(s['header'] ?? ''))) perSource.js++;
      else perSource.noJs++;
    }
  }
  console.log(`book sources: ${count.sources} (${count.legacy} in the 2.0 format), rules: ${count.rules}`);
  console.log(`rules: ${count.compiled} compile, ${count.js} need JavaScript, ${count.typed} (3.x) + ${count.legacyTyped} (2.0) cannot be read (RuleError)`);
  console.log(
    `sources: ${perSource.noJs} run without JavaScript, ${perSource.js} need JavaScript, ${perSource.browser} need a browser, ${perSource.login} need a login UI, ${perSource.unreadable} have a rule that cannot be read`,
  );
  console.log(
    `RuleError reasons: ${[...typed]
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${v}× ${k}`)
      .join('; ')}`,
  );
  assert.deepEqual(crashes.slice(0, 5), [], `${crashes.length} rules crashed the parser`);
  assert.ok(count.sources > 8000, `sources read: ${count.sources}`);
  // Nearly every 3.x rule is read: what is not is a rule the app cannot run either.
  assert.ok(count.typed * 200 < count.rules - count.legacyTyped, `${count.typed} unreadable 3.x rules of ${count.rules}`);
});
