// An EPUB added through the local-book API and the CLI: rows as the app writes them (checked
// with raw SQL), the cover kept beside the book, chapter text read through the store, and a
// book without dc:creator named from its file name as the app names every local book.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../src/index.js';
import { addLocalBook, readLocalChapter } from '../src/node/localbook.js';
import { cli } from './helpers/cli.js';
import { epubBytes, xhtml } from './helpers/epub.js';
import { openDb } from './helpers/engine.js';
import { tempDir } from './helpers/files.js';

const dir = tempDir();
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 8, 7]);

function epub(creator: string | null): Uint8Array {
  return epubBytes({
    'OEBPS/content.opf': `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:title>星海</dc:title>${creator === null ? '' : `<dc:creator>${creator}</dc:creator>`}
    <dc:identifier id="id">urn:uuid:2</dc:identifier>
    <meta name="cover" content="cover"/>
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="cover" href="cover.png" media-type="image/png"/>
    <item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>
    <item id="c2" href="c2.xhtml" media-type="application/xhtml+xml"/>
  </manifest>
  <spine><itemref idref="c1"/><itemref idref="c2"/></spine>
</package>`,
    'OEBPS/nav.xhtml': `<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body>
<nav epub:type="toc"><ol><li><a href="c1.xhtml">第一章 启航</a></li><li><a href="c2.xhtml">第二章 归来</a></li></ol></nav>
</body></html>`,
    'OEBPS/cover.png': PNG,
    'OEBPS/c1.xhtml': xhtml('第一章 启航', '<p>船离了港。</p>'),
    'OEBPS/c2.xhtml': xhtml('第二章 归来', '<p>船回来了。</p>'),
  });
}

test('an EPUB through the API: rows as the app writes them, the cover kept, chapters read', () => {
  const path = join(dir, 'api.db');
  const store = openStore(path, { schema: 75 });
  try {
    const r = addLocalBook(store, { fileName: '星海.epub', bytes: epub('林舟') });
    assert.deepEqual([r.book.name, r.book.author], ['星海', '林舟']);
    const raw = openDb(path, { readonly: true });
    const book = raw.prepare('SELECT origin, originName, type, totalChapterNum, coverUrl FROM books').get() as Record<string, unknown>;
    const chapters = raw.prepare('SELECT "index", title, url FROM chapters ORDER BY "index"').all();
    raw.close();
    assert.deepEqual({ ...book, coverUrl: undefined }, { origin: 'loc_book', originName: '星海.epub', type: 8 | 256, totalChapterNum: 2, coverUrl: undefined });
    assert.deepEqual(chapters, [
      { index: 0, title: '第一章 启航', url: 'OEBPS/c1.xhtml' },
      { index: 1, title: '第二章 归来', url: 'OEBPS/c2.xhtml' },
    ]);
    // The cover is a file beside the book, byte for byte the one inside the EPUB.
    assert.ok(typeof book['coverUrl'] === 'string' && existsSync(book['coverUrl']), String(book['coverUrl']));
    assert.deepEqual(new Uint8Array(readFileSync(book['coverUrl'] as string)), PNG);
    const text = readLocalChapter(store, r.book.bookUrl, 1).text;
    assert.ok(text.includes('船回来了。'), JSON.stringify(text));
    assert.ok(!text.includes('船离了港'), JSON.stringify(text));
  } finally {
    store.close();
  }
});

test('an EPUB without dc:creator takes name and author from its file name; book add/toc/read on the CLI', async () => {
  const db = join(dir, 'cli.db');
  assert.equal((await cli('init', db)).code, 0);
  const file = join(dir, '《星海》作者：林舟.epub');
  writeFileSync(file, epub(null));
  let r = await cli('book', 'add', db, file, '--json');
  assert.equal(r.code, 0, r.stderr);
  const [added] = JSON.parse(r.stdout) as { name: string; author: string; chapters: number }[];
  assert.deepEqual([added!.name, added!.author, added!.chapters], ['星海', '林舟', 2]);
  r = await cli('book', 'toc', db, '星海', '--json');
  assert.deepEqual(
    (JSON.parse(r.stdout) as { chapters: { title: string }[] }).chapters.map((c) => c.title),
    ['第一章 启航', '第二章 归来'],
  );
  r = await cli('book', 'read', db, '星海', '0', '--json');
  assert.equal(r.code, 0, r.stderr);
  assert.ok((JSON.parse(r.stdout) as { text: string }).text.includes('船离了港。'));
});
