// Ctrl-C or SIGTERM while `webdav restore` streams a backup to disk: the temporary file goes, the
// command says so and exits with the signal's code (130, 143), nothing is imported. The server is
// a real node:http server on 127.0.0.1 that lists one backup and sends it slowly, a few bytes at a
// time; the signal is a real one, sent once the temporary file holds some of it. The store's
// folder and the command's own $TMPDIR are listed afterwards, the store read with raw SQL.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLI, cli } from './helpers/cli.js';
import { openDb } from './helpers/engine.js';
import { tempDir } from './helpers/files.js';

const NAME = 'backup2026-01-01.zip';
const SIZE = 1024 * 1024;

/** Lists one backup of SIZE bytes in /legado/ and sends it 1 KiB every 20 ms (about 20 s in all). */
async function slowDav(): Promise<{ url: string; close: () => Promise<void> }> {
  const entry = (href: string, props: string) =>
    `<d:response><d:href>${href}</d:href><d:propstat><d:prop>${props}</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>`;
  const listing =
    `<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:">` +
    entry('/legado/', '<d:resourcetype><d:collection/></d:resourcetype>') +
    entry(
      `/legado/${NAME}`,
      `<d:resourcetype/><d:getlastmodified>Thu, 01 Jan 2026 00:00:00 GMT</d:getlastmodified><d:getcontentlength>${SIZE}</d:getcontentlength>`,
    ) +
    '</d:multistatus>';
  const server = createServer((req, res) => {
    req.resume();
    if (req.method === 'PROPFIND') {
      res.writeHead(207, { 'Content-Type': 'application/xml; charset=utf-8' }).end(listing);
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/zip', 'Content-Length': String(SIZE) });
    res.write(Buffer.from('PK\x03\x04'));
    let sent = 4;
    const timer = setInterval(() => {
      const n = Math.min(1024, SIZE - sent);
      res.write(Buffer.alloc(n, 0x61));
      sent += n;
      if (sent >= SIZE) {
        clearInterval(timer);
        res.end();
      }
    }, 20);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  test(`${signal} mid-download of webdav restore: exit ${code}, "interrupted: nothing stored", no temporary or partial file anywhere`, async () => {
    const dav = await slowDav();
    try {
      const dir = tempDir();
      const store = join(dir, 's.db');
      assert.equal((await cli('init', store)).code, 0);
      const tmp = join(dir, 'tmp');
      mkdirSync(tmp);
      const before = readdirSync(dir).sort();
      const child = spawn(process.execPath, [CLI, 'webdav', 'restore', store, '--url', dav.url], {
        env: { ...process.env, TMPDIR: tmp },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const ended = new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      // Some of the backup is on disk beside the store: a temporary file that is not the store.
      const partial = (): string | undefined => readdirSync(dir).find((f) => f.endsWith('.tmp') && statSync(join(dir, f)).size > 4096);
      for (let i = 0; i < 2000 && partial() === undefined; i++) await sleep(5);
      assert.ok(partial(), `the download began: ${readdirSync(dir).join(', ')} ${stderr}`);
      child.kill(signal);
      assert.equal(await ended, code, stderr);
      assert.equal(stderr, 'legado-store: interrupted: nothing stored\n');
      assert.deepEqual(readdirSync(dir).sort(), before, 'no temporary file beside the store');
      assert.deepEqual(readdirSync(tmp), [], 'nothing in $TMPDIR');
      const db = openDb(store);
      assert.equal(db.prepare('SELECT count(*) FROM book_sources').pluck().get(), 0);
      db.close();
    } finally {
      await dav.close();
    }
  });
}
