// The Durable Object's rule runner (src/worker/sandbox-rules.ts) on Node: a regex rule's matches
// found in the QuickJS sandbox give Java's replaceAll (spelled out below), a rule that backtracks
// for ever is stopped inside its match with RULE_TIMEOUT naming it, and what needs local book
// files is refused as UNSUPPORTED. test/worker/replace-rule.test.ts runs it inside workerd.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { SandboxRules } from '../src/worker/sandbox-rules.js';
import { RuleTimeoutError } from '../src/localbook/errors.js';
import { UnsupportedError } from '../src/errors.js';

const rules = new SandboxRules();
after(() => rules.dispose());

const raw = (pattern: string, replacement: string, text: string, timeoutMillisecond?: number) =>
  rules.replace({ text, rules: [{ name: '规则', pattern, replacement, isRegex: true, ...(timeoutMillisecond ? { timeoutMillisecond } : {}) }], raw: true });

test("Java's replaceAll: groups that take no part are empty, named groups, code points, empty matches, plain rules", async () => {
  assert.equal((await raw('(a)|(b)', '[$1|$2]', 'abc')).text, '[a|][|b]c');
  assert.equal((await raw('(?<x>a)|b', '<${x}>', 'ab')).text, '<a><>');
  // Java's `.` takes a whole code point; `\p{IsHan}` is Java's script class.
  assert.equal((await raw('.', 'x', '😀中')).text, 'xx');
  assert.equal((await raw('\\p{IsHan}+', '#', '第一章abc')).text, '#abc');
  assert.equal((await raw('a*', '-', 'baac')).text, '-b--c-');
  assert.equal((await raw('\\$', '\\\\', 'a$b')).text, 'a\\b');
  const plain = await rules.replace({ text: 'a.b.c', rules: [{ name: 'p', pattern: '.', replacement: '-', isRegex: false }], raw: true });
  assert.equal(plain.text, 'a-b-c');
});

test('a runaway rule is stopped inside its match with RULE_TIMEOUT naming it and its limit; the next rule works', async () => {
  await assert.rejects(
    raw('(a|aa)+c', 'x', `${'a'.repeat(60)}b`, 300),
    (e: unknown) => e instanceof RuleTimeoutError && e.code === 'RULE_TIMEOUT' && e.rule.name === '规则' && e.rule.pattern === '(a|aa)+c' && e.limitMs === 300,
  );
  assert.equal((await raw('b', 'B', 'abc')).text, 'aBc');
});

test('chapters and book files are refused as UNSUPPORTED: the worker keeps no book files', async () => {
  await assert.rejects(
    rules.replace({ text: 'a', rules: [{ name: 'r', pattern: 'a', replacement: 'b', isRegex: true }] }),
    (e: unknown) => e instanceof UnsupportedError && e.code === 'UNSUPPORTED',
  );
  await assert.rejects(rules.parse(), (e: unknown) => e instanceof UnsupportedError && e.code === 'UNSUPPORTED');
});
