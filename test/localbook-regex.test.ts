// Java (Android ICU) regexes in JavaScript: the differences that change which lines are headings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { translateJavaRegex } from 'legado-store/tools';
import { JavaRegexError } from 'legado-store/errors';

const all = (p: string, text: string, multiline = true): string[] => [...text.matchAll(translateJavaRegex(p, { multiline }).regex)].map((m) => m[0]);

test('ICU classes: \\s takes the ideographic space, \\d any decimal digit, . stops at ICU line ends', () => {
  assert.deepEqual(all('\\s第', 'a　第'), ['　第']);
  assert.deepEqual(all('\\S+', 'a　b'), ['a', 'b']);
  assert.deepEqual(all('\\d+', '１２3'), ['１２3']);
  assert.deepEqual(all('a.b', 'a\u0085b a\fb a-b'), ['a-b']);
  assert.deepEqual(all('\\h+', 'a \t　b\n'), [' \t　']);
});

test('^ and $ in MULTILINE mode: line starts and ends, \\r\\n one terminator', () => {
  assert.deepEqual(all('^第\\d章.{0,5}$', '第1章 a\r\n第2章 b\n x第3章\n第4章'), ['第1章 a', '第2章 b', '第4章']);
  assert.deepEqual(all('^x$', 'x\nx', false), []);
  assert.deepEqual(all('^x$', 'x\n', false), ['x']);
});

test('inline flags, possessive quantifiers, atomic groups, nested classes, \\Q..\\E', () => {
  assert.deepEqual(all('(?im)^chapter \\d', 'CHAPTER 1\nChapter 2'), ['CHAPTER 1', 'Chapter 2']);
  assert.deepEqual(all('a(?i)b', 'aB AB'), ['aB']);
  assert.deepEqual(all('a(?i:b)c', 'aBc aBC'), ['aBc']);
  assert.deepEqual(all('x*+x', 'xxx'), []); // possessive: never gives one back
  assert.deepEqual(all('(?>ab|a)b', 'ab abb'), ['abb']);
  assert.deepEqual(all('[a-z&&[^aeiou]]+', 'hello'), ['h', 'll']);
  assert.deepEqual(all('[a[0-9]]+', 'a1b'), ['a1']);
  assert.deepEqual(all('\\Q.*\\E', 'a.*b'), ['.*']);
  const r = translateJavaRegex('(a)++(b)\\2');
  assert.deepEqual(r.groups.length, 3);
  assert.deepEqual(all('(a)++(b)\\2', 'aabb'), ['aabb']);
});

test('what JS cannot say is refused with a reason', () => {
  for (const p of ['\\p{InGreek}', '\\Gx', '(unclosed', 'a{2,1}', '*a']) assert.throws(() => translateJavaRegex(p), JavaRegexError, p);
});
