// The server's front door over real HTTP on 127.0.0.1: a page of another origin gets no CORS
// grant and can change nothing, whatever the method or content type (text/plain and multipart
// need no preflight, so the refusal is the server's); an origin the operator lists reads and
// writes; a Host that is not the server's own (DNS rebinding) is refused unless listed or behind
// credentials; the WebSockets on port + 1 keep the same rules. The store is read by raw SQL.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { WebSocket } from 'ws';
import { cli } from './helpers/cli.js';
import { openDb } from './helpers/engine.js';
import { envelopeText, served, type Served } from './helpers/serve.js';

const EVIL = 'http://evil.example';
const BOOK = JSON.stringify({ bookUrl: 'u:evil', name: '偷', author: 'E', origin: 'x' });

interface Raw {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** A request with exactly these headers (Host included, which fetch does not let a caller set). */
function raw(url: string, path: string, method: string, headers: Record<string, string>, body?: string | Uint8Array): Promise<Raw> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** What the file holds, read on a connection of its own. */
function fileRows(s: Served): { books: number; caches: number; sources: number } {
  const db = openDb(s.path, { readonly: true });
  try {
    const n = (t: string) => db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number;
    return { books: n('books'), caches: n('caches'), sources: n('book_sources') };
  } finally {
    db.close();
  }
}

const withBook = (st: Served['store']) => st.tables.books.insert({ bookUrl: 'u:1', name: '三体', author: '刘慈欣', origin: 'x' });

test('a foreign origin: GETs answered without a grant; every write refused 403 whatever its type, the file unchanged', async () => {
  const s = await served({}, withBook);
  const before = fileRows(s);
  const shelf = await s.get('/getBookshelf', { Origin: EVIL });
  assert.equal(shelf.status, 200);
  assert.equal(shelf.headers.get('access-control-allow-origin'), null);
  assert.equal(shelf.headers.get('access-control-allow-credentials'), null);

  const form = new FormData();
  form.append('fileData', new Blob(['第1章 一\n正文\n']), 'x.txt');
  const writes: [string, RequestInit][] = [
    ['saveBook text/plain', { method: 'POST', body: BOOK, headers: { 'Content-Type': 'text/plain', Origin: EVIL } }],
    ['saveBook JSON', { method: 'POST', body: BOOK, headers: { 'Content-Type': 'application/json', Origin: EVIL } }],
    ['deleteBook', { method: 'POST', body: JSON.stringify({ bookUrl: 'u:1' }), headers: { 'Content-Type': 'text/plain', Origin: EVIL } }],
    ['saveReadConfig form', { method: 'POST', body: 'a=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: EVIL } }],
    ['addLocalBook multipart', { method: 'POST', body: form, headers: { Origin: EVIL } }],
    ['api/import', { method: 'POST', body: JSON.stringify([{ bookSourceUrl: 'https://a', bookSourceName: 'a' }]), headers: { Origin: EVIL } }],
    ['Origin null', { method: 'POST', body: BOOK, headers: { 'Content-Type': 'text/plain', Origin: 'null' } }],
    ['a file: page', { method: 'POST', body: BOOK, headers: { 'Content-Type': 'text/plain', Origin: 'file://' } }],
    ['another port of 127.0.0.1', { method: 'POST', body: BOOK, headers: { 'Content-Type': 'text/plain', Origin: 'http://127.0.0.1:1' } }],
    ['no Origin, Sec-Fetch-Site cross-site', { method: 'POST', body: BOOK, headers: { 'Content-Type': 'text/plain', 'Sec-Fetch-Site': 'cross-site' } }],
    ['PUT', { method: 'PUT', body: BOOK, headers: { Origin: EVIL } }],
    ['DELETE', { method: 'DELETE', headers: { Origin: EVIL } }],
    ['PATCH', { method: 'PATCH', body: BOOK, headers: { Origin: EVIL } }],
  ];
  const paths: Record<string, string> = {
    deleteBook: 'deleteBook',
    'saveReadConfig form': 'saveReadConfig',
    'addLocalBook multipart': 'addLocalBook?fileName=x.txt',
    'api/import': 'api/import',
  };
  for (const [label, init] of writes) {
    const res = await fetch(s.server.url + (paths[label] ?? 'saveBook'), init);
    assert.equal(res.status, 403, label);
    assert.equal(res.headers.get('access-control-allow-origin'), null, label);
    assert.match(await res.text(), /^Forbidden: .*may not change the store .*--cors-origin/, label);
  }
  assert.deepEqual(fileRows(s), before);
  assert.deepEqual(s.rows('SELECT bookUrl FROM books'), [{ bookUrl: 'u:1' }]);
  const books = join(dirname(s.path), 'books');
  assert.ok(!existsSync(books) || readdirSync(books).length === 0, 'no upload kept');

  // The JSON preflight: refused, no grant.
  const pre = await fetch(s.server.url + 'saveBook', {
    method: 'OPTIONS',
    headers: { Origin: EVIL, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
  });
  assert.equal(pre.status, 403);
  assert.equal(pre.headers.get('access-control-allow-origin'), null);
});

test("the server's own pages (same origin, under each name it answers) write without any grant", async () => {
  const s = await served();
  const port = s.server.port;
  for (const [i, host] of [`127.0.0.1:${port}`, `localhost:${port}`].entries()) {
    const book = JSON.stringify({ bookUrl: `u:own${i}`, name: `己${i}`, author: 'O', origin: 'x' });
    const res = await raw(
      s.server.url,
      '/saveBook',
      'POST',
      { Host: host, Origin: `http://${host}`, 'Content-Type': 'text/plain', 'Sec-Fetch-Site': 'same-origin' },
      book,
    );
    assert.equal(res.status, 200, host);
    assert.equal(res.body, envelopeText(true, '', '""'), host);
    assert.equal(res.headers['access-control-allow-origin'], undefined, host);
  }
  assert.deepEqual(s.rows('SELECT bookUrl FROM books ORDER BY bookUrl'), [{ bookUrl: 'u:own0' }, { bookUrl: 'u:own1' }]);
});

test('a listed --cors-origin gets the grant on reads and preflights and can write; another origin still cannot', async () => {
  const phone = 'http://phone.local:8080';
  const s = await served({ corsOrigins: [phone] });
  const pre = await fetch(s.server.url + 'saveBook', { method: 'OPTIONS', headers: { Origin: phone, 'Access-Control-Request-Method': 'POST' } });
  assert.equal(pre.status, 200);
  assert.equal(pre.headers.get('access-control-allow-origin'), phone);
  assert.equal(pre.headers.get('access-control-allow-methods'), 'POST');
  const saved = await s.post('/saveBook', BOOK, { 'Content-Type': 'application/json', Origin: phone });
  assert.equal(saved.status, 200);
  assert.equal(saved.headers.get('access-control-allow-origin'), phone);
  assert.equal(saved.headers.get('access-control-allow-credentials'), 'true');
  assert.match(saved.headers.get('vary') ?? '', /Origin/);
  const shelf = await s.get('/getBookshelf', { Origin: phone });
  assert.equal(shelf.headers.get('access-control-allow-origin'), phone);
  assert.equal((shelf.json() as { data: { name: string }[] }).data[0]!.name, '偷');
  // Another origin on the same server: no grant, no write; a cache keyed without Origin is told it varies.
  const other = await s.get('/getBookshelf', { Origin: EVIL });
  assert.equal(other.headers.get('access-control-allow-origin'), null);
  assert.match(other.headers.get('vary') ?? '', /Origin/);
  assert.equal((await s.post('/deleteBook', JSON.stringify({ bookUrl: 'u:evil' }), { 'Content-Type': 'text/plain', Origin: EVIL })).status, 403);
  assert.equal(s.sql('SELECT count(*) FROM books'), 1);
});

test('Host: only the bound address and localhost with the port, and listed names; a foreign name gets 421 and nothing else', async () => {
  const s = await served({}, withBook);
  const port = s.server.port;
  for (const host of ['evil.example', `evil.example:${port}`, `localhost:${port + 2}`, `127.0.0.1`, `127.0.0.1.evil.example:${port}`, `[::2]:${port}`]) {
    for (const path of ['/getBookshelf', '/api/database', '/api/export', '/']) {
      const res = await raw(s.server.url, path, 'GET', { Host: host });
      assert.equal(res.status, 421, `${host} ${path}`);
      assert.match(res.body, /^Misdirected Request: .*--allowed-host/, host);
      assert.ok(!res.body.includes('三体') && !res.body.includes('SQLite format'), `${host} ${path}: nothing of the store`);
    }
    const write = await raw(s.server.url, '/saveBook', 'POST', { Host: host, Origin: `http://${host}`, 'Content-Type': 'text/plain' }, BOOK);
    assert.equal(write.status, 421, host);
  }
  // A target naming another host (absolute form) is checked on that name too.
  const absolute = await raw(s.server.url, `http://evil.example:${port}/getBookshelf`, 'GET', { Host: `127.0.0.1:${port}` });
  assert.equal(absolute.status, 421);
  assert.doesNotMatch(absolute.body, /三体/);
  for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
    const res = await raw(s.server.url, '/getBookshelf', 'GET', { Host: host });
    assert.equal(res.status, 200, host);
    assert.match(res.body, /三体/, host);
  }
  assert.equal(fileRows(s).books, 1);
});

test('--allowed-host names are answered (a name alone on any port); with --user any Host is answered after credentials unless names are listed', async () => {
  const listed = await served({ allowedHosts: ['books.lan', 'nas.lan:8443'] });
  const port = listed.server.port;
  for (const host of ['books.lan', `books.lan:${port}`, 'nas.lan:8443'])
    assert.equal((await raw(listed.server.url, '/getBookshelf', 'GET', { Host: host })).status, 200, host);
  for (const host of [`nas.lan:${port}`, `evil.example:${port}`])
    assert.equal((await raw(listed.server.url, '/getBookshelf', 'GET', { Host: host })).status, 421, host);

  const auth = { user: 'me', password: 'pw' };
  const basic = `Basic ${Buffer.from('me:pw').toString('base64')}`;
  const locked = await served({ auth }, withBook);
  const evilHost = `evil.example:${locked.server.port}`;
  assert.equal((await raw(locked.server.url, '/getBookshelf', 'GET', { Host: evilHost })).status, 401);
  const ok = await raw(locked.server.url, '/getBookshelf', 'GET', { Host: evilHost, Authorization: basic });
  assert.equal(ok.status, 200);
  assert.match(ok.body, /三体/);
  // A foreign origin's write is refused before credentials are even asked (no login prompt on its page).
  const foreign = await raw(locked.server.url, '/saveBook', 'POST', { Origin: EVIL, Authorization: basic, 'Content-Type': 'text/plain' }, BOOK);
  assert.equal(foreign.status, 403);
  assert.equal(fileRows(locked).books, 1);

  const both = await served({ auth, allowedHosts: ['books.lan'] });
  assert.equal((await raw(both.server.url, '/getBookshelf', 'GET', { Host: `evil.example:${both.server.port}`, Authorization: basic })).status, 421);
  assert.equal((await raw(both.server.url, '/getBookshelf', 'GET', { Host: 'books.lan', Authorization: basic })).status, 200);
  assert.equal((await raw(both.server.url, '/getBookshelf', 'GET', { Host: `127.0.0.1:${both.server.port}`, Authorization: basic })).status, 200);
});

/** The outcome of opening a socket: its first message, or the HTTP status it was refused with. */
function openSocket(url: string, headers: Record<string, string>): Promise<{ status: number; message?: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.on('open', () => ws.send('{"key":"三体"}'));
    ws.on('message', (d) => {
      resolve({ status: 101, message: d.toString() });
      ws.close();
    });
    ws.on('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode ?? 0 });
      res.resume();
      ws.terminate();
    });
    ws.on('error', (e) => {
      if (!/Unexpected server response/.test(e.message)) reject(e);
    });
  });
}

test('WebSockets on port + 1: a foreign origin or Host is refused; the HTTP port’s own pages and a listed origin connect', async () => {
  const phone = 'http://phone.local:8080';
  const s = await served({ corsOrigins: [phone] });
  const url = `${s.server.wsUrl}searchBook`;
  const ws = s.server.wsPort;
  assert.deepEqual(await openSocket(url, { Origin: EVIL }), { status: 403 });
  assert.deepEqual(await openSocket(url, { Origin: 'null' }), { status: 403 });
  assert.deepEqual(await openSocket(url, { Host: `evil.example:${ws}`, Origin: `http://evil.example:${s.server.port}` }), { status: 421 });
  for (const origin of [`http://127.0.0.1:${s.server.port}`, phone]) {
    const ok = await openSocket(url, { Origin: origin });
    assert.equal(ok.status, 101, origin);
    assert.match(ok.message ?? '', /does not fetch from book sources/, origin);
  }
  const local = await openSocket(url, { Host: `localhost:${ws}`, Origin: `http://localhost:${s.server.port}` });
  assert.equal(local.status, 101);
});

test('serve refuses a --cors-origin that is no origin and an --allowed-host that is no host name', async () => {
  const path = 'never-opened.db';
  for (const bad of ['evil.example', 'http://a.b/path', 'ftp://a.b', 'null', 'http://u:p@a.b']) {
    const r = await cli('serve', path, '--port', '0', '--cors-origin', bad);
    assert.equal(r.code, 2, bad);
    assert.match(r.stderr, /--cors-origin must be an origin/, bad);
  }
  for (const bad of ['http://a.b', 'a b', 'a/b', '']) {
    const r = await cli('serve', path, '--port', '0', '--allowed-host', bad);
    assert.equal(r.code, 2, bad);
    assert.match(r.stderr, /--allowed-host must be a host name/, bad);
  }
});
