// The book-source HTTP client's state across requests, against the fixture site and a small
// echo server on 127.0.0.1: the cookie jar (the app's CookieStore: registrable-domain keys,
// persistent cookies in the store's `cookies` table read back with raw SQL, session cookies in
// memory per host, the 4,096-character cut, `enabledCookieJar`), the login header from
// `caches`, and `concurrentRate` in both forms counted by the site's 429 answers (no timing).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { BookSource, EngineHost, UrlScript } from '../src/sources/engine/types.js';
import { createSourceHttp } from '../src/sources/http/index.js';
import { startFixtureSite } from './helpers/fixture-site/node.js';
import { COOKIE_NAME, fixtureSources } from './helpers/fixture-site/index.js';
import { newStore, rawAll } from './helpers/domain.js';
import { countingServer } from './helpers/net.js';

const SEED = 20261209;
const running = await startFixtureSite(SEED);
const base = running.url;
const m = running.site.model;
const book = m.books[1]!;

/** Sets a session cookie (`/session`), a persistent one on a redirect (`/hop` → `/echo`), answers 503 twice (`/flaky…`), and echoes the Cookie header. */
const echo = await countingServer('127.0.0.1', (req, res) => {
  if (req.url === '/session') return void res.writeHead(200, { 'Set-Cookie': 'sid=abc; Path=/; HttpOnly', 'Content-Type': 'text/plain' }).end('ok');
  if (req.url?.startsWith('/flaky')) {
    // 503 until the third request for this path.
    const n = echo.hits.filter((h) => h === req.url).length;
    return void res.writeHead(n >= 3 ? 200 : 503, { 'Content-Type': 'text/plain' }).end(`try ${n}`);
  }
  if (req.url === '/hop') return void res.writeHead(302, { 'Set-Cookie': 'hop=1; Max-Age=600; Path=/', Location: '/echo' }).end();
  res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`cookie: ${req.headers.cookie ?? ''}`);
});
after(() => running.close());

const noScript: UrlScript = () => Promise.reject(new Error('no script in these sources'));
/** A host over a new store file: its own cookies, caches and session memory. */
const newHost = (): EngineHost & { storage: ReturnType<typeof newStore> } => ({ storage: newStore(), allowPrivateHosts: true, timeoutMs: 5_000 });
const fixture = (id: string, fields: Partial<BookSource> = {}): BookSource => {
  const f = fixtureSources(base, SEED).find((s) => s.id === id);
  assert.ok(f, id);
  return { ...(f.source as unknown as BookSource), ...fields };
};
const storedCookies = (host: ReturnType<typeof newHost>) => rawAll<string>(host.storage, "SELECT url || ' ' || cookie FROM cookies ORDER BY url");

test('/guard/ with the cookie jar on: the search sets the session cookie, stored under the registrable domain, and the book page opens', async () => {
  const host = newHost();
  const http = createSourceHttp(fixture('cookie'), host, noScript);
  assert.equal((await http.fetch(`${base}/guard/book/${book.id}`)).code, 403);
  const search = await http.fetch(fixture('cookie').searchUrl!, { key: book.name });
  assert.equal(search.code, 200);
  // Max-Age makes it persistent: the store's cookies table, keyed by the IP as it is.
  assert.deepEqual(storedCookies(host), [`127.0.0.1 ${COOKIE_NAME}=s${SEED}`]);
  const page = await http.fetch(`${base}/guard/book/${book.id}`);
  assert.equal(page.code, 200);
  assert.ok(page.body.includes(book.name));
  assert.equal(http.cookies.getKey(base, COOKIE_NAME), `s${SEED}`);
});

test('/guard/ with the cookie jar off: nothing is saved and the book page stays shut, until a cookie is put in by hand', async () => {
  const host = newHost();
  const http = createSourceHttp(fixture('cookie', { enabledCookieJar: false }), host, noScript);
  assert.equal((await http.fetch(fixture('cookie').searchUrl!, { key: book.name })).code, 200);
  assert.deepEqual(storedCookies(host), []);
  assert.equal((await http.fetch(`${base}/guard/book/${book.id}`)).code, 403);
  // Stored cookies are sent whatever the jar says (AnalyzeUrl.setCookie); the jar only saves.
  http.cookies.replaceCookie(`${base}/guard/`, `${COOKIE_NAME}=s${SEED}`);
  assert.equal((await http.fetch(`${base}/guard/book/${book.id}`)).code, 200);
});

test('session cookies stay in memory, shared by the sources of one host; a cookie set on a redirect hop is kept and sent to its target', async () => {
  const host = newHost();
  const source = (tag: string): BookSource => ({ bookSourceUrl: `${echo.origin}#${tag}`, bookSourceName: tag });
  const a = createSourceHttp(source('a'), host, noScript);
  await a.fetch('/session');
  assert.deepEqual(storedCookies(host), [], 'a session cookie is not stored');
  assert.equal((await a.fetch('/echo')).body, 'cookie: sid=abc');
  const b = createSourceHttp(source('b'), host, noScript);
  assert.equal((await b.fetch('/echo')).body, 'cookie: sid=abc');
  const other = createSourceHttp(source('a'), newHost(), noScript);
  assert.equal((await other.fetch('/echo')).body, 'cookie: ');
  const hop = await a.fetch('/hop');
  assert.equal(hop.url, `${echo.origin}/echo`);
  // The redirect's target got the cookie the redirect itself set (the jar runs per hop).
  assert.equal(hop.body, 'cookie: sid=abc; hop=1');
  assert.deepEqual(storedCookies(host), ['127.0.0.1 hop=1']);
});

test('the CookieJar as scripts call it: setCookie replaces, replaceCookie merges, removeCookie clears; keys are registrable domains', async () => {
  const host = newHost();
  const jar = createSourceHttp({ bookSourceUrl: 'https://www.example.com.cn', bookSourceName: 'x' }, host, noScript).cookies;
  jar.setCookie('https://m.example.com.cn/a', 'a=1; b=2');
  jar.replaceCookie('https://www.example.com.cn/', 'b=3; c=4');
  assert.deepEqual(storedCookies(host), ['example.com.cn a=1; b=3; c=4']);
  assert.equal(jar.getCookie('https://book.example.com.cn/x'), 'a=1; b=3; c=4');
  assert.equal(jar.getKey('https://example.com.cn', 'c'), '4');
  jar.setCookie('https://example.com.cn', 'z=9');
  assert.deepEqual(storedCookies(host), ['example.com.cn z=9']);
  // A private suffix of the list is a suffix: two blogs are two domains.
  jar.setCookie('https://one.blogspot.com/', 'p=1');
  assert.equal(jar.getCookie('https://two.blogspot.com/'), '');
  jar.removeCookie('https://www.example.com.cn/');
  assert.deepEqual(storedCookies(host), ['one.blogspot.com p=1']);
});

test('a cookie text over 4,096 characters loses its first keys until it fits, in the store too', async () => {
  const host = newHost();
  const jar = createSourceHttp({ bookSourceUrl: 'https://www.example.org', bookSourceName: 'x' }, host, noScript).cookies;
  const pairs = Array.from({ length: 200 }, (_, i) => `k${String(i).padStart(3, '0')}=${'v'.repeat(20)}`);
  jar.setCookie('https://example.org', pairs.join('; '));
  // Each pair is 25 characters and "; " joins them: 151 pairs make 4,075, 152 make 4,102.
  const kept = pairs.slice(200 - 151).join('; ');
  assert.equal(kept.length, 4075);
  assert.equal(jar.getCookie('https://example.org'), kept);
  assert.deepEqual(storedCookies(host), [`example.org ${kept}`]);
});

test('the login header stored in caches opens /login/ pages; without it they answer 401', async () => {
  const login = fixtureSources(base, SEED).find((s) => s.id === 'login')!;
  const source = login.source as unknown as BookSource;
  const without = createSourceHttp(source, newHost(), noScript);
  assert.equal((await without.fetch(`/login/book/${book.id}`)).code, 401);
  const host = newHost();
  host.storage.cache.put(`loginHeader_${source.bookSourceUrl}`, JSON.stringify(login.expect.loginHeader));
  const http = createSourceHttp(source, host, noScript);
  const page = await http.fetch(`/login/book/${book.id}`);
  assert.equal(page.code, 200);
  assert.ok(page.body.includes(book.name));
});

/** `n` searches at once on /rate/ by fixture source `id` (its concurrentRate, or `rate` when given) as client `client`, over two clients of the source on one host; the answers' codes. */
async function burst(id: string, client: string, n: number, rate?: null): Promise<number[]> {
  const host = newHost();
  const source = fixture(id, { header: JSON.stringify({ 'x-fixture-client': client }), ...(rate === null ? { concurrentRate: null } : {}) });
  const clients = [createSourceHttp(source, host, noScript), createSourceHttp(source, host, noScript)];
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => clients[i % 2]!.fetch(source.searchUrl!, { key: book.name })));
  return answers.map((a) => a.code);
}

test('concurrentRate: without it a burst meets 429s; the fixture sources\' "300" and "2/1000" keep every request under the site limit', async () => {
  assert.deepEqual([fixture('rate-gap').concurrentRate, fixture('rate-window').concurrentRate], ['300', '2/1000']);
  const unlimited = await burst('rate-gap', 'unlimited', 8, null);
  assert.ok(unlimited.filter((c) => c === 429).length > 0, `some 429 without a rate: ${unlimited}`);
  assert.deepEqual(await burst('rate-gap', 'gap', 6), Array(6).fill(200));
  assert.deepEqual(await burst('rate-window', 'window', 6), Array(6).fill(200));
});

test('a rate wait ends when the request is aborted', async () => {
  const host = newHost();
  const http = createSourceHttp(fixture('rate-gap', { concurrentRate: '600000', header: '{"x-fixture-client":"abort"}' }), host, noScript);
  assert.equal((await http.fetch('/rate/search?kw=x')).code, 200);
  const stop = new AbortController();
  const waiting = http.fetch('/rate/search?kw=y', { signal: stop.signal });
  stop.abort(new Error('stopped by the test'));
  await assert.rejects(waiting, /stopped by the test/);
  assert.equal(running.site.hits.get('GET /rate/search?kw=y') ?? 0, 0);
});

test('retry asks again after a non-2xx answer, as many times as the option says', async () => {
  const http = createSourceHttp({ bookSourceUrl: echo.origin, bookSourceName: 'flaky' }, newHost(), noScript);
  const once = await http.fetch('/flaky-a,{"retry":1}');
  assert.deepEqual([once.code, once.body], [503, 'try 2']);
  const enough = await http.fetch('/flaky-b,{"retry":2}');
  assert.deepEqual([enough.code, enough.body], [200, 'try 3']);
  assert.equal(echo.hits.filter((h) => h === '/flaky-b').length, 3);
});
