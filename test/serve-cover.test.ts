// GET /cover?path=: a kept EPUB cover from the books folder, a plain URL fetched from a real
// server on 127.0.0.1 within the size and time bounds, and the default cover for everything
// else (no path, a file outside the covers folder, a page that is not an image, a body past
// the cap, a server that never answers). The server keeps serving after each.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { COVER_MAX_BYTES, DEFAULT_COVER } from '../src/server/cover.js';
import { epubBytes, xhtml } from './helpers/epub.js';
import { served } from './helpers/serve.js';
import './helpers/engine.js'; // Node's engines, as the package's entry installs them

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

async function imageServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.url === '/c.png') return res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG);
    if (req.url === '/page') return res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html></html>');
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
      return more();
    }
    if (req.url === '/missing') return res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  after(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${port}`, server };
}

test('/cover: a kept cover, a URL image, and the default cover for anything else', async () => {
  const s = await served();
  const img = await imageServer();
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
