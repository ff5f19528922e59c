// The progress rules on the sequence that broke them: store A at chapter 50 pushes; store B, at
// chapter 5 since before that, syncs both ways and takes 50 (it must not push 5 over 50); A moves
// back to chapter 10 on purpose: a plain sync keeps the server's 50, `--force` sends 10; B, still
// at 50 and not read since, syncs: the server's 10 is newer (written since B's last sync) but
// behind, so by the app's rule B does not take it, and B does not send 50 back over the move.
// The file on the server is read from the server's own folder and spelled out at every step.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openStore, type Store } from 'legado-store';
import { webdavSync } from 'legado-store/webdav';
import { cliWith } from './helpers/cli.js';
import { PASSWORD, startNodeDav, USER, type DavServer } from './helpers/dav-servers.js';
import { nextSecond, rowProgress, SHELF, shelfStore } from './helpers/webdav-fixtures.js';

let server: DavServer;
before(async () => {
  server = await startNodeDav();
});
after(() => server.close());

const book = SHELF[1]!; // 三体 / 刘慈欣, file 三体_刘慈欣.json

/** The app's Gson text of a BookProgress, written out by hand. */
const fileText = (index: number, time: number) =>
  `{\n  "name": "三体",\n  "author": "刘慈欣",\n  "durChapterIndex": ${index},\n  "durChapterPos": 0,\n  "durChapterTime": ${time},\n  "durChapterTitle": "第${index}章"\n}`;

test('A pushes 50; B (5, older) takes 50; A moves back to 10 only with --force; B at 50 keeps 50 and leaves the server at 10', async () => {
  const opts = { url: server.url, dir: 'rules', user: USER, password: PASSWORD };
  const onServer = () => readFileSync(join(server.dir, 'rules', 'bookProgress', book.file), 'utf8');
  const read = (s: Store<62>, index: number) =>
    s.books.updateProgress(book.bookUrl, { durChapterIndex: index, durChapterPos: 0, durChapterTitle: `第${index}章` });

  let a = shelfStore([book]);
  const b = shelfStore([book]);
  const pathA = a.path;
  read(b, 5); // B read chapter 5 first: its position is older than A's
  const tB = rowProgress(b, book.bookUrl).durChapterTime;
  await nextSecond();

  // 1. A at chapter 50 pushes
  read(a, 50);
  const tA50 = rowProgress(a, book.bookUrl).durChapterTime;
  assert.ok(tA50 > tB);
  assert.deepEqual(
    (await webdavSync(a, opts).progress()).pushed.map((p) => p.file),
    [book.file],
  );
  assert.equal(onServer(), fileText(50, tA50));

  // 2. B at chapter 5 (older) syncs both ways: the server stays at 50, B takes 50
  await nextSecond();
  const b1 = await webdavSync(b, opts).progress();
  assert.deepEqual(
    b1.applied.map((x) => [x.from.durChapterIndex, x.to.durChapterIndex]),
    [[5, 50]],
  );
  assert.deepEqual(b1.pushed, []);
  assert.equal(onServer(), fileText(50, tA50));
  assert.deepEqual(rowProgress(b, book.bookUrl), { durChapterIndex: 50, durChapterPos: 0, durChapterTitle: '第50章', durChapterTime: tA50 });

  // 3. A moves back to chapter 10 on purpose. A plain sync does not replace the server's 50 ...
  await nextSecond();
  read(a, 10);
  const tA10 = rowProgress(a, book.bookUrl).durChapterTime;
  const a2 = await webdavSync(a, opts).progress();
  assert.deepEqual(a2.pushed, []);
  assert.deepEqual(a2.applied, [], 'the file did not change since A wrote it: not newer, not taken');
  assert.deepEqual(
    a2.kept.map((k) => k.reason),
    ['the server is further ahead: a move back here is sent only when asked (--force)'],
  );
  assert.equal(onServer(), fileText(50, tA50));
  assert.equal(rowProgress(a, book.bookUrl).durChapterIndex, 10, 'A keeps its own move');
  // ... --force does (the command line, as a user asks for it)
  a.close();
  const forced = await cliWith(
    { LEGADO_WEBDAV_PASSWORD: PASSWORD },
    'webdav',
    'progress',
    pathA,
    '--url',
    server.url,
    '--dir',
    'rules',
    '--user',
    USER,
    '--push',
    '--force',
  );
  assert.equal(forced.code, 0, forced.stderr);
  assert.match(forced.stdout, /^pushed {3}三体 \/ 刘慈欣$/m);
  assert.equal(onServer(), fileText(10, tA10));
  a = openStore(pathA) as Store<62>;

  // 4. B, at 50 and not read since its last sync, syncs both ways. The server's 10 is newer (the
  // file was written after B's syncTime; its durChapterTime, tA10, is later than B's tA50) but
  // behind: the app's rule takes a position only when newer AND further ahead, so B keeps 50; and
  // B has nothing of its own to send (not read since), so the move back on A stands.
  await nextSecond();
  const b2 = await webdavSync(b, opts).progress();
  assert.deepEqual(b2.applied, []);
  assert.deepEqual(b2.pushed, []);
  assert.deepEqual(
    b2.kept.map((k) => k.reason),
    ['the server is behind, moved back elsewhere since the last sync: kept here, not sent (it is sent once read here again)'],
  );
  assert.deepEqual(rowProgress(b, book.bookUrl), { durChapterIndex: 50, durChapterPos: 0, durChapterTitle: '第50章', durChapterTime: tA50 });
  assert.equal(onServer(), fileText(10, tA10));
  // reported once per change: the next sync is a single listing and changes nothing
  const b3 = await webdavSync(b, opts).progress();
  assert.deepEqual([b3.requests, b3.kept.length, b3.pushed.length], [1, 0, 0]);

  // 5. B reads on, to chapter 51, after A's move: newer and further ahead, so it is sent
  await nextSecond();
  read(b, 51);
  const tB51 = rowProgress(b, book.bookUrl).durChapterTime;
  const b4 = await webdavSync(b, opts).progress();
  assert.deepEqual(
    b4.pushed.map((p) => p.file),
    [book.file],
  );
  assert.equal(onServer(), fileText(51, tB51));
  a.close();
  b.close();
});
