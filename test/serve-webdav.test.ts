// `legado-store serve` with WebDAV settings, against a real WebDAV server on 127.0.0.1:
// /saveBookProgress and /saveBook upload the position as the app does (bookProgress/<name>_<author>.json,
// the folders made when missing) and set syncTime when the upload worked; a failed upload keeps
// the local save and leaves syncTime alone.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { PASSWORD, USER, startNodeDav } from './helpers/dav-servers.js';
import { served } from './helpers/serve.js';
import './helpers/engine.js'; // Node's engines, as the package's entry installs them

const SAVED = '{\n  "isSuccess": true,\n  "errorMsg": "",\n  "data": ""\n}';
const oneBook = (st: { tables: { books: { insert(r: object): unknown } } }) =>
  st.tables.books.insert({ bookUrl: 'u:1', name: '三体', author: '刘慈欣', origin: 'x', durChapterIndex: 1, durChapterTime: 1000 });

test('saveBookProgress and saveBook upload the progress file and set syncTime (folders made on first upload)', async () => {
  const dav = await startNodeDav();
  after(() => dav.close());
  const s = await served({ webdav: { url: dav.url, dir: 'legado', user: USER, password: PASSWORD } }, oneBook, 75);
  const body = JSON.stringify({ name: '三体', author: '刘慈欣', durChapterIndex: 5, durChapterPos: 10, durChapterTime: 1700000000123 });
  assert.equal((await s.post('/saveBookProgress', body, { 'Content-Type': 'text/plain' })).text, SAVED);
  const file = join(dav.dir, 'legado', 'bookProgress', '三体_刘慈欣.json');
  // A null durChapterTitle is left out, as the app's Gson writes BookProgress.
  assert.equal(
    readFileSync(file, 'utf8'),
    '{\n  "name": "三体",\n  "author": "刘慈欣",\n  "durChapterIndex": 5,\n  "durChapterPos": 10,\n  "durChapterTime": 1700000000123\n}',
  );
  const first = s.sql('SELECT syncTime FROM books') as number;
  assert.ok(first > 0);

  const book = ((await s.get('/getBookshelf')).json() as { data: Record<string, unknown>[] }).data[0]!;
  assert.equal((await s.post('/saveBook', JSON.stringify({ ...book, durChapterIndex: 8, durChapterTitle: '第九章', syncTime: 0 }))).text, SAVED);
  assert.match(readFileSync(file, 'utf8'), /"durChapterIndex": 8,[\s\S]*"durChapterTitle": "第九章"/);
  assert.ok((s.sql('SELECT syncTime FROM books') as number) >= first);
  assert.ok(existsSync(join(dav.dir, 'legado', 'books')), "the app's folders were made");
});

test('a failed upload (no server there) keeps the local save and does not set syncTime', async () => {
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as { port: number }).port;
  await new Promise<void>((r) => closed.close(() => r()));
  const s = await served(
    { webdav: { url: `http://127.0.0.1:${port}/`, dir: 'legado', user: USER, password: PASSWORD, retries: 0, timeoutMs: 2000 } },
    oneBook,
    75,
  );
  const body = JSON.stringify({ name: '三体', author: '刘慈欣', durChapterIndex: 6, durChapterPos: 2, durChapterTime: 1700000000999 });
  assert.equal((await s.post('/saveBookProgress', body, { 'Content-Type': 'text/plain' })).text, SAVED);
  assert.deepEqual(s.rows('SELECT durChapterIndex, durChapterPos, durChapterTime, syncTime FROM books'), [
    { durChapterIndex: 6, durChapterPos: 2, durChapterTime: 1700000000999, syncTime: 0 },
  ]);
});
