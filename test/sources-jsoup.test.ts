// The JSoup behaviours book-source rules rely on, spelled out: the HTML5 tree (implied tbody),
// JSoup's text normalisation, positions and exclusions as AnalyzeByJSoup reads them, classes
// matched ignoring case, JSoup's pseudo-classes and attribute tests, and the rule layer's
// typed errors. Expected values are JSoup's documented results, written out here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JsUnavailableError, RuleContext, RuleError, checkRule, ownText, parseHtml, resolveUrl, text, textNodes } from '../src/sources/index.js';
import type { Element } from 'domhandler';

const ctx = (html: string, base = 'https://h.test/a/b.html'): RuleContext => new RuleContext().setContent(html, base);

test('text() normalises as JSoup: a space at <br> and block edges, runs of whitespace and nbsp one space, script left out', async () => {
  assert.equal(text(parseHtml('<div>a<br>b  c<p>d</p></div>')), 'a b c d');
  assert.equal(text(parseHtml('<div><p>One</p>Two<span>Three</span><div>Four</div></div>')), 'One TwoThree Four'); // inline span: no space
  assert.equal(text(parseHtml('<p>x&nbsp;&nbsp;y\n\t z</p><script>var s = 1</script><style>p{}</style>')), 'x y z');
  assert.equal(text(parseHtml('<p>in<b>line</b>s</p>')), 'inlines');
  assert.equal(text(parseHtml('<pre>  a\n  b</pre>')), 'a\n  b'); // pre keeps its whitespace; the ends are trimmed
  const [div] = (await ctx('<div id="c">  first <b>bold</b> second<br>third  </div>').getElements('id.c')) as Element[];
  assert.equal(ownText(div!), 'first second third');
  assert.deepEqual(textNodes(div!), ['first', 'second', 'third']);
});

test('the tree is HTML5 as JSoup builds it: tbody implied, head and body made', async () => {
  const r = ctx('<table><tr><td>1</td></tr><tr><td>2</td></tr></table>');
  assert.deepEqual(await r.getStringList('@css:table > tbody > tr > td@text'), ['1', '2']);
  assert.deepEqual(await r.getStringList('tag.tbody@tag.td@text'), ['1', '2']);
  assert.equal(await r.getString('tag.body@children@tag.tbody@children.1@text'), '2');
});

test('positions and exclusions as AnalyzeByJSoup reads them', async () => {
  const r = ctx(`<ul>${[0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => `<li>${i}</li>`).join('')}</ul>`);
  const cases: [string, string[]][] = [
    ['tag.li.0', ['0']],
    ['tag.li.-1', ['9']],
    ['tag.li.1:3', ['1', '3']], // the old form lists positions, it is no range
    ['tag.li!0:-1', ['1', '2', '3', '4', '5', '6', '7', '8']],
    ['tag.li[1:3]', ['1', '2', '3']],
    ['tag.li[-1:0]', ['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']],
    ['tag.li[0, 2:-1:3, -1]', ['0', '2', '5', '8', '9']],
    ['tag.li[!0, 2:-1]', ['1']],
    ['tag.li[-3:]', ['7', '8', '9']],
    ['tag.li[5, 5, 99]', ['5']], // repeats once, out of range left out
    ['tag.ul@.2', ['2']], // a position alone: the children
    ['tag.ul@children[-2:]', ['8', '9']],
    ['li:nth-child(2)', ['1']],
  ];
  for (const [rule, want] of cases) assert.deepEqual(await r.getStringList(`${rule}@text`), want, rule);
});

test('classes match ignoring case in every form; ids and tags as written', async () => {
  const r = ctx('<div class="Book-Item main"><span id="x">a</span></div><div class="other">b</div><P>c</P>');
  assert.equal(await r.getString('class.book-item@text'), 'a');
  assert.equal(await r.getString('.BOOK-ITEM@text'), 'a');
  assert.equal(await r.getString('@css:div.Main > span@text'), 'a');
  assert.equal(await r.getString('id.x@text'), 'a');
  assert.equal(await r.getString('tag.P@text'), 'c');
  assert.equal(await r.getString('text.B@text'), 'b'); // text.x: own text containing x, ignoring case
});

test('a class is one whole word of the attribute, any whitespace between, any case and script', async () => {
  const r = ctx('<p class="book-item\tfirst  Last">a</p><p class="book">b</p><p class="书名 ÜBER">c</p><p class="Bookname">d</p>');
  assert.equal(await r.getString('class.book@text'), 'b'); // not a prefix of book-item
  assert.equal(await r.getString('class.first@text'), 'a');
  assert.equal(await r.getString('class.last@text'), 'a');
  assert.equal(await r.getString('class.über@text'), 'c');
  assert.equal(await r.getString('class.书名@text'), 'c');
  assert.equal(await r.getString('class.BOOKNAME@text'), 'd');
  assert.equal(await r.getString('class.bookna@text'), '');
});

test("JSoup's pseudo-classes and attribute tests", async () => {
  const r = ctx(
    '<ul><li><a href="/book/12.html" title="Next Page">下一页</a></li><li><a href="http://x.test/BOOK/7">Chapter 7</a></li><li>plain <b>bold text</b></li></ul>',
  );
  assert.deepEqual(await r.getStringList('@css:a:matches(^Chapter \\d+$)@text'), ['Chapter 7']); // :is() in CSS, a regex in JSoup
  assert.deepEqual(await r.getStringList('@css:a[href~=/book/\\d+\\.html]@text'), ['下一页']); // a regex, not a word match
  assert.deepEqual(await r.getStringList('@css:a:contains(chapter)@text'), ['Chapter 7']); // ignoring case
  assert.deepEqual(await r.getStringList('@css:li:containsOwn(plain)@text'), ['plain bold text']);
  assert.deepEqual(await r.getStringList('@css:li:contains(bold)@ownText'), ['plain']);
  assert.deepEqual(await r.getStringList('@css:li:matchesOwn(^plain$)@text'), ['plain bold text']);
  assert.deepEqual(await r.getStringList('@css:li:has(b)@text'), ['plain bold text']);
  assert.deepEqual(await r.getStringList('@css:li:eq(1)@text'), ['Chapter 7']);
  assert.deepEqual(await r.getStringList('@css:li:lt(1)@text'), ['下一页']);
  assert.deepEqual(await r.getStringList('@css:li:gt(1)@text'), ['plain bold text']);
  assert.deepEqual(await r.getStringList('@css:a[href*=book]@text'), ['下一页', 'Chapter 7']); // *= ignores case
  assert.deepEqual(await r.getStringList('@css:a[title="next page"]@text'), ['下一页']);
  assert.deepEqual(await r.getStringList('@css:a[href^=HTTP]@text'), ['Chapter 7']);
  assert.deepEqual(await r.getStringList('a[href$=.HTML]@href'), ['/book/12.html']);
});

test('extractors: text, textNodes, ownText, html without scripts, all, attributes without blanks or repeats', async () => {
  const r = ctx('<div id="c"><p>one</p><script>x()</script>two<br>three<a href="/1">l</a><a href="/1">m</a><a href=" ">n</a></div>');
  assert.equal(await r.getString('id.c@textNodes'), 'two\nthree');
  assert.equal(await r.getString('id.c@ownText'), 'two three');
  assert.equal(await r.getString('id.c@html'), '<div id="c"><p>one</p>two<br>three<a href="/1">l</a><a href="/1">m</a><a href=" ">n</a></div>');
  assert.match(await r.getString('id.c@all'), /<script>x\(\)<\/script>/);
  assert.deepEqual(await r.getStringList('id.c@tag.a@href'), ['/1']);
  assert.deepEqual(await r.getStringList('id.c@tag.a@href', { isUrl: true }), ['https://h.test/1']);
});

test('&&, || and %% split outside brackets; the first separator found sets the kind', async () => {
  const r = ctx('<i class="a">1</i><i class="a">2</i><b>x</b><b>y</b><u title="p&&q">u</u>');
  assert.deepEqual(await r.getStringList('class.a@text&&tag.b@text'), ['1', '2', 'x', 'y']);
  assert.deepEqual(await r.getStringList('class.none@text||tag.b@text||class.a@text'), ['x', 'y']);
  assert.deepEqual(await r.getStringList('class.a@text%%tag.b@text'), ['1', 'x', '2', 'y']);
  assert.deepEqual(await r.getStringList('@css:u[title=p&&q]@text'), ['u']);
  assert.equal(await r.getString('class.a@text&&tag.b@text'), '1\n2\nx\ny');
});

test('typed errors: unreadable rules, JavaScript without an evaluator', async () => {
  const r = ctx('<p>x</p>');
  await assert.rejects(r.getString('p:foo(@text'), RuleError);
  await assert.rejects(r.getString('@css:p:nosuch@text'), (e: unknown) => e instanceof RuleError && e.code === 'BAD_RULE');
  assert.throws(() => checkRule('tag.p[x&&tag.a'), RuleError);
  await assert.rejects(r.getString('tag.p@text@js:result + 1'), (e: unknown) => e instanceof JsUnavailableError && e.code === 'JS_UNAVAILABLE');
  await assert.rejects(r.getString('{{1 + 1}}'), JsUnavailableError);
  assert.deepEqual(checkRule('tag.p@text<js>result</js>'), { js: true });
  assert.deepEqual(checkRule('tag.p@text##a##b'), { js: false });
  assert.deepEqual(checkRule(':(.*?)&&b', { list: true }), { js: false });
});

test('relative links resolve as Java URL does, without percent-encoding', () => {
  const base = 'https://h.test/dir/page.html?x=1';
  assert.equal(resolveUrl(base, '/book/1'), 'https://h.test/book/1');
  assert.equal(resolveUrl(base, '../up/2.html'), 'https://h.test/up/2.html');
  assert.equal(resolveUrl(base, 'next.html'), 'https://h.test/dir/next.html');
  assert.equal(resolveUrl(base, './a/../b/.'), 'https://h.test/dir/b/');
  assert.equal(resolveUrl(base, 'a/..'), 'https://h.test/dir/');
  assert.equal(resolveUrl('https://h.test/dir/', '.a/..b/c'), 'https://h.test/dir/.a/..b/c');
  assert.equal(resolveUrl('https://other.test/p', 'q'), 'https://other.test/q'); // another base
  assert.equal(resolveUrl(base, '//cdn.test/c.jpg'), 'https://cdn.test/c.jpg');
  assert.equal(resolveUrl(base, '?page=2'), 'https://h.test/dir/page.html?page=2');
  assert.equal(resolveUrl(base, '/s?q=中文,{"method":"POST"}'), 'https://h.test/s?q=中文,{"method":"POST"}');
  assert.equal(resolveUrl(base, 'javascript:void(0)'), '');
  assert.equal(resolveUrl(base, 'data:image/png;base64,AA'), 'data:image/png;base64,AA');
});
