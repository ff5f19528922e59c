// A hostile EPUB cannot hold the thread or overflow the stack: a chapter of 200,000 nested
// <div>s, an NCX and a navigation document nested 20,000 deep, a page of more elements than the
// cap are refused with BadEpubError naming the file and the entry, as soon as the cap is passed;
// a document at the depth cap is read (its text walked without recursion).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BadEpubError, epubFormat } from '../src/localbook/epub/index.js';
import { bookFile, epubBytes, xhtml } from './helpers/epub.js';

const DEPTH_CAP = 1000; // docs/local-books.md

function opf(version: string, manifest: string, spine: string): string {
  return `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="${version}">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>T</dc:title><dc:creator>A</dc:creator></metadata>
<manifest>${manifest}</manifest><spine toc="ncx">${spine}</spine></package>`;
}

const nested = (depth: number, open: (k: number) => string, close: string, inner: string): string => {
  const parts: string[] = [];
  for (let k = 0; k < depth; k++) parts.push(open(k));
  parts.push(inner);
  for (let k = 0; k < depth; k++) parts.push(close);
  return parts.join('');
};

/** An EPUB 2 book: an NCX naming the one page, the page's body as given. */
function bookWithPage(body: string): Uint8Array {
  return epubBytes({
    'OEBPS/content.opf': opf(
      '2.0',
      '<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/><item id="a" href="a.xhtml" media-type="application/xhtml+xml"/>',
      '<itemref idref="a"/>',
    ),
    'OEBPS/toc.ncx': '<ncx><navMap><navPoint><navLabel><text>第一章</text></navLabel><content src="a.xhtml"/></navPoint></navMap></ncx>',
    'OEBPS/a.xhtml': xhtml('第一章', body),
  });
}

const refused = (entry: string, what: RegExp) => (e: unknown) =>
  e instanceof BadEpubError && e.code === 'BAD_EPUB' && e.file === 'deep.epub' && e.entry === entry && what.test(e.message);

test('a chapter of 200,000 nested <div>s: BadEpubError naming the page, no stack overflow', () => {
  const file = bookFile('deep.epub', bookWithPage(nested(200_000, () => '<div>', '</div>', 'x')));
  const book = epubFormat.parse(file);
  assert.equal(book.chapters.length, 1);
  assert.throws(() => epubFormat.chapterText(file, {}, book.chapters[0]!), refused('OEBPS/a.xhtml', /nested deeper than 1000/));
});

test('a page at the depth cap is read: its text, every level walked', () => {
  // <html><body> and the xhtml wrapper take 2 levels; 990 <div>s and a <p> stay within 1,000.
  const file = bookFile('deep.epub', bookWithPage(nested(DEPTH_CAP - 10, () => '<div>', '</div>', '<p>深处的字</p>')));
  const book = epubFormat.parse(file);
  assert.equal(epubFormat.chapterText(file, {}, book.chapters[0]!).replace(/\s+/g, ''), '深处的字');
});

test('a page of more than 500,000 elements: BadEpubError naming the page', () => {
  const file = bookFile('deep.epub', bookWithPage('<i></i>'.repeat(500_001)));
  const book = epubFormat.parse(file);
  assert.throws(() => epubFormat.chapterText(file, {}, book.chapters[0]!), refused('OEBPS/a.xhtml', /more than 500000 elements/));
});

test('an NCX nested 20,000 deep: BadEpubError naming the NCX, no stack overflow', () => {
  const ncx = `<ncx><navMap>${nested(20_000, (k) => `<navPoint><navLabel><text>第${k}章</text></navLabel><content src="a.xhtml"/>`, '</navPoint>', '')}</navMap></ncx>`;
  const bytes = epubBytes({
    'OEBPS/content.opf': opf(
      '2.0',
      '<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/><item id="a" href="a.xhtml" media-type="application/xhtml+xml"/>',
      '<itemref idref="a"/>',
    ),
    'OEBPS/toc.ncx': ncx,
    'OEBPS/a.xhtml': xhtml('a', '<p>a</p>'),
  });
  assert.throws(() => epubFormat.parse(bookFile('deep.epub', bytes)), refused('OEBPS/toc.ncx', /nested deeper than 1000/));
});

test('a navigation document nested 20,000 deep: BadEpubError naming it; one nested 300 deep is read in order', () => {
  const navBook = (depth: number) =>
    epubBytes({
      'OEBPS/content.opf': opf(
        '3.0',
        '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/><item id="a" href="a.xhtml" media-type="application/xhtml+xml"/>',
        '<itemref idref="a"/>',
      ),
      'OEBPS/nav.xhtml': xhtml('nav', `<nav><ol>${nested(depth, (k) => `<li><a href="a.xhtml#p${k}">第${k}节</a><ol>`, '</ol></li>', '')}</ol></nav>`),
      'OEBPS/a.xhtml': xhtml('a', '<p>a</p>'),
    });
  assert.throws(() => epubFormat.parse(bookFile('deep.epub', navBook(20_000))), refused('OEBPS/nav.xhtml', /nested deeper than 1000/));
  // 300 entries each inside the last (600 elements deep): all read, in document order.
  const book = epubFormat.parse(bookFile('ok.epub', navBook(300)));
  const titles = book.chapters.map((c) => c.title);
  assert.equal(titles.length, 300);
  assert.deepEqual(titles.slice(0, 3), ['第0节', '第1节', '第2节']);
  assert.equal(titles[299], '第299节');
});
