// EPUB books made here with fflate, read as the app's EpubFile reads them. The expected chapter
// lists and texts are worked out by hand from the app's algorithm (EpubFile.getChapterList,
// parseFirstPage, parseMenu, getContent, HtmlFormatter, LocalBook's dedup by url), step by step
// in the comments, not taken from this code's output.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ArchiveLimitError, BadArchiveError } from '../src/backup/errors.js';
import { InvalidArgumentError } from '../src/errors.js';
import { BadEpubError, epubFormat } from '../src/localbook/epub/index.js';
import type { ParsedChapter } from '../src/localbook/format.js';
import { bookFile, epubBytes, xhtml } from './helpers/epub.js';

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

// EPUB 2: package in OEBPS/, an NCX with a volume holding two chapters of one file (split at
// fragments), a cover page named by the guide and a cover image named by <meta name="cover">.
const EPUB2 = epubBytes({
  'OEBPS/content.opf': `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="id">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf">
    <dc:title>测试之书</dc:title>
    <dc:creator opf:role="aut">Jane Austen</dc:creator>
    <dc:description>&lt;p&gt;A &lt;b&gt;fine&lt;/b&gt;   book.&lt;/p&gt;</dc:description>
    <dc:identifier id="id">urn:uuid:1</dc:identifier>
    <meta name="cover" content="cover-img"/>
  </metadata>
  <manifest>
    <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
    <item id="cover-img" href="Images/cover.jpg" media-type="image/jpeg"/>
    <item id="coverpage" href="Text/cover.xhtml" media-type="application/xhtml+xml"/>
    <item id="intro" href="Text/intro.xhtml" media-type="application/xhtml+xml"/>
    <item id="part1" href="Text/part1.xhtml" media-type="application/xhtml+xml"/>
    <item id="ch1" href="Text/ch1.xhtml" media-type="application/xhtml+xml"/>
    <item id="ch3" href="Text/ch3.xhtml" media-type="application/xhtml+xml"/>
    <item id="pic" href="Images/pic.png" media-type="image/png"/>
  </manifest>
  <spine toc="ncx">
    <itemref idref="coverpage"/><itemref idref="intro"/><itemref idref="part1"/><itemref idref="ch1"/><itemref idref="ch3"/>
  </spine>
  <guide><reference type="cover" title="Cover" href="Text/cover.xhtml"/></guide>
</package>`,
  'OEBPS/toc.ncx': `<?xml version="1.0" encoding="UTF-8"?>
<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">
  <head/><docTitle><text>测试之书</text></docTitle>
  <navMap>
    <navPoint id="p1" playOrder="1"><navLabel><text> 第一卷 </text></navLabel><content src="Text/part1.xhtml"/>
      <navPoint id="p2" playOrder="2"><navLabel><text>第一章 开始</text></navLabel><content src="Text/ch1.xhtml#s1"/></navPoint>
      <navPoint id="p3" playOrder="3"><navLabel><text>第二章 继续</text></navLabel><content src="Text/ch1.xhtml#s2"/></navPoint>
    </navPoint>
    <navPoint id="p4" playOrder="4"><navLabel><text>第三章 结束</text></navLabel><content src="Text/ch3.xhtml"/></navPoint>
  </navMap>
</ncx>`,
  'OEBPS/Images/cover.jpg': JPEG,
  'OEBPS/Images/pic.png': PNG,
  'OEBPS/Text/cover.xhtml': xhtml(null, '<div><img src="../Images/cover.jpg" alt="cover"/></div>'),
  'OEBPS/Text/intro.xhtml': xhtml('引子', '<h1>引子</h1>\n<p>很久以前，<br/>有一本书。</p>'),
  'OEBPS/Text/part1.xhtml': xhtml('Part', '<h1>第一卷</h1>\n<p>卷首语。</p>'),
  'OEBPS/Text/ch1.xhtml': xhtml(
    'ch1',
    '<p>卷尾。</p>\n<h2 id="s1">第一章 开始</h2>\n<p>一段。</p>\n<p>二段&amp;<img src="../Images/pic.png" alt="pic" class="x"/></p>\n' +
      '<h2 id="s2">第二章 继续</h2>\n<p>三段。</p>',
  ),
  'OEBPS/Text/ch3.xhtml': xhtml('ch3', '<h2>第三章 结束</h2>\n<p>最后。</p>\n<p style="color:red; display:none">隐藏</p>\n<script>var x = 1;</script>'),
});

/*
 * The app on EPUB2:
 * contents = cover page (the guide's cover, OEBPS/Text/cover.xhtml), then the spine (intro, part1,
 *   ch1, ch3), then the NCX's files (already there): cover, intro, part1, ch1, ch3.
 * The first NCX entry with a file is 第一卷 (part1): parseFirstPage lists the XHTML before it:
 *   cover.xhtml (no title anywhere: --卷首--), intro.xhtml (its <title>: 引子).
 * parseMenu: 第一卷 (label trimmed by epublib's getTextChildrenContent, url part1, fragment '');
 *   it has children, so it is a volume; 第一章 开始 (ch1.xhtml#s1, 's1'); 第二章 继续 (ch1.xhtml#s2,
 *   's2'); 第三章 结束 (ch3.xhtml, ''). Each chapter's endFragmentId is the next one's start.
 */
const EPUB2_CHAPTERS: ParsedChapter[] = [
  { index: 0, title: '--卷首--', url: 'OEBPS/Text/cover.xhtml', isVolume: false },
  { index: 1, title: '引子', url: 'OEBPS/Text/intro.xhtml', isVolume: false, endFragmentId: '' },
  { index: 2, title: '第一卷', url: 'OEBPS/Text/part1.xhtml', isVolume: true, startFragmentId: '', endFragmentId: 's1' },
  { index: 3, title: '第一章 开始', url: 'OEBPS/Text/ch1.xhtml#s1', isVolume: false, startFragmentId: 's1', endFragmentId: 's2' },
  { index: 4, title: '第二章 继续', url: 'OEBPS/Text/ch1.xhtml#s2', isVolume: false, startFragmentId: 's2', endFragmentId: '' },
  { index: 5, title: '第三章 结束', url: 'OEBPS/Text/ch3.xhtml', isVolume: false, startFragmentId: '' },
];

test('EPUB 2: chapters from the NCX as the app makes them (front pages, volume, fragments)', () => {
  const book = epubFormat.parse(bookFile('book2.epub', EPUB2));
  assert.deepEqual(book.chapters, EPUB2_CHAPTERS);
});

test('EPUB 2: title, author as epublib prints it, intro as text, cover image bytes', () => {
  const book = epubFormat.parse(bookFile('book2.epub', EPUB2));
  assert.equal(book.name, '测试之书');
  // epublib splits a creator at its last space into first and last name and prints "last, first".
  assert.equal(book.author, 'Austen, Jane');
  // The description is markup (starts with < and ends with >): Jsoup's text() of it.
  assert.equal(book.intro, 'A fine book.');
  assert.deepEqual(book.cover, { bytes: JPEG, mediaType: 'image/jpeg' });
  assert.equal(book.charset, undefined);
});

// Texts as the app's HtmlFormatter leaves them: Jsoup prints a body as "<body>\n <p>...</p>\n</body>";
// whitespace around line breaks becomes "\n" + two U+3000; then the leading "\n" becomes two more
// (Java's \s does not match U+3000) and the trailing "\n　　" stays (same reason). Where the
// first line is the chapter's title it is left out, with its indent.
test('EPUB 2: chapter text between fragments, paragraphs as lines, images by path', () => {
  const file = bookFile('book2.epub', EPUB2);
  const { chapters } = epubFormat.parse(file);
  const text = (i: number) => epubFormat.chapterText(file, {}, chapters[i]!);
  // A file whose path holds "cover" stands for the cover image.
  assert.equal(text(0), '　　　　<img src="cover.jpeg">\n　　');
  // intro.xhtml whole; <br> breaks the line; the <h1> equal to the title is left out.
  assert.equal(text(1), '　　很久以前，\n　　有一本书。\n　　');
  // The volume: part1.xhtml whole, then ch1.xhtml up to #s1 (its endFragmentId): the app gives
  // the text before the first chapter's fragment to the chapter before it.
  assert.equal(text(2), '　　卷首语。\n　　卷尾。\n　　');
  // ch1.xhtml after <h2 id="s1"> and before <h2 id="s2">; the image resolved against the file.
  assert.equal(text(3), '　　　　一段。\n　　二段&<img src="OEBPS/Images/pic.png">\n　　');
  // ch1.xhtml after #s2; the next chapter's file is not read (its fragment is '').
  assert.equal(text(4), '　　　　三段。\n　　');
  // The last chapter: ch3.xhtml whole, display:none and <script> left out, the title line too.
  assert.equal(text(5), '　　最后。\n　　');
});

// EPUB 3: package in OPS/, the navigation document preferred to the NCX also present, a volume
// whose label is a <span>, a fragment in the middle of a file, a cover-image property.
const NAV = `<?xml version="1.0" encoding="utf-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
<head><title>Contents</title></head>
<body>
  <nav epub:type="toc" id="toc"><h1>Contents</h1>
    <ol>
      <li><span>Part One</span>
        <ol>
          <li><a href="c1.xhtml">One</a></li>
          <li><a href="c2.xhtml#mid">Two</a></li>
        </ol>
      </li>
      <li><a href="c3.xhtml">Three</a></li>
    </ol>
  </nav>
  <nav epub:type="landmarks"><ol><li><a href="c2.xhtml">Start</a></li></ol></nav>
</body>
</html>`;

const EPUB3 = epubBytes(
  {
    'OPS/package.opf': `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="id">urn:uuid:3</dc:identifier>
    <dc:title>  </dc:title>
    <dc:title>Three</dc:title>
    <dc:creator>鲁迅</dc:creator>
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
    <item id="img" href="images/c%20v.png" media-type="image/png" properties="cover-image"/>
    <item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>
    <item id="c2" href="c2.xhtml" media-type="application/xhtml+xml"/>
    <item id="c3" href="c3.xhtml" media-type="application/xhtml+xml"/>
  </manifest>
  <spine toc="ncx"><itemref idref="c1"/><itemref idref="c2"/><itemref idref="c3"/></spine>
</package>`,
    'OPS/nav.xhtml': NAV,
    'OPS/toc.ncx': `<?xml version="1.0"?><ncx xmlns="http://www.daisy.org/z3986/2005/ncx/"><navMap>
      <navPoint><navLabel><text>Wrong</text></navLabel><content src="c3.xhtml"/></navPoint></navMap></ncx>`,
    'OPS/images/c v.png': PNG,
    'OPS/c1.xhtml': xhtml(
      'c1',
      '<h1>One</h1>\n<p>Alpha  beta\n   gamma.</p>\n<p>&#160;&#160;Indented</p>\n<svg><image width="10" height="10" xlink:href="images/c%20v.png"/></svg>',
    ),
    'OPS/c2.xhtml': xhtml('c2', '<p>Lost text.</p>\n<h2 id="mid">Two</h2>\n<p>Second &lt;img&gt; text.</p>\n<!-- a note -->\n<style>p {}</style>'),
    'OPS/c3.xhtml': xhtml('c3', '<h2>Three</h2>\n<div>\n  <p>Line one</p>\n  <p>Line   two</p>\n</div>'),
  },
  'OPS/package.opf',
);

/*
 * The app on EPUB3 (version 3.0, the item with properties "nav" is the table of contents):
 * first <nav>, its first <ol>; entry 1's label is its first <a> anywhere inside ("One", c1.xhtml),
 * its children the <li>s of its first inner <ol>: One (c1.xhtml), Two (c2.xhtml#mid); entry 2:
 * Three (c3.xhtml). contents = spine[0] as cover page, then c1, c2, c3: no front pages.
 * parseMenu: One (c1, volume: it has children), One (c1, endFragmentId 'mid'), Two (c2#mid),
 * Three (c3). LocalBook keeps the first chapter of each url: the second "One" goes; the volume
 * keeps endFragmentId '' (set by the second One) and its next url, c1.xhtml itself.
 */
const EPUB3_CHAPTERS: ParsedChapter[] = [
  { index: 0, title: 'One', url: 'OPS/c1.xhtml', isVolume: true, startFragmentId: '', endFragmentId: '' },
  { index: 1, title: 'Two', url: 'OPS/c2.xhtml#mid', isVolume: false, startFragmentId: 'mid', endFragmentId: '' },
  { index: 2, title: 'Three', url: 'OPS/c3.xhtml', isVolume: false, startFragmentId: '' },
];

test('EPUB 3: chapters from the navigation document, volume kept once per url', () => {
  const book = epubFormat.parse(bookFile('book3.epub', EPUB3));
  assert.deepEqual(book.chapters, EPUB3_CHAPTERS);
});

test('EPUB 3: first non-blank title, a one-word creator, cover-image property', () => {
  const book = epubFormat.parse(bookFile('book3.epub', EPUB3));
  assert.equal(book.name, 'Three');
  assert.equal(book.author, '鲁迅'); // epublib prints "鲁迅, " and the app strips the ", "
  assert.equal(book.intro, undefined);
  assert.deepEqual(book.cover, { bytes: PNG, mediaType: 'image/png' });
});

test('EPUB 3: text of first, middle and last chapters', () => {
  const file = bookFile('book3.epub', EPUB3);
  const { chapters } = epubFormat.parse(file);
  const text = (i: number) => epubFormat.chapterText(file, {}, chapters[i]!);
  // c1 whole (its next url is itself): whitespace runs one space, no-break spaces one space
  // then trimmed at the line's start, the SVG <image> named by its decoded path.
  assert.equal(text(0), '　　Alpha beta gamma.\n　　Indented\n　　<img src="OPS/images/c v.png">\n　　');
  // c2 after <h2 id="mid">: "Lost text." belongs to no chapter, as in the app; text "<img" is broken.
  assert.equal(text(1), '　　　　Second < img> text.\n　　');
  // c3 whole; the title line left out.
  assert.equal(text(2), '　　Line one\n　　Line two\n　　');
});

test('the book name given with the chapter is skipped before a repeated title, as ContentProcessor does', () => {
  const bytes = epubBytes({
    'OEBPS/content.opf': opf('2.0', '<item id="a" href="a.xhtml" media-type="application/xhtml+xml"/>', '<itemref idref="a"/>'),
    'OEBPS/a.xhtml': xhtml('Chapter A', '<p>Book X: Chapter A</p><p>Body.</p>'),
  });
  const file = bookFile('x.epub', bytes);
  const [chapter] = epubFormat.parse(file).chapters;
  assert.equal(chapter!.title, 'Chapter A');
  assert.equal(epubFormat.chapterText(file, { name: 'Book X' } as { charset?: string }, chapter!), '　　Body.\n　　');
  assert.equal(epubFormat.chapterText(file, {}, chapter!), '　　　　Book X: Chapter A\n　　Body.\n　　');
});

function opf(version: string, manifest: string, spine: string, metadata = '<dc:title>T</dc:title>'): string {
  return `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="${version}">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">${metadata}</metadata>
<manifest>${manifest}</manifest><spine>${spine}</spine></package>`;
}

test('no usable table of contents: one chapter per spine page, 封面 for an untitled first page', () => {
  const bytes = epubBytes({
    'OEBPS/content.opf': opf(
      '2.0',
      '<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>' +
        '<item id="a" href="a.xhtml" media-type="application/xhtml+xml"/><item id="b" href="b.xhtml" media-type="application/xhtml+xml"/>',
      '<itemref idref="a"/><itemref idref="b"/>',
      '',
    ),
    'OEBPS/toc.ncx': '<ncx><navMap></navMap></ncx>',
    'OEBPS/a.xhtml': xhtml(null, '<p>First.</p>'),
    'OEBPS/b.xhtml': xhtml(' Second  page ', '<p>Second.</p>'),
  });
  const book = epubFormat.parse(bookFile('My.epub.epub', bytes));
  assert.deepEqual(book.chapters, [
    { index: 0, title: '封面', url: 'OEBPS/a.xhtml', isVolume: false },
    { index: 1, title: 'Second page', url: 'OEBPS/b.xhtml', isVolume: false },
  ]);
  // No title in the package: the file name without every ".epub" (the app's replace); no creator.
  assert.equal(book.name, 'My');
  assert.equal(book.author, '');
  assert.ok(book.notes.some((n) => n.includes('no creator')));
  const file = bookFile('My.epub.epub', bytes);
  assert.equal(epubFormat.chapterText(file, {}, book.chapters[0]!), '　　　　First.\n　　');
  assert.equal(epubFormat.chapterText(file, {}, book.chapters[1]!), '　　　　Second.\n　　');
});

test('a chapter the file does not have is an INVALID_ARGUMENT naming it', () => {
  const file = bookFile('book2.epub', EPUB2);
  assert.throws(
    () => epubFormat.chapterText(file, {}, { index: 9, title: 'x', url: 'OEBPS/Text/none.xhtml' }),
    (e: unknown) => e instanceof InvalidArgumentError && e.message.includes('OEBPS/Text/none.xhtml'),
  );
});

test('bad input: not a zip, empty, zip bomb, entries outside the archive', () => {
  const parse = (name: string, bytes: Uint8Array) => () => epubFormat.parse(bookFile(name, bytes));
  assert.throws(
    parse('a.epub', new TextEncoder().encode('just text, not a zip')),
    (e: unknown) => e instanceof BadArchiveError && e.code === 'BAD_ARCHIVE' && e.message === 'a.epub: not a zip archive',
  );
  assert.throws(parse('empty.epub', new Uint8Array(0)), (e: unknown) => e instanceof BadArchiveError && e.file === 'empty.epub');
  // 65 MiB of zeros deflate to about 65 KiB: the directory declares more than one part of a
  // book may hold (64 MiB), so it is refused before anything is inflated.
  const bomb = epubBytes({
    'OEBPS/content.opf': opf('2.0', '<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>', ''),
    'OEBPS/toc.ncx': new Uint8Array(65 * 2 ** 20),
  });
  assert.ok(bomb.length < 200_000);
  assert.throws(parse('bomb.epub', bomb), (e: unknown) => e instanceof ArchiveLimitError && e.entry === 'OEBPS/toc.ncx' && e.limit === 'entryBytes');
  for (const [name, problem] of [
    ['../evil.xhtml', 'invalid relative path'],
    ['/etc/passwd', 'absolute path'],
  ] as const) {
    const bytes = epubBytes({ 'OEBPS/content.opf': opf('2.0', '', ''), [name]: 'x' });
    assert.throws(parse('p.epub', bytes), (e: unknown) => e instanceof BadArchiveError && e.entry === name && e.message.includes(problem));
  }
});

test('bad input: no container and no package, a missing package, paths that leave the archive, no chapters', () => {
  const parse = (bytes: Uint8Array) => () => epubFormat.parse(bookFile('b.epub', bytes));
  const isEpub = (entry: string | undefined, words: string) => (e: unknown) =>
    e instanceof BadEpubError && e.code === 'BAD_EPUB' && e.file === 'b.epub' && e.entry === entry && e.message.includes(words);
  assert.throws(parse(epubBytes({ 'x.xhtml': 'x' }, undefined, null)), isEpub('OEBPS/content.opf', 'no META-INF/container.xml'));
  assert.throws(parse(epubBytes({ 'x.xhtml': 'x' }, 'OPS/book.opf')), isEpub('OPS/book.opf', 'no package document'));
  assert.throws(parse(epubBytes({ 'x.opf': 'x' }, '../x.opf')), isEpub('META-INF/container.xml', 'leaves the archive'));
  const outside = opf('2.0', '<item id="a" href="../../secret.xhtml" media-type="application/xhtml+xml"/>', '<itemref idref="a"/>');
  assert.throws(parse(epubBytes({ 'OEBPS/content.opf': outside })), isEpub('OEBPS/content.opf', '"../../secret.xhtml" leaves the archive'));
  assert.throws(parse(epubBytes({ 'OEBPS/content.opf': '<html><body>not a package</body></html>' })), isEpub('OEBPS/content.opf', 'not a package document'));
  assert.throws(parse(epubBytes({ 'OEBPS/content.opf': opf('2.0', '', '') })), isEpub('OEBPS/content.opf', 'no chapters'));
  // Without container.xml the app looks at OEBPS/content.opf, and so does this.
  const fallback = epubBytes(
    {
      'OEBPS/content.opf': opf('2.0', '<item id="a" href="a.xhtml" media-type="application/xhtml+xml"/>', '<itemref idref="a"/>'),
      'OEBPS/a.xhtml': xhtml('A', '<p>a</p>'),
    },
    undefined,
    null,
  );
  assert.equal(epubFormat.parse(bookFile('b.epub', fallback)).chapters[0]!.title, 'A');
});

test('the fixtures are real EPUBs: mimetype first and stored', () => {
  for (const bytes of [EPUB2, EPUB3]) {
    assert.equal(new TextDecoder().decode(bytes.subarray(30, 38)), 'mimetype');
    assert.equal(bytes[8]! | (bytes[9]! << 8), 0, 'stored');
    assert.equal(new TextDecoder().decode(bytes.subarray(38, 58)), 'application/epub+zip');
  }
});

test('the EPUB code imports no node:* module (it runs in browsers and Workers)', () => {
  const dir = join(import.meta.dirname, '..', '..', 'src', 'localbook', 'epub');
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
  assert.ok(files.length >= 5);
  for (const f of files) assert.doesNotMatch(readFileSync(join(dir, f), 'utf8'), /from ['"]node:/, f);
});
