// The network policy on Node over real HTTP on 127.0.0.1 and ::1: fetchWithPolicy with the Node
// host fetch (src/node/net-fetch.ts), whose connections check each address a name resolves to.
// Fixture servers count the requests they get, so "refused" means "never reached". A name that
// resolves to loopback is made with an injected resolver (the system's would need DNS); the
// check runs inside the connection's own lookup, so what is checked is what is connected to.
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { test } from 'node:test';
import { FetchFailedError, NetworkPolicyError } from '../src/net/errors.js';
import { fetchWithPolicy, type FetchPolicy } from '../src/net/fetch.js';
import { nodeFetch, type Resolver } from '../src/node/net-fetch.js';
import { countingServer, rejection, type CountingServer } from './helpers/net.js';
import { loopbackUrls } from './helpers/net-spellings.js';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7]);

type Fixture = CountingServer;

const site = (req: IncomingMessage, res: ServerResponse, self: Fixture): void => {
  const url = req.url ?? '';
  if (url === '/c.png') return void res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG);
  if (url === '/gz') return void res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip' }).end(gzipSync('书页'.repeat(1000)));
  if (url === '/to-self') return void res.writeHead(302, { Location: '/c.png' }).end();
  if (url.startsWith('/to?')) return void res.writeHead(302, { Location: decodeURIComponent(url.slice(4)) }).end();
  if (url === '/loop') return void res.writeHead(301, { Location: `${self.origin}/loop` }).end();
  if (url === '/huge') {
    res.writeHead(200, { 'Content-Type': 'image/jpeg' }); // no length: counted while read
    const chunk = new Uint8Array(16 << 10);
    const more = (): void => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', more);
    };
    res.on('close', () => res.removeAllListeners('drain'));
    more();
    return;
  }
  if (url === '/never') return; // no answer at all
  if (url === '/drip') {
    res.writeHead(200, { 'Content-Type': 'image/png' });
    res.write(PNG); // then nothing more
    return;
  }
  res.writeHead(404).end();
};

const A = await countingServer('127.0.0.1', site);
const B = await countingServer('127.0.0.1', site);
const V6 = await countingServer('::1', site);

const onNode = (extra: Partial<FetchPolicy> = {}, resolve?: Resolver): FetchPolicy => ({
  fetch: nodeFetch(resolve ? { resolve } : {}),
  timeoutMs: 2_000,
  ...extra,
});

test('loopback in every spelling is refused before any connection; allowed, the same URLs reach the fixture', async () => {
  const urls = loopbackUrls(A.port, V6.port);
  for (const url of urls) {
    const e = await rejection(fetchWithPolicy(url, {}, onNode()));
    assert.ok(e instanceof NetworkPolicyError && e.code === 'ADDRESS_REFUSED', `${url}: ${e}`);
  }
  assert.deepEqual([A.hits.length, V6.hits.length], [0, 0]);
  // The control: with private hosts allowed each spelling reaches the fixture and gets the picture
  // (`localhost.` left out: this system's resolver does not know it).
  const reachable = loopbackUrls(A.port, V6.port, { resolvable: true });
  for (const url of reachable) assert.deepEqual((await fetchWithPolicy(url, {}, onNode({ allowPrivateHosts: true }))).bytes, PNG, url);
  assert.equal(A.hits.length + V6.hits.length, reachable.length);
  A.hits.length = V6.hits.length = 0;
});

test('a public-looking name that resolves to loopback is refused at connect time; allowed, it connects to that address', async () => {
  let lookups = 0;
  const toLoopback: Resolver = async () => (lookups++, [{ address: '127.0.0.1', family: 4 }]);
  const url = `http://books.example.com:${A.port}/c.png`;
  const e = await rejection(fetchWithPolicy(url, {}, onNode({}, toLoopback)));
  assert.ok(e instanceof NetworkPolicyError && e.code === 'ADDRESS_REFUSED' && e.reason === 'loopback', String(e));
  assert.match(e.message, /books\.example\.com resolves to 127\.0\.0\.1/);
  assert.equal(A.hits.length, 0);
  assert.equal(lookups, 1); // one resolution, the connection's own: nothing to rebind between a check and a connect
  // One refused address among several refuses the name.
  const mixed: Resolver = async () => [
    { address: '127.0.0.1', family: 4 },
    { address: '10.0.0.1', family: 4 },
  ];
  assert.equal(((await rejection(fetchWithPolicy(url, {}, onNode({}, mixed)))) as NetworkPolicyError).code, 'ADDRESS_REFUSED');
  assert.equal(A.hits.length, 0);

  // Allowed: the same name connects to the resolved address. Then the same host fetch, under the
  // default rules, does not reuse that kept-alive connection: it is refused again.
  const host = nodeFetch({ resolve: toLoopback });
  assert.deepEqual((await fetchWithPolicy(url, {}, { fetch: host, allowPrivateHosts: true })).bytes, PNG);
  assert.equal(A.hits.length, 1);
  const again = await rejection(fetchWithPolicy(url, {}, { fetch: host }));
  assert.equal((again as NetworkPolicyError).code, 'ADDRESS_REFUSED');
  assert.equal(A.hits.length, 1);
  A.hits.length = 0;
});

test('reachableHosts lets one fixture through: its redirects to any other loopback place are refused unreached', async () => {
  const policy = onNode({ reachableHosts: [`127.0.0.1:${A.port}`] });
  // A redirect inside the listed host is followed.
  const self = await fetchWithPolicy(`${A.origin}/to-self`, {}, policy);
  assert.deepEqual(self.bytes, PNG);
  assert.deepEqual(A.hits, ['/to-self', '/c.png']);
  A.hits.length = 0;
  for (const target of [
    `${B.origin}/c.png`,
    `http://localhost:${A.port}/c.png`,
    `http://2130706433:${B.port}/c.png`,
    `http://[::1]:${V6.port}/c.png`,
    `http://[::ffff:127.0.0.1]:${B.port}/c.png`,
    // (10.x, 169.254.169.254, fd00:: as targets: net-policy.test.ts, over a fetch that sends nothing)
  ]) {
    const e = await rejection(fetchWithPolicy(`${A.origin}/to?${encodeURIComponent(target)}`, {}, policy));
    assert.ok(e instanceof NetworkPolicyError && e.code === 'ADDRESS_REFUSED', `${target}: ${e}`);
  }
  assert.equal(A.hits.length, 5);
  assert.deepEqual([B.hits.length, V6.hits.length], [0, 0]);
  A.hits.length = 0;
});

test('a redirect loop, a body past the cap and a slow site end within their limits; gzip is decoded', async () => {
  const policy = (extra: Partial<FetchPolicy>) => onNode({ reachableHosts: [`127.0.0.1:${A.port}`], ...extra });
  const loop = await rejection(fetchWithPolicy(`${A.origin}/loop`, {}, policy({})));
  assert.equal((loop as NetworkPolicyError).code, 'TOO_MANY_REDIRECTS');
  assert.equal(A.hits.length, 11);
  const huge = await rejection(fetchWithPolicy(`${A.origin}/huge`, {}, policy({ maxBytes: 256 << 10 })));
  assert.equal((huge as NetworkPolicyError).code, 'BODY_TOO_LARGE');
  for (const path of ['/never', '/drip']) {
    const slow = await rejection(fetchWithPolicy(`${A.origin}${path}`, {}, policy({ timeoutMs: 300 })));
    assert.equal((slow as NetworkPolicyError).code, 'FETCH_TIMEOUT', path);
  }
  const gz = await fetchWithPolicy(`${A.origin}/gz`, {}, policy({}));
  assert.equal(new TextDecoder().decode(gz.bytes), '书页'.repeat(1000));
  // Nothing listening: FETCH_FAILED naming the cause.
  const closed = await rejection(fetchWithPolicy('http://127.0.0.1:1/x', {}, onNode({ allowPrivateHosts: true })));
  assert.ok(closed instanceof FetchFailedError && /ECONNREFUSED/.test(closed.message), String(closed));
  A.hits.length = 0;
});

test("redirect 'manual' gives the 3xx answer back unfollowed; onRequest and onAnswer see every hop", async () => {
  const policy = onNode({ reachableHosts: [`127.0.0.1:${A.port}`] });
  const manual = await fetchWithPolicy(`${A.origin}/to-self`, {}, { ...policy, redirect: 'manual' });
  assert.equal(manual.status, 302);
  assert.equal(manual.headers.get('location'), '/c.png');
  assert.equal(manual.url, `${A.origin}/to-self`);
  assert.deepEqual(A.hits, ['/to-self']);
  // A manual answer pointing at a refused address is given back too: nothing goes there.
  const away = await fetchWithPolicy(`${A.origin}/to?${encodeURIComponent('http://10.0.0.1/x')}`, {}, { ...policy, redirect: 'manual' });
  assert.equal(away.headers.get('location'), 'http://10.0.0.1/x');
  A.hits.length = 0;
  const seen: string[] = [];
  const followed = await fetchWithPolicy(
    `${A.origin}/to-self`,
    {},
    {
      ...policy,
      onRequest: (url, headers) => {
        seen.push(`ask ${new URL(url).pathname} ${headers.get('x-n') ?? '-'}`);
        headers.set('x-n', String(seen.length));
      },
      onAnswer: (url, headers) => seen.push(`got ${new URL(url).pathname} ${headers.get('location') ?? '-'}`),
    },
  );
  assert.deepEqual(followed.bytes, PNG);
  // A change onRequest makes goes with the request and stays for the next hop.
  assert.deepEqual(seen, ['ask /to-self -', 'got /to-self /c.png', 'ask /c.png 1', 'got /c.png -']);
  A.hits.length = 0;
});
