// The server's front door, the same on every host (Node, the Worker, the sockets): which Host
// names are answered (a name an attacker points at 127.0.0.1 makes their page same-origin with
// us: DNS rebinding), which Origins get a CORS grant (only those the operator lists), and which
// requests of other origins are refused: every one that can change something (a text/plain or
// multipart POST needs no preflight, and a browser sends its stored Basic credentials along).
// Platform-free: requests are read through the small DoorRequest shape.

/** What the rules read of a request (a Web Request fits; the Node sockets wrap IncomingMessage). */
export interface DoorRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: { get(name: string): string | null };
}

export interface Refusal {
  readonly status: 403 | 421;
  readonly text: string;
}

/** The verdict on a request's Origin: refused, or answered with a CORS grant for `grant` (a listed origin) or none. */
export type OriginVerdict = { readonly refusal: Refusal } | { readonly refusal?: undefined; readonly grant?: string };

/**
 * An origin as browsers serialise it (`scheme://host[:port]`, lower case, default port left out),
 * or undefined for text that is no http(s) origin. Opaque origins (`null`, file:, data:) are none.
 */
export function normalOrigin(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return url.origin;
}

/** An operator's `--cors-origin`: an http(s) origin and nothing more (no path, query or credentials), normalised; else undefined. */
export function parseListedOrigin(text: string): string | undefined {
  const origin = normalOrigin(text);
  if (origin === undefined) return undefined;
  const url = new URL(text.trim());
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '' || url.pathname !== '/') return undefined;
  return origin;
}

/** An operator's `--allowed-host`: a host name or address, with or without a port, lower case; else undefined. */
export function parseAllowedHost(text: string): string | undefined {
  const host = splitHost(text.trim().toLowerCase());
  if (host === undefined || host.name === '') return undefined;
  return host.port === undefined ? host.name : `${host.name}:${host.port}`;
}

/** A Host header's name (IPv6 in brackets) and port; undefined when it is not one. */
function splitHost(host: string): { name: string; port?: string } | undefined {
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]/\\@\s?#]*)(?::(\d{1,5}))?$/.exec(host);
  if (!m) return undefined;
  return m[2] === undefined ? { name: m[1]! } : { name: m[1]!, port: m[2] };
}

/**
 * The Host names a server bound to `address` on `port` answers by default: that address and the
 * loopback names, each with the port. The operator's names (`extra`) are added: a name without a
 * port matches it on any port (a reverse proxy may send none).
 */
export function defaultHosts(address: string, port: number, extra: readonly string[] = []): string[] {
  const bracket = (a: string) => (a.includes(':') && !a.startsWith('[') ? `[${a}]` : a);
  const names = new Set(['127.0.0.1', 'localhost', '[::1]', bracket(address.toLowerCase())]);
  return [...[...names].map((n) => `${n}:${port}`), ...extra];
}

/** A Host header value the list allows (`name:port` exactly, or a listed `name` on any port). */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const given = splitHost(host.trim().toLowerCase());
  if (given === undefined) return false;
  const full = given.port === undefined ? given.name : `${given.name}:${given.port}`;
  return allowed.some((a) => a === full || a === given.name);
}

/**
 * Refusal of a request whose Host is not on the list (undefined: every Host is answered). A
 * request without a Host header is not a browser's (HTTP/1.1 browsers always send it), so it is
 * let through; a request naming a host in its target is checked on that name too.
 */
export function checkHost(req: DoorRequest, allowed: readonly string[] | undefined): Refusal | undefined {
  if (allowed === undefined) return undefined;
  const header = req.headers.get('host');
  if (header === null) return undefined;
  let target: string;
  try {
    target = new URL(req.url).host;
  } catch {
    target = header;
  }
  for (const host of new Set([header, target])) {
    if (!hostAllowed(host, allowed)) {
      return {
        status: 421,
        // The names answered are left out: a rebinding page can read this answer.
        text: `Misdirected Request: this server does not answer for the Host ${JSON.stringify(host.slice(0, 100))} (another name pointed at this machine is how a web page reaches a local server; the operator can list a name with --allowed-host)`,
      };
    }
  }
  return undefined;
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** A request that can change something: any method but GET and HEAD (OPTIONS: a preflight asking to), and every WebSocket upgrade. */
export function changesState(req: DoorRequest): boolean {
  return !SAFE_METHODS.has(req.method.toUpperCase()) || (req.headers.get('upgrade') ?? '').toLowerCase() === 'websocket';
}

/**
 * The Origin rule. The server's own pages (`own`, default the request URL's origin) and requests
 * with no Origin (not from a page, or a same-origin GET) pass with no grant; a listed origin gets
 * the grant; any other origin (`null` included: sandboxed frames, file: pages) is refused when the
 * request can change something, and answered without a grant otherwise (the browser then keeps the
 * answer from the page). A browser that sends no Origin but says `Sec-Fetch-Site: cross-site` or
 * `same-site` is taken at its word.
 */
export function checkOrigin(req: DoorRequest, listed: ReadonlySet<string>, own?: string): OriginVerdict {
  const header = req.headers.get('origin');
  if (header === null) {
    const site = (req.headers.get('sec-fetch-site') ?? '').toLowerCase();
    if ((site === 'cross-site' || site === 'same-site') && changesState(req)) return { refusal: refuse(`a ${site} page`) };
    return {};
  }
  const origin = normalOrigin(header);
  let self = own;
  if (self === undefined) {
    try {
      self = new URL(req.url).origin;
    } catch {
      self = undefined;
    }
  }
  if (origin !== undefined && origin === self) return {};
  if (origin !== undefined && listed.has(origin)) return { grant: origin };
  if (changesState(req)) return { refusal: refuse(JSON.stringify(header.slice(0, 100))) };
  return {};
}

function refuse(who: string): Refusal {
  return {
    status: 403,
    text: `Forbidden: a request from ${who}, another origin than this server's own pages, may not change the store (the operator can list an origin: serve --cors-origin, or the Worker's LEGADO_CORS_ORIGINS)`,
  };
}

/** What every preflight is answered with (the app's own values); a listed origin also gets grantHeaders. */
export const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = { 'Access-Control-Allow-Methods': 'POST', 'Access-Control-Allow-Headers': 'content-type' };

/** The CORS grant of a listed origin: it may read answers, credentials included (the Worker always asks for them). */
export function grantHeaders(origin: string): Record<string, string> {
  return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Allow-Credentials': 'true', Vary: 'Origin' };
}

/** The listed origins of a comma- or space-separated text (the Worker's LEGADO_CORS_ORIGINS); throws naming the first bad one. */
export function parseOriginList(text: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const part of (text ?? '').split(/[,\s]+/)) {
    if (part === '') continue;
    const origin = parseListedOrigin(part);
    if (origin === undefined) throw new Error(`not an http(s) origin (scheme://host[:port]): ${JSON.stringify(part)}`);
    out.add(origin);
  }
  return out;
}
