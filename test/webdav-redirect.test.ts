// Credentials go only to the origin they were given for: a WebDAV server that answers with a 307
// to another port of the same address must not receive the account's Authorization header
// there. Two real node:http servers on 127.0.0.1; what each received is what is asserted.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { openStore } from 'legado-store';
import { webdavSync } from 'legado-store/webdav';
import { tempDir } from './helpers/files.js';

const MULTISTATUS = (href: string) =>
  `<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:"><d:response><d:href>${href}</d:href>` +
  '<d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

async function listen(
  handle: (req: { method: string; url: string }, res: import('node:http').ServerResponse, seen: Seen[]) => void,
): Promise<{ server: Server; base: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers });
    req.resume();
    req.on('end', () => handle({ method: req.method!, url: req.url! }, res, seen));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  listening.add(server);
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** Servers not closed yet: a test that fails before its own close (no engine, say) must not leave the file running. */
const listening = new Set<Server>();
const close = (s: Server) =>
  new Promise<void>((r) => {
    listening.delete(s);
    s.closeAllConnections();
    s.close(() => r());
  });
after(() => Promise.all([...listening].map(close)));

test('a 307 to another port of 127.0.0.1 is followed without the Authorization header; a same-origin redirect keeps it', async () => {
  const other = await listen((req, res) => {
    res.writeHead(207, { 'Content-Type': 'application/xml; charset=utf-8' }).end(MULTISTATUS(req.url));
  });
  const origin = await listen((req, res) => {
    if (req.url.startsWith('/legado')) res.writeHead(307, { Location: `${other.base}${req.url}` }).end();
    else res.writeHead(404).end();
  });
  const same = await listen((req, res) => {
    if (req.url.startsWith('/legado')) res.writeHead(307, { Location: `/moved${req.url}` }).end();
    else res.writeHead(207, { 'Content-Type': 'application/xml; charset=utf-8' }).end(MULTISTATUS(req.url));
  });
  const store = openStore(join(tempDir(), 's.db'), { create: true });
  try {
    const expected = `Basic ${Buffer.from('reader:secret-pw', 'utf8').toString('base64')}`;
    const report = await webdavSync(store, { url: `${origin.base}/`, user: 'reader', password: 'secret-pw', retries: 0 }).list();
    assert.deepEqual(report.backups, []);
    assert.equal(origin.seen.length, 1);
    assert.equal(origin.seen[0]!.headers.authorization, expected, 'the origin it was given for gets it');
    assert.equal(other.seen.length, 1, 'the redirect was followed');
    assert.equal(other.seen[0]!.method, 'PROPFIND');
    assert.equal(other.seen[0]!.url, '/legado');
    assert.equal(other.seen[0]!.headers.authorization, undefined, 'another port is another origin: no credentials');

    await webdavSync(store, { url: `${same.base}/`, user: 'reader', password: 'secret-pw', retries: 0 }).list();
    assert.deepEqual(
      same.seen.map((s) => [s.method, s.url, s.headers.authorization]),
      [
        ['PROPFIND', '/legado', expected],
        ['PROPFIND', '/moved/legado', expected],
      ],
    );
  } finally {
    store.close();
    await Promise.all([close(other.server), close(origin.server), close(same.server)]);
  }
});
