// `book add` and `book read` as a new user meets them: several files with a bad one among them,
// an EPUB (no charset), a chapter index past the end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from './helpers/cli.js';
import { tempDir } from './helpers/files.js';
import { openDb } from './helpers/engine.js';
import { epubBytes, xhtml } from './helpers/epub.js';

const dir = tempDir();

async function fresh(name: string): Promise<{ db: string; src: string }> {
  const db = join(dir, `${name}.db`);
  assert.equal((await cli('init', db)).code, 0);
  const src = join(dir, name);
  mkdirSync(src);
  return { db, src };
}

test('book add of several files: each one reported, a refused one does not stop the others, exit 1', async () => {
  const { db, src } = await fresh('many');
  writeFileSync(join(src, 'a.txt'), '第1章 甲\n一\n');
  writeFileSync(join(src, 'empty.txt'), '');
  writeFileSync(join(src, 'c.txt'), '第1章 丙\n三\n');
  const files = ['a.txt', 'empty.txt', 'c.txt'].map((f) => join(src, f));
  let r = await cli('book', 'add', db, ...files);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /^added a: /m);
  assert.match(r.stdout, /^added c: /m);
  assert.match(r.stdout, /^2 added, 1 refused$/m);
  assert.equal(r.stderr, `legado-store: BAD_BOOK_FILE: ${files[1]}: "empty.txt": the file is empty\n`);
  const raw = openDb(db, { readonly: true });
  assert.deepEqual(raw.prepare('SELECT originName FROM books ORDER BY originName').raw().all(), [['a.txt'], ['c.txt']]);
  raw.close();
  // --json: one entry per file, in order, each with ok; a refusal carries its typed error.
  r = await cli('book', 'add', db, ...files, '--json');
  assert.equal(r.code, 1);
  const out = JSON.parse(r.stdout) as { file: string; ok: boolean; refreshed?: boolean; error?: { code: string; problem: string } }[];
  assert.deepEqual(
    out.map((e) => [e.file, e.ok, e.refreshed ?? e.error?.problem]),
    [
      [files[0], true, true],
      [files[1], false, 'empty'],
      [files[2], true, true],
    ],
  );
  assert.equal(out[1]!.error!.code, 'BAD_BOOK_FILE');
  // All good: exit 0.
  assert.equal((await cli('book', 'add', db, files[0]!, files[2]!)).code, 0);
});

test('book add of an EPUB names the format, not a charset it does not have', async () => {
  const { db, src } = await fresh('epub');
  const bytes = epubBytes({
    'OEBPS/content.opf': `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>星海</dc:title><dc:creator>某</dc:creator><dc:identifier id="id">u</dc:identifier></metadata>
  <manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/></manifest>
  <spine><itemref idref="c1"/></spine>
</package>`,
    'OEBPS/c1.xhtml': xhtml('第一章 启航', '<p>船离了港。</p>'),
  });
  writeFileSync(join(src, 'x.epub'), bytes);
  writeFileSync(join(src, 'y.txt'), '第1章 甲\n一\n');
  const r = await cli('book', 'add', db, join(src, 'x.epub'), join(src, 'y.txt'));
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /null/);
  assert.match(r.stdout, /^added 星海 \(某\): 1 chapters, EPUB$/m);
  assert.match(r.stdout, /^added y: 1 chapters, TXT, UTF-8$/m);
});

test('book read: the help and the error for an index past the end say indexes start at 0', async () => {
  const { db, src } = await fresh('read');
  writeFileSync(join(src, 'b.txt'), '第1章 甲\n一\n第2章 乙\n二\n');
  assert.equal((await cli('book', 'add', db, join(src, 'b.txt'))).code, 0);
  const help = await cli('book', 'read', '--help');
  assert.match(help.stdout, /start at 0/);
  assert.match(help.stdout, /first chapter is 0/);
  const r = await cli('book', 'read', db, 'b', '2');
  assert.equal(r.code, 1);
  assert.match(r.stderr, /UNKNOWN_BOOK: .*has no chapter 2 \(indexes start at 0: its 2 chapters are 0 to 1\)/);
  assert.equal((await cli('book', 'read', db, 'b', '1')).stdout, '第2章 乙\n二\n');
});
