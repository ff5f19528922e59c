// The Worker: HTTP Basic credentials checked against LEGADO_USERS, then the request goes to the
// reader's own Durable Object (idFromName(reader)), which holds that reader's store and nothing
// else. No state is shared between readers.
import { authenticate, parseUsers } from './auth.js';
import { READER_HEADER, ReaderStore } from './reader-object.js';

export { ReaderStore };

interface Namespace {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(request: Request): Promise<Response> };
}

export interface Env {
  readonly READERS: Namespace;
  /** `name:password` or `name:pbkdf2$...` entries, comma-separated (a secret in production). */
  readonly LEGADO_USERS?: string;
}

const REALM = 'Basic realm="legado-store", charset="UTF-8"';

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    let users: Map<string, string>;
    try {
      users = parseUsers(env.LEGADO_USERS);
    } catch (e) {
      return new Response(`Server misconfigured: ${(e as Error).message}`, { status: 500 });
    }
    const reader = await authenticate(users, request.headers.get('authorization'));
    if (reader === undefined) return new Response('Unauthorized', { status: 401, headers: { 'WWW-Authenticate': REALM } });
    const headers = new Headers(request.headers);
    headers.set(READER_HEADER, reader);
    headers.delete('authorization');
    const forwarded = new Request(request, { headers });
    return env.READERS.get(env.READERS.idFromName(reader)).fetch(forwarded);
  },
};
