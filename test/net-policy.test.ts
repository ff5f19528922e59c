// The network policy (src/net) without a network: every spelling of a refused address, read by
// the WHATWG URL parser as a fetch would read it, against the IANA special-purpose registries
// (RFC 6890 and its updates) spelled out here; and fetchWithPolicy over an injected host fetch
// that records what it was asked, so "refused before any request" is seen, not assumed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FetchFailedError, NetworkPolicyError } from '../src/net/errors.js';
import { fetchWithPolicy, type HostFetch } from '../src/net/fetch.js';
import { checkAddress, checkUrl } from '../src/net/rules.js';
import { rejection } from './helpers/net.js';
import { ALLOWED, REFUSED } from './helpers/net-spellings.js';

function refusal(fn: () => unknown): NetworkPolicyError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof NetworkPolicyError, String(e));
    return e;
  }
  assert.fail('not refused');
}

test('every spelling of a loopback, private, link-local, metadata or local address is refused, with its reason', () => {
  for (const [url, reason] of REFUSED) {
    const e = refusal(() => checkUrl(url));
    assert.equal(e.code, 'ADDRESS_REFUSED', url);
    assert.equal(e.reason, reason, url);
  }
  for (const url of ALLOWED) assert.equal(checkUrl(url).protocol.startsWith('http'), true, url);
});

test('allowPrivateHosts lets private addresses through, never another scheme; reachableHosts names hosts and ports', () => {
  for (const [url, reason] of REFUSED) {
    if (reason === 'scheme' || reason === 'invalid-url') assert.equal(refusal(() => checkUrl(url, { allowPrivateHosts: true })).reason, reason);
    else assert.ok(checkUrl(url, { allowPrivateHosts: true }));
  }
  const rules = { reachableHosts: ['127.0.0.1:8080', 'nas.local', '[::1]:81'] };
  assert.ok(checkUrl('http://127.0.0.1:8080/x', rules));
  assert.ok(checkUrl('http://2130706433:8080/x', rules)); // the same host, another spelling
  assert.ok(checkUrl('http://nas.local:5000/', rules));
  assert.ok(checkUrl('http://[::1]:81/', rules));
  assert.equal(refusal(() => checkUrl('http://127.0.0.1:8081/', rules)).reason, 'loopback');
  assert.equal(refusal(() => checkUrl('http://127.0.0.1/', rules)).reason, 'loopback'); // port 80, not 8080
  assert.equal(refusal(() => checkUrl('http://[::1]:80/', rules)).reason, 'loopback');
});

test('resolved addresses are checked as literals are: a public name resolving to 127.0.0.1 or 10.x is refused', () => {
  for (const [address, reason] of [
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['::1', 'loopback'],
    ['::ffff:192.168.0.1', 'private'],
    ['fe80::1%eth0', 'link-local'],
    ['169.254.169.254', 'metadata'],
  ] as const) {
    const e = refusal(() => checkAddress('http://books.example.com/', 'books.example.com', address));
    assert.equal(e.reason, reason, address);
    assert.match(e.message, /books\.example\.com resolves to/);
  }
  checkAddress('http://books.example.com/', 'books.example.com', '93.184.216.34');
  checkAddress('http://books.example.com/', 'books.example.com', '127.0.0.1', { allowPrivateHosts: true });
  checkAddress('http://nas.local/', 'nas.local', '192.168.1.5', { reachableHosts: ['nas.local:5000'] });
});

/** A host fetch answering from a table of URL -> (request) => Response, recording each URL and request it was asked. */
function fakeHost(routes: Record<string, (init: RequestInit) => Response | Promise<Response>>): {
  fetch: HostFetch;
  asked: string[];
  inits: RequestInit[];
} {
  const asked: string[] = [];
  const inits: RequestInit[] = [];
  return {
    asked,
    inits,
    fetch: async (url, init) => {
      asked.push(url);
      inits.push(init);
      assert.equal(init.redirect, 'manual');
      const route = routes[url];
      if (!route) throw new TypeError('fetch failed', { cause: { code: 'ENOTFOUND' } });
      return route(init);
    },
  };
}

const redirect = (location: string, status = 302): Response => new Response(null, { status, headers: { Location: location } });

test('a redirect to a refused address is refused before the host fetch is asked for it, whatever the spelling', async () => {
  for (const target of [
    'http://127.0.0.1/admin',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:127.0.0.1]:8080/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://localhost:1122/api/database',
    'http://10.0.0.5/',
    'http://[fd00::1]/',
    '//localhost/x', // relative to the scheme
    'file:///etc/passwd',
  ]) {
    const host = fakeHost({ 'https://covers.example.com/a.jpg': () => redirect(target) });
    const e = await rejection(fetchWithPolicy('https://covers.example.com/a.jpg', {}, { fetch: host.fetch }));
    assert.ok(e instanceof NetworkPolicyError && e.code === 'ADDRESS_REFUSED', `${target}: ${e}`);
    assert.deepEqual(host.asked, ['https://covers.example.com/a.jpg'], target);
  }
});

test('redirects: relative Location resolved, 303 and POST-302 become GET without a body, credentials dropped across origins', async () => {
  const host = fakeHost({
    'https://a.example.com/start': () => redirect('/next', 303),
    'https://a.example.com/next': () => redirect('https://b.example.com/last', 307),
    'https://b.example.com/last': () => new Response('done', { headers: { 'Content-Type': 'text/plain' } }),
  });
  const got = await fetchWithPolicy(
    'https://user:secret@a.example.com/start',
    { method: 'POST', body: 'x=1', headers: { Authorization: 'Bearer t', Cookie: 'c=1', 'Content-Type': 'text/plain', 'X-Kept': 'k' } },
    { fetch: host.fetch },
  );
  assert.equal(new TextDecoder().decode(got.bytes), 'done');
  assert.equal(got.url, 'https://b.example.com/last');
  assert.deepEqual(got.redirects, ['https://a.example.com/start', 'https://a.example.com/next']); // user and password never sent
  assert.deepEqual(
    host.inits.map((i) => [
      i.method,
      i.body ?? null,
      new Headers(i.headers).get('authorization'),
      new Headers(i.headers).get('content-type'),
      new Headers(i.headers).get('x-kept'),
    ]),
    [
      ['POST', 'x=1', 'Bearer t', 'text/plain', 'k'],
      ['GET', null, 'Bearer t', null, 'k'], // 303: GET, the body and its headers gone; same origin keeps Authorization
      ['GET', null, null, null, 'k'], // another origin: Authorization and Cookie gone
    ],
  );
});

test('a redirect loop ends at the limit; more redirects than allowed are refused', async () => {
  const host = fakeHost({ 'http://a.example.com/1': () => redirect('http://a.example.com/2'), 'http://a.example.com/2': () => redirect('/1') });
  const e = await rejection(fetchWithPolicy('http://a.example.com/1', {}, { fetch: host.fetch, maxRedirects: 10 }));
  assert.ok(e instanceof NetworkPolicyError && e.code === 'TOO_MANY_REDIRECTS', String(e));
  assert.equal(host.asked.length, 11); // the first request and ten redirects followed
});

test('a body past the cap: refused on its declared length, or while read; credentials never printed', async () => {
  const big = new Uint8Array(1001);
  const host = fakeHost({
    'http://a.example.com/declared': () => new Response(big, { headers: { 'Content-Length': '1001' } }),
    'http://a.example.com/streamed': () =>
      new Response(
        new ReadableStream({
          pull(c) {
            c.enqueue(new Uint8Array(300)); // never ends: only the cap stops it
          },
        }),
      ),
    'http://a.example.com/fits': () => new Response(new Uint8Array(1000)),
  });
  for (const path of ['declared', 'streamed']) {
    const e = await rejection(fetchWithPolicy(`http://u:p4ss@a.example.com/${path}`, {}, { fetch: host.fetch, maxBytes: 1000 }));
    assert.ok(e instanceof NetworkPolicyError && e.code === 'BODY_TOO_LARGE', String(e));
    assert.doesNotMatch(e.message, /p4ss/);
    assert.match(e.message, /^http:\/\/a\.example\.com\//);
  }
  assert.equal((await fetchWithPolicy('http://a.example.com/fits', {}, { fetch: host.fetch, maxBytes: 1000 })).bytes.length, 1000);
});

test('one time limit covers the whole chain: a site that never answers, or whose body never ends, is FETCH_TIMEOUT', async () => {
  const host = fakeHost({
    'http://slow.example.com/headers': () => new Promise<Response>(() => {}), // ignores the signal too
    'http://slow.example.com/body': () => new Response(new ReadableStream({ pull: () => new Promise(() => {}) })),
    'http://slow.example.com/hop': () => redirect('/body'),
  });
  for (const path of ['headers', 'body', 'hop']) {
    const e = await rejection(fetchWithPolicy(`http://slow.example.com/${path}`, {}, { fetch: host.fetch, timeoutMs: 50 }));
    assert.ok(e instanceof NetworkPolicyError && e.code === 'FETCH_TIMEOUT', `${path}: ${e}`);
  }
});

test('a site that cannot be reached is FETCH_FAILED naming the URL and the cause', async () => {
  const host = fakeHost({});
  const e = await rejection(fetchWithPolicy('https://gone.example.com/x.png', {}, { fetch: host.fetch }));
  assert.ok(e instanceof FetchFailedError, String(e));
  assert.equal(e.message, 'https://gone.example.com/x.png: fetch failed: ENOTFOUND');
});
