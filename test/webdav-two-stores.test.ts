// Two stores syncing reading progress through one real WebDAV server (webdav-server, 127.0.0.1,
// Basic auth), and the request count of a sync of 1,000 books with 3 changed.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openStore } from 'legado-store';
import { webdavSync } from 'legado-store/webdav';
import { PASSWORD, startNodeDav, USER, type DavServer } from './helpers/dav-servers.js';
import { appProgressJson, Phone } from './helpers/phone.js';
import { nextSecond, rowProgress, SHELF, shelfStore, storePath } from './helpers/webdav-fixtures.js';

let server: DavServer;
before(async () => {
  server = await startNodeDav();
});
after(() => server.close());

test('two stores through one folder: progress reaches the other, neither goes backwards, unknown books are skipped and reported', async () => {
  const [x, y, z, w] = SHELF as [(typeof SHELF)[0], (typeof SHELF)[0], (typeof SHELF)[0], (typeof SHELF)[0]];
  const a = shelfStore([x, y, z]); // z only in a
  const b = shelfStore([x, y, w]); // w only in b
  const opts = { url: server.url, dir: 'two', user: USER, password: PASSWORD };
  const read = (s: typeof a, url: string, index: number, pos: number) =>
    s.books.updateProgress(url, { durChapterIndex: index, durChapterPos: pos, durChapterTitle: `第${index}章` });

  read(a, x.bookUrl, 10, 100);
  read(a, z.bookUrl, 1, 1);
  const a1 = await webdavSync(a, opts).progress();
  assert.deepEqual(a1.pushed.map((p) => p.bookUrl).sort(), [x.bookUrl, z.bookUrl].sort());

  // b was further in y, behind in x
  read(b, y.bookUrl, 7, 70);
  read(b, x.bookUrl, 4, 999);
  await nextSecond();
  const b1 = await webdavSync(b, opts).progress();
  assert.deepEqual(
    b1.applied.map((p) => [p.bookUrl, p.from.durChapterIndex, p.to.durChapterIndex]),
    [[x.bookUrl, 4, 10]],
  );
  assert.deepEqual(
    b1.pushed.map((p) => p.bookUrl),
    [y.bookUrl],
  );
  assert.deepEqual(b1.skipped, [{ file: z.file, reason: 'no book on the shelf has this name and author' }]);
  assert.equal(rowProgress(b, x.bookUrl).durChapterIndex, 10);
  assert.equal(rowProgress(b, x.bookUrl).durChapterTitle, '第10章');

  // a gets y; a had moved on in x meanwhile and keeps its own, further position
  read(a, x.bookUrl, 11, 0);
  await nextSecond();
  const a2 = await webdavSync(a, opts).progress();
  assert.deepEqual(
    a2.applied.map((p) => p.bookUrl),
    [y.bookUrl],
  );
  assert.deepEqual(
    a2.pushed.map((p) => p.bookUrl),
    [x.bookUrl],
  );
  assert.equal(rowProgress(a, y.bookUrl).durChapterIndex, 7);
  assert.equal(rowProgress(a, x.bookUrl).durChapterIndex, 11);

  // b reads back in x (a re-read of an earlier chapter) and only pulls: the server's further position wins
  b.books.updateProgress(x.bookUrl, { durChapterIndex: 2, durChapterPos: 0 });
  await nextSecond();
  const b2 = await webdavSync(b, opts).progress({ direction: 'pull' });
  assert.deepEqual(
    b2.applied.map((p) => [p.bookUrl, p.to.durChapterIndex]),
    [[x.bookUrl, 11]],
  );

  // the phone, at the same folder, sees both stores' work under its own names
  const phone = new Phone(`${server.url}two/`);
  const names = await phone.list('bookProgress/');
  for (const book of [x, y, z]) assert.ok(names.includes(book.file), book.file);
  assert.equal(JSON.parse((await phone.getProgress(x.file))!).durChapterIndex, 11);
  assert.equal(JSON.parse((await phone.getProgress(y.file))!).durChapterIndex, 7);

  // once both have synced, a run of either is a single listing
  await webdavSync(a, opts).progress();
  await webdavSync(b, opts).progress();
  assert.equal((await webdavSync(a, opts).progress()).requests, 1);
  assert.equal((await webdavSync(b, opts).progress()).requests, 1);
  a.close();
  b.close();
});

test('1,000 books with 3 changed on the phone and 2 read here: one listing, 5 downloads (3 changed, 2 read before they are replaced), 2 uploads', async () => {
  const path = storePath();
  const store = openStore(path);
  const many = Array.from({ length: 1000 }, (_, i) => ({ bookUrl: `https://b.example/${i}`, name: `书 ${i}`, author: `作者 #${i % 7}` }));
  store.transaction(() => {
    for (const [i, b] of many.entries())
      store.tables.books.insert({ ...b, origin: 'https://src.example', type: 8, durChapterIndex: i % 5, durChapterPos: i, durChapterTime: 1 });
  });
  const opts = { url: server.url, dir: 'many', user: USER, password: PASSWORD };
  const first = await webdavSync(store, opts).progress();
  assert.equal(first.pushed.length, 1000);

  const phone = new Phone(`${server.url}many/`);
  await nextSecond();
  for (const i of [3, 500, 999]) {
    const b = many[i]!;
    const file = (await phone.list('bookProgress/')).find((n) => n.startsWith(`书%20${i}_`))!;
    await phone.putProgress(file, appProgressJson({ name: b.name, author: b.author, durChapterIndex: 100, durChapterPos: 1, durChapterTime: 2 }));
  }
  store.books.updateProgress(many[10]!.bookUrl, { durChapterIndex: 50, durChapterPos: 0 });
  store.books.updateProgress(many[20]!.bookUrl, { durChapterIndex: 50, durChapterPos: 0 });

  const r = await webdavSync(store, opts).progress();
  assert.equal(r.listed, 1000);
  assert.equal(r.downloaded, 5);
  assert.equal(r.applied.length, 3);
  assert.deepEqual(r.pushed.map((p) => p.bookUrl).sort(), [many[10]!.bookUrl, many[20]!.bookUrl].sort());
  assert.equal(r.requests, 8);
  store.close();
});
