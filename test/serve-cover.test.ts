// GET /cover?path=: a kept EPUB cover from the books folder, a plain URL fetched from a real
// server on 127.0.0.1 within the size and time bounds, and the default cover for everything
// else (no path, a file outside the covers folder, a page that is not an image, a body past
// the cap, a server that never answers). The server keeps serving after each. Cover URLs go
// through the network policy (src/net): loopback, private, link-local and metadata addresses
// are refused in every spelling and on every redirect, and the fixture never sees the request;
// the fixtures here are reached only when the server lists them (reachableHosts) or allows
// private hosts.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { COVER_MAX_BYTES, DEFAULT_COVER } from '../src/server/cover.js';
import { createApp } from '../src/server/app.js';
import { openStore } from '../src/store/open.js';
import type { HostFetch } from '../src/net/fetch.js';
import { epubBytes, xhtml } from './helpers/epub.js';
import { served } from './helpers/serve.js';
import { countingServer } from './helpers/net.js';
import { loopbackUrls } from './helpers/net-spellings.js';
import './helpers/engine.js'; // Node's engines, as the package's entry installs them

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

async function imageServer(host = '127.0.0.1'): Promise<{ url: string; port: number; hits: string[] }> {
  const server = await countingServer(host, (req, res) => {
    if (req.url === '/c.png') return void res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG);
    if (req.url?.startsWith('/to?')) return void res.writeHead(302, { Location: decodeURIComponent(req.url.slice(4)) }).end();
    if (req.url === '/loop') return void res.writeHead(302, { Location: '/loop' }).end();
    if (req.url === '/page') return void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html></html>');
    if (req.url === '/huge') {
      res.writeHead(200, { 'Content-Type': 'image/jpeg' }); // no length: the cap is counted while reading
      const chunk = new Uint8Array(64 << 10);
      let sent = 0;
      const more = (): void => {
        while (sent <= COVER_MAX_BYTES + chunk.length) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
      return;
    }
    if (req.url === '/missing') res.writeHead(404).end();
  });
  return { url: server.origin, port: server.port, hits: server.hits };
}

const coverOf = (s: { get(p: string): Promise<{ status: number; headers: Headers; text: string }> }, p: string) =>
  s.get(`/cover?path=${encodeURIComponent(p)}`);

test('/cover: a kept cover, a URL image, and the default cover for anything else', async () => {
  const img = await imageServer();
  const s = await served({ reachableHosts: [`127.0.0.1:${img.port}`] });
  const cover = (p?: string) => s.get(p === undefined ? '/cover' : `/cover?path=${encodeURIComponent(p)}`);

  // An EPUB's cover, kept beside the book by /addLocalBook, is served byte for byte.
  const epub = epubBytes({
    'OEBPS/content.opf': `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="2.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>图</dc:title><dc:creator>某</dc:creator><meta name="cover" content="cv"/></metadata><manifest><item id="cv" href="c.png" media-type="image/png"/><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/></spine></package>`,
    'OEBPS/c.png': PNG,
    'OEBPS/c1.xhtml': xhtml('一', '<p>文</p>'),
  });
  const form = new FormData();
  form.append('fileData', new Blob([epub]), '图.epub');
  await fetch(`${s.server.url}addLocalBook?fileName=${encodeURIComponent('图.epub')}`, { method: 'POST', body: form });
  const coverUrl = String(s.sql('SELECT coverUrl FROM books'));
  const kept = await fetch(`${s.server.url}cover?path=${encodeURIComponent(coverUrl)}`);
  assert.equal(kept.headers.get('content-type'), 'image/png');
  assert.deepEqual(new Uint8Array(await kept.arrayBuffer()), PNG);

  // A plain URL: the picture as the server sent it.
  const fetched = await fetch(`${s.server.url}cover?path=${encodeURIComponent(`${img.url}/c.png`)}`);
  assert.equal(fetched.headers.get('content-type'), 'image/png');
  assert.deepEqual(new Uint8Array(await fetched.arrayBuffer()), PNG);

  // Everything else: the default cover, status 200, as the app answers a cover it cannot load.
  const outside = join(s.path, '..', 'secret.png');
  writeFileSync(outside, PNG);
  for (const p of [undefined, '', outside, '/etc/passwd', `${img.url}/page`, `${img.url}/huge`, `${img.url}/missing`, 'ftp://x/y.png']) {
    const r = await cover(p);
    assert.equal(r.status, 200, String(p));
    assert.equal(r.headers.get('content-type'), 'image/svg+xml', String(p));
    assert.equal(r.text, DEFAULT_COVER, String(p));
  }
  // Still serving.
  assert.equal((await s.get('/getBookSources')).status, 200);
});

test('/cover on Node: loopback in every spelling is the default cover and never reaches the site; allowed, the picture', async () => {
  const v4 = await imageServer();
  const v6 = await imageServer('::1');
  const strict = await served();
  const paths = loopbackUrls(v4.port, v6.port);
  for (const p of paths) {
    const r = await coverOf(strict, p);
    assert.equal(r.text, DEFAULT_COVER, p);
  }
  assert.deepEqual([v4.hits, v6.hits], [[], []]);
  // The control: a server that allows private hosts fetches each of them.
  const open = await served({ allowPrivateHosts: true });
  const reachable = loopbackUrls(v4.port, v6.port, { resolvable: true });
  for (const p of reachable) {
    const r = await fetch(`${open.server.url}cover?path=${encodeURIComponent(p)}`);
    assert.equal(r.headers.get('content-type'), 'image/png', p);
    assert.deepEqual(new Uint8Array(await r.arrayBuffer()), PNG, p);
  }
  assert.equal(v4.hits.length + v6.hits.length, reachable.length);
});

test('/cover on Node: a listed site that redirects to another loopback place, or loops, gets the default cover (off-loopback targets: below)', async () => {
  const listed = await imageServer();
  const other = await imageServer();
  const s = await served({ reachableHosts: [`127.0.0.1:${listed.port}`] });
  // A redirect within the listed site is followed (the control).
  const followed = await fetch(`${s.server.url}cover?path=${encodeURIComponent(`${listed.url}/to?${encodeURIComponent('/c.png')}`)}`);
  assert.deepEqual(new Uint8Array(await followed.arrayBuffer()), PNG);
  for (const target of [
    `${other.url}/c.png`,
    `http://localhost:${listed.port}/c.png`,
    `http://0x7f000001:${other.port}/c.png`,
    `http://[::ffff:127.0.0.1]:${other.port}/c.png`,
  ]) {
    assert.equal((await coverOf(s, `${listed.url}/to?${encodeURIComponent(target)}`)).text, DEFAULT_COVER, target);
  }
  assert.deepEqual(other.hits, []);
  assert.equal((await coverOf(s, `${listed.url}/loop`)).text, DEFAULT_COVER);
  assert.equal(listed.hits.filter((h) => h === '/loop').length, 11); // the first request and ten redirects
});

test('/cover through the app: 10.x, 169.254.169.254, fd00::, the metadata name, and redirects to them, are never handed to the host fetch', async () => {
  const store = openStore(':memory:', { schema: 62 });
  after(() => store.close());
  const asked: string[] = [];
  const hostFetch: HostFetch = async (url) => {
    asked.push(url);
    return new Response(PNG, { headers: { 'Content-Type': 'image/png' } });
  };
  const app = createApp(store as never, { hostFetch });
  const cover = async (p: string) => (await app.fetch(new Request(`http://127.0.0.1/cover?path=${encodeURIComponent(p)}`))).text();
  for (const p of [
    'http://10.0.0.1/c.png',
    'http://10.255.0.9:8080/c.png',
    'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
    'http://[fd00::1]/c.png',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://192.168.1.1/c.png',
    'http://172.16.0.1/c.png',
    'http://100.64.0.1/c.png',
    'http://[fe80::1]/c.png',
    'http://0.0.0.0/c.png',
  ]) {
    assert.equal(await cover(p), DEFAULT_COVER, p);
  }
  assert.equal(asked.length, 0, asked.join(' '));
  // A public site redirecting there: only the public URL is asked for.
  const redirecting: HostFetch = async (url) => {
    asked.push(url);
    return new Response(null, { status: 302, headers: { Location: 'http://169.254.169.254/latest/meta-data/' } });
  };
  const viaRedirect = createApp(store as never, { hostFetch: redirecting });
  const r = await viaRedirect.fetch(new Request(`http://127.0.0.1/cover?path=${encodeURIComponent('https://img.example.com/r.png')}`));
  assert.equal(await r.text(), DEFAULT_COVER);
  assert.deepEqual(asked.splice(0), ['https://img.example.com/r.png']);
  // The control: a public URL is handed over and its picture answered.
  const res = await app.fetch(new Request(`http://127.0.0.1/cover?path=${encodeURIComponent('https://img.example.com/c.png')}`));
  assert.deepEqual(new Uint8Array(await res.arrayBuffer()), PNG);
  assert.deepEqual(asked, ['https://img.example.com/c.png']);
});
