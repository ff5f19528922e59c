// `legado-store serve` as a user runs it, a real child process: the WebSockets' not-supported
// answers, credentials off 127.0.0.1 (never printed), and a stop on SIGTERM that lets a request
// in flight (held in its WebDAV upload) finish before the store is closed.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { WebSocket } from 'ws';
import { openStore } from '../src/store/open.js';
import { CLI, cli } from './helpers/cli.js';
import { PASSWORD, USER, startNodeDav } from './helpers/dav-servers.js';
import { tempDir } from './helpers/files.js';
import { openDb } from './helpers/engine.js';

interface Child {
  readonly child: ChildProcess;
  readonly url: string;
  readonly wsUrl: string;
  output(): string;
  waitFor(text: string): Promise<void>;
  exited: Promise<number | null>;
}

function startServe(args: string[], env: Record<string, string> = {}): Promise<Child> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  after(() => void child.kill('SIGKILL'));
  let out = '';
  const waiters: { text: string; resolve: () => void }[] = [];
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const seen = (d: Buffer) => {
    out += d.toString();
    for (const w of waiters.splice(0))
      if (out.includes(w.text)) w.resolve();
      else waiters.push(w);
  };
  child.stdout!.on('data', seen);
  child.stderr!.on('data', seen);
  const waitFor = (text: string) => (out.includes(text) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ text, resolve })));
  return new Promise((resolve, reject) => {
    void exited.then((code) => reject(new Error(`serve exited (${code}): ${out}`)));
    void waitFor('Ctrl-C stops it.').then(() => {
      const url = /HTTP\s+(\S+)/.exec(out)![1]!;
      const wsUrl = /WebSocket\s+(\S+)/.exec(out)![1]!;
      resolve({ child, url, wsUrl, output: () => out, waitFor, exited });
    });
  });
}

function storeFile(schema: 62 | 75 = 62): string {
  const path = join(tempDir('legado-serve-cli-'), 'store.db');
  const store = openStore(path, { schema });
  store.tables.books.insert({ bookUrl: 'u:1', name: '书', author: '作者', origin: 'x', durChapterIndex: 1, durChapterTime: 1000 });
  store.close();
  return path;
}

/** The first message and the close of a WebSocket that sent `message`. */
function wsExchange(url: string, message: string): Promise<{ messages: string[]; code: number; reason: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const messages: string[] = [];
    ws.on('open', () => ws.send(message));
    ws.on('message', (d) => messages.push(d.toString()));
    ws.on('close', (code, reason) => resolve({ messages, code, reason: reason.toString() }));
    ws.on('error', reject);
  });
}

test('WebSockets on port + 1: search and debuggers answer that the server does not fetch, then close as the app does', async () => {
  const s = await startServe([storeFile(), '--port', '0']);
  const search = await wsExchange(`${s.wsUrl}searchBook`, '{"key":"三体"}');
  assert.equal(search.messages.length, 1);
  assert.match(search.messages[0]!, /does not fetch from book sources/);
  assert.deepEqual([search.code, search.reason], [1000, 'Search finish']);
  assert.deepEqual(await wsExchange(`${s.wsUrl}searchBook`, 'not json'), { messages: ['数据必须为Json格式'], code: 1000, reason: 'Search finish' });
  assert.deepEqual(await wsExchange(`${s.wsUrl}searchBook`, '{"key":" "}'), { messages: ['不能为空'], code: 1000, reason: 'Search finish' });
  assert.deepEqual(await wsExchange(`${s.wsUrl}bookSourceDebug`, '{"tag":"https://a"}'), { messages: ['不能为空'], code: 1000, reason: '调试结束' });
  const rss = await wsExchange(`${s.wsUrl}rssSourceDebug`, '{"tag":"https://a","key":"x"}');
  assert.match(rss.messages[0]!, /does not fetch/);
  assert.deepEqual([rss.code, rss.reason], [1000, '调试结束']);
  s.child.kill('SIGINT');
  assert.equal(await s.exited, 0);
  assert.match(s.output(), /SIGINT: stopping/);
  assert.match(s.output(), /stopped, store closed/);
});

test('another address than 127.0.0.1 needs --user and LEGADO_SERVE_PASSWORD; the password is never printed', async () => {
  const path = storeFile();
  const r = await cli('serve', path, '--host', '0.0.0.0', '--port', '0');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--user/);
  const r2 = await cli('serve', path, '--host', '0.0.0.0', '--port', '0', '--user', 'me');
  assert.equal(r2.code, 2);
  assert.match(r2.stderr, /LEGADO_SERVE_PASSWORD/);
  const secret = 'S3cret-pa55-☃';
  const s = await startServe([path, '--host', '0.0.0.0', '--port', '0', '--user', 'me'], { LEGADO_SERVE_PASSWORD: secret });
  assert.match(s.output(), /HTTP Basic credentials required \(user me/);
  const port = new URL(s.url).port;
  assert.equal((await fetch(`http://127.0.0.1:${port}/getBookshelf`)).status, 401);
  const ok = await fetch(`http://127.0.0.1:${port}/getBookshelf`, { headers: { Authorization: `Basic ${Buffer.from(`me:${secret}`).toString('base64')}` } });
  assert.equal(ok.status, 200);
  s.child.kill('SIGTERM');
  assert.equal(await s.exited, 0);
  assert.ok(!s.output().includes(secret));
  assert.ok(!s.output().includes(Buffer.from(secret).toString('base64')));
});

test('SIGTERM while a progress save waits on its WebDAV upload: the request finishes, the upload and syncTime land, then the store is closed', async () => {
  const dav = await startNodeDav();
  after(() => dav.close());
  mkdirSync(join(dav.dir, 'legado', 'bookProgress'), { recursive: true });
  // A gate in front of the real WebDAV server: PUTs wait until released.
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let sawPut!: () => void;
  const putSeen = new Promise<void>((r) => (sawPut = r));
  const upstream = new URL(dav.url);
  const gate: Server = createServer((req, res) => {
    const forward = () => {
      const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(out);
    };
    if (req.method === 'PUT') {
      sawPut();
      void released.then(forward);
    } else forward();
  });
  await new Promise<void>((r) => gate.listen(0, '127.0.0.1', r));
  after(() => void gate.close());
  const gateUrl = `http://127.0.0.1:${(gate.address() as AddressInfo).port}/`;

  const path = storeFile(75);
  const s = await startServe([path, '--port', '0', '--webdav-url', gateUrl, '--webdav-user', USER], { LEGADO_WEBDAV_PASSWORD: PASSWORD });
  const answer = fetch(`${s.url}saveBookProgress`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
    body: JSON.stringify({ name: '书', author: '作者', durChapterIndex: 9, durChapterPos: 33, durChapterTime: 1700000000000, durChapterTitle: '第十章' }),
  }).then((r) => r.text());
  await putSeen;
  s.child.kill('SIGTERM');
  await s.waitFor('SIGTERM: stopping');
  release();
  assert.equal(await answer, '{\n  "isSuccess": true,\n  "errorMsg": "",\n  "data": ""\n}');
  assert.equal(await s.exited, 0);
  assert.match(s.output(), /stopped, store closed/);
  const file = join(dav.dir, 'legado', 'bookProgress', '书_作者.json');
  assert.ok(existsSync(file));
  assert.equal(
    readFileSync(file, 'utf8'),
    '{\n  "name": "书",\n  "author": "作者",\n  "durChapterIndex": 9,\n  "durChapterPos": 33,\n  "durChapterTime": 1700000000000,\n  "durChapterTitle": "第十章"\n}',
  );
  const db = openDb(path);
  try {
    const row = db.prepare('SELECT durChapterIndex, durChapterPos, syncTime FROM books').get() as {
      durChapterIndex: number;
      durChapterPos: number;
      syncTime: number;
    };
    assert.equal(row.durChapterIndex, 9);
    assert.equal(row.durChapterPos, 33);
    assert.ok(row.syncTime > 0, 'syncTime set after the upload');
  } finally {
    db.close();
  }
});

test('--cors-origin and --allowed-host: said at start, a listed origin granted and a listed Host answered; others refused', async () => {
  const s = await startServe([storeFile(), '--port', '0', '--cors-origin', 'http://Phone.local:8080/', '--allowed-host', 'Books.lan']);
  assert.match(s.output(), /pages of http:\/\/phone\.local:8080 may read and write \(CORS\)/);
  assert.match(s.output(), /also answering Host books\.lan/);
  const granted = await fetch(`${s.url}getBookshelf`, { headers: { Origin: 'http://phone.local:8080' } });
  assert.equal(granted.headers.get('access-control-allow-origin'), 'http://phone.local:8080');
  await granted.arrayBuffer();
  const refused = await fetch(`${s.url}saveReadConfig`, { method: 'POST', body: '{}', headers: { Origin: 'http://evil.example' } });
  assert.equal(refused.status, 403);
  await refused.arrayBuffer();
  const hostStatus = (host: string) =>
    new Promise<number>((resolve, reject) => {
      const u = new URL(s.url);
      request({ host: u.hostname, port: u.port, path: '/getBookshelf', headers: { Host: host } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
  assert.equal(await hostStatus('books.lan'), 200);
  assert.equal(await hostStatus(`evil.example:${new URL(s.url).port}`), 421);
  s.child.kill('SIGTERM');
  assert.equal(await s.exited, 0);
});

test('--allow-private-hosts (or LEGADO_ALLOW_PRIVATE_HOSTS=1): a cover on 127.0.0.1 is fetched; without it the default cover', async () => {
  // A PNG signature and a few bytes, served on loopback as an image.
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
  const images = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': png.length });
    res.end(png);
  });
  await new Promise<void>((r) => images.listen(0, '127.0.0.1', r));
  after(() => images.close());
  const coverUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}/c.png`;
  const cover = async (s: Child) => {
    const res = await fetch(`${s.url}cover?path=${encodeURIComponent(coverUrl)}`);
    return { type: res.headers.get('content-type'), bytes: new Uint8Array(await res.arrayBuffer()) };
  };
  for (const [args, env] of [
    [['--allow-private-hosts'], {}],
    [[], { LEGADO_ALLOW_PRIVATE_HOSTS: '1' }],
  ] as const) {
    const s = await startServe([storeFile(), '--port', '0', ...args], env);
    assert.match(s.output(), /may reach loopback and private addresses/);
    const got = await cover(s);
    assert.equal(got.type, 'image/png');
    assert.deepEqual([...got.bytes], [...png]);
    s.child.kill('SIGTERM');
    assert.equal(await s.exited, 0);
  }
  const s = await startServe([storeFile(), '--port', '0'], { LEGADO_ALLOW_PRIVATE_HOSTS: '' });
  assert.doesNotMatch(s.output(), /may reach loopback/);
  const got = await cover(s);
  assert.equal(got.type, 'image/svg+xml'); // the default cover: the address was refused
  s.child.kill('SIGTERM');
  assert.equal(await s.exited, 0);
});
