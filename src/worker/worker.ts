// The Worker: HTTP Basic credentials checked against LEGADO_USERS, then the request goes to the
// reader's own Durable Object (idFromName(reader)), which holds that reader's store and nothing
// else. No state is shared between readers.
import { authenticate, parseUsers } from './auth.js';
import { READER_HEADER, ReaderStore } from './reader-object.js';
import { DEFAULT_MAX_BODY, tooLarge } from '../server/app.js';
import { checkOrigin, grantHeaders, parseOriginList, PREFLIGHT_HEADERS } from '../server/origin-policy.js';

export { ReaderStore };

interface Namespace {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(request: Request): Promise<Response> };
}

export interface Env {
  readonly READERS: Namespace;
  /** `name:password` or `name:pbkdf2$...` entries, comma-separated (a secret in production). */
  readonly LEGADO_USERS?: string;
  /** Origins of pages elsewhere that may read and write (CORS), separated by commas or spaces. */
  readonly LEGADO_CORS_ORIGINS?: string;
}

const REALM = 'Basic realm="legado-store", charset="UTF-8"';

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    let users: Map<string, string>;
    let listed: Set<string>;
    try {
      users = parseUsers(env.LEGADO_USERS);
      listed = parseOriginList(env.LEGADO_CORS_ORIGINS);
    } catch (e) {
      return new Response(`Server misconfigured: ${(e as Error).message}`, { status: 500 });
    }
    // Before credentials: a browser sends its stored Basic credentials with another site's
    // request too, so a foreign origin's write is refused whoever is logged in. No Host rule
    // here: credentials are always required, and a rebinding page's origin has none stored.
    const origin = checkOrigin(request, listed);
    if (origin.refusal) return new Response(origin.refusal.text, { status: origin.refusal.status });
    // A preflight carries no credentials: answered here, a listed origin with its grant.
    if (request.method === 'OPTIONS') return new Response(null, { headers: { ...PREFLIGHT_HEADERS, ...(origin.grant ? grantHeaders(origin.grant) : {}) } });
    const reader = await authenticate(users, request.headers.get('authorization'));
    if (reader === undefined) return new Response('Unauthorized', { status: 401, headers: { 'WWW-Authenticate': REALM } });
    const headers = new Headers(request.headers);
    headers.set(READER_HEADER, reader);
    headers.delete('authorization');
    const body = await readBody(request);
    if (body === TOO_LARGE) return tooLarge(DEFAULT_MAX_BODY);
    const forwarded = new Request(request, body === null ? { headers } : { headers, body });
    return env.READERS.get(env.READERS.idFromName(reader)).fetch(forwarded);
  },
};

const TOO_LARGE = Symbol('too large');
/** How much of a body over the limit is read and dropped so that its 413 reaches the client. */
const DRAIN_LIMIT = 8 * DEFAULT_MAX_BODY;

/**
 * The body, read whole here before the object is asked. workerd loses an answer given while the
 * client is still sending (a reset, or a 500 through the object's hop): so a body declared too
 * large is answered before a byte is read, and one that turns out too large is read to its end
 * (up to DRAIN_LIMIT, past which the client is cut off) before its 413.
 */
async function readBody(request: Request): Promise<ArrayBuffer | null | typeof TOO_LARGE> {
  if (request.body === null) return null;
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > DEFAULT_MAX_BODY) return TOO_LARGE;
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > DRAIN_LIMIT) {
      await reader.cancel();
      return TOO_LARGE;
    }
    if (size <= DEFAULT_MAX_BODY) parts.push(value);
    else parts.length = 0;
  }
  if (size > DEFAULT_MAX_BODY) return TOO_LARGE;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out.buffer;
}
