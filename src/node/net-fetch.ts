// The host fetch for the network policy on Node (src/net/fetch.ts): node:http(s) with a lookup
// that checks every address a name resolves to (src/net/rules.ts checkAddress) before the
// socket connects to it, so the address checked is the address connected to (no window for DNS
// rebinding between a check and the connection). Redirects are not followed here (the policy
// follows them, hop by hop); gzip, deflate and brotli bodies are decoded as fetch decodes them;
// TLS certificates are verified (Node's default). Sockets are pooled per set of rules, so a
// connection opened under looser rules is never reused under stricter ones.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { InvalidArgumentError } from '../errors.js';
import type { HostFetch } from '../net/fetch.js';
import { checkAddress, type AddressRules } from '../net/rules.js';

/** Resolves a host name to its addresses (default: the system's resolver, as dns.lookup). */
export type Resolver = (hostname: string) => Promise<readonly LookupAddress[]>;

const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true }, (err, list) => (err ? reject(err) : resolve(list))));

/** A lookup for net.connect that resolves with `resolve` and refuses when any address breaks the rules. */
function checkingLookup(url: string, rules: AddressRules, resolve: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (found) => {
        try {
          const list = found.filter((a) => !options.family || a.family === options.family);
          if (list.length === 0) throw Object.assign(new Error(`${hostname}: no address`), { code: 'ENOTFOUND' });
          for (const a of list) checkAddress(url, hostname, a.address, rules);
          if (options.all) (callback as (e: null, list: LookupAddress[]) => void)(null, [...list]);
          else callback(null, list[0]!.address, list[0]!.family);
        } catch (e) {
          callback(e as NodeJS.ErrnoException, '', 0);
        }
      },
      (e: NodeJS.ErrnoException) => callback(e, '', 0),
    );
  };
}

function requestBody(body: RequestInit['body'], headers: Headers): Uint8Array | string | undefined {
  if (body === null || body === undefined) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (body instanceof URLSearchParams) {
    if (!headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
    return body.toString();
  }
  throw new InvalidArgumentError('body', body, 'a string, bytes or URLSearchParams');
}

function decoded(res: IncomingMessage): Readable {
  const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (!decoder) return res;
  res.on('error', (e) => decoder.destroy(e));
  // A body given up (too large, timed out) frees its socket too.
  decoder.once('close', () => {
    if (!res.complete) res.destroy();
  });
  return res.pipe(decoder);
}

/** A HostFetch over node:http(s) whose connections reach only addresses the rules allow. */
export function nodeFetch(options: { readonly resolve?: Resolver } = {}): HostFetch {
  const resolve = options.resolve ?? systemResolver;
  const agents = new Map<string, { http: HttpAgent; https: HttpsAgent }>();
  const agentsFor = (rules: AddressRules) => {
    const key = JSON.stringify([Boolean(rules.allowPrivateHosts), [...(rules.reachableHosts ?? [])].sort()]);
    let pair = agents.get(key);
    if (!pair) agents.set(key, (pair = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) }));
    return pair;
  };
  return (url, init, rules) =>
    new Promise<Response>((resolvePromise, reject) => {
      const u = new URL(url);
      const secure = u.protocol === 'https:';
      const headers = new Headers(init.headers);
      const body = requestBody(init.body, headers);
      if (!headers.has('accept-encoding')) headers.set('accept-encoding', 'gzip, deflate, br');
      const signal = init.signal ?? undefined;
      if (signal?.aborted) return reject(signal.reason);
      const pair = agentsFor(rules);
      const req = (secure ? httpsRequest : httpRequest)({
        protocol: u.protocol,
        hostname: u.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: u.port || (secure ? 443 : 80),
        path: `${u.pathname}${u.search}`,
        method: init.method ?? 'GET',
        headers: Object.fromEntries(headers),
        agent: secure ? pair.https : pair.http,
        lookup: checkingLookup(url, rules, resolve),
      });
      let res: IncomingMessage | undefined;
      const onAbort = (): void => {
        const reason = signal?.reason instanceof Error ? signal.reason : new Error('aborted');
        req.destroy(reason);
        res?.destroy(reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      // `on`, not `once`: a socket can fail again after the answer began.
      req.on('error', (e) => {
        signal?.removeEventListener('abort', onAbort);
        reject(e);
      });
      req.once('response', (incoming) => {
        res = incoming;
        incoming.once('close', () => signal?.removeEventListener('abort', onAbort));
        const responseHeaders = new Headers();
        for (let i = 0; i + 1 < incoming.rawHeaders.length; i += 2) responseHeaders.append(incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!);
        const status = incoming.statusCode ?? 502;
        const empty = init.method === 'HEAD' || status === 204 || status === 205 || status === 304;
        if (empty) incoming.resume();
        const stream = empty ? null : (Readable.toWeb(decoded(incoming)) as ReadableStream<Uint8Array>);
        try {
          resolvePromise(new Response(stream, { status, statusText: incoming.statusMessage ?? '', headers: responseHeaders }));
        } catch (e) {
          incoming.destroy();
          reject(e);
        }
      });
      req.end(body);
    });
}
