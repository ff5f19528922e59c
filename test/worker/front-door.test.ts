// The Worker's front door on workerd (wrangler dev, offline, 127.0.0.1). A browser sends a
// reader's stored Basic credentials with another site's request too, so a foreign origin's write
// is refused whoever is logged in (LEGADO_CORS_ORIGINS lists the origins that may); and answers
// given before a body is read reach the client: a 40 MB POST gets the 413 envelope (declared or
// chunked), a 5 MB body the upload endpoint does not read gets its envelope, not a reset.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { request } from 'node:http';
import { after, before, test } from 'node:test';
import WebSocket from 'ws';
import { envelopeText } from '../helpers/serve.js';
import { basic, startWorker, stateDir, type RunningWorker } from './helpers.js';

const EVIL = 'http://evil.example';
const PHONE = 'http://phone.local:8080';
let worker: RunningWorker;
const state = stateDir('legado-worker-door-');

before(async () => {
  worker = await startWorker(['--persist-to', state, '--var', 'LEGADO_USERS:alice:pw-a', '--var', `LEGADO_CORS_ORIGINS:${PHONE}`]);
});
after(async () => {
  await worker?.stop();
  rmSync(state, { recursive: true, force: true });
});

const ALICE = basic('alice', 'pw-a');
const book = (n: string) => JSON.stringify({ bookUrl: `https://b/${n}`, name: n, author: 'A', origin: 'local', tocUrl: '' });
const shelf = async (): Promise<string[]> => {
  const env = JSON.parse(await (await fetch(`${worker.url}getBookshelf`, { headers: ALICE })).text()) as { data?: { name: string }[] };
  return (env.data ?? []).map((b) => b.name).sort();
};

interface Raw {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** A POST of `size` spaces over node:http, its length declared or chunked; the answer, whenever it comes. */
function bigPost(path: string, size: number, chunked: boolean, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${worker.url}${path}`,
      { method: 'POST', headers: { ...ALICE, 'Content-Type': 'text/plain', ...(chunked ? {} : { 'Content-Length': String(size) }), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    const piece = Buffer.alloc(1 << 20, 0x20);
    let left = size;
    const write = (): void => {
      while (left > 0) {
        const n = Math.min(piece.length, left);
        left -= n;
        if (!req.write(n === piece.length ? piece : piece.subarray(0, n))) {
          req.once('drain', write);
          return;
        }
      }
      req.end();
    };
    write();
  });
}

test("a foreign origin: writes refused 403 before and whatever the credentials, reads get no grant; the reader's store unchanged", async () => {
  assert.equal((await fetch(`${worker.url}saveBook`, { method: 'POST', headers: ALICE, body: book('mine') })).status, 200);
  for (const [label, headers] of [
    ['text/plain with credentials', { ...ALICE, Origin: EVIL, 'Content-Type': 'text/plain' }],
    ['JSON with credentials', { ...ALICE, Origin: EVIL, 'Content-Type': 'application/json' }],
    ['Origin null', { ...ALICE, Origin: 'null', 'Content-Type': 'text/plain' }],
    ['cross-site without Origin', { ...ALICE, 'Sec-Fetch-Site': 'cross-site', 'Content-Type': 'text/plain' }],
    ['no credentials', { Origin: EVIL, 'Content-Type': 'text/plain' }],
  ] as [string, Record<string, string>][]) {
    const res = await fetch(`${worker.url}saveBook`, { method: 'POST', headers, body: book('stolen') });
    assert.equal(res.status, 403, label);
    assert.equal(res.headers.get('www-authenticate'), null, `${label}: no login prompt on their page`);
    assert.match(await res.text(), /^Forbidden: .*LEGADO_CORS_ORIGINS/, label);
  }
  const read = await fetch(`${worker.url}getBookshelf`, { headers: { ...ALICE, Origin: EVIL } });
  assert.equal(read.status, 200);
  assert.equal(read.headers.get('access-control-allow-origin'), null);
  await read.arrayBuffer();
  const pre = await fetch(`${worker.url}saveBook`, { method: 'OPTIONS', headers: { Origin: EVIL, 'Access-Control-Request-Method': 'POST' } });
  assert.equal(pre.status, 403);
  assert.deepEqual(await shelf(), ['mine']);
});

test('LEGADO_CORS_ORIGINS: a listed origin is granted its preflight (before credentials) and reads and writes with them', async () => {
  const pre = await fetch(`${worker.url}saveBook`, {
    method: 'OPTIONS',
    headers: { Origin: PHONE, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
  });
  assert.equal(pre.status, 200);
  assert.equal(pre.headers.get('access-control-allow-origin'), PHONE);
  assert.equal(pre.headers.get('access-control-allow-credentials'), 'true');
  assert.equal(pre.headers.get('access-control-allow-headers'), 'content-type');
  const saved = await fetch(`${worker.url}saveBook`, {
    method: 'POST',
    headers: { ...ALICE, Origin: PHONE, 'Content-Type': 'application/json' },
    body: book('phone'),
  });
  assert.equal(saved.status, 200);
  assert.equal(saved.headers.get('access-control-allow-origin'), PHONE);
  assert.equal(JSON.parse(await saved.text()).isSuccess, true);
  assert.ok((await shelf()).includes('phone'));
});

test('a WebSocket from a foreign origin is refused; from the own origin it answers', async () => {
  const open = (headers: Record<string, string>) =>
    new Promise<string>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${worker.port}/searchBook`, { headers });
      ws.on('open', () => ws.send('{"key":"x"}'));
      ws.on('message', (d) => {
        resolve(`message ${d.toString().slice(0, 40)}`);
        ws.close();
      });
      ws.on('unexpected-response', (_q, res) => {
        resolve(`status ${res.statusCode}`);
        res.resume();
        ws.terminate();
      });
      ws.on('error', (e) => (/Unexpected server response/.test(e.message) ? undefined : reject(e)));
    });
  assert.equal(await open({ ...ALICE, Origin: EVIL }), 'status 403');
  assert.match(await open({ ...ALICE, Origin: `http://127.0.0.1:${worker.port}` }), /^message /);
});

test('a 40 MB POST gets the 413 envelope, its length declared or chunked; a 5 MB body /addLocalBook does not read gets its answer', async () => {
  const TOO_LARGE = envelopeText(false, `请求体过大: the request body is larger than ${32 << 20} bytes`);
  for (const chunked of [false, true]) {
    const res = await bigPost('saveReadConfig', 40 << 20, chunked);
    assert.equal(res.status, 413, `chunked ${chunked}`);
    assert.equal(res.body, TOO_LARGE, `chunked ${chunked}`);
  }
  for (const chunked of [false, true]) {
    const res = await bigPost('addLocalBook?fileName=a.txt', 5 << 20, chunked, { 'Content-Type': 'application/octet-stream' });
    // A refusal: a failing status, as the app's upload page reads only the status (serve-upload-status.test.ts).
    assert.equal(res.status, 400, `chunked ${chunked}`);
    assert.equal(res.body, envelopeText(false, 'fileData 不能为空'), `chunked ${chunked}`);
  }
  // A body under the limit, chunked, still arrives whole.
  const config = `{"pad":"${' '.repeat(3 << 20)}"}`;
  const stream = new Blob([config]).stream();
  assert.equal((await fetch(`${worker.url}saveReadConfig`, { method: 'POST', headers: ALICE, body: stream, duplex: 'half' } as RequestInit)).status, 200);
  const back = JSON.parse(await (await fetch(`${worker.url}getReadConfig`, { headers: ALICE })).text()) as { data: string };
  assert.equal(back.data, config);
  assert.ok((await shelf()).includes('mine'), 'still serving');
});
