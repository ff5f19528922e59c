// Faults of real servers: a real WebDAV server (webdav-server) on 127.0.0.1, and where a server
// cannot be told to fail, a real HTTP proxy in front of it that injects the fault. Each fault is a
// typed error (or a skipped and reported file) and leaves the store as it was.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Store } from 'legado-store';
import { webdavSync } from 'legado-store/webdav';
import { freePort, PASSWORD, startNodeDav, USER, type DavServer } from './helpers/dav-servers.js';
import { startFaultProxy, type Fault, type SeenRequest } from './helpers/fault-proxy.js';
import { appProgressJson, Phone } from './helpers/phone.js';
import { nextSecond, phoneBackupZip, SHELF, shelfStore } from './helpers/webdav-fixtures.js';

let server: DavServer;
before(async () => {
  server = await startNodeDav();
});
after(() => server.close());

let folders = 0;
/** A fresh folder on the server, set up by the phone. */
async function phoneFolder(): Promise<{ dir: string; phone: Phone }> {
  const dir = `f${folders++}`;
  const phone = new Phone(`${server.url}${dir}/`);
  await phone.setup();
  return { dir, phone };
}

const books = (store: Store<62>): string => JSON.stringify(store.db.prepare('SELECT * FROM books ORDER BY bookUrl').all());

function code(expected: string, also?: (e: Error) => void): (e: Error & { code?: string }) => boolean {
  return (e) => {
    assert.equal(e.code, expected, e.message);
    assert.ok(!e.message.includes(PASSWORD), 'the password is never in a message');
    also?.(e);
    return true;
  };
}

async function viaProxy<T>(
  rule: (r: SeenRequest, seen: readonly SeenRequest[]) => Fault,
  run: (url: string) => Promise<T>,
): Promise<{ result: T; seen: SeenRequest[] }> {
  const proxy = await startFaultProxy(server.url, rule);
  try {
    return { result: await run(proxy.url), seen: proxy.seen };
  } finally {
    await proxy.close();
  }
}

test('a wrong password is a WEBDAV_AUTH error naming the request, and changes nothing', async () => {
  const { dir } = await phoneFolder();
  const store = shelfStore();
  const before = books(store);
  for (const op of ['list', 'restore', 'progress', 'backup'] as const) {
    const dav = webdavSync(store, { url: server.url, dir, user: USER, password: 'wrong password' });
    await assert.rejects(
      dav[op](),
      code('WEBDAV_AUTH', (e) => assert.match(e.message, /^PROPFIND http:\/\/127\.0\.0\.1:\d+\/f\d+\/.*401/)),
    );
  }
  await assert.rejects(webdavSync(store, { url: server.url, dir }).list(), code('WEBDAV_AUTH'));
  assert.equal(books(store), before);
  store.close();
});

test('an address holding an account or password is refused before any request, without repeating it', () => {
  const store = shelfStore();
  assert.throws(() => webdavSync(store, { url: `http://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:1/` }), code('WEBDAV_CONFIG'));
  assert.throws(() => webdavSync(store, { url: 'ftp://127.0.0.1/' }), code('WEBDAV_CONFIG'));
  store.close();
});

test('a missing folder: list, restore and pull are WEBDAV_NOT_FOUND; backup and push create it', async () => {
  const store = shelfStore();
  const before = books(store);
  const dav = webdavSync(store, { url: server.url, dir: 'nowhere/阅读', user: USER, password: PASSWORD });
  await assert.rejects(
    dav.list(),
    code('WEBDAV_NOT_FOUND', (e) => assert.match(e.message, /nowhere\/%E9%98%85%E8%AF%BB\//)),
  );
  await assert.rejects(dav.restore(), code('WEBDAV_NOT_FOUND'));
  await assert.rejects(dav.restore('backup2026-01-01.zip'), code('WEBDAV_NOT_FOUND'));
  await assert.rejects(
    dav.progress({ direction: 'pull' }),
    code('WEBDAV_NOT_FOUND', (e) => assert.match(e.message, /bookProgress/)),
  );
  assert.equal(books(store), before);
  store.books.updateProgress(SHELF[0]!.bookUrl, { durChapterIndex: 3, durChapterPos: 1 });
  const pushed = await dav.progress();
  assert.deepEqual(
    pushed.pushed.map((p) => p.bookUrl),
    [SHELF[0]!.bookUrl],
  );
  const phone = new Phone(`${server.url}nowhere/阅读/`);
  assert.deepEqual(await phone.list('bookProgress/'), [SHELF[0]!.file]);
  store.close();
});

test('503: backs off and retries a bounded number of times, every attempt counted', async () => {
  const { dir, phone } = await phoneFolder();
  await phone.putBackup('backup2026-11-01.zip', await phoneBackupZip());
  const store = shelfStore();
  // two 503s (one with Retry-After), then the answer
  const { result, seen } = await viaProxy(
    (_r, all) => (all.length === 1 ? { status: 503, headers: { 'Retry-After': '0' } } : all.length === 2 ? { status: 503 } : 'pass'),
    (url) => webdavSync(store, { url, dir, user: USER, password: PASSWORD, backoffMs: 5 }).list(),
  );
  assert.deepEqual(
    result.backups.map((b) => b.name),
    ['backup2026-11-01.zip'],
  );
  assert.equal(result.requests, 3);
  assert.equal(seen.length, 3);

  // always 503 (坚果云's BlockedTemporarily): WEBDAV_UNAVAILABLE after 1 + retries attempts
  const always = await viaProxy(
    () => ({ status: 503 }),
    (url) =>
      webdavSync(store, { url, dir, user: USER, password: PASSWORD, backoffMs: 5, retries: 2 })
        .list()
        .then(
          () => undefined,
          (e: Error) => e,
        ),
  );
  assert.ok(always.result instanceof Error);
  code('WEBDAV_UNAVAILABLE')(always.result as Error & { code?: string });
  assert.equal(always.seen.length, 3);

  // 503 on the downloads of a pull: nothing applied
  await nextSecond();
  await phone.putProgress(
    SHELF[1]!.file,
    appProgressJson({ name: SHELF[1]!.name, author: SHELF[1]!.author, durChapterIndex: 5, durChapterPos: 5, durChapterTime: 5 }),
  );
  const before = books(store);
  const pull = await viaProxy(
    (r) => (r.method === 'GET' ? { status: 503 } : 'pass'),
    (url) =>
      webdavSync(store, { url, dir, user: USER, password: PASSWORD, backoffMs: 1, retries: 1 })
        .progress()
        .then(
          () => undefined,
          (e: Error) => e,
        ),
  );
  code('WEBDAV_UNAVAILABLE')(pull.result as Error & { code?: string });
  assert.equal(books(store), before);
  store.close();
});

test('a PUT answered 404 until a read is made (123云盘) is retried once after a PROPFIND', async () => {
  const { dir, phone } = await phoneFolder();
  const store = shelfStore(SHELF.slice(0, 2));
  for (const b of SHELF.slice(0, 2)) store.books.updateProgress(b.bookUrl, { durChapterIndex: 2, durChapterPos: 9 });
  // first: a PUT that does not come right after a read is answered 404; then: every PUT is
  let always404 = false;
  const proxy = await startFaultProxy(server.url, (r, all) => {
    const previous = all[all.length - 2];
    if (r.method !== 'PUT') return 'pass';
    return always404 || (previous?.method !== 'PROPFIND' && previous?.method !== 'GET') ? { status: 404 } : 'pass';
  });
  try {
    const dav = webdavSync(store, { url: proxy.url, dir, user: USER, password: PASSWORD });
    const result = await dav.progress({ direction: 'push' });
    assert.equal(result.pushed.length, 2);
    assert.deepEqual(
      proxy.seen.map((s) => s.method),
      ['PROPFIND', 'PUT', 'PUT', 'PROPFIND', 'PUT'],
    );
    assert.equal(result.requests, 5);
    for (const b of SHELF.slice(0, 2)) assert.equal(JSON.parse((await phone.getProgress(b.file))!).durChapterPos, 9);

    // a PUT that stays 404 is WEBDAV_NOT_FOUND, and the store records no push
    always404 = true;
    proxy.seen.length = 0;
    store.books.updateProgress(SHELF[0]!.bookUrl, { durChapterIndex: 3, durChapterPos: 0, durChapterTime: Date.now() + 5000 });
    const before = books(store);
    await assert.rejects(dav.progress(), code('WEBDAV_NOT_FOUND'));
    // the file there is read before it is replaced
    assert.deepEqual(
      proxy.seen.map((s) => s.method),
      ['PROPFIND', 'GET', 'PUT', 'PROPFIND', 'PUT'],
    );
    assert.equal(books(store), before);
  } finally {
    await proxy.close();
  }
  store.close();
});

test('a connection refused, or cut in the middle of a download, is WEBDAV_CONNECTION and imports nothing', async () => {
  const store = shelfStore([]);
  const port = await freePort();
  await assert.rejects(
    webdavSync(store, { url: `http://127.0.0.1:${port}/`, user: USER, password: PASSWORD }).list(),
    code('WEBDAV_CONNECTION', (e) => assert.match(e.message, /ECONNREFUSED/)),
  );

  const { dir, phone } = await phoneFolder();
  await phone.putBackup('backup2026-11-02.zip', await phoneBackupZip());
  const cut = await viaProxy(
    (r) => (r.method === 'GET' ? { cutAfter: 200 } : 'pass'),
    (url) =>
      webdavSync(store, { url, dir, user: USER, password: PASSWORD })
        .restore()
        .then(
          () => undefined,
          (e: Error) => e,
        ),
  );
  code('WEBDAV_CONNECTION')(cut.result as Error & { code?: string });
  assert.equal(books(store), '[]');
  store.close();
});

test('a truncated or damaged zip on the server is BAD_ARCHIVE naming the file, and imports nothing', async () => {
  const { dir, phone } = await phoneFolder();
  const zip = await phoneBackupZip();
  await phone.putBackup('backup2026-11-03.zip', zip.subarray(0, Math.floor(zip.length / 2)));
  await phone.putBackup('backup2026-11-04.zip', new TextEncoder().encode('<html>quota exceeded</html>'));
  const store = shelfStore([]);
  const dav = webdavSync(store, { url: server.url, dir, user: USER, password: PASSWORD });
  for (const name of ['backup2026-11-03.zip', 'backup2026-11-04.zip']) {
    await assert.rejects(
      dav.restore(name),
      code('BAD_ARCHIVE', (e) => assert.ok(e.message.includes(name), e.message)),
    );
  }
  assert.equal(books(store), '[]');
  store.close();
});

test('a progress file naming another book, or not an object, is skipped and reported', async () => {
  const { dir, phone } = await phoneFolder();
  const store = shelfStore();
  const [a, b] = SHELF as [(typeof SHELF)[0], (typeof SHELF)[0]];
  await nextSecond();
  await phone.putProgress(a.file, appProgressJson({ name: 'Someone else', author: a.author, durChapterIndex: 50, durChapterPos: 1, durChapterTime: 1 }));
  await phone.putProgress(b.file, '[1, 2, 3]');
  const before = books(store);
  const r = await webdavSync(store, { url: server.url, dir, user: USER, password: PASSWORD }).progress({ direction: 'pull' });
  assert.deepEqual(
    r.skipped.map((s) => [s.file, s.reason]).sort(),
    [
      [a.file, 'names another book: "Someone else" by "J.K. Rowling/译者"'],
      [b.file, 'not a JSON object'],
    ].sort(),
  );
  assert.deepEqual(r.applied, []);
  assert.equal(books(store), before);
  // reported once: not downloaded again until they change
  const again = await webdavSync(store, { url: server.url, dir, user: USER, password: PASSWORD }).progress({ direction: 'pull' });
  assert.equal(again.downloaded, 0);
  assert.equal(again.requests, 1);
  store.close();
});
