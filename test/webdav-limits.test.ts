// Bounds on what a WebDAV server can make us read: listings (PROPFIND) and progress files are read
// into memory up to 16 MiB, backups are streamed to disk up to 1 GiB, and a size the server gave
// (the listing's getcontentlength, the GET's Content-Length) is checked before anything is read.
// Hostile servers are real node:http servers on 127.0.0.1 sending endless bodies; what is
// asserted is the typed error and how much the server managed to send before we hung up.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { after, test } from 'node:test';
import { openStore } from 'legado-store';
import { webdavSync } from 'legado-store/webdav';
import { cliWith } from './helpers/cli.js';
import { storePath } from './helpers/webdav-fixtures.js';

const MiB = 1024 ** 2;
/** What the kernel's and the streams' buffers may hold besides what was read: far below the gigabytes an unbounded read takes. */
const SLACK = 16 * MiB;

const response = (href: string, props: string) =>
  `<d:response><d:href>${href}</d:href><d:propstat><d:prop>${props}</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>`;
const folderEntry = (href: string) => response(href, '<d:resourcetype><d:collection/></d:resourcetype>');
const fileEntry = (href: string, size?: number) =>
  response(
    href,
    `<d:resourcetype/><d:getlastmodified>Thu, 01 Jan 2026 00:00:00 GMT</d:getlastmodified>${size === undefined ? '' : `<d:getcontentlength>${size}</d:getcontentlength>`}`,
  );
const multistatus = (...entries: string[]) => `<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:">${entries.join('')}</d:multistatus>`;

interface Hostile {
  readonly url: string;
  readonly seen: string[];
  /** Bytes of body written to the socket, per request, once the request has ended. */
  sent(): Promise<number[]>;
  close(): Promise<void>;
}

type Answer = { status: number; headers?: Record<string, string>; body?: string; endless?: string };

/** Servers not closed yet: a test that fails before its own close (no engine, say) must not leave the file running. */
const listening = new Set<Server>();
const stop = async (server: Server): Promise<void> => {
  listening.delete(server);
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
};
after(() => Promise.all([...listening].map(stop)));

/** A server answering each request by `answer(method, url)`: a plain body, or `endless` repeated forever (with backpressure). */
async function hostile(answer: (method: string, url: string) => Answer): Promise<Hostile> {
  const seen: string[] = [];
  const done: Promise<number>[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    const a = answer(req.method!, req.url!);
    done.push(new Promise((resolve) => send(res, a, resolve)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  listening.add(server);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    seen,
    sent: () => Promise.all(done),
    close: () => stop(server),
  };
}

function send(res: ServerResponse, a: Answer, finished: (bytes: number) => void): void {
  let sent = 0;
  res.on('close', () => finished(sent));
  res.writeHead(a.status, { 'Content-Type': 'application/xml; charset=utf-8', ...a.headers });
  if (a.endless === undefined) {
    sent = Buffer.byteLength(a.body ?? '');
    res.end(a.body ?? '');
    return;
  }
  if (a.body) res.write(a.body);
  const chunk = Buffer.from(a.endless.repeat(Math.ceil(65536 / a.endless.length)));
  let closed = false;
  res.on('close', () => (closed = true));
  const pump = (): void => {
    while (!closed) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
  };
  pump();
}

async function rejection(p: Promise<unknown>): Promise<Record<string, unknown> & Error> {
  try {
    await p;
  } catch (e) {
    return e as Record<string, unknown> & Error;
  }
  assert.fail('expected a rejection');
}

test('a listing larger than the limit is WEBDAV_TOO_LARGE naming the folder and the limit (16 MiB by default), read no further', async () => {
  const endless = await hostile(() => ({
    status: 207,
    body: `<?xml version="1.0"?><d:multistatus xmlns:d="DAV:">`,
    endless: fileEntry('/legado/backup-x.zip', 1),
  }));
  const announced = await hostile(() => ({ status: 207, headers: { 'Content-Length': String(3 * 1024 ** 3) }, endless: ' ' }));
  const store = openStore(storePath(), { create: true });
  try {
    const byDefault = await rejection(webdavSync(store, { url: endless.url, timeoutMs: 30_000, retries: 0 }).list());
    assert.equal(byDefault.code, 'WEBDAV_TOO_LARGE', byDefault.message);
    assert.equal(byDefault.limit, 16 * MiB);
    assert.equal(byDefault.method, 'PROPFIND');
    assert.equal(byDefault.url, `${endless.url}legado/`);
    assert.match(
      byDefault.message,
      /^PROPFIND http:\/\/127\.0\.0\.1:\d+\/legado\/: more than the limit for a listing or progress file \(maxListingBytes, --max-listing\) \(16777216 bytes\); nothing was kept$/,
    );

    const small = await rejection(webdavSync(store, { url: endless.url, maxListingBytes: MiB, retries: 0 }).list());
    assert.equal(small.code, 'WEBDAV_TOO_LARGE');
    assert.equal(small.limit, MiB);
    const [first, second] = await endless.sent();
    assert.ok(first! < 16 * MiB + SLACK, `the server got ${first} bytes out before the connection was dropped`);
    assert.ok(second! < MiB + SLACK, `the server got ${second} bytes out before the connection was dropped`);

    // a Content-Length over the limit: refused before the body is read
    const big = await rejection(webdavSync(store, { url: announced.url, retries: 0 }).list());
    assert.equal(big.code, 'WEBDAV_TOO_LARGE');
    assert.equal(big.announced, 3 * 1024 ** 3);
    assert.match(big.message, /: 3221225472 bytes announced, more than the limit for a listing/);
    assert.ok((await announced.sent())[0]! < SLACK);
  } finally {
    store.close();
    await Promise.all([endless.close(), announced.close()]);
  }
});

test('a backup download over the limit (endless, or a Content-Length over it) stops there: WEBDAV_TOO_LARGE, nothing imported, no file left', async () => {
  const name = 'backup2026-01-01.zip';
  // the listing gives no size: only the download limit holds it
  const endless = await hostile((method) =>
    method === 'PROPFIND'
      ? { status: 207, body: multistatus(folderEntry('/legado/'), fileEntry(`/legado/${name}`)) }
      : { status: 200, headers: { 'Content-Type': 'application/zip' }, body: 'PK\x03\x04', endless: 'x' },
  );
  const announced = await hostile(() => ({ status: 200, headers: { 'Content-Length': String(5 * 1024 ** 3) }, body: 'PK\x03\x04', endless: 'x' }));
  const path = storePath();
  const store = openStore(path, { create: true });
  const files = () =>
    readdirSync(dirname(path))
      .filter((f) => !/-(wal|shm)$/.test(f))
      .sort();
  const folderBefore = files();
  try {
    const e = await rejection(webdavSync(store, { url: endless.url, maxDownloadBytes: 2 * MiB, retries: 0 }).restore());
    assert.equal(e.code, 'WEBDAV_TOO_LARGE', e.message);
    assert.equal(e.limit, 2 * MiB);
    assert.equal(e.url, `${endless.url}legado/${name}`);
    assert.match(
      e.message,
      /^GET http:\/\/127\.0\.0\.1:\d+\/legado\/backup2026-01-01\.zip: more than the download limit \(maxDownloadBytes, --max-download\) \(2097152 bytes\); nothing was kept$/,
    );
    assert.ok((await endless.sent())[1]! < 2 * MiB + SLACK);

    const a = await rejection(webdavSync(store, { url: announced.url, retries: 0 }).restore(name));
    assert.equal(a.code, 'WEBDAV_TOO_LARGE');
    assert.equal(a.announced, 5 * 1024 ** 3);
    assert.equal(a.limit, 1024 ** 3, 'the default download limit is 1 GiB');
    assert.ok((await announced.sent())[0]! < SLACK);

    assert.equal((store.db.prepare('SELECT count(*) AS n FROM books').get() as { n: number }).n, 0);
    assert.deepEqual(files(), folderBefore, 'no temporary download left beside the store');
  } finally {
    store.close();
  }

  // the command line: --max-download, the same error, exit 1
  const cli = await cliWith({}, 'webdav', 'restore', path, '--url', endless.url, '--max-download', '1M');
  assert.equal(cli.code, 1, cli.stderr);
  assert.match(
    cli.stderr,
    /^legado-store: WEBDAV_TOO_LARGE: GET http:\/\/127\.0\.0\.1:\d+\/legado\/backup2026-01-01\.zip: more than the download limit .*\(1048576 bytes\)/,
  );
  assert.deepEqual(files(), folderBefore);
  await Promise.all([endless.close(), announced.close()]);
});

test('a server that lies about the size: more than the listed size is refused at the listed size; a listed size over the limit is refused before the GET', async () => {
  const name = 'backup2026-01-02.zip';
  const liar = await hostile((method) =>
    method === 'PROPFIND'
      ? { status: 207, body: multistatus(folderEntry('/legado/'), fileEntry(`/legado/${name}`, 1000)) }
      : { status: 200, body: 'PK\x03\x04', endless: 'x' },
  );
  const huge = await hostile((method) =>
    method === 'PROPFIND'
      ? { status: 207, body: multistatus(folderEntry('/legado/'), fileEntry(`/legado/${name}`, 5 * 1024 ** 3)) }
      : { status: 200, body: 'PK\x03\x04', endless: 'x' },
  );
  const store = openStore(storePath(), { create: true });
  try {
    const e = await rejection(webdavSync(store, { url: liar.url, retries: 0 }).restore());
    assert.equal(e.code, 'WEBDAV_TOO_LARGE', e.message);
    assert.equal(e.limit, 1000);
    assert.match(e.message, /backup2026-01-02\.zip: more than the size the listing gave \(1000 bytes\)/);
    assert.ok((await liar.sent())[1]! < SLACK);

    const h = await rejection(webdavSync(store, { url: huge.url, retries: 0 }).restore());
    assert.equal(h.code, 'WEBDAV_TOO_LARGE');
    assert.equal(h.announced, 5 * 1024 ** 3);
    assert.deepEqual(huge.seen, ['PROPFIND /legado'], 'no GET was sent');
  } finally {
    store.close();
    await Promise.all([liar.close(), huge.close()]);
  }
});
