// The server's front door in Debian's Chromium: pages of three origins on 127.0.0.1 (another
// port is another origin). A page of a stranger's origin tries what a web page can: read the
// shelf, POST text/plain, JSON and multipart with fetch, a form POST, a WebSocket: it reads
// nothing and the file stays as it was (raw SQL). The store's own page and a page of the origin
// given with --cors-origin read and write. A name pointed at 127.0.0.1 (DNS rebinding, through
// Chromium's resolver rules) gets 421, not the shelf.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { chromium, type Page } from 'playwright-core';
import { startServer } from '../../src/node/server.js';
import { openStore } from '../../src/store/open.js';
import { openDb } from '../helpers/engine.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A page server on 127.0.0.1: an empty HTML page at every path. */
async function pageServer(): Promise<{ server: Server; url: string; origin: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>page</title><body>page</body>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, url: `${origin}/`, origin };
}

/** What a page's script gets from each attempt: the text it could read, or how it failed. */
function attempts(page: Page, target: string, ws: string): Promise<Record<string, string>> {
  return page.evaluate(
    async ({ target, ws }) => {
      const out: Record<string, string> = {};
      const book = (n: string) => JSON.stringify({ bookUrl: `u:${n}`, name: n, author: 'P', origin: 'x' });
      const tries: [string, () => Promise<Response>][] = [
        ['read', () => fetch(`${target}getBookshelf`)],
        ['read with credentials', () => fetch(`${target}getBookshelf`, { credentials: 'include' })],
        ['text/plain', () => fetch(`${target}saveBook`, { method: 'POST', body: book('text'), headers: { 'Content-Type': 'text/plain' } })],
        [
          'text/plain no-cors',
          () => fetch(`${target}saveBook`, { method: 'POST', mode: 'no-cors', body: book('nocors'), headers: { 'Content-Type': 'text/plain' } }),
        ],
        ['json', () => fetch(`${target}saveBook`, { method: 'POST', body: book('json'), headers: { 'Content-Type': 'application/json' } })],
        ['config no-cors', () => fetch(`${target}saveReadConfig`, { method: 'POST', mode: 'no-cors', body: '{"a":1}' })],
        [
          'multipart no-cors',
          () => {
            const form = new FormData();
            form.append('fileData', new Blob(['第1章 一\n正文\n']), 'x.txt');
            return fetch(`${target}addLocalBook?fileName=x.txt`, { method: 'POST', mode: 'no-cors', body: form });
          },
        ],
      ];
      for (const [name, run] of tries) {
        try {
          const res = await run();
          out[name] = res.type === 'opaque' ? 'opaque' : `${res.status} ${await res.text()}`;
        } catch (e) {
          out[name] = `failed: ${(e as Error).name}`;
        }
      }
      out.socket = await new Promise<string>((resolve) => {
        const socket = new WebSocket(`${ws}searchBook`);
        socket.onopen = () => socket.send('{"key":"三体"}');
        socket.onmessage = (m) => resolve(`message: ${String(m.data)}`);
        socket.onerror = () => resolve('failed');
      });
      return out;
    },
    { target, ws },
  );
}

test('Chromium: a page of another origin reads nothing and writes nothing; the own page and a listed origin do; a rebinding name gets 421', async () => {
  assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM}: apt-get install chromium (.ci/run does)`);
  const work = mkdtempSync(join(tmpdir(), 'legado-origins-'));
  const path = join(work, 'store.db');
  const store = openStore(path, { schema: 62 });
  store.tables.books.insert({ bookUrl: 'u:1', name: '三体', author: '刘慈欣', origin: 'x' });
  const attacker = await pageServer();
  const friend = await pageServer();
  const server = await startServer(store, { port: 0, corsOrigins: [friend.origin] });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--host-resolver-rules=MAP evil.example 127.0.0.1'],
  });
  after(async () => {
    await browser.close();
    await server.close();
    store.close();
    attacker.server.close();
    friend.server.close();
    rmSync(work, { recursive: true, force: true });
  });
  const file = () => {
    const db = openDb(path, { readonly: true });
    try {
      return {
        books: (db.prepare('SELECT bookUrl FROM books ORDER BY bookUrl').pluck().all() as string[]).join(' '),
        caches: db.prepare('SELECT count(*) FROM caches').pluck().get(),
      };
    } finally {
      db.close();
    }
  };
  const kept = () => (existsSync(join(work, 'books')) ? readdirSync(join(work, 'books')).length : 0);

  // The stranger's page.
  const evil = await browser.newPage();
  await evil.goto(attacker.url);
  const got = await attempts(evil, server.url, server.wsUrl);
  for (const name of ['read', 'read with credentials', 'text/plain', 'json']) assert.equal(got[name], 'failed: TypeError', `${name}: ${got[name]}`);
  for (const name of ['text/plain no-cors', 'config no-cors', 'multipart no-cors']) assert.equal(got[name], 'opaque', name);
  assert.equal(got.socket, 'failed');
  // A form POST (a navigation, no script reads it): refused too.
  await evil.setContent(`<form method="post" enctype="text/plain" action="${server.url}saveReadConfig"><input name='{"a":"' value='1"}'></form>`);
  const [answer] = await Promise.all([evil.waitForNavigation(), evil.evaluate('document.forms[0].submit()')]);
  assert.equal(answer?.status(), 403);
  assert.deepEqual(file(), { books: 'u:1', caches: 0 });
  assert.equal(kept(), 0);

  // The store's own page: same origin, no grant needed.
  const own = await browser.newPage();
  await own.goto(server.url);
  const mine = await attempts(own, server.url, server.wsUrl);
  assert.match(mine.read!, /^200 [\s\S]*三体/);
  for (const name of ['text/plain', 'json']) assert.match(mine[name]!, /^200 [\s\S]*"isSuccess": true/, name);
  assert.match(mine.socket!, /^message: .*does not fetch/);
  // The upload is a local book whose bookUrl is its kept file.
  assert.deepEqual(file(), { books: `${join(work, 'books', 'x.txt')} u:1 u:json u:nocors u:text`, caches: 1 });
  assert.equal(kept(), 1);

  // The origin the operator listed.
  store.db.prepare("DELETE FROM books WHERE bookUrl LIKE 'u:%' AND bookUrl <> 'u:1'").run();
  const listed = await browser.newPage();
  await listed.goto(friend.url);
  const theirs = await attempts(listed, server.url, server.wsUrl);
  assert.match(theirs.read!, /^200 [\s\S]*三体/);
  assert.match(theirs.json!, /^200 [\s\S]*"isSuccess": true/);
  assert.match(theirs.socket!, /^message: /);
  assert.match(file().books, /u:json/);

  // DNS rebinding: a name of the attacker's that resolves to 127.0.0.1, on the store's port.
  const rebound = await browser.newPage();
  for (const p of ['getBookshelf', 'api/database', '']) {
    const res = await rebound.goto(`http://evil.example:${server.port}/${p}`);
    assert.equal(res?.status(), 421, p);
    const text = (await rebound.locator('body').textContent()) ?? '';
    assert.match(text, /^Misdirected Request/, p);
    assert.doesNotMatch(text, /三体/, p);
  }
});
