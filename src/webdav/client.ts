// The few WebDAV requests the sync makes, through the `webdav` client library, each counted, with
// the retry rules real servers need: 503/429 answered by backing off (a rate-limited 坚果云
// account), a PUT answered 404 retried once after a PROPFIND (123云盘 after an idle period).
// The library is loaded on first use, so opening a store never pays for it.
import type { FileStat, WebDAVClient } from 'webdav';
import {
  WebDavAuthError,
  WebDavConfigError,
  WebDavConnectionError,
  WebDavHttpError,
  WebDavNotFoundError,
  WebDavUnavailableError,
} from './errors.js';

export interface WebDavConnection {
  /** The WebDAV address the app is configured with (its "WebDav server" setting), e.g. `https://dav.jianguoyun.com/dav/`. */
  readonly url: string;
  /** The app's sub-folder setting (default `legado`; '' for none). */
  readonly dir?: string;
  /** The account; no authentication when left out. */
  readonly user?: string;
  /** The password. Never printed, never stored, never part of an error. */
  readonly password?: string;
  /** Retries after a 503/429 answer, each after a longer wait (default 3). */
  readonly retries?: number;
  /** First wait before a retry, doubled each time, in ms (default 1000). A Retry-After header is honoured up to `maxDelayMs`. */
  readonly backoffMs?: number;
  /** Longest single wait, in ms (default 30000). */
  readonly maxDelayMs?: number;
  /** Time limit for one request, in ms (default 60000). */
  readonly timeoutMs?: number;
}

export interface DavFile {
  readonly name: string;
  readonly folder: boolean;
  readonly size: number;
  /** Last modification, epoch ms (0 when the server gave none). */
  readonly modified: number;
}

export class DavClient {
  /** The folder's address, ending in `/`: the configured URL plus the sub-folder. */
  readonly root: string;
  /** Requests sent so far, retries included. */
  requests = 0;
  private readonly base: string;
  private readonly dirPath: string;
  private lib: WebDAVClient | undefined;

  constructor(private readonly options: WebDavConnection) {
    let parsed: URL;
    try {
      parsed = new URL(options.url);
    } catch {
      throw new WebDavConfigError('the WebDAV address is not a URL (it is left out here in case it holds a secret)');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new WebDavConfigError(`the WebDAV address must be http:// or https://, not ${parsed.protocol}//`);
    if (parsed.username || parsed.password) {
      // The message leaves the URL out: it holds a secret.
      throw new WebDavConfigError('the WebDAV address must not hold an account or password: give the account as user (--user) and the password in LEGADO_WEBDAV_PASSWORD or at the prompt');
    }
    this.base = parsed.href.endsWith('/') ? parsed.href : `${parsed.href}/`;
    const segments = (options.dir ?? 'legado').split('/').map((s) => s.trim()).filter((s) => s !== '');
    this.dirPath = segments.map((s) => `/${s}`).join('');
    this.root = this.base + segments.map((s) => `${encodeURIComponent(s)}/`).join('');
  }

  /** The folder's own path segments (for creating them one by one, as MKCOL needs). */
  get dirSegments(): string[] {
    const out: string[] = [];
    let at = '';
    for (const s of this.dirPath.split('/').slice(1)) out.push((at += `/${s}`));
    return out;
  }

  /** A path below the folder, as the library takes it (the library URL-encodes it). */
  path(relative = ''): string {
    return `${this.dirPath}/${relative}`;
  }

  /** PROPFIND depth 1: the entries of a folder, or undefined when the folder is missing. */
  async list(relative = ''): Promise<DavFile[] | undefined> {
    const path = this.path(relative);
    try {
      const items = (await this.call('PROPFIND', path, (c, signal) => c.getDirectoryContents(path, { signal }))) as FileStat[];
      return items.map((f) => ({
        name: f.basename,
        folder: f.type === 'directory',
        size: f.size,
        modified: f.lastmod ? Date.parse(f.lastmod) || 0 : 0,
      }));
    } catch (e) {
      if (e instanceof WebDavNotFoundError) return undefined;
      throw e;
    }
  }

  /** GET a file's bytes; `expectedSize` (from a listing) catches a body cut short without an error. */
  async get(relative: string, expectedSize?: number): Promise<Uint8Array> {
    const path = this.path(relative);
    const data = await this.call('GET', path, async (c, signal) => new Uint8Array((await c.getFileContents(path, { format: 'binary', signal })) as ArrayBuffer));
    if (expectedSize !== undefined && expectedSize > 0 && data.byteLength !== expectedSize) {
      throw new WebDavConnectionError('GET', this.url(path), `received ${data.byteLength} of ${expectedSize} bytes`);
    }
    return data;
  }

  /** PUT a file; a 404 is retried once after a PROPFIND of its folder (123云盘). */
  async put(relative: string, data: Uint8Array | string, contentType: string): Promise<void> {
    const path = this.path(relative);
    const body = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    await this.call('PUT', path, (c, signal) => c.putFileContents(path, body, { overwrite: true, headers: { 'Content-Type': contentType }, signal }), async () => {
      const folder = path.slice(0, path.lastIndexOf('/') + 1);
      await this.call('PROPFIND', folder, (c, signal) => c.stat(folder, { signal }));
    });
  }

  /** MKCOL; an existing folder (405) is fine. */
  async mkcol(path: string): Promise<void> {
    try {
      await this.call('MKCOL', path, (c, signal) => c.createDirectory(path, { signal }));
    } catch (e) {
      if (e instanceof WebDavHttpError && e.status === 405) return;
      throw e;
    }
  }

  url(path: string): string {
    return this.base + path.split('/').slice(1).map(encodeURIComponent).join('/');
  }

  private async client(): Promise<WebDAVClient> {
    if (!this.lib) {
      const { createClient } = await import('webdav');
      (await import('./fetch.js')).installOriginBoundFetch();
      const { user, password } = this.options;
      // Basic, sent with every request; the account and password as UTF-8 (RFC 7617), where the
      // library would take Latin-1 and fail on any other character.
      const headers = user === undefined ? undefined : { Authorization: `Basic ${Buffer.from(`${user}:${password ?? ''}`, 'utf8').toString('base64')}` };
      this.lib = createClient(this.base, headers ? { headers } : {});
    }
    return this.lib;
  }

  /**
   * One request and its retries, each counted; every failure becomes a typed error.
   * `onNotFound` runs once when the answer is 404, and the request is then sent again.
   */
  private async call<T>(method: string, path: string, send: (c: WebDAVClient, signal: AbortSignal) => Promise<T>, onNotFound?: () => Promise<void>): Promise<T> {
    const client = await this.client();
    const retries = this.options.retries ?? 3;
    let busy = 0;
    let reread = false;
    for (;;) {
      this.requests++;
      try {
        return await send(client, AbortSignal.timeout(this.options.timeoutMs ?? 60_000));
      } catch (e) {
        const status = (e as { status?: unknown }).status;
        if (typeof status !== 'number') throw new WebDavConnectionError(method, this.url(path), connectionReason(e));
        if (status === 503 || status === 429) {
          if (busy >= retries) throw new WebDavUnavailableError(method, this.url(path), status, busy + 1);
          await sleep(this.delay(busy++, e));
          continue;
        }
        if (status === 404 && onNotFound && !reread) {
          reread = true;
          await onNotFound();
          continue;
        }
        if (status === 401 || status === 403) throw new WebDavAuthError(method, this.url(path), status);
        if (status === 404 || (status === 409 && method !== 'MKCOL')) throw new WebDavNotFoundError(method, this.url(path), status, method === 'PUT' ? 'the folder is not on the server' : 'not on the server');
        const text = (e as { response?: { statusText?: string } }).response?.statusText ?? '';
        throw new WebDavHttpError(method, this.url(path), status, text);
      }
    }
  }

  /** Exponential backoff, or the server's Retry-After when it gives one; never more than maxDelayMs. */
  private delay(attempt: number, e: unknown): number {
    const max = this.options.maxDelayMs ?? 30_000;
    const header = (e as { response?: { headers?: { get?(n: string): string | null } } }).response?.headers?.get?.('retry-after');
    if (header) {
      const seconds = Number(header);
      const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
      if (Number.isFinite(ms) && ms >= 0) return Math.min(ms, max);
    }
    return Math.min((this.options.backoffMs ?? 1000) * 2 ** attempt, max);
  }
}

function connectionReason(e: unknown): string {
  const err = e as { name?: string; code?: string; message?: string; cause?: { code?: string } };
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'no answer in time';
  const code = err.code ?? err.cause?.code;
  const message = String(err.message ?? e).replace(/^request to \S+ failed, reason: /, '');
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
