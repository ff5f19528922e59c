// `legado-store serve`: the shelf, progress, chapters and the web reader's settings over real
// HTTP on 127.0.0.1, the answers spelled out from the app's BookController.kt and ReturnData.kt.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { source } from './helpers/builders.js';
import { served, envelopeText } from './helpers/serve.js';
import type { Store } from '../src/store/store.js';
import './helpers/engine.js'; // Node's engines, as the package's entry installs them

const NO_BOOKS = '{\n  "isSuccess": false,\n  "errorMsg": "还没有添加小说"\n}';
const SAVED = '{\n  "isSuccess": true,\n  "errorMsg": "",\n  "data": ""\n}';
const BAD = '{\n  "isSuccess": false,\n  "errorMsg": "格式不对"\n}';

function threeBooks(store: Store<62>): void {
  // Inserted in this order; rowid order is the app's `SELECT * FROM books` order.
  store.tables.books.insert({ bookUrl: 'u:b', origin: 'src', name: '乙书', author: 'A', durChapterTime: 300, latestChapterTime: 10, order: 2 });
  store.tables.books.insert({ bookUrl: 'u:a', origin: 'src', name: '甲书', author: 'A', durChapterTime: 100, latestChapterTime: 30, order: 3 });
  store.tables.books.insert({ bookUrl: 'u:c', origin: 'src', name: 'Alpha', author: 'B', durChapterTime: 200, latestChapterTime: 20, order: 1 });
}

test("getBookshelf: an empty shelf answers the app's message, no data field", async () => {
  const s = await served();
  const a = await s.get('/getBookshelf');
  assert.equal(a.status, 200);
  assert.equal(a.text, NO_BOOKS);
  assert.match(a.headers.get('content-type')!, /^application\/json/);
});

test('getBookshelf: every bookshelfSort value orders as the app (0 durChapterTime desc, 1 latestChapterTime desc, 2 name, 3 order)', async () => {
  // 2: Android's ICU Chinese collation (CLDR zh, pinyin): 甲 jia < 乙 yi, Han before Latin.
  const expected: Record<number, string[]> = { 0: ['u:b', 'u:c', 'u:a'], 1: ['u:a', 'u:c', 'u:b'], 2: ['u:a', 'u:b', 'u:c'], 3: ['u:c', 'u:b', 'u:a'] };
  for (const sort of [0, 1, 2, 3] as const) {
    const s = await served({ bookshelfSort: sort }, threeBooks);
    const a = (await s.get('/getBookshelf')).json() as { isSuccess: boolean; data: { bookUrl: string }[] };
    assert.equal(a.isSuccess, true);
    assert.deepEqual(
      a.data.map((b) => b.bookUrl),
      expected[sort],
      `sort ${sort}`,
    );
  }
});

test("getBookshelf: one book as the app's Gson writes it (column order, nulls left out, booleans)", async () => {
  const s = await served({}, (st) =>
    st.tables.books.insert({
      bookUrl: 'https://x/1',
      tocUrl: '',
      origin: 'https://x',
      originName: 'X',
      name: '书',
      author: '某',
      type: 8,
      group: 1n,
      durChapterTitle: '第1章',
      durChapterTime: 5,
      latestChapterTime: 6,
      lastCheckTime: 7,
    }),
  );
  const a = await s.get('/getBookshelf');
  const book = `{
  "bookUrl": "https://x/1",
  "tocUrl": "",
  "origin": "https://x",
  "originName": "X",
  "name": "书",
  "author": "某",
  "type": 8,
  "group": 1,
  "latestChapterTime": 6,
  "lastCheckTime": 7,
  "lastCheckCount": 0,
  "totalChapterNum": 0,
  "durChapterTitle": "第1章",
  "durChapterIndex": 0,
  "durChapterPos": 0,
  "durChapterTime": 5,
  "canUpdate": true,
  "order": 0,
  "originOrder": 0
}`;
  assert.equal(a.text, envelopeText(true, '', `[\n  ${book.replace(/\n/g, '\n  ')}\n]`));
});

test('getBookshelf: over 3,000 books the answer is streamed (chunked) and is the same JSON text', async () => {
  const s = await served({ bookshelfSort: 3 }, (st) =>
    st.transaction(() => {
      for (let i = 0; i < 3001; i++) st.tables.books.insert({ bookUrl: `u:${i}`, name: `n${i}`, author: 'a', order: i });
    }),
  );
  const res = await fetch(s.server.url + 'getBookshelf');
  assert.equal(res.headers.get('content-length'), null);
  assert.equal(res.headers.get('transfer-encoding'), 'chunked');
  const text = await res.text();
  const parsed = JSON.parse(text) as { data: { bookUrl: string }[] };
  assert.equal(parsed.data.length, 3001);
  assert.equal(parsed.data[3000]!.bookUrl, 'u:3000');
  assert.equal(text, JSON.stringify(parsed, null, 2), 'the same 2-space layout as one piece');
  // 3,000 exactly is one piece.
  const small = await served({}, (st) =>
    st.transaction(() => {
      for (let i = 0; i < 3000; i++) st.tables.books.insert({ bookUrl: `u:${i}`, name: `n${i}`, author: 'a' });
    }),
  );
  const res2 = await fetch(small.server.url + 'getBookshelf');
  assert.notEqual(res2.headers.get('content-length'), null);
  await res2.arrayBuffer();
});

test('saveBookProgress: a text/plain body (sendBeacon) sets the position of the book found by name + author', async () => {
  const s = await served({}, threeBooks);
  const body = JSON.stringify({ name: '甲书', author: 'A', durChapterIndex: 7, durChapterPos: 120, durChapterTime: 1700000000000, durChapterTitle: '第八章' });
  const a = await s.post('/saveBookProgress', body, { 'Content-Type': 'text/plain;charset=UTF-8' });
  assert.equal(a.text, SAVED);
  assert.deepEqual(s.rows('SELECT durChapterIndex, durChapterPos, durChapterTime, durChapterTitle FROM books WHERE bookUrl = ?', 'u:a'), [
    { durChapterIndex: 7, durChapterPos: 120, durChapterTime: 1700000000000, durChapterTitle: '第八章' },
  ]);
});

test('saveBookProgress: no such book, broken JSON, an empty body: 格式不对 and nothing written', async () => {
  const s = await served({}, threeBooks);
  const before = s.rows('SELECT * FROM books ORDER BY bookUrl');
  for (const body of ['{"name":"甲书","author":"nobody","durChapterIndex":1,"durChapterPos":0}', '{"name":"甲书",', '', '[1]']) {
    const a = await s.post('/saveBookProgress', body, { 'Content-Type': 'text/plain' });
    assert.equal(a.text, BAD, body);
  }
  assert.deepEqual(s.rows('SELECT * FROM books ORDER BY bookUrl'), before);
});

test('saveBook inserts or updates in place (chapters kept); bad JSON is 格式不对', async () => {
  const s = await served({}, (st) => {
    threeBooks(st);
    st.chapters.replaceToc('u:a', [{ url: 'c0', title: '一', index: 0, isVolume: false, baseUrl: '', isVip: false, isPay: false }]);
  });
  const fromShelf = ((await s.get('/getBookshelf')).json() as { data: Record<string, unknown>[] }).data.find((b) => b.bookUrl === 'u:a')!;
  const a = await s.post('/saveBook', JSON.stringify({ ...fromShelf, durChapterIndex: 4, customTag: '标签', unknownField: 1 }));
  assert.equal(a.text, SAVED);
  assert.deepEqual(s.rows('SELECT durChapterIndex, customTag FROM books WHERE bookUrl = ?', 'u:a'), [{ durChapterIndex: 4, customTag: '标签' }]);
  assert.equal(s.sql('SELECT count(*) FROM chapters WHERE bookUrl = ?', 'u:a'), 1);
  assert.equal((await s.post('/saveBook', JSON.stringify({ bookUrl: 'u:new', name: '新', author: 'N', origin: 'x' }))).text, SAVED);
  assert.deepEqual(s.rows('SELECT name, author, origin FROM books WHERE bookUrl = ?', 'u:new'), [{ name: '新', author: 'N', origin: 'x' }]);
  assert.equal((await s.post('/saveBook', '{"bookUrl":')).text, BAD);
  assert.equal((await s.post('/saveBook', '{"bookUrl":"u:z","durChapterIndex":"not a number"}')).text, BAD);
  assert.equal(s.sql('SELECT count(*) FROM books'), 4);
});

test('deleteBook deletes the book and, by the foreign key, its chapters', async () => {
  const s = await served({}, (st) => {
    threeBooks(st);
    st.chapters.replaceToc('u:a', [
      { url: 'c0', title: '一', index: 0, isVolume: false, baseUrl: '', isVip: false, isPay: false },
      { url: 'c1', title: '二', index: 1, isVolume: false, baseUrl: '', isVip: false, isPay: false },
    ]);
  });
  assert.equal((await s.post('/deleteBook', JSON.stringify({ bookUrl: 'u:a', name: '甲书', author: 'A' }))).text, SAVED);
  assert.equal(s.sql('SELECT count(*) FROM books WHERE bookUrl = ?', 'u:a'), 0);
  assert.equal(s.sql('SELECT count(*) FROM chapters'), 0);
  assert.equal((await s.post('/deleteBook', 'nope')).text, BAD);
  assert.equal(s.sql('SELECT count(*) FROM books'), 2);
});

test("getReadConfig / saveReadConfig keep the web reader's settings in caches under webReadConfig", async () => {
  const s = await served();
  assert.equal((await s.get('/getReadConfig')).text, '{\n  "isSuccess": false,\n  "errorMsg": "没有配置"\n}');
  const config = '{"theme":0,"font":2,"fontSize":18}';
  assert.equal((await s.post('/saveReadConfig', config)).text, SAVED);
  assert.deepEqual(s.rows("SELECT key, value, deadline FROM caches WHERE key = 'webReadConfig'"), [{ key: 'webReadConfig', value: config, deadline: 0 }]);
  // data is the stored JSON *string*
  assert.equal((await s.get('/getReadConfig')).text, envelopeText(true, '', JSON.stringify(config)));
  // An empty body deletes it (the app's postData is null then).
  assert.equal((await s.post('/saveReadConfig', '')).text, SAVED);
  assert.equal(s.sql("SELECT count(*) FROM caches WHERE key = 'webReadConfig'"), 0);
});

test("getChapterList: the stored chapters by index; none: refreshToc's messages; a web book's refused URL says so", async () => {
  const s = await served({}, (st) => {
    threeBooks(st);
    st.tables.book_sources.insert(source('src', { bookSourceName: 'S' }));
    st.chapters.replaceToc('u:a', [
      { url: 'c1', title: '二', index: 1, isVolume: false, baseUrl: '', isVip: false, isPay: false },
      { url: 'c0', title: '一', index: 0, isVolume: false, baseUrl: '', isVip: false, isPay: false },
    ]);
    st.tables.books.insert({ bookUrl: 'u:orphan', origin: 'gone', name: '孤', author: 'O' });
  });
  const list = await s.get('/getChapterList?url=u%3Aa');
  assert.equal(
    list.text,
    envelopeText(
      true,
      '',
      '[\n  {\n    "url": "c0",\n    "title": "一",\n    "isVolume": false,\n    "baseUrl": "",\n    "bookUrl": "u:a",\n    "index": 0,\n    "isVip": false,\n    "isPay": false\n  },\n  {\n    "url": "c1",\n    "title": "二",\n    "isVolume": false,\n    "baseUrl": "",\n    "bookUrl": "u:a",\n    "index": 1,\n    "isVip": false,\n    "isPay": false\n  }\n]',
    ),
  );
  assert.equal((await s.get('/getChapterList')).text, envelopeText(false, '参数url不能为空，请指定书籍地址'));
  assert.equal((await s.get('/getChapterList?url=nope')).text, envelopeText(false, '未在数据库找到对应书籍，请先添加'));
  assert.equal((await s.get('/refreshToc?url=u%3Aorphan')).text, envelopeText(false, '未找到对应书源,请换源'));
  // A web book's TOC is fetched through its source (serve-web-books.test.ts); this bookUrl is refused by the network policy.
  const web = (await s.get('/getChapterList?url=u%3Ab')).json() as { isSuccess: boolean; errorMsg: string };
  assert.equal(web.isSuccess, false);
  assert.match(web.errorMsg, /u:b: refused: the u: scheme/);
});

test('getBookContent: its messages; a chapter the store cannot give is an envelope, never a wait', async () => {
  const s = await served({}, (st) => {
    threeBooks(st);
    st.chapters.replaceToc('u:a', [{ url: 'c0', title: '一', index: 0, isVolume: false, baseUrl: '', isVip: false, isPay: false }]);
  });
  assert.equal((await s.get('/getBookContent?index=0')).text, envelopeText(false, '参数url不能为空，请指定书籍地址'));
  assert.equal((await s.get('/getBookContent?url=u%3Aa')).text, envelopeText(false, '参数index不能为空, 请指定目录序号'));
  assert.equal((await s.get('/getBookContent?url=u%3Aa&index=5')).text, envelopeText(false, '未找到'));
  assert.equal((await s.get('/getBookContent?url=u%3Aa&index=0')).text, envelopeText(false, '未找到书源'));
  // Kotlin's toInt() throws on "x": the app answers an exception as plain text.
  const bad = await s.get('/getBookContent?url=u%3Aa&index=x');
  assert.equal(bad.text, 'For input string: "x"');
  assert.match(bad.headers.get('content-type')!, /^text\/plain/);
  assert.equal((await s.get('/image?url=u%3Aa')).text, envelopeText(false, '图片链接为空'));
  assert.equal((await s.get('/image?path=x')).text, envelopeText(false, 'bookUrl为空'));
  for (const path of ['/image?url=u%3Aa&path=x', '/searchBook?key=x']) {
    const engine = (await s.get(path)).json() as { isSuccess: boolean; errorMsg: string };
    assert.equal(engine.isSuccess, false, path);
    assert.match(engine.errorMsg, /does not fetch from book sources/, path);
  }
});

test("saveBook: an object or array for a string field is stored as its compact JSON text, as the app's Gson reads it", async () => {
  // The app's GSON registers StringJsonDeserializer for String (utils/GsonExtensions.kt, since
  // 9412c7f2d, 2023-03-21): a JSON object or array given for a String field becomes
  // JsonElement.toString(), compact JSON; the v49-era code had no such adapter and refused.
  const s = await served();
  const body = '{"bookUrl":"https://b/obj","name":{"k":[1,2.5,null],"t":"é"},"author":["甲",1],"customTag":{"z":true}}';
  assert.equal((await s.post('/saveBook', body)).text, SAVED);
  assert.deepEqual(s.rows('SELECT bookUrl, name, author, customTag FROM books'), [
    { bookUrl: 'https://b/obj', name: '{"k":[1,2.5,null],"t":"é"}', author: '["甲",1]', customTag: '{"z":true}' },
  ]);
  // An object for the key names no place a book can be kept: refused, nothing stored.
  const key = (await s.post('/saveBook', '{"bookUrl":{"a":"/etc/passwd"},"name":"n","author":"a"}')).json() as { isSuccess: boolean };
  assert.equal(key.isSuccess, false);
  assert.equal(s.sql('SELECT count(*) FROM books'), 1);
});
