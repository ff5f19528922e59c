// Static files from a folder (--web, the app's assets/web) for the Node shell. A path is served
// only when the real file, symlinks resolved, lies inside the folder's real path: `..`, encoded
// or not, and links pointing out of the folder are refused with 403.
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

const forbidden = (): Response =>
  new Response('Forbidden: the path leaves the web folder', { status: 403, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });

/** A static-file function for ServeOptions.staticFile, serving `folder`. */
export async function staticFolder(folder: string): Promise<(path: string) => Promise<Response | undefined>> {
  const root = await realpath(folder);
  const inside = (p: string): boolean => p === root || p.startsWith(root + sep);
  return async (path) => {
    // `path` is already decoded once; a NUL or a backslash has no business in a web path.
    if (path.includes('\0') || path.includes('\\')) return forbidden();
    if (path.split('/').includes('..')) return forbidden();
    const target = resolve(root, `.${path}`);
    if (!inside(target)) return forbidden();
    let real: string;
    try {
      real = await realpath(target);
    } catch {
      return undefined;
    }
    if (!inside(real)) return forbidden();
    const info = await stat(real);
    if (!info.isFile()) return undefined;
    const body = Readable.toWeb(createReadStream(real)) as ReadableStream<Uint8Array>;
    return new Response(body, {
      headers: { 'Content-Type': TYPES[extname(real).toLowerCase()] ?? 'application/octet-stream', 'Content-Length': String(info.size) },
    });
  };
}
