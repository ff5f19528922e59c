// Every fetch a server makes for a stranger's URL (a cover now, book sources next) goes through
// fetchWithPolicy: the URL is checked (rules.ts), redirects are followed here, one hop at a time,
// each hop checked again, the body is read up to a cap, and one time limit covers the whole
// chain, body included. The host's fetch is passed in: on Node one that checks every address a
// name resolves to before it connects (src/node/net-fetch.ts), so a name that resolves to a
// private address, first or on a later lookup (DNS rebinding), is refused. Elsewhere (Workers,
// a browser) name resolution is the platform's: literal addresses and local names are refused
// here, and Cloudflare's fetch does not reach private addresses.
import { FetchFailedError, NetworkPolicyError } from './errors.js';
import { checkUrl, type AddressRules } from './rules.js';

/**
 * The host's fetch, called with `redirect: 'manual'`, a signal and the rules, which a host that
 * resolves names itself applies to each address (rules.ts checkAddress); `fetch` ignores them.
 */
export type HostFetch = (url: string, init: RequestInit, rules: AddressRules) => Promise<Response>;

export interface FetchPolicy extends AddressRules {
  /** The host's fetch (default: the platform's `fetch`, which resolves names unchecked on Node). */
  readonly fetch?: HostFetch | undefined;
  /** Most redirects followed (default 10). */
  readonly maxRedirects?: number;
  /** Largest body read, in bytes (default 10 MiB). */
  readonly maxBytes?: number;
  /** Time limit of the whole fetch, redirects and body included, in ms (default 30,000). */
  readonly timeoutMs?: number;
  /** `manual`: a redirect is given back as it is (scripts read `Location`), not followed. Default `follow`. */
  readonly redirect?: 'follow' | 'manual';
  /** Sees every answer's headers, redirects included (a cookie jar saves each hop's `Set-Cookie`). */
  readonly onAnswer?: (url: string, headers: Headers) => void;
  /** May change the headers before each hop is sent, the first included (a cookie jar adds the hop's cookies). */
  readonly onRequest?: (url: string, headers: Headers) => void;
}

export const DEFAULT_MAX_REDIRECTS = 10;
export const DEFAULT_MAX_BYTES = 10 << 20;
export const DEFAULT_TIMEOUT_MS = 30_000;

/** A whole answer, read within the policy. */
export interface FetchedBody {
  /** The last URL of the chain (the one that answered); URLs here hold no user or password (never sent). */
  readonly url: string;
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  readonly bytes: Uint8Array;
  /** The URLs redirected from, in order. */
  readonly redirects: readonly string[];
  /** The status of the last redirect followed (OkHttp's priorResponse.code); absent when none was. */
  readonly redirectStatus?: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];

const platformFetch: HostFetch = (url, init) => fetch(url, init);

/** The answer to `url` under the policy; a NetworkPolicyError or FetchFailedError otherwise. */
export async function fetchWithPolicy(url: string | URL, init: RequestInit = {}, policy: FetchPolicy = {}): Promise<FetchedBody> {
  const hostFetch = policy.fetch ?? platformFetch;
  const maxRedirects = policy.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const maxBytes = policy.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = policy.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const rules: AddressRules = { allowPrivateHosts: policy.allowPrivateHosts, reachableHosts: policy.reachableHosts };

  const controller = new AbortController();
  let current = withoutCredentials(checkUrl(url, rules));
  const timedOut = (): NetworkPolicyError => new NetworkPolicyError('FETCH_TIMEOUT', current, `no whole answer within ${timeoutMs} ms`);
  const timer = setTimeout(() => controller.abort(timedOut()), timeoutMs);
  const outer = init.signal;
  const onOuterAbort = (): void => controller.abort(outer?.reason);
  if (outer?.aborted) onOuterAbort();
  else outer?.addEventListener('abort', onOuterAbort, { once: true });

  let method = (init.method ?? 'GET').toUpperCase();
  let body = init.body ?? null;
  const headers = new Headers(init.headers);
  const redirects: string[] = [];
  let redirectStatus: number | undefined;
  /** The abort's reason when the policy's time or the caller's signal ended the fetch, else `e` as a typed error. */
  const failure = (e: unknown): Error => {
    if (controller.signal.aborted) return controller.signal.reason instanceof Error ? controller.signal.reason : timedOut();
    if (e instanceof NetworkPolicyError || e instanceof FetchFailedError) return e;
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return new FetchFailedError(current, cause?.code ?? cause?.message ?? (e as Error).message ?? String(e));
  };
  try {
    for (;;) {
      let res: Response;
      try {
        policy.onRequest?.(current.href, headers);
        res = await untilAborted(
          hostFetch(current.href, { method, headers: new Headers(headers), body, redirect: 'manual', signal: controller.signal }, rules),
          controller.signal,
        );
      } catch (e) {
        throw failure(e);
      }
      // A browser hides a redirect's target from script: the hop cannot be checked.
      if (res.type === 'opaqueredirect') throw new FetchFailedError(current, 'a redirect this platform does not let us check');
      policy.onAnswer?.(current.href, res.headers);
      const location = res.headers.get('location');
      if (REDIRECTS.has(res.status) && location !== null && policy.redirect !== 'manual') {
        void res.body?.cancel().catch(() => {});
        if (redirects.length >= maxRedirects) {
          throw new NetworkPolicyError('TOO_MANY_REDIRECTS', current, `more than ${maxRedirects} redirects (from ${redirects[0] ?? current.href})`);
        }
        let next: URL;
        try {
          next = new URL(location, current);
        } catch {
          throw new FetchFailedError(current, `a redirect to something that is not a URL`);
        }
        next = withoutCredentials(checkUrl(next, rules));
        // As fetch does: 303, and 301/302 after a POST, become a GET without a body.
        if ((res.status === 303 && method !== 'HEAD') || ((res.status === 301 || res.status === 302) && method === 'POST')) {
          method = 'GET';
          body = null;
          for (const h of BODY_HEADERS) headers.delete(h);
        }
        if (next.origin !== current.origin) for (const h of CREDENTIAL_HEADERS) headers.delete(h);
        redirects.push(current.href);
        redirectStatus = res.status;
        current = next;
        continue;
      }
      const declared = Number(res.headers.get('content-length') ?? '');
      if (Number.isFinite(declared) && declared > maxBytes) {
        void res.body?.cancel().catch(() => {});
        throw new NetworkPolicyError('BODY_TOO_LARGE', current, `the answer declares ${declared} bytes, more than the ${maxBytes} allowed`);
      }
      let bytes: Uint8Array;
      try {
        bytes = res.body ? await readCapped(res.body, maxBytes, controller.signal, current) : new Uint8Array(0);
      } catch (e) {
        throw failure(e);
      }
      const prior = redirectStatus === undefined ? {} : { redirectStatus };
      return { url: current.href, status: res.status, statusText: res.statusText, headers: res.headers, bytes, redirects, ...prior };
    }
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
}

/** User and password are never sent from a URL (fetch refuses them; they would be printed). */
function withoutCredentials(url: URL): URL {
  url.username = '';
  url.password = '';
  return url;
}

/** `promise`, or the signal's reason once it aborts: a host that does not end its work on abort still ends here. */
async function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  let onAbort: () => void = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
    promise.catch(() => {}); // a late failure of the abandoned call is no one's
  }
}

/** The whole body; a BODY_TOO_LARGE error (the stream cancelled) past `limit`; the signal's reason once it aborts. */
async function readCapped(body: ReadableStream<Uint8Array>, limit: number, signal: AbortSignal, url: URL): Promise<Uint8Array> {
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await untilAborted(reader.read(), signal);
      if (done) {
        const out = new Uint8Array(size);
        parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
        return out;
      }
      size += value.byteLength;
      if (size > limit) throw new NetworkPolicyError('BODY_TOO_LARGE', url, `the answer is longer than the ${limit} bytes allowed`);
      parts.push(value);
    }
  } catch (e) {
    void reader.cancel().catch(() => {});
    throw e;
  }
}
