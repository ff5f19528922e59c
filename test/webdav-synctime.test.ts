// What-changed tracking: at schema 71 and up the books.syncTime column, as the app keeps it; below,
// a state file beside the store, the store file itself left exactly the app's.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { openStore, schemas, SUPPORTED_VERSIONS, type Store } from 'legado-store';
import { webdavSync } from 'legado-store/webdav';
import { PASSWORD, startNodeDav, USER, type DavServer } from './helpers/dav-servers.js';
import { appProgressJson, Phone } from './helpers/phone.js';
import { nextSecond, rowProgress, SHELF, shelfStore, storePath } from './helpers/webdav-fixtures.js';

let server: DavServer;
before(async () => {
  server = await startNodeDav();
});
after(() => server.close());

const withSyncTime = SUPPORTED_VERSIONS.find((v) => schemas[v].table('books')?.column('syncTime') !== undefined);

test("below schema 71: the store file keeps the app's structure; the syncTimes go to <store>.webdav-sync.json", async () => {
  for (const schema of [62, 49] as const) {
    const store = shelfStore(SHELF.slice(0, 2), schema);
    const tables = () => store.db.prepare('SELECT name, sql FROM sqlite_master ORDER BY name').all();
    const structure = JSON.stringify(tables());
    store.books.updateProgress(SHELF[0]!.bookUrl, { durChapterIndex: 1, durChapterPos: 1 });
    const r = await webdavSync(store, { url: server.url, dir: `state${schema}`, user: USER, password: PASSWORD }).progress();
    assert.equal(r.tracking, `${store.path}.webdav-sync.json`);
    assert.ok(existsSync(r.tracking));
    assert.equal(JSON.stringify(tables()), structure, 'no table or column added');
    assert.deepEqual(
      r.pushed.map((p) => p.bookUrl),
      [SHELF[0]!.bookUrl],
    );
    // a second run: nothing to do, one listing
    assert.equal((await webdavSync(store, { url: server.url, dir: `state${schema}`, user: USER, password: PASSWORD }).progress()).requests, 1);
    store.close();
  }
});

test('schema 71 and up: books.syncTime records what was applied and pushed, as the app does', async () => {
  assert.equal(withSyncTime, 71, 'books.syncTime first appears at schema 71');
  const path = storePath();
  const store = openStore(path, { schema: withSyncTime as never }) as unknown as Store<62>;
  const books = store.table('books');
  for (const b of SHELF.slice(0, 2)) books.insert({ bookUrl: b.bookUrl, name: b.name, author: b.author, origin: 'https://src.example', type: 8 });
  const syncTime = (url: string): number =>
    Number((store.db.prepare('SELECT syncTime FROM books WHERE bookUrl = ?').get(url) as { syncTime: number | bigint }).syncTime);
  const opts = { url: server.url, dir: 'synctime', user: USER, password: PASSWORD };
  const phone = new Phone(`${server.url}synctime/`);
  await phone.setup();
  await nextSecond();
  const [a, b] = SHELF as [(typeof SHELF)[0], (typeof SHELF)[0]];
  await phone.putProgress(a.file, appProgressJson({ name: a.name, author: a.author, durChapterIndex: 9, durChapterPos: 9, durChapterTime: 9 }));

  const start = Date.now();
  const r = await webdavSync(store, opts).progress();
  assert.equal(r.tracking, 'syncTime');
  assert.ok(!existsSync(`${path}.webdav-sync.json`), 'no state file at 71 and up');
  assert.deepEqual(
    r.applied.map((x) => x.bookUrl),
    [a.bookUrl],
  );
  assert.ok(syncTime(a.bookUrl) >= start, 'applying sets syncTime to now');
  assert.equal(rowProgress(store, a.bookUrl).durChapterTime, 9, "and durChapterTime to the file's");

  // read here: durChapterTime after syncTime, so pushed, and syncTime moves on
  store.books.updateProgress(b.bookUrl, { durChapterIndex: 2, durChapterPos: 2 });
  const before = syncTime(b.bookUrl);
  const p = await webdavSync(store, opts).progress();
  assert.deepEqual(
    p.pushed.map((x) => x.bookUrl),
    [b.bookUrl],
  );
  assert.ok(syncTime(b.bookUrl) > before);
  assert.equal((await webdavSync(store, opts).progress()).requests, 1);

  // a file not newer than the book's syncTime is not downloaded (the app's test)
  store.db.prepare('UPDATE books SET syncTime = ? WHERE bookUrl = ?').run(Date.now() + 3_600_000, a.bookUrl);
  await nextSecond();
  await phone.putProgress(a.file, appProgressJson({ name: a.name, author: a.author, durChapterIndex: 20, durChapterPos: 0, durChapterTime: 20 }));
  const skipped = await webdavSync(store, opts).progress({ direction: 'pull' });
  assert.equal(skipped.downloaded, 0);
  assert.equal(rowProgress(store, a.bookUrl).durChapterIndex, 9);
  store.close();
});
