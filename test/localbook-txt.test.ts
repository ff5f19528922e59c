// Local TXT books: chapters, offsets and urls as the app's TextFile gives them (expected values
// worked out by hand from the app's algorithm in each test), charsets, content, replace rules,
// bad files, refresh.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore, addLocalBook, readLocalChapter, refreshLocalBook, FileExistsError, type AnyStore } from 'legado-store';
import { BookFileError, RuleTimeoutError } from 'legado-store/errors';
import { tempDir } from './helpers/files.js';

const dir = tempDir();
let n = 0;
const newStore = (): AnyStore => {
  const d = join(dir, `s${n++}`);
  mkdirSync(d);
  return openStore(join(d, 'a.db'));
};
/** The app's chapter url, computed here with Node's own MD5. */
const url = (originName: string, index: number, title: string): string =>
  createHash('md5').update(`${originName}${index}${title}`, 'utf8').digest('hex').slice(8, 24);
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const len = (s: string): number => Buffer.byteLength(s, 'utf8');

// A few of the app's default TXT TOC rules (defaultData/txtTocRule.json), written out here.
const RULE_MULU =
  '^[ 　\\t]{0,4}(?:序章|楔子|正文(?!完|结)|终章|后记|尾声|番外|第\\s{0,4}[\\d〇零一二两三四五六七八九十百千万壹贰叁肆伍陆柒捌玖拾佰仟]+?\\s{0,4}(?:章|节(?!课)|卷|集(?![合和])|部(?![分赛游])|篇(?!张))).{0,30}$';
const RULE_NUMBERED = '^[ 　\\t]{0,4}\\d{1,5}[:：,.， 、_—\\-].{1,30}$';
const RULE_GENERAL =
  '(?im)^.{0,6}(?:[引楔]子|正文(?!完|结)|[引序前]言|[序终]章|扉页|[上中下][部篇卷]|卷首语|后记|尾声|番外|={2,4}|第\\s{0,4}[\\d〇零一二两三四五六七八九十百千万壹贰叁肆伍陆柒捌玖拾佰仟]+?\\s{0,4}(?:章|节(?!课)|卷|页[、 　]|集(?![合和])|部(?![分是门落])|篇(?!张))).{0,40}$|^.{0,6}[\\d〇零一二两三四五六七八九十百千万壹贰叁肆伍陆柒捌玖拾佰仟a-z]{1,8}[、. 　].{0,20}$';

function addRules(store: AnyStore, rules: [name: string, rule: string, serial: number][]): void {
  rules.forEach(([name, rule, serialNumber], k) => store.tables.txtTocRules.insert({ id: -1 - k, name, rule, serialNumber, enable: true }));
}

test("a UTF-8 book: preface, chapters at the rule's matches, byte offsets, urls, name and author", () => {
  const store = newStore();
  addRules(store, [
    ['目录', RULE_MULU, 1],
    ['数字 分隔符 标题名称', RULE_NUMBERED, 7],
  ]);
  const pre = '本书简介：这是一本书。\n\n';
  const c1 = '第一章 风起\n　　天色已晚。\n';
  const c2 = '第二章 云涌\n　　他走了。\n\n';
  const c3 = '第三章 落幕\n　　完。\n';
  const fileName = '《风云》作者：某人.txt';
  const r = addLocalBook(store, { fileName, bytes: utf8(pre + c1 + c2 + c3) });
  // The app: 前言 is the text before the first heading; each chapter runs to the next heading.
  const a = len(pre);
  const b = a + len(c1);
  const c = b + len(c2);
  const expected = [
    ['前言', 0, a],
    ['第一章 风起', a, b],
    ['第二章 云涌', b, c],
    ['第三章 落幕', c, c + len(c3)],
  ] as const;
  const rows = store.chapters.list(r.book.bookUrl);
  assert.deepEqual(
    rows.map((x) => [x.title, x.start, x.end]),
    expected,
  );
  assert.deepEqual(
    rows.map((x) => x.url),
    expected.map(([t], i) => url(fileName, i, t)),
  );
  const book = store.books.get(r.book.bookUrl)!;
  assert.equal(book.name, '风云');
  assert.equal(book.author, '某人');
  assert.equal(book.origin, 'loc_book');
  assert.equal(book.originName, fileName);
  assert.equal(book.type, 8 | 256);
  assert.equal(book.tocUrl, RULE_MULU);
  assert.equal(book.charset, 'UTF-8');
  assert.equal(book.intro, pre);
  assert.equal(book.totalChapterNum, 4);
  assert.equal(book.latestChapterTitle, '第三章 落幕');
  // Word count: every character of the file (the app counts each block's characters).
  assert.equal(book.wordCount, `${(pre + c1 + c2 + c3).length}字`);
  // Content: after the title, leading blank lines and spaces become two ideographic spaces,
  // then every line is trimmed (ContentProcessor.replaceContent).
  assert.equal(readLocalChapter(store, r.book.bookUrl, 0).text, '本书简介：这是一本书。\n\n');
  assert.equal(readLocalChapter(store, r.book.bookUrl, 2).text, '他走了。\n\n');
  assert.equal(readLocalChapter(store, r.book.bookUrl, 3, { title: true }).text, '第三章 落幕\n完。\n');
  // The file is kept in the books folder beside the store; its path is the bookUrl.
  assert.equal(r.book.bookUrl, join(dir, `s${n - 1}`, 'books', fileName));
  assert.ok(existsSync(r.book.bookUrl));
  store.close();
});

test("addLocalBook takes a path as it takes the file's bytes: the same chapters, the file kept", () => {
  const store = newStore();
  addRules(store, [['目录', RULE_MULU, 1]]);
  const text = '第一章 起\n　　一。\n第二章 承\n　　二。\n';
  const source = join(dir, `in${n}`, '《路径》作者：某人.txt');
  mkdirSync(join(dir, `in${n}`));
  writeFileSync(source, text);
  const r = addLocalBook(store, source);
  const first = len('第一章 起\n　　一。\n');
  assert.deepEqual(
    store.chapters.list(r.book.bookUrl).map((x) => [x.title, x.start, x.end]),
    [
      ['第一章 起', 0, first],
      ['第二章 承', first, len(text)],
    ],
  );
  assert.equal(store.books.get(r.book.bookUrl)!.name, '路径');
  assert.equal(readFileSync(r.book.bookUrl, 'utf8'), text);
  store.close();
});

test("name and author from the file name by the app's patterns", () => {
  const store = newStore();
  const cases: [string, string, string][] = [
    ['《三体》作者：刘慈欣.txt', '三体', '刘慈欣'],
    ['[精校]《三体》全集.txt', '三体', '[精校]全集'],
    ['球状闪电 作者：刘慈欣.txt', '球状闪电', '刘慈欣'],
    ['Dune by Frank Herbert.txt', 'Dune', 'Frank Herbert'],
    ['平凡的世界.txt', '平凡的世界', ''],
  ];
  for (const [fileName, name, author] of cases) {
    const r = addLocalBook(store, { fileName, bytes: utf8('一些文字\n') });
    assert.deepEqual([r.book.name, r.book['author']], [name, author], fileName);
  }
  store.close();
});

test("GBK, Big5 and UTF-16 files: charset found, offsets in the file's own bytes", () => {
  const store = newStore();
  addRules(store, [['目录', RULE_MULU, 1]]);
  // 第一章\nabc\n第二章\nabc\n in GBK and in Big5, byte by byte.
  const gbk = [0xb5, 0xda, 0xd2, 0xbb, 0xd5, 0xc2, 0x0a, 0x61, 0x62, 0x63, 0x0a, 0xb5, 0xda, 0xb6, 0xfe, 0xd5, 0xc2, 0x0a, 0x61, 0x62, 0x63, 0x0a];
  assert.equal(new TextDecoder('gbk').decode(new Uint8Array(gbk)), '第一章\nabc\n第二章\nabc\n');
  let r = addLocalBook(store, { fileName: 'gbk.txt', bytes: new Uint8Array(gbk) });
  assert.equal(r.book['charset'], 'GB18030');
  assert.deepEqual(
    r.chapters.map((c) => [c.title, c.start, c.end]),
    [
      ['第一章', 0, 11],
      ['第二章', 11, 22],
    ],
  );
  assert.equal(readLocalChapter(store, r.book.bookUrl, 1).text, 'abc\n');
  const big5 = [0xb2, 0xc4, 0xa4, 0x40, 0xb3, 0xb9, 0x0a, 0x61, 0x62, 0x63, 0x0a, 0xb2, 0xc4, 0xa4, 0x47, 0xb3, 0xb9, 0x0a, 0x61, 0x62, 0x63, 0x0a];
  assert.equal(new TextDecoder('big5').decode(new Uint8Array(big5)), '第一章\nabc\n第二章\nabc\n');
  r = addLocalBook(store, { fileName: 'big5.txt', bytes: new Uint8Array(big5) });
  assert.equal(r.book['charset'], 'Big5');
  assert.deepEqual(
    r.chapters.map((c) => [c.title, c.start, c.end]),
    [
      ['第一章', 0, 11],
      ['第二章', 11, 22],
    ],
  );
  // UTF-16LE with its BOM: Java's UTF-16LE decoder keeps the BOM as U+FEFF, so the first line
  // does not start with the heading (^ then [ 　\t]{0,4}第 fails) and it all goes to the 前言.
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('第一章\nabc\n第二章\nabc\n', 'utf16le')]);
  r = addLocalBook(store, { fileName: 'le.txt', bytes: le });
  assert.equal(r.book['charset'], 'UTF-16LE');
  assert.deepEqual(
    r.chapters.map((c) => [c.title, c.start, c.end]),
    [
      ['前言', 0, 18],
      ['第二章', 18, 34],
    ],
  );
  assert.equal(readLocalChapter(store, r.book.bookUrl, 1).text, 'abc\n');
  // UTF-8 with a BOM: the three BOM bytes are skipped, offsets count from the file's start.
  r = addLocalBook(store, { fileName: 'bom.txt', bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('第一章\nabc\n第二章\nabc\n')]) });
  assert.equal(r.book['charset'], 'UTF-8');
  assert.deepEqual(
    r.chapters.map((c) => [c.title, c.start, c.end]),
    [
      ['第一章', 3, 17],
      ['第二章', 17, 31],
    ],
  );
  store.close();
});

test('a chapter over 102,400 bytes is split as the app splits it: the heading kept empty, then title(1), title(2)...', () => {
  const store = newStore();
  addRules(store, [['目录', RULE_MULU, 1]]);
  const line = `${'x'.repeat(99)}\n`; // 100 bytes
  const text = `第1章 A\n${line.repeat(1100)}第2章 B\n短。\n`;
  const r = addLocalBook(store, { fileName: 'long.txt', bytes: utf8(text) });
  // By hand: 第1章 A (9 bytes) at 0; the next heading at 110010 is more than 102,400 bytes on, so
  // 第1章 A becomes [0,0) and bytes 9..110010 are cut without a rule from offset 9: the pieces end
  // at the first line feed at or after 10,240 bytes into each (every 10,300 bytes here), ten
  // times, and the last 7,001 bytes (more than 100) make an eleventh piece.
  const pieces = Array.from({ length: 10 }, (_, k) => [`第1章 A(${k + 1})`, 9 + 10300 * k, 9 + 10300 * (k + 1)]);
  pieces.push(['第1章 A(11)', 103009, 110010]);
  assert.deepEqual(
    r.chapters.map((c) => [c.title, c.start, c.end]),
    [['第1章 A', 0, 0], ...pieces, ['第2章 B', 110010, len(text)]],
  );
  assert.deepEqual(
    r.chapters.map((c) => c.url),
    r.chapters.map((c, i) => url('long.txt', i, c.title)),
  );
  // The middle piece's text: its bytes (starting at a line feed) with the blank start replaced.
  assert.equal(readLocalChapter(store, r.book.bookUrl, 5).text, `${'x'.repeat(99)}\n`.repeat(103).slice(0, -1));
  store.close();
});

test('no rule: chapters of about 10 KiB cut at line feeds, titled 第{block}章({n})', () => {
  const store = newStore(); // no TOC rules in the store: the app's defaults go in, none matches
  const text = `${'y'.repeat(99)}\n`.repeat(300);
  const r = addLocalBook(store, { fileName: 'plain.txt', bytes: utf8(text) });
  // By hand: line feeds at 99, 199, ...; the first at or after 10,240 is 10,299, the next after
  // 10,299 + 10,240 is 20,599; the 9,401 bytes left (over 100) are a chapter of their own.
  assert.deepEqual(
    r.chapters.map((c) => [c.title, c.start, c.end]),
    [
      ['第1章(1)', 0, 10299],
      ['第1章(2)', 10299, 20599],
      ['第1章(3)', 20599, 30000],
    ],
  );
  assert.equal(r.book['tocUrl'], '');
  assert.ok(r.notes.some((x) => /no enabled TOC rule matches/.test(x)));
  store.close();
});

test('rule choice: the most spaced-out matches win, ties go to the lower serialNumber', () => {
  const store = newStore();
  // Both rules find the same three headings; 目录 has the lower serialNumber and is tried last.
  addRules(store, [
    ['通用规则', RULE_GENERAL, 24],
    ['目录', RULE_MULU, 1],
  ]);
  const body = `${'文'.repeat(400)}\n`; // 1,201 bytes, 401 characters
  const text = `第1章 甲\n${body.repeat(3)}第2章 乙\n${body.repeat(3)}第3章 丙\n${body.repeat(3)}`;
  let r = addLocalBook(store, { fileName: 'tie.txt', bytes: utf8(text) });
  assert.equal(r.book['tocUrl'], RULE_MULU);
  // A rule whose extra matches sit within 1,000 characters of the last one counted scores no
  // more: numbered lines every few characters count once, headings 1,200 characters apart count thrice.
  const store2 = newStore();
  addRules(store2, [
    ['数字', RULE_NUMBERED, 7],
    ['目录', RULE_MULU, 30],
  ]);
  const numbered = `1、一\n2、二\n3、三\n4、四\n5、五\n`;
  r = addLocalBook(store2, { fileName: 'score.txt', bytes: utf8(`${numbered}${text}`) });
  assert.equal(r.book['tocUrl'], RULE_MULU);
  store.close();
  store2.close();
});

test('replace rules: enabled, in sortOrder, in scope (name or origin), regex with $1 and literal', () => {
  const store = newStore();
  addRules(store, [['目录', RULE_MULU, 1]]);
  const r = addLocalBook(store, { fileName: '替换.txt', bytes: utf8('第1章 开\n　　张三说：“好。”广告www.example.com\n第2章 合\n　　完\n') });
  const rr = store.tables.replace_rules;
  rr.insert({ id: 1, name: 'ad', pattern: '广告\\S+', replacement: '', isRegex: true, order: 2 });
  rr.insert({ id: 2, name: 'name', pattern: '(张)三', replacement: '$1四', isRegex: true, order: 1 });
  rr.insert({ id: 3, name: 'literal', pattern: '好', replacement: '妙', isRegex: false, order: 3, scope: '替换' });
  rr.insert({ id: 4, name: 'other book', pattern: '完', replacement: 'X', isRegex: false, order: 4, scope: '别的书' });
  rr.insert({ id: 5, name: 'disabled', pattern: '说', replacement: 'X', isRegex: false, order: 5, isEnabled: false });
  rr.insert({ id: 6, name: 'title', pattern: '开', replacement: '始', isRegex: false, order: 6, scopeTitle: true, scopeContent: false });
  const c = readLocalChapter(store, r.book.bookUrl, 0, { title: true });
  assert.equal(c.text, '第1章 始\n张四说：“妙。”\n');
  assert.equal(readLocalChapter(store, r.book.bookUrl, 1).text, '完\n');
  // A regex that cannot compile is left out and named.
  rr.insert({ id: 7, name: 'broken', pattern: '(unclosed', replacement: '', isRegex: true, order: 0 });
  assert.ok(readLocalChapter(store, r.book.bookUrl, 0).notes.some((x) => x.includes('"broken"')));
  store.close();
});

test('empty, binary and wrong-extension files get typed errors and store nothing', () => {
  const store = newStore();
  const booksDir = join(dir, `s${n - 1}`, 'books');
  const bad: [string, Uint8Array, string][] = [
    ['empty.txt', new Uint8Array(0), 'empty'],
    ['binary.txt', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 0x49, 0x48]), 'binary'],
    ['book.pdf', utf8('第1章\n'), 'extension'],
  ];
  for (const [fileName, bytes, problem] of bad) {
    assert.throws(
      () => addLocalBook(store, { fileName, bytes }),
      (e: unknown) => e instanceof BookFileError && e.code === 'BAD_BOOK_FILE' && e.problem === problem && e.message.includes(fileName),
    );
  }
  assert.equal(store.tables.books.count(), 0);
  assert.equal(store.tables.chapters.count(), 0);
  assert.ok(!existsSync(booksDir) || readdirSync(booksDir).length === 0);
  store.close();
});

test('adding the same file again re-splits it and keeps progress; a different file of that name needs force', () => {
  const store = newStore();
  addRules(store, [['目录', RULE_MULU, 1]]);
  const v1 = utf8('第1章 一\n甲\n第2章 二\n乙\n第3章 三\n丙\n');
  const r = addLocalBook(store, { fileName: 'same.txt', bytes: v1 });
  store.tables.books.update(r.book.bookUrl, { durChapterIndex: 2, durChapterPos: 1, group: 4n });
  const again = addLocalBook(store, { fileName: 'same.txt', bytes: v1 });
  assert.equal(again.refreshed, true);
  let b = store.books.get(r.book.bookUrl)!;
  assert.deepEqual([b.durChapterIndex, b.durChapterPos, b.group], [2, 1, 4n]);
  assert.equal(store.tables.chapters.count(), 3);
  const v2 = utf8('第1章 一\n甲\n第2章 二\n乙\n第3章 三\n丙\n第4章 四\n丁\n');
  assert.throws(() => addLocalBook(store, { fileName: 'same.txt', bytes: v2 }), FileExistsError);
  assert.equal(store.tables.chapters.count(), 3);
  addLocalBook(store, { fileName: 'same.txt', bytes: v2 }, { force: true });
  b = store.books.get(r.book.bookUrl)!;
  assert.deepEqual([b.durChapterIndex, b.durChapterPos, b.totalChapterNum, b.latestChapterTitle], [2, 1, 4, '第4章 四']);
  assert.equal(store.tables.chapters.count(), 4);
  // refreshLocalBook re-splits from the kept file.
  store.tables.chapters.delete({ url: url('same.txt', 3, '第4章 四'), bookUrl: r.book.bookUrl });
  refreshLocalBook(store, r.book.bookUrl);
  assert.equal(store.tables.chapters.count(), 4);
  store.close();
});

test('TOC rules that cannot compile or may backtrack without end are skipped and named; one out of time fails the add, named', () => {
  const store = newStore();
  addRules(store, [
    ['块', '第\\p{InCJKRadicalsSupplement}章', 3],
    ['回溯', '^(\\s*\\S+)+$', 2],
    ['目录', RULE_MULU, 1],
  ]);
  const text = Array.from({ length: 100 }, (_, k) => `第${k + 1}章 t\n正文\n`).join('');
  const r = addLocalBook(store, { fileName: 'skip.txt', bytes: utf8(text) });
  assert.equal(r.book['tocUrl'], RULE_MULU);
  assert.ok(r.notes.some((x) => x.includes('"块" skipped') && x.includes('block')));
  assert.ok(r.notes.some((x) => x.includes('"回溯" skipped') && x.includes('backtracking')));
  // A time limit already passed: the first rule tried stops, the add fails naming it, nothing is stored.
  const books = store.tables.books.count();
  assert.throws(
    () => addLocalBook(store, { fileName: 'slow.txt', bytes: utf8(text) }, { timeLimitMs: -1 }),
    (e: unknown) => e instanceof RuleTimeoutError && e.code === 'RULE_TIMEOUT' && e.rule.name === '目录' && e.rule.pattern === RULE_MULU && e.limitMs === -1,
  );
  assert.equal(store.tables.books.count(), books);
  store.close();
});
