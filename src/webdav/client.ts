// The few WebDAV requests the sync makes, through the `webdav` client library, each counted, with
// the retry rules real servers need: 503/429 answered by backing off (a rate-limited 坚果云
// account), a PUT answered 404 retried once after a PROPFIND (123云盘 after an idle period).
// The library is loaded on first use, so opening a store never pays for it.
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileStat, WebDAVClient } from 'webdav';
import { LegadoStoreError } from '../errors.js';
import { fsError } from '../io/fs-errors.js';
import { writeFileSafelyAsync } from '../fs/safe-write.js';
import { limitBody } from './body-limit.js';
import {
  WebDavAuthError,
  WebDavConfigError,
  WebDavConnectionError,
  WebDavHttpError,
  WebDavNotFoundError,
  WebDavTooLargeError,
  WebDavUnavailableError,
} from './errors.js';

/** Default largest listing (PROPFIND answer) or progress file, read into memory: 16 MiB. */
export const DEFAULT_MAX_LISTING_BYTES = 16 * 1024 ** 2;
/** Default largest backup download, streamed to disk: 1 GiB. */
export const DEFAULT_MAX_DOWNLOAD_BYTES = 1024 ** 3;

export interface WebDavConnection {
  /** The WebDAV address the app is configured with (its "WebDav server" setting), e.g. `https://dav.jianguoyun.com/dav/`. */
  readonly url: string;
  /** The app's sub-folder setting (default `legado`; '' for none). */
  readonly dir?: string | undefined;
  /** The account; no authentication when left out. */
  readonly user?: string | undefined;
  /** The password. Never printed, never stored, never part of an error. */
  readonly password?: string | undefined;
  /** Retries after a 503/429 answer, each after a longer wait (default 3). */
  readonly retries?: number;
  /** First wait before a retry, doubled each time, in ms (default 1000). A Retry-After header is honoured up to `maxDelayMs`. */
  readonly backoffMs?: number;
  /** Longest single wait, in ms (default 30000). */
  readonly maxDelayMs?: number;
  /** Time limit for one request, in ms (default 60000). */
  readonly timeoutMs?: number;
  /** Largest answer read into memory, a listing (PROPFIND) or a progress file, in bytes (default 16 MiB). */
  readonly maxListingBytes?: number | undefined;
  /** Largest backup download, written to disk as it arrives, in bytes (default 1 GiB). */
  readonly maxDownloadBytes?: number | undefined;
  /**
   * Stops the request under way when aborted (the CLI's Ctrl-C): it fails with the signal's
   * reason, and a download's temporary file is removed as on any failure.
   */
  readonly signal?: AbortSignal | undefined;
}

export interface DavFile {
  readonly name: string;
  readonly folder: boolean;
  readonly size: number;
  /** Last modification, epoch ms (0 when the server gave none). */
  readonly modified: number;
}

/** Throws WebDavConfigError when the address cannot work; sends nothing. */
export function checkConnection(options: WebDavConnection): void {
  void new DavClient(options);
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
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new WebDavConfigError(`the WebDAV address must be http:// or https://, not ${parsed.protocol}//`);
    if (parsed.username || parsed.password) {
      // The message leaves the URL out: it holds a secret.
      throw new WebDavConfigError(
        'the WebDAV address must not hold an account or password: give the account as user (--user) and the password in LEGADO_WEBDAV_PASSWORD or at the prompt',
      );
    }
    this.base = parsed.href.endsWith('/') ? parsed.href : `${parsed.href}/`;
    const segments = (options.dir ?? 'legado')
      .split('/')
      .map((s) => s.trim())
      .filter((s) => s !== '');
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
      const items = (await this.call('PROPFIND', path, (c, signal) =>
        c.getDirectoryContents(path, { signal: this.limited(signal, 'PROPFIND', path, 'listing') }),
      )) as FileStat[];
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

  /**
   * GET a small file (a progress file) into memory, held to the listing limit and to
   * `expectedSize` (from a listing), which also catches a body cut short without an error.
   */
  async get(relative: string, expectedSize?: number): Promise<Uint8Array> {
    const path = this.path(relative);
    const limit = this.checkListed('GET', path, 'listing', expectedSize);
    const data = await this.call(
      'GET',
      path,
      async (c, signal) =>
        new Uint8Array((await c.getFileContents(path, { format: 'binary', signal: this.limited(signal, 'GET', path, 'listing', limit) })) as ArrayBuffer),
    );
    this.checkReceived(path, data.byteLength, expectedSize);
    return data;
  }

  /**
   * GET a file to `destination`, streamed to disk as it arrives: into a temporary file beside it
   * (owner-only), renamed into place when complete, removed on any failure. A size listed above
   * the download limit is refused before the request; a Content-Length over it, or more bytes
   * than the limit or the listed size, end the download there. Returns the bytes written.
   */
  async download(relative: string, destination: string, expectedSize?: number): Promise<number> {
    const path = this.path(relative);
    const limit = this.checkListed('GET', path, 'download', expectedSize);
    let bytes = 0;
    await writeFileSafelyAsync(
      destination,
      (temp) =>
        this.call('GET', path, async (c, signal) => {
          const response = (await c.customRequest(path, { method: 'GET', signal: this.limited(signal, 'GET', path, 'download', limit) })) as Response;
          bytes = 0;
          const counter = async function* (source: AsyncIterable<Uint8Array>) {
            for await (const chunk of source) {
              bytes += chunk.byteLength;
              yield chunk;
            }
          };
          const file = createWriteStream(temp, { mode: 0o600 });
          try {
            await pipeline(Readable.fromWeb((response.body ?? new ReadableStream()) as never), counter, file);
          } catch (e) {
            // A full disk is the disk's failure, not the connection's.
            throw file.errored ? fsError(destination, file.errored) : e;
          }
        }),
      { purpose: 'a download' },
    );
    this.checkReceived(path, bytes, expectedSize);
    return bytes;
  }

  /** The limit for a GET of a file the listing gave `listed` bytes: refused at once when over. */
  private checkListed(method: string, path: string, kind: 'listing' | 'download', listed: number | undefined): number {
    const max = this.max(kind);
    if (listed !== undefined && listed > max) throw new WebDavTooLargeError(method, this.url(path), max, limitName(kind), listed);
    // More than the listed size is already wrong: the download stops one byte past it.
    return listed !== undefined && listed > 0 ? Math.min(max, listed) : max;
  }

  private checkReceived(path: string, received: number, expectedSize: number | undefined): void {
    if (expectedSize !== undefined && expectedSize > 0 && received !== expectedSize) {
      throw new WebDavConnectionError('GET', this.url(path), `received ${received} of ${expectedSize} bytes`);
    }
  }

  private max(kind: 'listing' | 'download'): number {
    return kind === 'listing' ? (this.options.maxListingBytes ?? DEFAULT_MAX_LISTING_BYTES) : (this.options.maxDownloadBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES);
  }

  /** The request's signal, with the body limit attached for our fetch (fetch.ts). */
  private limited(signal: AbortSignal, method: string, path: string, kind: 'listing' | 'download', bytes = this.max(kind)): AbortSignal {
    const max = this.max(kind);
    const why = bytes < max ? 'the size the listing gave' : limitName(kind);
    return limitBody(signal, { bytes, refuse: (announced) => new WebDavTooLargeError(method, this.url(path), bytes, why, announced) });
  }

  /** PUT a file; a 404 is retried once after a PROPFIND of its folder (123云盘). */
  async put(relative: string, data: Uint8Array | string, contentType: string): Promise<void> {
    const path = this.path(relative);
    const body = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    await this.call(
      'PUT',
      path,
      (c, signal) => c.putFileContents(path, body, { overwrite: true, headers: { 'Content-Type': contentType }, signal }),
      async () => {
        const folder = path.slice(0, path.lastIndexOf('/') + 1);
        await this.call('PROPFIND', folder, (c, signal) => c.stat(folder, { signal }));
      },
    );
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
  private async call<T>(
    method: string,
    path: string,
    send: (c: WebDAVClient, signal: AbortSignal) => Promise<T>,
    onNotFound?: () => Promise<void>,
  ): Promise<T> {
    const client = await this.client();
    const retries = this.options.retries ?? 3;
    let busy = 0;
    let reread = false;
    for (;;) {
      this.requests++;
      try {
        const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 60_000);
        return await send(client, this.options.signal ? AbortSignal.any([timeout, this.options.signal]) : timeout);
      } catch (e) {
        if (this.options.signal?.aborted) throw this.options.signal.reason;
        if (e instanceof LegadoStoreError) throw e;
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
        if (status === 404 || (status === 409 && method !== 'MKCOL'))
          throw new WebDavNotFoundError(method, this.url(path), status, method === 'PUT' ? 'the folder is not on the server' : 'not on the server');
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

const limitName = (kind: 'listing' | 'download'): string =>
  kind === 'listing' ? 'the limit for a listing or progress file (maxListingBytes, --max-listing)' : 'the download limit (maxDownloadBytes, --max-download)';

function connectionReason(e: unknown): string {
  const err = e as { name?: string; code?: string; message?: string; cause?: { code?: string } };
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'no answer in time';
  const code = err.code ?? err.cause?.code;
  const message = String(err.message ?? e).replace(/^request to \S+ failed, reason: /, '');
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
