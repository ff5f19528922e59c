// Rules in the app's syntax run on pages written from a seeded model of books (a table search
// page without <tbody>, a list page, a JSON API, XPath, AllInOne text, a TOC, a chapter); each
// expected value is computed from the model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RuleContext, listRule, type RuleJs } from '../src/sources/index.js';
import { chapterPage, listPage, makeBooks, searchJson, searchTablePage, tocPage } from './helpers/source-model.js';

const books = makeBooks(53, 6);
const BASE = 'https://s.test/search/list.php?q=x';
const bookUrl = (id: number): string => `https://s.test/book/${id}/`;

/** Runs item rules on every item of a list rule, as BookList does. */
async function items(content: string, list: string, fields: Record<string, readonly [rule: string, isUrl?: boolean]>): Promise<Record<string, string>[]> {
  const r = new RuleContext().setContent(content, BASE);
  const { rule, reverse } = listRule(list);
  const found = await r.getElements(rule);
  const out: Record<string, string>[] = [];
  for (const item of found) {
    r.setContent(item);
    const row: Record<string, string> = {};
    for (const [k, [fieldRule, isUrl]] of Object.entries(fields)) row[k] = await r.getString(fieldRule, { isUrl: isUrl === true });
    out.push(row);
  }
  return reverse ? out.reverse() : out;
}

test('a search table without <tbody>: JSoup steps, an excluded header row, classes in another case', async () => {
  const want = books.map((b) => ({ name: b.name, author: b.author, kind: b.kind.join(' '), url: bookUrl(b.id) }));
  const fields = { name: ['tag.td.0@tag.a@text'], author: ['tag.td.1@text'], kind: ['tag.td.-1@text'], url: ['tag.a@href', true] } as const;
  const page = searchTablePage(books);
  assert.deepEqual(await items(page, 'class.grid@tag.tr!0', fields), want);
  assert.deepEqual(await items(page, '@css:table.GRID > tbody > tr:gt(0)', fields), want);
  assert.deepEqual(await items(page, '@css:.grid tr:has(td)', fields), want);
  assert.deepEqual(await items(page, '-tag.table@tag.tr[1:]', fields), [...want].reverse());
});

test('a list page: text normalised, textNodes, attributes, relative and scheme-relative links', async () => {
  const rows = await items(listPage(books), 'class.result-list@class.book-item', {
    name: ['class.bookname@tag.a@title'],
    author: ['class.author@tag.span@text'],
    intro: ['class.intro@text'],
    lines: ['class.intro@textNodes'],
    cover: ['class.cover@src', true],
    url: ['tag.h3@tag.a@href', true],
    last: ['class.last@text'],
    lastUrl: ['class.last@tag.a@href', true],
  });
  assert.deepEqual(
    rows,
    books.map((b) => ({
      name: b.name,
      author: b.author,
      intro: b.intro.join(' '),
      lines: b.intro.join('\n'),
      cover: `https://img.test/c/${b.id}.jpg`,
      url: bookUrl(b.id),
      last: b.chapters.at(-1)!.title,
      lastUrl: `https://s.test${b.chapters.at(-1)!.path}`,
    })),
  );
});

test('a JSON API: JSONPath, bare keys, {{$.x}} and {$.x} inner rules, lists as lines', async () => {
  const rows = await items(searchJson(books), '$.data.list[*]', {
    name: ['bookName'],
    author: ['$.author.name'],
    author2: ['author.name'],
    tags: ['tags'],
    firstTag: ['$.tags[0]'],
    intro: ['intro'],
    url: ['/book/{{$.id}}/', true],
    info: ['https://s.test/info?id={$.id}&n={$.chapterCount}'],
    either: ['$.missing||bookName'],
    both: ['bookName&&author.name'],
  });
  assert.deepEqual(
    rows,
    books.map((b) => ({
      name: b.name,
      author: b.author,
      author2: b.author,
      tags: b.kind.join('\n'),
      firstTag: b.kind[0]!,
      intro: b.intro.join('\n'),
      url: bookUrl(b.id),
      info: `https://s.test/info?id=${b.id}&n=${b.chapters.length}`,
      either: b.name,
      both: `${b.name}\n${b.author}`,
    })),
  );
  const r = new RuleContext().setContent(searchJson(books), BASE);
  assert.equal(await r.getString('$.data.total'), String(books.length));
  // On JSON content an unprefixed rule is JSONPath; one Jayway cannot read finds nothing (the app catches it).
  assert.equal(await r.getString('tag.a@href'), '');
  assert.equal(await r.getString('tag.a@href||$.data.total'), String(books.length));
  assert.deepEqual(
    await r.getStringList('$.data.list[*].bookName'),
    books.map((b) => b.name),
  );
  assert.deepEqual(
    await r.getStringList('$..tags[1]'),
    books.map((b) => b.kind[1]),
  );
  assert.deepEqual(
    await r.getStringList('$.data.list[?(@.chapterCount > 4)].id'),
    books.filter((b) => b.chapters.length > 4).map((b) => String(b.id)),
  );
});

test('XPath: elements, attributes, text(), contains(), position(), last(), allText()', async () => {
  const page = listPage(books);
  const rows = await items(page, "//li[@class='book-item']", {
    name: ['//h3/a/text()'],
    child: ['/h3/a/text()'], // on an item, JsoupXpath's /h3 is a child of the item
    title: ['//h3/a/@title'],
    author: ["//p[contains(@class,'Author')]/span/text()"],
    intro: ["//div[@class='intro']/allText()"],
    url: ['//h3/a/@href', true],
  });
  assert.deepEqual(
    rows,
    books.map((b) => ({ name: b.name, child: b.name, title: b.name, author: b.author, intro: b.intro.join(' '), url: bookUrl(b.id) })),
  );
  const r = new RuleContext().setContent(page, BASE);
  assert.equal(await r.getString('//li[position()=last()]//h3/a/text()'), books.at(-1)!.name);
  assert.deepEqual(
    await r.getStringList('//li[not(position()=1)]//h3/a/text()'),
    books.slice(1).map((b) => b.name),
  );
  assert.deepEqual(
    await r.getStringList("//img[starts-with(@src,'//img')]/@src"),
    books.map((b) => `//img.test/c/${b.id}.jpg`),
  );
  // A list item found by XPath is a page element: default rules work on it.
  const [first] = await r.getElements("//li[@class='book-item']");
  r.setContent(first);
  assert.equal(await r.getString('class.author@tag.span@text'), books[0]!.author);
});

test('a TOC: positions drop the latest-chapter block, ranges and reversing, AllInOne with $1 groups', async () => {
  const book = books[2]!;
  const page = tocPage(book);
  const titles = book.chapters.map((c) => c.title);
  const urls = book.chapters.map((c) => `https://s.test${c.path}`);
  const toc = async (list: string): Promise<{ name: string; url: string }[]> =>
    (await items(page, list, { name: ['tag.a@text'], url: ['tag.a@href', true] })) as { name: string; url: string }[];
  const want = titles.map((name, i) => ({ name, url: urls[i]! }));
  assert.deepEqual(await toc('id.list@tag.dd!0:1:2'), want);
  assert.deepEqual(await toc('id.list@dd[3:]'), want);
  assert.deepEqual(await toc('id.list@dd[-1:3]'), [...want].reverse());
  assert.deepEqual(await toc('-id.list@dd[3:]'), [...want].reverse());
  // AllInOne: the raw page text, one item per match, $1 and $2 its groups ($3, past the last, is
  // nothing); entities decoded by getString.
  const all = await items(page, ':<dd><a href="([^"]+)">([^<]+)</a></dd>', { name: ['$2'], url: ['$1', true], both: ['$2 ($1)$3'] });
  const latest = [...book.chapters].slice(-3).reverse();
  assert.deepEqual(
    all,
    [...latest, ...book.chapters].map((c) => ({ name: c.title, url: `https://s.test${c.path}`, both: `${c.title} (${c.path})` })),
  );
});

test('a chapter: textNodes, ##, ###, @put/@get, {{@rule}} templates', async () => {
  const chapter = books[1]!.chapters[0]!;
  const r = new RuleContext().setContent(chapterPage(chapter), 'https://s.test/c.html');
  const n = Number(/第(\d+)章/.exec(chapter.title)![1]);
  assert.equal(await r.getString('id.content@textNodes##请记住.*'), `${chapter.paragraphs.join('\n')}\n`);
  assert.equal(await r.getString('id.content@textNodes##\\s*请记住.*$'), chapter.paragraphs.join('\n'));
  assert.equal(await r.getString('class.title@text##第(\\d+)章.*##Chapter $1###'), `Chapter ${n}`);
  assert.equal(await r.getString('class.title@text##^Nothing(.*)##$1###'), '');
  assert.equal(await r.getString('class.title@text##章##回'), chapter.title.replace('章', '回'));
  assert.equal(await r.getString('@put:{"t":"class.title@text"}id.content@tag.script@html'), '');
  assert.equal(r.get('t'), chapter.title);
  assert.equal(await r.getString('@get:{t}'), chapter.title);
  assert.equal(await r.getString('标题：{{@@class.title@text}}!'), `标题：${chapter.title}!`);
  assert.equal(await r.getString('{{@css:h1@text}}|@get:{t}'), `${chapter.title}|${chapter.title}`);
  // {{…}} ends at the first }}: the app reads `{{@get:{t}}}` as the rule `@get:{t` and a `}`.
  assert.equal(await r.getString('{{@get:{t}}}'), '}');
  assert.equal(await r.getString('@CSS:h1.title@text'), chapter.title);
  assert.equal(await r.getString('@XPath://h1/text()'), chapter.title);
  assert.equal(await r.getString('[{{//h1/text()}}]({{$.none}})'), `[${chapter.title}]()`);
});

test('JavaScript goes through the seam: pieces in order, each given the result so far', async () => {
  const calls: string[] = [];
  const js: RuleJs = {
    eval(code, b) {
      calls.push(code);
      if (code === 'UPPER') return String(b.result).toUpperCase();
      if (code === 'LEN') return String(b.result).length;
      if (code === 'BASE') return b.baseUrl;
      if (code === 'HALF') return 2.5;
      throw new Error(`unexpected ${code}`);
    },
  };
  const name = books[0]!.name;
  const r = new RuleContext({ js }).setContent(listPage(books.slice(0, 1)), BASE);
  assert.equal(await r.getString('class.bookname@tag.a@text@js:UPPER'), name.toUpperCase());
  assert.equal(await r.getString('class.bookname@tag.a@text<js>UPPER</js><js>LEN</js>'), String(name.length));
  assert.equal(await r.getString('{{BASE}}#{{LEN}}#{{HALF}}'), `${BASE}#${listPage(books.slice(0, 1)).length}#2.5`);
  assert.deepEqual(calls, ['UPPER', 'UPPER', 'LEN', 'BASE', 'LEN', 'HALF']);
});
