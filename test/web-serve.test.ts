// The page's static server (`npm run web`): a malformed URL escape is a 400 and the server keeps
// serving; the favicon browsers ask for by themselves is an empty answer, not a refusal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serve } from '../web/serve.js';
import { tempDir } from './helpers/files.js';

/** A GET with the path sent exactly as written (no URL normalising on the way). */
function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

test('a malformed URL escape gets 400 and the server keeps serving; /favicon.ico gets 204', async () => {
  const dist = tempDir();
  mkdirSync(join(dist, 'page'));
  writeFileSync(join(dist, 'page', 'index.html'), '<!doctype html><title>t</title>');
  mkdirSync(join(dist, 'browser'));
  const { server } = await serve(dist);
  const port = (server.address() as { port: number }).port;
  try {
    for (const bad of ['/page/%E0%A4%A', '/%', '/page/%FF']) {
      const r = await get(port, bad);
      assert.equal(r.status, 400, bad);
      assert.match(r.body, /malformed URL/);
    }
    assert.deepEqual(await get(port, '/favicon.ico'), { status: 204, body: '' });
    const page = await get(port, '/page/index.html');
    assert.equal(page.status, 200);
    assert.match(page.body, /<title>t<\/title>/);
    assert.equal((await get(port, '/page/../../etc/passwd')).status, 403);
  } finally {
    server.close();
  }
});
