// `legado-store serve`: local books through the API, over real HTTP on 127.0.0.1: the upload
// page's multipart POST (/addLocalBook, BookController.addLocalBook's messages), the chapters and
// the text read from the kept file, a re-split by /refreshToc; an upload without a file writes nothing.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { envelopeText, served } from './helpers/serve.js';
import './helpers/engine.js'; // Node's engines, as the package's entry installs them

const para = (n: number, word: string) => `${word}`.repeat(n);
// Chapters longer than 1,000 characters, so the app's TOC rule scoring counts each heading.
const TXT = `第1章 开端\n${para(1500, '山')}\n第2章 相遇\n${para(1500, '水')}\n第3章 离别\n${para(1500, '云')}\n`;

async function upload(url: string, fileName: string | undefined, file: Blob | undefined): Promise<string> {
  const form = new FormData();
  if (file) form.append('fileData', file, fileName ?? 'x.txt');
  const q = fileName === undefined ? '' : `?fileName=${encodeURIComponent(fileName)}`;
  return (await fetch(`${url}addLocalBook${q}`, { method: 'POST', body: form })).text();
}

test('addLocalBook: a TXT upload becomes a local book with its chapters; its text reads from the kept file', async () => {
  // One enabled TXT TOC rule, as a store imported from the app has them.
  const s = await served({}, (st) => st.tables.txtTocRules.insert({ id: -1, name: '目录', rule: '^第\\d+章.{0,30}$', serialNumber: 0, enable: true }));
  const answer = await upload(s.server.url, '山水记 作者：某人.txt', new Blob([new TextEncoder().encode(TXT)]));
  assert.equal(answer, envelopeText(true, '', 'true'));
  const books = s.rows('SELECT bookUrl, name, origin, type FROM books');
  assert.equal(books.length, 1);
  assert.equal(books[0]!.origin, 'loc_book');
  assert.ok((Number(books[0]!.type) & 256) !== 0, 'the local bit');
  const bookUrl = String(books[0]!.bookUrl);
  assert.ok(readdirSync(join(dirname(s.path), 'books')).length === 1, 'the file is kept in the books folder');
  assert.deepEqual(
    s.rows('SELECT title FROM chapters ORDER BY "index"').map((r) => r.title),
    ['第1章 开端', '第2章 相遇', '第3章 离别'],
  );

  const list = (await s.get(`/getChapterList?url=${encodeURIComponent(bookUrl)}`)).json() as { isSuccess: boolean; data: { title: string; index: number }[] };
  assert.deepEqual(
    list.data.map((c) => [c.index, c.title]),
    [
      [0, '第1章 开端'],
      [1, '第2章 相遇'],
      [2, '第3章 离别'],
    ],
  );
  const content = (await s.get(`/getBookContent?url=${encodeURIComponent(bookUrl)}&index=1`)).json() as { isSuccess: boolean; data: string };
  assert.equal(content.isSuccess, true);
  assert.ok(content.data.includes(para(1500, '水')));
  assert.ok(!content.data.includes('山') && !content.data.includes('第2章'), 'only that chapter, title left out');

  s.store.db.prepare('DELETE FROM chapters').run();
  const again = (await s.get(`/refreshToc?url=${encodeURIComponent(bookUrl)}`)).json() as { isSuccess: boolean; data: unknown[] };
  assert.equal(again.isSuccess, true);
  assert.equal(again.data.length, 3);
  assert.equal(s.sql('SELECT count(*) FROM chapters'), 3);
});

test("addLocalBook: no file, an empty file, no fileName: the app's messages, nothing written", async () => {
  const s = await served();
  assert.equal(await upload(s.server.url, 'a.txt', undefined), envelopeText(false, 'fileData 不能为空'));
  assert.equal(await upload(s.server.url, 'a.txt', new Blob([])), envelopeText(false, 'fileData 不能为空'));
  assert.equal(await upload(s.server.url, undefined, new Blob(['x'])), envelopeText(false, 'fileName 不能为空'));
  const notText = await upload(s.server.url, 'a.exe', new Blob([new Uint8Array([0, 1, 2, 3])]));
  assert.match(notText, /"isSuccess": false,\n  "errorMsg": "保存书籍错误\\n/);
  assert.equal(s.sql('SELECT count(*) FROM books'), 0);
  assert.equal(s.sql('SELECT count(*) FROM chapters'), 0);
  const folder = join(dirname(s.path), 'books');
  assert.ok(!existsSync(folder) || readdirSync(folder).length === 0);
});
