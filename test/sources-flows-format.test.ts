// The app's text shaping in the flows, each case worked by hand from the app's code: HtmlFormatter
// (utils/HtmlFormatter.kt) run as Android runs it (ICU regexes: `\s` takes U+3000 and nbsp; tag
// names matched case-sensitively), BookHelp.formatBookName/formatBookAuthor (AppPattern),
// StringUtils.wordCountFormat (ICU DecimalFormat "#.#", half-even) and String.isTrue.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatBookAuthor, formatBookName, formatWordCount, isTrue } from '../src/sources/book/format.js';
import { formatHtml, formatKeepImg } from '../src/sources/html-format.js';

const I = '\u3000\u3000';

test('HtmlFormatter.format: block tags break lines, other tags go, lines indented, ends trimmed', () => {
  // "<p>a</p><p>b</p>" → "\na\n\nb\n" → each \s*\n+\s* run → "\n　　" → the leading run → "　　" → the trailing run dropped.
  assert.equal(formatHtml('<p>a</p><p>b</p>'), `${I}a\n${I}b`);
  // Runs of &nbsp; are one space; &ensp;/&emsp; a space each; &zwj;, U+200C/U+200D dropped.
  assert.equal(formatHtml('x&nbsp;&nbsp;y&ensp;z&emsp;w&zwj;v\u200Du'), 'x y z wvu');
  // Inline tags stripped with their attributes; comments too.
  assert.equal(formatHtml('<div>a<span class="s">b</span><!-- c -->d</div>'), `${I}abd`);
  // Tag names are matched as written: <BR> is not a break, just a tag dropped.
  assert.equal(formatHtml('<div>a<BR>b</div>'), `${I}ab`);
  // A tag name followed by neither a space nor `>` is not a tag to the pattern.
  assert.equal(formatHtml('a<b/>c'), 'a<b/>c');
  // Text that starts with no white space keeps its first line unindented (`^[\n\s]+` only replaces).
  assert.equal(formatHtml('first\nsecond'), `first\n${I}second`);
  // ICU's \s: an indent of U+3000 and a nbsp around a break are eaten, not doubled.
  assert.equal(formatHtml(`<br>${I}one<br>\u00a0two`), `${I}one\n${I}two`);
  assert.equal(formatHtml(null), '');
});

test('HtmlFormatter.formatKeepImg: <img> kept with an absolute src, URL options kept', () => {
  const base = 'http://h.test/book/1/2.html';
  assert.equal(formatKeepImg('<p>x<img class="c" src="/a.jpg" alt="z"></p>', base), `${I}x<img src="http://h.test/a.jpg">`);
  assert.equal(formatKeepImg(`<img src="p.png,{'headers':{'Referer':'r'}}">`, base), `<img src="http://h.test/book/1/p.png,{'headers':{'Referer':'r'}}">`);
  // No src: a data-* attribute is the image.
  assert.equal(formatKeepImg('<img data-original="/o.jpg">', base), '<img src="http://h.test/o.jpg">');
  // Other tags still go.
  assert.equal(formatKeepImg('<div><a href="/x">y</a></div>', base), `${I}y`);
  // Without a base the URL is only trimmed (getAbsoluteURL with a null URL).
  assert.equal(formatKeepImg('<img src=" /a.jpg ">'), '<img src="/a.jpg">');
});

test('BookHelp.formatBookName and formatBookAuthor: the app’s patterns', () => {
  assert.equal(formatBookName('斗破苍穹 作者：天蚕土豆'), '斗破苍穹');
  assert.equal(formatBookName('斗破苍穹 天蚕土豆 著'), '斗破苍穹');
  assert.equal(formatBookName('斗破苍穹\u3000作 者:某'), '斗破苍穹');
  assert.equal(formatBookName('  斗破苍穹  '), '斗破苍穹');
  assert.equal(formatBookAuthor('作者：天蚕土豆'), '天蚕土豆');
  assert.equal(formatBookAuthor(' 作 者: 某人'), '某人');
  assert.equal(formatBookAuthor('天蚕土豆 著'), '天蚕土豆');
});

test('StringUtils.wordCountFormat: bare counts as the app writes them, other text as it is', () => {
  assert.equal(formatWordCount('800'), '800字');
  assert.equal(formatWordCount('10000'), '10000字');
  assert.equal(formatWordCount('10001'), '1万字');
  assert.equal(formatWordCount('12345'), '1.2万字');
  // Half-even on the decimal value: 1.25 → 1.2, 1.35 → 1.4, 1.15 → 1.2.
  assert.equal(formatWordCount('12500'), '1.2万字');
  assert.equal(formatWordCount('13500'), '1.4万字');
  assert.equal(formatWordCount('11500'), '1.2万字');
  assert.equal(formatWordCount('0'), '');
  assert.equal(formatWordCount('-5'), '');
  assert.equal(formatWordCount('约12万字'), '约12万字');
  assert.throws(() => formatWordCount('99999999999'), RangeError);
});

test('String.isTrue: true unless blank, "null" or false/no/not/0', () => {
  for (const v of ['1', 'true', 'vip', 'yes', ' x ', 'False1']) assert.equal(isTrue(v), true, v);
  for (const v of ['', '  ', 'null', 'false', 'FALSE', 'no', 'Not', '0', ' 0 ', null, undefined]) assert.equal(isTrue(v), false, String(v));
});
