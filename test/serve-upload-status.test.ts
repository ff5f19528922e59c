// The app's upload page (assets/web/uploadBook/js/html5_fun.js) reads only the HTTP status of its
// POST to /addLocalBook: 200 marks the file done (✓), anything else failed (✗, so it can be sent
// again). A refused upload is answered with a failing status and the app's failure envelope;
// an accepted one with 200. Real HTTP on 127.0.0.1.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { envelopeText, served } from './helpers/serve.js';

async function upload(url: string, fileName: string | undefined, bytes: Uint8Array | undefined): Promise<{ status: number; text: string }> {
  // As the page sends it: multipart, fileName and fileData fields.
  const form = new FormData();
  if (fileName !== undefined) form.append('fileName', fileName);
  if (bytes) form.append('fileData', new Blob([bytes]), fileName ?? 'x');
  const res = await fetch(`${url}addLocalBook`, { method: 'POST', body: form });
  return { status: res.status, text: await res.text() };
}
const utf8 = (s: string) => new TextEncoder().encode(s);

test('addLocalBook: a refused upload gets a status the upload page reads as failed; an accepted one 200', async () => {
  const s = await served();
  const url = s.server.url;
  const cases: [name: string, fileName: string | undefined, bytes: Uint8Array | undefined, status: number][] = [
    ['a binary .txt', 'pic.txt', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), 400],
    ['an extension the store does not read', 'a.exe', utf8('text'), 400],
    ['an EPUB that is no zip', 'b.epub', utf8('not a zip'), 400],
    ['no file', 'c.txt', undefined, 400],
    ['no file name', undefined, utf8('text'), 400],
  ];
  for (const [what, fileName, bytes, status] of cases) {
    const r = await upload(url, fileName, bytes);
    assert.equal(r.status, status, what);
    assert.match(r.text, /^\{\n {2}"isSuccess": false,\n {2}"errorMsg": "/, what);
  }
  const good = await upload(url, 'ok.txt', utf8('第1章 甲\n一\n'));
  assert.equal(good.status, 200);
  assert.equal(good.text, envelopeText(true, '', 'true'));
  // Another file under a kept name: refused (409), the kept book unchanged.
  const other = await upload(url, 'ok.txt', utf8('第1章 乙\n二\n'));
  assert.equal(other.status, 409);
  assert.match(other.text, /"isSuccess": false/);
  assert.equal(s.sql('SELECT count(*) FROM books'), 1);
  assert.deepEqual(
    s.rows('SELECT title FROM chapters').map((r) => r.title),
    ['第1章 甲'],
  );
});
