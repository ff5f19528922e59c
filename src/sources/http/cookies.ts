// The app's CookieStore and CookieManager over the store's `cookies` table (EngineStorage):
// cookies kept per registrable domain (domain.ts) as `k=v; k2=v2`. Persistent cookies (an
// Expires or Max-Age) go to the table; session cookies stay in memory, shared by every source
// of the same host object (a WeakMap keyed by it), and are lost with it as the app loses them on
// restart. What a request sends is the two merged, session over persistent.
import type { CookieJar, EngineHost, EngineStorage } from '../engine/types.js';
import { cookieDomain } from './domain.js';

/** Longest Cookie text kept for a domain (CookieStore.getCookie). */
export const MAX_COOKIE_LENGTH = 4096;

/** CookieStore.cookieToMap: `k=v` pairs split at `;`, trimmed; pairs without `=` or with a blank value are skipped. */
export function cookieMap(text: string | null | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const pair of (text ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    const value = pair.slice(eq + 1).trim();
    if (value === '') continue;
    out.set(pair.slice(0, eq).trim(), value);
  }
  return out;
}

export const cookieText = (map: ReadonlyMap<string, string>): string => [...map].map(([k, v]) => `${k}=${v}`).join('; ');

/** CookieManager.mergeCookies: later texts override earlier ones key by key. */
export function mergeCookies(...texts: (string | null | undefined)[]): string {
  const out = new Map<string, string>();
  for (const t of texts) for (const [k, v] of cookieMap(t)) out.set(k, v);
  return cookieText(out);
}

const sessions = new WeakMap<object, Map<string, Map<string, string>>>();

/** The session cookies of a host, per domain. */
function sessionsOf(host: object): Map<string, Map<string, string>> {
  let m = sessions.get(host);
  if (!m) sessions.set(host, (m = new Map()));
  return m;
}

/** One `Set-Cookie` line read as OkHttp's Cookie.parse reads it: name, value, and whether it has an expiry. */
export function parseSetCookie(line: string): { name: string; value: string; persistent: boolean } | undefined {
  const [pair = '', ...attrs] = line.split(';');
  const eq = pair.indexOf('=');
  if (eq <= 0) return undefined;
  const name = pair.slice(0, eq).trim();
  if (name === '') return undefined;
  let value = pair.slice(eq + 1).trim();
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  const persistent = attrs.some((a) => /^\s*(expires|max-age)\s*=/i.test(a));
  return { name, value, persistent };
}

/** The `Set-Cookie` lines of an answer (one per cookie where the platform keeps them apart). */
export function setCookieLines(headers: Headers): string[] {
  const withList = headers as Headers & { getSetCookie?: () => string[] };
  if (typeof withList.getSetCookie === 'function') return withList.getSetCookie();
  const joined = headers.get('set-cookie');
  // Joined with ", ": split where a new `name=` follows (an Expires date has ", " too, then a digit).
  return joined ? joined.split(/,\s*(?=[^;,=\s]+=)/) : [];
}

export class SourceCookieJar implements CookieJar {
  readonly #storage: EngineStorage['cookies'];
  readonly #sessions: Map<string, Map<string, string>>;

  constructor(host: EngineHost) {
    this.#storage = host.storage.cookies;
    this.#sessions = sessionsOf(host);
  }

  /** What is kept for `url`'s domain, session over persistent, cut to 4,096 characters: the first keys go first (the app drops random ones). */
  getCookie(url: string): string {
    const domain = cookieDomain(url);
    const session = this.#sessions.get(domain);
    const map = cookieMap(this.#storage.get(domain));
    for (const [k, v] of session ?? []) map.set(k, v);
    let dropped = false;
    while (cookieText(map).length > MAX_COOKIE_LENGTH) {
      const first = map.keys().next().value as string;
      map.delete(first);
      session?.delete(first);
      dropped = true;
    }
    if (dropped) {
      // The app removes the dropped keys from the store as well (CookieManager.removeCookie).
      const stored = cookieMap(this.#storage.get(domain));
      for (const k of [...stored.keys()]) if (!map.has(k)) stored.delete(k);
      this.#storage.replace(domain, cookieText(stored));
    }
    return cookieText(map);
  }

  getKey(url: string, key: string): string {
    return cookieMap(this.getCookie(url)).get(key) ?? '';
  }

  /** CookieStore.setCookie: the text becomes what is stored for the domain (no merge). */
  setCookie(url: string, cookie: string): void {
    this.#storage.replace(cookieDomain(url), cookie ?? '');
  }

  /** CookieStore.replaceCookie: the pairs are merged into what is stored (nothing happens for an empty URL or cookie). */
  replaceCookie(url: string, cookie: string): void {
    if (!url || !cookie) return;
    this.#storage.set(cookieDomain(url), cookie);
  }

  removeCookie(url: string): void {
    const domain = cookieDomain(url);
    this.#storage.delete(domain);
    this.#sessions.delete(domain);
  }

  /** CookieManager.saveResponse: an answer's `Set-Cookie` kept under the URL's domain, persistent ones stored, session ones in memory. */
  saveAnswer(url: string, headers: Headers): void {
    const cookies = setCookieLines(headers)
      .map(parseSetCookie)
      .filter((c) => c !== undefined);
    if (cookies.length === 0) return;
    const domain = cookieDomain(url);
    const session = cookies.filter((c) => !c.persistent);
    if (session.length > 0) {
      let kept = this.#sessions.get(domain);
      if (!kept) this.#sessions.set(domain, (kept = new Map()));
      for (const [k, v] of cookieMap(session.map((c) => `${c.name}=${c.value}`).join('; '))) kept.set(k, v);
    }
    const persistent = cookies.filter((c) => c.persistent).map((c) => `${c.name}=${c.value}`);
    if (persistent.length > 0) this.#storage.set(domain, persistent.join('; '));
  }
}
