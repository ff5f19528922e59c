// `legado-store search` keeps to its bounds: at most --concurrency sources fetch at once, and a
// source that never answers ends at --source-timeout while the others' hits are stored. A plain
// node:http site on 127.0.0.1 counts the requests in flight (the outside truth here).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from './helpers/cli.js';
import { openDb } from './helpers/engine.js';
import { tempDir } from './helpers/files.js';

const dir = tempDir();
const SOURCES = 6;
let base = '';
let inFlight = 0;
let most = 0;
const hanging: ServerResponse[] = [];
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  if (req.url?.startsWith('/hang')) {
    hanging.push(res);
    return;
  }
  inFlight++;
  most = Math.max(most, inFlight);
  const n = /\/s\/(\d+)/.exec(req.url ?? '')?.[1] ?? '0';
  setTimeout(() => {
    inFlight--;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<html><body><ul><li class="b"><a href="/book/${n}">书${n}</a></li></ul></body></html>`);
  }, 150);
});

before(async () => {
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  for (const res of hanging) res.destroy();
  server.close();
});

const source = (i: number, path: string) => ({
  bookSourceUrl: `${base}#s${i}`,
  bookSourceName: `s${i}`,
  bookSourceType: 0,
  enabled: true,
  searchUrl: `${base}${path}?k={{key}}`,
  ruleSearch: { bookList: 'class.b', name: 'tag.a@text', bookUrl: 'tag.a@href' },
});

test('search: at most --concurrency sources at once; a silent source ends at --source-timeout, the others stored', async () => {
  const db = join(dir, 'bounds.db');
  const file = join(dir, 'sources.json');
  const list = [...Array.from({ length: SOURCES }, (_, i) => source(i, `/s/${i}`)), source(SOURCES, '/hang')];
  writeFileSync(file, JSON.stringify(list));
  assert.equal((await cli('import', db, file)).code, 0);
  const r = await cli('search', db, '书', '--concurrency', '2', '--source-timeout', '1000', '--allow-private-hosts', '--json');
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { sources: { name: string; hits: number; error?: { code: string } }[] };
  assert.equal(most, 2, 'two sources fetched at once, never more');
  assert.equal(hanging.length, 1);
  const silent = out.sources.find((s) => s.name === `s${SOURCES}`)!;
  assert.equal(silent.hits, 0);
  assert.equal(silent.error?.code, 'FETCH_TIMEOUT');
  assert.deepEqual(
    out.sources.filter((s) => s.name !== `s${SOURCES}`).map((s) => [s.name, s.hits, s.error]),
    Array.from({ length: SOURCES }, (_, i) => [`s${i}`, 1, undefined]),
  );
  const c = openDb(db);
  try {
    const rows = c.prepare('SELECT name, bookUrl FROM searchBooks ORDER BY name').all() as { name: string; bookUrl: string }[];
    assert.deepEqual(
      rows.map((x) => [x.name, x.bookUrl]),
      Array.from({ length: SOURCES }, (_, i) => [`书${i}`, `${base}/book/${i}`]),
    );
  } finally {
    c.close();
  }
});
