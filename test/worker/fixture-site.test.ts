// The fixture site inside workerd (wrangler dev, offline, no nodejs_compat) answers what the same
// site answers on Node, byte for byte: GBK pages, the GBK POST search and its 302, paged content,
// the JSON API, the JS shape's signed search, cookies, the login wall and the safety redirects.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT } from '../../worker/dev.js';
import { startWorker, type RunningWorker } from './helpers.js';
import { startFixtureSite, type RunningSite } from '../helpers/fixture-site/node.js';
import { encodeGbk } from '../helpers/fixture-site/gbk.js';
import { SEED } from './fixture-site-seed.js';

let worker: RunningWorker;
let node: RunningSite;
before(async () => {
  worker = await startWorker([], join(ROOT, 'test', 'worker', 'fixture-site-wrangler.jsonc'));
  node = await startFixtureSite(SEED);
});
after(async () => {
  await worker?.stop();
  await node?.close();
});

/** The Worker's origin without the trailing slash, as node.url is. */
const workerBase = (): string => worker.url.replace(/\/$/, '');

interface Answer {
  status: number;
  type: string | null;
  location: string | null;
  cookie: string | null;
  body: string;
}

async function ask(base: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(base + path, { redirect: 'manual', ...init });
  const body = Buffer.from(await res.arrayBuffer()).toString('hex');
  const location = res.headers.get('location')?.replace(base, '<base>') ?? null;
  return { status: res.status, type: res.headers.get('content-type'), location, cookie: res.headers.get('set-cookie'), body };
}

test('workerd and Node serve the same answers for every shape', async () => {
  const m = node.site.model;
  const book = m.books[2]!;
  const c = book.chapters.find((x) => !x.isVolume)!;
  const gbkKey = (k: string) => [...encodeGbk(k)].map((b) => '%' + b.toString(16).toUpperCase().padStart(2, '0')).join('');
  const form = (k: string): RequestInit => ({
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: `searchkey=${gbkKey(k)}&searchtype=articlename`,
  });
  const key = m.keywords.many;
  const sign = createHash('md5')
    .update(key + 'fixture')
    .digest('hex');
  const requests: [string, RequestInit?][] = [
    [`/gbk/book/${book.id}/`],
    [`/gbk/book/${book.id}/${c.id}.html`],
    ['/gbk/modules/article/search.php', form(m.keywords.one)],
    ['/gbk/modules/article/search.php', form(key)],
    [`/paged/book/${book.id}/toc_2.html`],
    [`/paged/read/${book.id}/${c.id}_2.html`],
    [`/api/search?keyword=${encodeURIComponent(key)}&page=1`],
    [`/api/book/${book.id}/chapters`],
    [`/xpath/book/${book.id}/list.html`],
    [`/aio/search?wd=${encodeURIComponent(key)}`],
    [`/js/search?k=${encodeURIComponent(Buffer.from(key).toString('base64'))}&sign=${sign}`, { headers: { 'X-Requested-With': 'XMLHttpRequest' } }],
    [`/js/read?book=${book.id}&id=${c.id}`],
    [`/guard/search?kw=${encodeURIComponent(key)}`],
    [`/guard/book/${book.id}`],
    [`/login/book/${book.id}`],
    ['/safety/to/metadata'],
    ['/safety/loop?n=3'],
    [`/covers/${book.id}.jpg`],
  ];
  for (const [path, init] of requests) {
    const [inWorker, onNode] = [await ask(workerBase(), path, init), await ask(node.url, path, init)];
    assert.deepEqual(inWorker, onNode, path);
  }
  // The first answers are what the Node tests check them to be: a 302 to the book and GBK bytes.
  assert.equal((await ask(workerBase(), '/gbk/modules/article/search.php', form(m.keywords.one))).status, 302);
  const page = Buffer.from((await ask(workerBase(), `/gbk/book/${book.id}/`)).body, 'hex');
  assert.match(new TextDecoder('gbk').decode(page), new RegExp(`<h1>${book.name}</h1>`));
});
