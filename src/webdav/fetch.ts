// The fetch the WebDAV library sends its requests through, following redirects itself so that
// credentials go only to the origin they were given for: the library's own fetch keeps the
// Authorization header on a redirect to another port of the same host (a 307 from :8080 to
// :9090 handed the password to whatever listened there). A redirect to another origin (scheme,
// host or port) is followed without Authorization and Cookie, and they stay off from then on.
// It also holds each answer's body to the limit its request was given (limitBody): refused at
// once when Content-Length says more, cut off as soon as more arrives.
import { getPatcher } from 'webdav';
import { limitOf, type BodyLimit } from './body-limit.js';

const MAX_REDIRECTS = 10;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function originBoundFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const origin = new URL(url).origin;
  const headers = new Headers(init.headers);
  let method = (init.method ?? 'GET').toUpperCase();
  let body = init.body;
  let current = url;
  for (let hop = 0; ; hop++) {
    const response = await fetch(current, { ...init, method, headers, body: body ?? null, redirect: 'manual' });
    const location = REDIRECTS.has(response.status) ? response.headers.get('location') : null;
    if (location === null || hop >= MAX_REDIRECTS) {
      const limit = limitOf(init.signal);
      return limit ? capped(response, limit) : response;
    }
    await response.body?.cancel();
    const next = new URL(location, current);
    // As browsers do: 303 (and 301/302 after a POST) continue as a GET without a body.
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
    }
    if (next.origin !== origin) {
      headers.delete('authorization');
      headers.delete('cookie');
    }
    current = next.href;
  }
}

/** The response with its body held to the limit. */
async function capped(response: Response, limit: BodyLimit): Promise<Response> {
  if (!response.body) return response;
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit.bytes) {
    await response.body.cancel();
    throw limit.refuse(declared);
  }
  let seen = 0;
  const count = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      // Erroring here cancels the source: the connection is dropped, nothing more is read.
      if (seen > limit.bytes) controller.error(limit.refuse(undefined));
      else controller.enqueue(chunk);
    },
  });
  return new Response(response.body.pipeThrough(count), { status: response.status, statusText: response.statusText, headers: response.headers });
}

let installed = false;

/** Makes the library send through originBoundFetch (its patcher is one per process). */
export function installOriginBoundFetch(): void {
  if (installed) return;
  installed = true;
  getPatcher().patch('fetch', originBoundFetch as never);
}
