// Failures of a WebDAV operation. Messages name the request and the URL (which never holds
// credentials: a URL with user:password@ is refused before any request), never the password.
import { LegadoStoreError, type ErrorCode } from '../errors.js';

/** Base of every WebDAV failure: what was asked (`method`), where (`url`) and, for HTTP answers, the `status`. */
export class WebDavError extends LegadoStoreError {
  readonly method: string;
  readonly url: string;
  readonly status: number | undefined;
  constructor(code: ErrorCode, method: string, url: string, status: number | undefined, message: string) {
    super(code, `${method} ${url}: ${message}`);
    this.method = method;
    this.url = url;
    this.status = status;
  }
}

/** Settings that cannot work: a URL that is not http(s), a URL holding credentials, no password. */
export class WebDavConfigError extends LegadoStoreError {
  constructor(message: string) {
    super('WEBDAV_CONFIG', message);
  }
}

/** 401/403: the server refused the account and password (or there were none). */
export class WebDavAuthError extends WebDavError {
  constructor(method: string, url: string, status: number) {
    super('WEBDAV_AUTH', method, url, status, `${status}: the server refused the account and password`);
  }
}

/** 404 (or 409 on a PUT into a missing folder): the folder or file is not on the server. */
export class WebDavNotFoundError extends WebDavError {
  constructor(method: string, url: string, status: number, what: string) {
    super('WEBDAV_NOT_FOUND', method, url, status, `${status}: ${what}`);
  }
}

/** 503 (or 429) still answered after the bounded retries: the server is rate-limiting or down. */
export class WebDavUnavailableError extends WebDavError {
  readonly attempts: number;
  constructor(method: string, url: string, status: number, attempts: number) {
    super('WEBDAV_UNAVAILABLE', method, url, status, `${status}: server unavailable after ${attempts} attempts (rate limit or outage; try again later)`);
    this.attempts = attempts;
  }
}

/** No answer: connection refused, reset, cut in the middle of a body, or a body shorter than announced. */
export class WebDavConnectionError extends WebDavError {
  readonly reason: string;
  constructor(method: string, url: string, reason: string) {
    super('WEBDAV_CONNECTION', method, url, undefined, `connection failed: ${reason}`);
    this.reason = reason;
  }
}

/** Any other HTTP error answer. */
export class WebDavHttpError extends WebDavError {
  constructor(method: string, url: string, status: number, statusText: string) {
    super('WEBDAV_HTTP', method, url, status, `${status}${statusText ? ` ${statusText}` : ''}`);
  }
}

/** A backup of today's name is already on the server, and replacing it was not asked for. */
export class BackupExistsError extends LegadoStoreError {
  readonly url: string;
  constructor(url: string) {
    super('FILE_EXISTS', `${url}: a backup of that name is already on the server; it is replaced only when asked (--force, overwrite: true)`);
    this.url = url;
  }
}

/**
 * An answer larger than it may be: over the limit (`maxListingBytes` for listings and progress
 * files, which are read into memory; `maxDownloadBytes` for backups, which go to disk), or longer
 * than the size the listing gave for the file. Refused before or while it arrives, never held whole.
 */
export class WebDavTooLargeError extends WebDavError {
  /** The bytes allowed. */
  readonly limit: number;
  /** The size the server announced (Content-Length or the listing), when it announced one. */
  readonly announced: number | undefined;
  constructor(method: string, url: string, limit: number, why: string, announced?: number) {
    super(
      'WEBDAV_TOO_LARGE',
      method,
      url,
      undefined,
      `${announced !== undefined ? `${announced} bytes announced, ` : ''}more than ${why} (${limit} bytes); nothing was kept`,
    );
    this.limit = limit;
    this.announced = announced;
  }
}
