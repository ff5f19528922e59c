// The percent forms of a URL rule's query and form body, as AnalyzeUrl.encodeParams writes
// them: the query through hutool's PercentCodec (RFC 3986 unreserved plus the sub-delimiters and
// `%`, so escapes already there survive), a form field through java.net.URLEncoder (space as `+`),
// `escape` as the app's EncoderUtils.escape (JS escape() without its `@*_+-./`), and the app's
// "already encoded?" checks (NetworkUtils.encodedQuery / encodedForm).
import { encodeText } from './charset.js';

const QUERY_SAFE = /^[A-Za-z0-9\-._~!$%&()*+,/:;=?@[\\\]^`{|}]$/;
const FORM_SAFE = /^[A-Za-z0-9.\-*_]$/;
const ENCODED_QUERY_PLAIN = /^[A-Za-z0-9!$&()*+,\-./:;=?@[\\\]^_`{|}~]$/;
const ENCODED_FORM_PLAIN = /^[A-Za-z0-9*\-._]$/;
const HEX = /^[0-9A-Fa-f]$/;

const pct = (bytes: Uint8Array): string => Array.from(bytes, (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/** A charset the platform cannot encode in: the caller names the rule. */
export class UnknownCharset extends Error {}

function bytesOf(text: string, charset: string): Uint8Array {
  const bytes = encodeText(text, charset);
  if (!bytes) throw new UnknownCharset(charset);
  return bytes;
}

/** The query percent-encoded in `charset` (PercentCodec: safe characters kept, every other character's bytes as %XX). */
export function encodeQuery(query: string, charset: string): string {
  let out = '';
  for (const ch of query) out += QUERY_SAFE.test(ch) ? ch : pct(bytesOf(ch, charset));
  return out;
}

/** One form field as URLEncoder.encode writes it: `a-zA-Z0-9.-*_` kept, space as `+`, the rest as %XX of its bytes. */
export function encodeFormValue(value: string, charset: string): string {
  let out = '';
  let run = '';
  const flush = (): void => {
    if (run) out += pct(bytesOf(run, charset));
    run = '';
  };
  for (const ch of value) {
    if (FORM_SAFE.test(ch)) flush(), (out += ch);
    else if (ch === ' ') flush(), (out += '+');
    else run += ch;
  }
  flush();
  return out;
}

/** The app's EncoderUtils.escape: letters and digits kept, other UTF-16 units as %XX or %uXXXX (lower-case hex, unpadded). */
export function escapeJs(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) out += value[i];
    else out += (c < 16 ? '%0' : c < 256 ? '%' : '%u') + c.toString(16);
  }
  return out;
}

function alreadyEncoded(s: string, plain: RegExp): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (plain.test(c)) continue;
    if (c === '%' && i + 2 < s.length && HEX.test(s[i + 1]!) && HEX.test(s[i + 2]!)) {
      i += 2;
      continue;
    }
    return false;
  }
  return true;
}

/** NetworkUtils.encodedQuery: nothing in `s` needs encoding for a query (note the app's `i + 2 < length`: a `%XX` at the very end counts as unencoded). */
export const isEncodedQuery = (s: string): boolean => alreadyEncoded(s, ENCODED_QUERY_PLAIN);
export const isEncodedForm = (s: string): boolean => alreadyEncoded(s, ENCODED_FORM_PLAIN);

/**
 * AnalyzeUrl.encodeParams. `charset` null or '': UTF-8, and values already encoded are kept;
 * `escape`: escape(); otherwise that charset. A query in a charset is encoded whole (kept when it
 * is already encoded); a form (and an `escape` query) pair by pair, `key=value` joined with `&`.
 */
export function encodeParams(params: string, charset: string | null, isQuery: boolean): string {
  const check = !charset;
  const cs = !charset ? 'utf-8' : charset === 'escape' ? null : charset;
  if (isQuery && cs !== null) return isEncodedQuery(params) ? params : encodeQuery(params, cs);
  const enc = (v: string): string => (check && isEncodedForm(v) ? v : cs === null ? escapeJs(v) : encodeFormValue(v, cs));
  const out: string[] = [];
  let pos = 0;
  while (pos <= params.length) {
    let amp = params.indexOf('&', pos);
    if (amp < 0) amp = params.length;
    const eq = params.indexOf('=', pos);
    if (eq < 0 || eq > amp) out.push(enc(params.slice(pos, amp)));
    else out.push(`${enc(params.slice(pos, eq))}=${enc(params.slice(eq + 1, amp))}`);
    pos = amp + 1;
  }
  return out.join('&');
}
