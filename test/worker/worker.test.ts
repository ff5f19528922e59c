// The Worker on workerd (wrangler dev, offline, 127.0.0.1): HTTP Basic per reader, one store per
// reader, the app's API answered as `legado-store serve` answers it (the same requests sent to
// both, answers compared byte for byte, and the app's texts spelled out), /api/database against
// the Room-schema oracle, the app's sockets on the same origin.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { strFromU8, unzipSync } from 'fflate';
import WebSocket from 'ws';
import { hashPassword } from '../../src/worker/auth.js';
import { NO_ENGINE } from '../../src/server/context.js';
import { openDb } from '../helpers/engine.js';
import { createRoomFile, roomSchema, roomStructure } from '../helpers/room-oracle.js';
import { envelopeText, served } from '../helpers/serve.js';
import { basic, startWorker, stateDir, type RunningWorker } from './helpers.js';

const READERS = Array.from({ length: 20 }, (_, i) => `r${i}`);
let worker: RunningWorker;
const state = stateDir('legado-worker-api-');

before(async () => {
  const carol = await hashPassword('pw-c');
  const users = ['alice:pw-a', 'bob:pw-b', `carol:${carol}`, ...READERS.map((r) => `${r}:secret-${r}`)].join(',');
  worker = await startWorker(['--persist-to', state, '--var', `LEGADO_USERS:${users}`]);
});
after(async () => {
  await worker?.stop();
  rmSync(state, { recursive: true, force: true });
});

const send = (path: string, headers: Record<string, string>, body?: string): Promise<Response> =>
  fetch(
    worker.url + path.replace(/^\//, ''),
    body === undefined ? { headers } : { method: 'POST', body, headers: { 'Content-Type': 'application/json', ...headers } },
  );

test('auth: no, wrong, unknown or malformed credentials are 401 with WWW-Authenticate; plain and PBKDF2 secrets let in', async () => {
  const cases: [string, Record<string, string>][] = [
    ['none', {}],
    ['wrong password', basic('alice', 'nope')],
    ['unknown reader', basic('mallory', 'pw-a')],
    ["another reader's password", basic('alice', 'pw-b')],
    ['hashed, wrong', basic('carol', 'pw-a')],
    ['malformed', { Authorization: 'Basic !!!' }],
    ['not Basic', { Authorization: 'Bearer pw-a' }],
  ];
  for (const [label, headers] of cases) {
    const res = await send('/getBookshelf', headers);
    assert.equal(res.status, 401, label);
    assert.match(res.headers.get('www-authenticate') ?? '', /^Basic realm="legado-store"/, label);
    assert.doesNotMatch(await res.text(), /isSuccess/, label);
  }
  for (const [name, pw] of [
    ['alice', 'pw-a'],
    ['carol', 'pw-c'],
  ]) {
    const res = await send('/getBookshelf', basic(name!, pw!));
    assert.equal(res.status, 200, name);
    assert.equal(await res.text(), envelopeText(false, '还没有添加小说'));
  }
});

test("isolation: 20 readers write at once, each sees exactly its own books; one never reads another's", async () => {
  await Promise.all(
    READERS.flatMap((r) =>
      Array.from({ length: 5 }, (_, i) =>
        send(
          '/saveBook',
          basic(r, `secret-${r}`),
          JSON.stringify({ bookUrl: `https://b/${r}/${i}`, name: `${r}-书${i}`, author: r, origin: 'local', tocUrl: '', durChapterTime: 1000 + i }),
        ).then(async (res) => {
          assert.equal(res.status, 200);
          assert.equal(JSON.parse(await res.text()).isSuccess, true);
        }),
      ),
    ),
  );
  for (const r of READERS) {
    const shelf = JSON.parse(await (await send('/getBookshelf', basic(r, `secret-${r}`))).text()) as { data: { name: string; author: string }[] };
    assert.deepEqual(
      shelf.data.map((b) => b.name).sort(),
      [0, 1, 2, 3, 4].map((i) => `${r}-书${i}`),
      r,
    );
  }
  // Naming another reader's book changes nothing for them: the request goes to the caller's own store.
  const res = await send('/getBookContent?url=' + encodeURIComponent('https://b/r1/0') + '&index=0', basic('r2', 'secret-r2'));
  assert.doesNotMatch(await res.text(), /r1-书/);
  assert.deepEqual(await (await send('/getBookshelf', basic('bob', 'pw-b'))).text(), envelopeText(false, '还没有添加小说'));
});

test("contract: the app's API answers from the Worker exactly as from `legado-store serve` (same requests, same bytes)", async () => {
  const node = await served({}, undefined, 75);
  const auth = basic('alice', 'pw-a');
  const longUrl = `https://www.example-book-source.com/a/long/path/${'y'.repeat(40)}`;
  const steps: [string, string?][] = [
    ['/getBookSources'],
    ['/saveBookSource', JSON.stringify({ bookSourceUrl: longUrl, bookSourceName: '长源', bookSourceGroup: '甲', lastUpdateTime: 1, customOrder: 2 })],
    [
      '/saveBookSources',
      JSON.stringify([
        { bookSourceUrl: 'https://s/1', bookSourceName: '一', lastUpdateTime: 1 },
        { bookSourceUrl: '', bookSourceName: 'blank' },
      ]),
    ],
    ['/getBookSources'],
    ['/getBookSource?url=' + encodeURIComponent(longUrl)],
    ['/getBookSource?url=https://nope/'],
    ['/saveBookSource', '{not json'],
    ['/deleteBookSources', JSON.stringify([{ bookSourceUrl: 'https://s/1' }])],
    // Its cached variables go too: a LIKE pattern past the host's 50 bytes (matched in JavaScript there).
    ['/deleteBookSources', JSON.stringify([{ bookSourceUrl: longUrl }])],
    ['/getBookSources'],
    [
      '/saveBook',
      JSON.stringify({
        bookUrl: 'https://b/x',
        name: '契约',
        author: '甲',
        origin: 'local',
        tocUrl: '',
        durChapterTime: 5,
        latestChapterTime: 6,
        lastCheckTime: 7,
      }),
    ],
    ['/saveBookProgress', JSON.stringify({ name: '契约', author: '甲', durChapterIndex: 4, durChapterPos: 9, durChapterTime: 8, durChapterTitle: '四' })],
    ['/saveBookProgress', JSON.stringify({ name: '无', author: '无', durChapterIndex: 1 })],
    ['/getBookshelf'],
    ['/getChapterList?url=' + encodeURIComponent('https://b/x')],
    ['/saveReadConfig', '{"theme":1}'],
    ['/getReadConfig'],
    ['/getReplaceRules'],
    ['/saveReplaceRule', JSON.stringify({ id: 3, name: '规则', pattern: 'a', replacement: 'b', isEnabled: true, isRegex: false, order: 1 })],
    ['/getReplaceRules'],
    ['/testReplaceRule', JSON.stringify({ rule: { pattern: '(a)', replacement: '[$1]', isRegex: true }, text: 'banana' })],
    ['/getRssSources'],
    ['/deleteBook', JSON.stringify({ bookUrl: 'https://b/x' })],
    ['/getBookshelf'],
  ];
  for (const [path, body] of steps) {
    const fromWorker = await send(path, auth, body);
    const fromNode = body === undefined ? await node.get(path) : await node.post(path, body);
    assert.equal(fromWorker.status, fromNode.status, path);
    assert.equal(await fromWorker.text(), fromNode.text, `${path} ${body ?? ''}`);
  }
  // Spelled out from the app (HttpServer / BookSourceController), so both cannot be wrong alike.
  assert.equal(await (await send('/getBookSource?url=https://nope/', auth)).text(), envelopeText(false, '未找到源，请检查书源地址'));
  assert.equal(await (await send('/getBookshelf', auth)).text(), envelopeText(false, '还没有添加小说'));
});

test("/api/database: a SQLite file of the reader's store, structured as the app creates its version (Room-schema oracle)", async () => {
  // r3's five books were written by the isolation test above (the tests of this file run in order).
  const auth = basic('r3', 'secret-r3');
  const res = await send('/api/database', auth);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/vnd.sqlite3');
  const dir = stateDir('legado-worker-db-');
  try {
    const file = join(dir, 'legado.db');
    writeFileSync(file, new Uint8Array(await res.arrayBuffer()));
    const oracle = join(dir, 'room.db');
    const schema = roomSchema(75);
    createRoomFile(oracle, schema);
    const db = openDb(file);
    const room = openDb(oracle);
    try {
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
      assert.deepEqual(roomStructure(db, schema), roomStructure(room, schema));
      assert.deepEqual(
        db.prepare('SELECT name FROM books ORDER BY name').pluck().all(),
        [0, 1, 2, 3, 4].map((i) => `r3-书${i}`),
      );
      assert.equal(db.prepare('SELECT locale FROM android_metadata').pluck().get(), 'zh');
    } finally {
      db.close();
      room.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("sockets: /searchBook and the debuggers answer in the app's form on the same origin, then close with its reason", async () => {
  const cases: [string, string, string, string][] = [
    ['/searchBook', '{"key":"三体"}', NO_ENGINE, 'Search finish'],
    ['/searchBook', 'not json', '数据必须为Json格式', 'Search finish'],
    ['/bookSourceDebug', '{"tag":"","key":"x"}', '不能为空', '调试结束'],
  ];
  for (const [path, message, reply, reason] of cases) {
    const ws = new WebSocket(`ws://127.0.0.1:${worker.port}${path}`, { headers: basic('alice', 'pw-a') });
    const got = await new Promise<{ text: string; code: number; reason: string }>((resolve, reject) => {
      let text = '';
      ws.once('open', () => ws.send(message));
      ws.on('message', (d) => (text += d.toString()));
      ws.once('close', (code, why) => resolve({ text, code, reason: why.toString() }));
      ws.once('error', reject);
    });
    assert.deepEqual(got, { text: reply, code: 1000, reason }, path);
  }
  const refused = new WebSocket(`ws://127.0.0.1:${worker.port}/searchBook`);
  const status = await new Promise<number>((resolve) => refused.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
  assert.equal(status, 401);
});

test("/api/import and /api/export: a rule collection in, the same report as serve gives (but the store's name and time), a backup zip out", async () => {
  const node = await served({}, undefined, 75);
  const auth = basic('r7', 'secret-r7');
  const sources = JSON.stringify([
    { bookSourceUrl: 'https://s/a', bookSourceName: 'A', bookSourceGroup: '甲', lastUpdateTime: 1 },
    { bookSourceUrl: 'https://s/b', bookSourceName: 'B', lastUpdateTime: 2 },
  ]);
  const fromWorker = await fetch(worker.url + 'api/import?kind=bookSource', { method: 'POST', body: sources, headers: auth });
  const fromNode = await fetch(node.server.url + 'api/import?kind=bookSource', { method: 'POST', body: sources });
  assert.equal(fromWorker.status, 200);
  const strip = (r: Record<string, unknown>) => ({ ...r, store: undefined, durationMs: undefined });
  const report = (await fromWorker.json()) as Record<string, unknown> & { totals: { stored: number } };
  assert.deepEqual(strip(report), strip((await fromNode.json()) as Record<string, unknown>));
  assert.equal(report.totals.stored, 2);
  assert.equal((await fetch(worker.url + 'api/import', { method: 'POST', body: '', headers: auth })).status, 400);
  const zip = await fetch(worker.url + 'api/export', { headers: auth });
  assert.equal(zip.headers.get('content-type'), 'application/zip');
  const files = unzipSync(new Uint8Array(await zip.arrayBuffer()));
  const exported = JSON.parse(strFromU8(files['bookSource.json']!)) as { bookSourceUrl: string }[];
  assert.deepEqual(exported.map((s) => s.bookSourceUrl).sort(), ['https://s/a', 'https://s/b']);
});
