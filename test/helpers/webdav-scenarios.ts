// The phone-folder scenarios, run against each kind of real server (webdav-sync.test.ts with
// webdav-server, webdav-rclone.test.ts with rclone).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { importBackup, openStore } from 'legado-store';
import { progressFileName, webdavSync } from 'legado-store/webdav';
import { writeFileSync } from 'node:fs';
import { PASSWORD, USER, type DavServer } from './dav-servers.js';
import { appProgressJson, Phone } from './phone.js';
import { nextSecond, phoneBackupZip, rowProgress, SHELF, shelfStore, storePath } from './webdav-fixtures.js';

export function phoneFolderScenarios(kind: string, start: () => Promise<DavServer>): void {
  test(`${kind}: restore, pull and push against a folder the phone wrote`, async () => {
    const server = await start();
    try {
      const phone = new Phone(`${server.url}legado/`);
      await phone.setup();
      const zip = await phoneBackupZip();
      await phone.putBackup('backup2026-11-20-Pixel 7_a.zip', zip);
      await nextSecond();
      await phone.putBackup('backup2026-11-19.zip', zip);

      const store = openStore(storePath());
      const dav = webdavSync(store, { url: server.url, user: USER, password: PASSWORD });

      // list: newest (last modified) first, names as the server gives them, one request
      const list = await dav.list();
      assert.deepEqual(
        list.backups.map((b) => b.name),
        ['backup2026-11-19.zip', 'backup2026-11-20-Pixel 7_a.zip'],
      );
      assert.equal(list.backups[0]!.size, zip.byteLength);
      assert.equal(list.requests, 1);

      // restore by name: the ordinary import, one GET
      const restored = await dav.restore('backup2026-11-20-Pixel 7_a.zip');
      assert.equal(restored.requests, 1);
      assert.equal(restored.import.kinds.book?.stored, SHELF.length);
      assert.equal((store.db.prepare('SELECT count(*) AS n FROM books').get() as { n: number }).n, SHELF.length);
      // the newest (last modified) without a name
      assert.equal((await dav.restore()).name, 'backup2026-11-19.zip');

      // every book's file name is the app's
      for (const b of SHELF) assert.equal(progressFileName(b.name, b.author), b.file);

      // the phone reads further in three books; one file is damaged; one names a book this store lacks
      await nextSecond();
      const [hp, st, ab, who] = SHELF as [(typeof SHELF)[0], (typeof SHELF)[0], (typeof SHELF)[0], (typeof SHELF)[0]];
      await phone.putProgress(
        hp.file,
        appProgressJson({
          name: hp.name,
          author: hp.author,
          durChapterIndex: 12,
          durChapterPos: 345,
          durChapterTime: 1_700_000_000_001,
          durChapterTitle: '第十三章 #1: 开始',
        }),
      );
      await phone.putProgress(
        st.file,
        appProgressJson({ name: st.name, author: st.author, durChapterIndex: 1, durChapterPos: 900, durChapterTime: 1_700_000_000_002 }),
      );
      // behind the store (index 2, pos 7 from the backup): never applied
      await phone.putProgress(
        ab.file,
        appProgressJson({ name: ab.name, author: ab.author, durChapterIndex: 2, durChapterPos: 3, durChapterTime: 1_700_000_000_003 }),
      );
      await phone.putProgress(who.file, '{"name": "Who?", "author": ');
      await phone.putProgress(
        '不在书架_某人.json',
        appProgressJson({ name: '不在书架', author: '某人', durChapterIndex: 99, durChapterPos: 1, durChapterTime: 1 }),
      );

      const abBefore = rowProgress(store, ab.bookUrl);
      const first = await dav.progress();
      assert.deepEqual(first.applied.map((a) => a.bookUrl).sort(), [hp.bookUrl, st.bookUrl].sort());
      assert.deepEqual(rowProgress(store, hp.bookUrl), {
        durChapterIndex: 12,
        durChapterPos: 345,
        durChapterTitle: '第十三章 #1: 开始',
        durChapterTime: 1_700_000_000_001,
      });
      assert.deepEqual(rowProgress(store, st.bookUrl), { durChapterIndex: 1, durChapterPos: 900, durChapterTitle: null, durChapterTime: 1_700_000_000_002 });
      assert.deepEqual(rowProgress(store, ab.bookUrl), abBefore, 'a position behind the store is not applied');
      // the store is ahead on ab, but the phone's position there is newer (durChapterTime
      // 1_700_000_000_003, written since this store's last sync, over the backup's
      // 1_600_000_000_002): a move back on the phone. Not taken (behind), not overwritten either.
      assert.deepEqual(first.pushed, []);
      assert.deepEqual(
        first.kept.map((k) => [k.bookUrl, k.reason]),
        [[ab.bookUrl, 'the server is behind, moved back elsewhere since the last sync: kept here, not sent (it is sent once read here again)']],
      );
      // the damaged file is skipped and reported
      assert.deepEqual(first.skipped.map((s) => s.file).sort(), ['不在书架_某人.json', who.file].sort());
      assert.match(first.skipped.find((s) => s.file === who.file)!.reason, /not JSON/);
      assert.match(first.skipped.find((s) => s.file === '不在书架_某人.json')!.reason, /no book on the shelf/);
      assert.equal(first.downloaded, 4);
      assert.equal(first.requests, 1 + 4, 'one listing, four downloads');
      assert.deepEqual(JSON.parse((await phone.getProgress(ab.file))!), {
        name: ab.name,
        author: ab.author,
        durChapterIndex: 2,
        durChapterPos: 3,
        durChapterTime: 1_700_000_000_003,
      });

      // nothing changed: one listing, nothing else
      const again = await dav.progress();
      assert.equal(again.requests, 1);
      assert.equal(again.downloaded, 0);
      assert.deepEqual(again.pushed, []);

      // reading in the store: pushed in the app's format, read by the phone
      store.books.updateProgress(hp.bookUrl, { durChapterIndex: 20, durChapterPos: 5, durChapterTitle: '第二十一章', durChapterTime: Date.now() + 1000 });
      const pushed = await dav.progress({ direction: 'push' });
      assert.deepEqual(
        pushed.pushed.map((p) => p.file),
        [hp.file],
      );
      assert.equal(pushed.requests, 3, 'one listing, the file read before it is replaced, one upload');
      const text = (await phone.getProgress(hp.file))!;
      assert.deepEqual(Object.keys(JSON.parse(text)), ['name', 'author', 'durChapterIndex', 'durChapterPos', 'durChapterTime', 'durChapterTitle']);
      assert.equal(JSON.parse(text).durChapterIndex, 20);
      assert.equal(JSON.parse(text).durChapterTitle, '第二十一章');
      store.close();
    } finally {
      await server.close();
    }
  });

  test(`${kind}: backup under the app's name, refused over an existing one unless asked, restorable`, async () => {
    const server = await start();
    try {
      const store = shelfStore();
      store.books.updateProgress(SHELF[0]!.bookUrl, { durChapterIndex: 4, durChapterPos: 2 });
      // nothing on the server yet: the folder and its sub-folders are created, as the app does
      const dav = webdavSync(store, { url: server.url, dir: '阅读 备份', user: USER, password: PASSWORD, device: 'desk:top/1' });
      const r = await dav.backup();
      const d = new Date();
      const day = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
      assert.equal(r.name, `backup${day}-desk_top_1.zip`);
      assert.equal(r.replaced, false);
      assert.ok(r.files.includes('bookshelf.json'));
      const phone = new Phone(`${server.url}阅读 备份/`);
      const names = await phone.list();
      assert.ok(names.includes(r.name), `${names}`);
      assert.deepEqual(await phone.list('bookProgress/'), []);
      await assert.rejects(dav.backup(), (e: Error & { code?: string }) => e.code === 'FILE_EXISTS');
      const again = await dav.backup({ overwrite: true });
      assert.equal(again.replaced, true);
      assert.equal(again.requests, 2, 'one listing, one upload: the folders are there');

      // the zip on the server is the app's backup: a fresh store imports it
      const zip = await phone.getFile(r.name);
      const copy = storePath() + '.zip';
      writeFileSync(copy, zip);
      const other = openStore(storePath());
      const imported = await importBackup(other, copy);
      assert.equal(imported.kinds.book?.stored, SHELF.length);
      assert.equal(rowProgress(other as never, SHELF[0]!.bookUrl).durChapterIndex, 4);
      other.close();
      store.close();
    } finally {
      await server.close();
    }
  });
}
