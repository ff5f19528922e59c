// HTTP Basic credentials checked against LEGADO_USERS: `name:secret` entries separated by
// commas, each secret either a password as written (development) or a PBKDF2-SHA-256 hash
// `pbkdf2$<iterations>$<salt, base64>$<hash, base64>` (production; `npm run worker:hash`
// makes one). Compared in constant time over SHA-256 digests, and an unknown name costs the
// same work as a known one, so timing tells neither the name nor the password.

export interface Reader {
  readonly name: string;
  readonly secret: string;
}

/** The readers LEGADO_USERS lists; a name may not hold ':' (the Basic scheme's separator). */
export function parseUsers(text: string | undefined): Map<string, string> {
  const users = new Map<string, string>();
  for (const entry of (text ?? '').split(',')) {
    const trimmed = entry.trim();
    if (trimmed === '') continue;
    const colon = trimmed.indexOf(':');
    if (colon <= 0 || colon === trimmed.length - 1)
      throw new Error(`LEGADO_USERS: an entry is not name:password (at "${trimmed.slice(0, Math.max(colon, 0))}")`);
    users.set(trimmed.slice(0, colon), trimmed.slice(colon + 1));
  }
  return users;
}

/** The name and password of an `Authorization: Basic` header, or undefined. */
export function basicCredentials(header: string | null): { name: string; password: string } | undefined {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!m) return undefined;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(m[1]!), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
  const colon = text.indexOf(':');
  return colon < 0 ? undefined : { name: text.slice(0, colon), password: text.slice(colon + 1) };
}

const encoder = new TextEncoder();
const fromBase64 = (s: string): Uint8Array => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
const toBase64 = (b: Uint8Array): string => btoa(String.fromCharCode(...b));

/** Workers' Web Crypto takes at most 100,000 PBKDF2 iterations. */
export const PBKDF2_ITERATIONS = 100_000;

async function pbkdf2(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(password), 'PBKDF2', false, ['deriveBits']);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, 256));
}

/** A LEGADO_USERS secret for a password: `pbkdf2$100000$<salt>$<hash>`. */
export async function hashPassword(password: string, salt: Uint8Array = crypto.getRandomValues(new Uint8Array(16))): Promise<string> {
  return `pbkdf2$${PBKDF2_ITERATIONS}$${toBase64(salt)}$${toBase64(await pbkdf2(password, salt, PBKDF2_ITERATIONS))}`;
}

async function digest(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
}

/** Equal byte strings, compared over their SHA-256 digests without an early exit. */
async function sameBytes(a: Uint8Array, b: Uint8Array): Promise<boolean> {
  const [x, y] = await Promise.all([digest(a), digest(b)]);
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i]! ^ y[i]!;
  return diff === 0;
}

const HASHED = /^pbkdf2\$(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/;
const DECOY = `pbkdf2$${PBKDF2_ITERATIONS}$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=`;

/** The reader's name when the header's credentials are a LEGADO_USERS entry's, else undefined. */
export async function authenticate(users: ReadonlyMap<string, string>, header: string | null): Promise<string | undefined> {
  const given = basicCredentials(header);
  if (!given) return undefined;
  const known = users.get(given.name);
  const secret = known ?? DECOY;
  const h = HASHED.exec(secret);
  let ok: boolean;
  if (h) {
    const derived = await pbkdf2(given.password, fromBase64(h[2]!), Number(h[1]));
    ok = await sameBytes(derived, fromBase64(h[3]!));
  } else {
    ok = await sameBytes(encoder.encode(given.password), encoder.encode(secret));
  }
  return ok && known !== undefined ? given.name : undefined;
}
