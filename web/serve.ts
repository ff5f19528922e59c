// A tiny static server for the page: dist/browser and dist/page on 127.0.0.1 (port from PORT, else a free one).
// The page needs no special headers: opfs-sahpool works without COOP/COEP.
import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export function serve(dir: string, port = 0): Promise<{ server: Server; url: string }> {
  const base = resolve(dir);
  const server = createServer((req, res) => {
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      // A malformed escape (`/page/%E0%A4%A`) is the request's fault: say so and keep serving.
      res.writeHead(400, { 'content-type': 'text/plain' }).end('bad request: malformed URL');
      return;
    }
    if (path === '/favicon.ico') {
      // Browsers ask for it by themselves; the page has none, and that is not a refusal.
      res.writeHead(204).end();
      return;
    }
    if (path === '/') {
      res.writeHead(302, { location: '/page/' });
      res.end();
      return;
    }
    let file = normalize(join(base, path));
    if (!['browser', 'page'].some((d) => file.startsWith(join(base, d) + sep))) {
      res.writeHead(403).end();
      return;
    }
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      const size = statSync(file).size;
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'content-length': size,
        'cache-control': 'no-cache',
      });
      createReadStream(file).pipe(res);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const p = typeof address === 'object' && address ? address.port : port;
      ok({ server, url: `http://127.0.0.1:${p}/page/` });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dist = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const { url } = await serve(dist, Number(process.env.PORT ?? 0));
  process.stdout.write(`legado-store page: ${url}  (Ctrl+C to stop)\n`);
}
