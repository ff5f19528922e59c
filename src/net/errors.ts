// Failures of a fetch made under the network policy (fetch.ts). Each names the URL it was
// about, printed without the user and password a URL may carry.
import { LegadoStoreError, type ErrorCode } from '../errors.js';

/** A URL as it may be printed: user and password left out. */
export function printableUrl(url: string | URL): string {
  try {
    const u = new URL(String(url));
    u.username = '';
    u.password = '';
    return u.href;
  } catch {
    // Not a URL: keep what comes before any `@` out of it as well.
    return String(url).replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1');
  }
}

/** Why a URL or address was refused. */
export type RefusalReason =
  | 'scheme'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unique-local'
  | 'unspecified'
  | 'multicast'
  | 'broadcast'
  | 'metadata'
  | 'reserved'
  | 'local-name'
  | 'invalid-url';

export type NetworkPolicyCode = Extract<ErrorCode, 'ADDRESS_REFUSED' | 'TOO_MANY_REDIRECTS' | 'BODY_TOO_LARGE' | 'FETCH_TIMEOUT'>;

/**
 * The network policy stopped a fetch: an address or name it does not reach (`ADDRESS_REFUSED`,
 * with `reason`), more redirects than allowed, a body past the cap, or the time limit.
 */
export class NetworkPolicyError extends LegadoStoreError {
  /** The URL concerned, without credentials. */
  readonly url: string;
  readonly reason: RefusalReason | undefined;
  constructor(code: NetworkPolicyCode, url: string | URL, detail: string, reason?: RefusalReason) {
    const shown = printableUrl(url);
    super(code, `${shown}: ${detail}`);
    this.url = shown;
    this.reason = reason;
  }
}

/** The site could not be reached or answered something unreadable (refused, reset, no such name). */
export class FetchFailedError extends LegadoStoreError {
  readonly url: string;
  /** What went wrong, as the platform said it (ECONNREFUSED, ENOTFOUND, ...). */
  readonly problem: string;
  constructor(url: string | URL, problem: string) {
    const shown = printableUrl(url);
    super('FETCH_FAILED', `${shown}: fetch failed: ${problem}`);
    this.url = shown;
    this.problem = problem;
  }
}
