// `legado-store serve` at the HTTP level: OPTIONS as the app answers them (less its Origin echo), static files
// with traversal refused, a 40 MB body, malformed escapes, credentials, and our /api endpoints.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'node:http';
import { test } from 'node:test';
import { strFromU8, unzipSync } from 'fflate';
import { envelopeText, served } from './helpers/serve.js';
import { tempDir } from './helpers/files.js';
import { openDb } from './helpers/engine.js';

/** A raw request, so the path goes out exactly as written (fetch would normalise `..`). */
function raw(url: string, path: string, method = 'GET'): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test("OPTIONS: Allow-Methods POST, Allow-Headers content-type, no Origin echoed (the app's echo is not kept); API answers: GET, POST", async () => {
  const s = await served();
  const res = await fetch(s.server.url + 'saveBook', { method: 'OPTIONS' });
  assert.equal(res.status, 200);
  assert.equal(await res.text(), '');
  assert.equal(res.headers.get('access-control-allow-methods'), 'POST');
  assert.equal(res.headers.get('access-control-allow-headers'), 'content-type');
  assert.equal(res.headers.get('access-control-allow-origin'), null);
  const api = await s.get('/getBookshelf', { Origin: 'http://a.b' });
  assert.equal(api.status, 200);
  assert.equal(api.headers.get('access-control-allow-methods'), 'GET, POST');
  assert.equal(api.headers.get('access-control-allow-origin'), null, 'a foreign origin gets no grant (test/serve-origins.test.ts)');
});

test('static files from --web: index.html for /, files by path, 404 when missing; .., encoded .. and symlinks out refused', async () => {
  const root = tempDir('legado-web-');
  const web = join(root, 'web');
  mkdirSync(join(web, 'vue'), { recursive: true });
  writeFileSync(join(web, 'index.html'), '<h1>front</h1>');
  writeFileSync(join(web, 'vue', 'index.html'), '<h1>vue</h1>');
  writeFileSync(join(web, 'vue', 'app.js'), 'console.log(1)');
  writeFileSync(join(root, 'secret.txt'), 'SECRET');
  symlinkSync(join(root, 'secret.txt'), join(web, 'link.txt'));
  const s = await served({ web });
  assert.equal((await s.get('/')).text, '<h1>front</h1>');
  assert.equal((await s.get('/vue/')).text, '<h1>vue</h1>');
  const js = await fetch(s.server.url + 'vue/app.js');
  assert.match(js.headers.get('content-type')!, /^text\/javascript/);
  assert.equal(await js.text(), 'console.log(1)');
  assert.equal((await s.get('/nope.html')).status, 404);
  for (const path of ['/../secret.txt', '/vue/../../secret.txt', '/%2e%2e/secret.txt', '/vue/%2E%2E%2F%2E%2E%2Fsecret.txt', '/link.txt', '/..%5csecret.txt']) {
    const a = await raw(s.server.url, path);
    assert.ok(a.status === 403 || a.status === 404, `${path}: ${a.status}`);
    assert.ok(!a.body.includes('SECRET'), path);
  }
  assert.equal((await raw(s.server.url, '/link.txt')).status, 403);
  assert.equal((await raw(s.server.url, '/%E4%ZZ.html')).status, 400);
  assert.equal((await s.get('/getBookshelf')).text, envelopeText(false, '还没有添加小说'), 'still serving');
});

test('GET / without --web: our own page', async () => {
  const s = await served();
  const a = await s.get('/');
  assert.equal(a.status, 200);
  assert.match(a.headers.get('content-type')!, /^text\/html/);
  assert.match(a.text, /legado-store serve/);
  assert.match(a.text, /--web/);
});

test('a 40 MB body: 413 with an envelope, nothing written, the server keeps serving', async () => {
  const s = await served();
  const big = new Uint8Array(40 << 20).fill(0x20);
  const res = await fetch(s.server.url + 'saveReadConfig', { method: 'POST', body: big, headers: { 'Content-Type': 'text/plain' } });
  assert.equal(res.status, 413);
  const env = JSON.parse(await res.text()) as { isSuccess: boolean; errorMsg: string };
  assert.equal(env.isSuccess, false);
  assert.match(env.errorMsg, /larger than/);
  assert.equal(s.sql('SELECT count(*) FROM caches'), 0);
  assert.equal((await s.get('/getReadConfig')).text, envelopeText(false, '没有配置'));
});

test('malformed URL escapes in a query: read as written, an envelope, nothing written', async () => {
  const s = await served();
  const a = await raw(s.server.url, '/getBookSource?url=%E4%ZZ%');
  assert.equal(a.status, 200);
  assert.equal(a.body, envelopeText(false, '未找到源，请检查书源地址'));
  const b = await raw(s.server.url, '/getBookContent?url=%ZZ&index=%');
  assert.equal(b.status, 500);
  assert.equal(b.body, 'For input string: "%"');
  assert.equal((await s.get('/getBookSources')).text, envelopeText(false, '设备源列表为空'));
});

test('credentials: without or with wrong ones 401, with the right ones the API answers', async () => {
  const s = await served({ auth: { user: 'me', password: 'pa55 wörd' } });
  assert.equal((await s.get('/getBookshelf')).status, 401);
  // A browser's preflight carries no credentials: answered, with nothing in it; a foreign origin's is refused.
  assert.equal((await fetch(s.server.url + 'saveBook', { method: 'OPTIONS' })).status, 200);
  assert.equal((await fetch(s.server.url + 'saveBook', { method: 'OPTIONS', headers: { Origin: 'http://a.b' } })).status, 403);
  const basic = (u: string, p: string) => ({ Authorization: `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}` });
  assert.equal((await s.get('/getBookshelf', basic('me', 'wrong'))).status, 401);
  assert.equal((await s.get('/getBookshelf', basic('you', 'pa55 wörd'))).status, 401);
  assert.equal((await s.post('/saveReadConfig', '{"a":1}', { 'Content-Type': 'text/plain' })).status, 401);
  assert.equal(s.sql('SELECT count(*) FROM caches'), 0);
  const ok = await s.get('/getBookshelf', basic('me', 'pa55 wörd'));
  assert.equal(ok.status, 200);
  assert.equal(ok.text, envelopeText(false, '还没有添加小说'));
});

test('/api/import takes a rule collection and reports; /api/export gives a backup zip; /api/database a database file', async () => {
  const s = await served();
  const sources = JSON.stringify([
    { bookSourceUrl: 'https://a', bookSourceName: '甲', bookSourceType: 0 },
    { bookSourceUrl: 'https://b', bookSourceName: '乙' },
  ]);
  const res = await fetch(s.server.url + 'api/import', { method: 'POST', body: sources });
  assert.equal(res.status, 200);
  const report = (await res.json()) as { kinds: Record<string, { stored?: number }> };
  assert.ok(JSON.stringify(report).includes('bookSource'));
  assert.deepEqual(s.rows('SELECT bookSourceUrl FROM book_sources ORDER BY bookSourceUrl'), [{ bookSourceUrl: 'https://a' }, { bookSourceUrl: 'https://b' }]);
  const bad = await fetch(s.server.url + 'api/import', { method: 'POST', body: '{"not": "rules"' });
  assert.equal(bad.status, 422);
  assert.match(((await bad.json()) as { error: string }).error, /./);
  assert.equal((await fetch(s.server.url + 'api/import', { method: 'POST', body: '' })).status, 400);

  const zip = await fetch(s.server.url + 'api/export');
  assert.equal(zip.headers.get('content-type'), 'application/zip');
  const files = unzipSync(new Uint8Array(await zip.arrayBuffer()));
  const exported = JSON.parse(strFromU8(files['bookSource.json']!)) as { bookSourceUrl: string }[];
  assert.deepEqual(exported.map((x) => x.bookSourceUrl).sort(), ['https://a', 'https://b']);

  const db = await fetch(s.server.url + 'api/database');
  const bytes = new Uint8Array(await db.arrayBuffer());
  assert.equal(Buffer.from(bytes.subarray(0, 16)).toString('latin1'), 'SQLite format 3\0');
  const copy = join(tempDir(), 'copy.db');
  writeFileSync(copy, bytes);
  const check = openDb(copy);
  try {
    assert.equal(check.pragma('user_version', { simple: true }), 62);
    assert.equal(check.prepare('SELECT count(*) FROM book_sources').pluck().get(), 2);
    assert.equal(check.prepare('SELECT identity_hash FROM room_master_table').pluck().get(), s.sql('SELECT identity_hash FROM room_master_table'));
  } finally {
    check.close();
  }
  assert.ok(readFileSync(s.path).length > 0);
});
