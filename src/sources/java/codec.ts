// The codecs behind `java.base64*`, `java.hex*`, `java.md5*`, `java.digest*` and `java.HMac*`,
// with the outputs of the libraries the app calls: android.util.Base64 (its flags), hutool's
// Base64 (lenient, both alphabets), hutool's HexUtil (lower case) and Java's digests.
import { md5, sha1 } from '@noble/hashes/legacy.js';
import { sha224, sha256, sha384, sha512 } from '@noble/hashes/sha2.js';
import { hmac } from '@noble/hashes/hmac.js';
import type { CHash } from '@noble/hashes/utils.js';
import { HelperError } from './errors.js';

/** android.util.Base64 flags. */
export const NO_PADDING = 1;
export const NO_WRAP = 2;
export const CRLF = 4;
export const URL_SAFE = 8;

const STANDARD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const WEB_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** `Base64.encodeToString(bytes, flags)`: wrapped at 76 with a final line end unless NO_WRAP. */
export function base64Encode(bytes: Uint8Array, flags = NO_WRAP): string {
  const alphabet = flags & URL_SAFE ? WEB_SAFE : STANDARD;
  const pad = !(flags & NO_PADDING);
  const newline = flags & NO_WRAP ? '' : flags & CRLF ? '\r\n' : '\n';
  let out = '';
  let groups = 0;
  let i = 0;
  for (; i + 3 <= bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + alphabet[(n >> 6) & 63]! + alphabet[n & 63]!;
    if (newline && ++groups === 19) {
      out += newline;
      groups = 0;
    }
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + (pad ? '==' : '') + newline;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + alphabet[(n >> 6) & 63]! + (pad ? '=' : '') + newline;
  } else if (newline && groups > 0) out += newline;
  return out;
}

function table(alphabet: string): Int8Array {
  const t = new Int8Array(128).fill(-1);
  for (let i = 0; i < 64; i++) t[alphabet.charCodeAt(i)] = i;
  return t;
}
const DECODE = table(STANDARD);
const DECODE_SAFE = table(WEB_SAFE);
const LENIENT = (() => {
  const t = table(STANDARD);
  t[45] = 62; // '-'
  t[95] = 63; // '_'
  return t;
})();

/**
 * `Base64.decode(str, flags)`: characters outside the alphabet are skipped; a lone trailing
 * character, a half padding or data after the padding is "bad base-64" (IllegalArgumentException).
 */
export function base64DecodeAndroid(text: string, flags: number, helper: string): Uint8Array {
  const t = flags & URL_SAFE ? DECODE_SAFE : DECODE;
  const out: number[] = [];
  let acc = 0;
  let n = 0;
  let padded = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 61) {
      // '=': one after 2 sextets, two after 2 or one after 3
      if (n === 2 && padded === 0) padded = 1;
      else if ((n === 2 && padded === 1) || (n === 3 && padded === 0)) padded = 2;
      else throw new HelperError(helper, 'bad base-64');
      continue;
    }
    const d = c < 128 ? t[c]! : -1;
    if (d < 0) continue;
    if (padded) throw new HelperError(helper, 'bad base-64');
    acc = (acc << 6) | d;
    if (++n === 4) {
      out.push((acc >> 16) & 255, (acc >> 8) & 255, acc & 255);
      acc = 0;
      n = 0;
    }
  }
  if (n === 1 || (n === 2 && padded === 1)) throw new HelperError(helper, 'bad base-64');
  if (n === 2) out.push((acc >> 4) & 255);
  else if (n === 3) out.push((acc >> 10) & 255, (acc >> 2) & 255);
  return Uint8Array.from(out);
}

/** hutool's `Base64.decode`: both alphabets, anything else skipped, stops at padding, never throws. */
export function base64DecodeLenient(text: string): Uint8Array {
  const out: number[] = [];
  let acc = 0;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 61) break;
    const d = c < 128 ? LENIENT[c]! : -1;
    if (d < 0) continue;
    acc = (acc << 6) | d;
    if (++n === 4) {
      out.push((acc >> 16) & 255, (acc >> 8) & 255, acc & 255);
      acc = 0;
      n = 0;
    }
  }
  if (n === 2) out.push((acc >> 4) & 255);
  else if (n === 3) out.push((acc >> 10) & 255, (acc >> 2) & 255);
  return Uint8Array.from(out);
}

/** hutool's `HexUtil.encodeHexStr`: lower case. */
export function hexEncode(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

/** hutool's `HexUtil.decodeHex`: blanks removed, an odd length gets a leading 0, a non-hex digit fails. */
export function hexDecode(hex: string, helper: string): Uint8Array {
  let h = hex.replace(/\s+/g, '');
  if (h.length % 2) h = `0${h}`;
  if (!/^[0-9a-fA-F]*$/.test(h)) throw new HelperError(helper, 'illegal hexadecimal character');
  const out = new Uint8Array(h.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(h.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** The app's `String.isHex`: every character a hex digit (so '' too). */
export const isHex = (s: string): boolean => /^[0-9a-fA-F]*$/.test(s);

type Hash = CHash;
const DIGESTS: Record<string, Hash> = { MD5: md5, SHA1: sha1, SHA: sha1, SHA224: sha224, SHA256: sha256, SHA384: sha384, SHA512: sha512 };

/** A digest by its Java name (`MD5`, `SHA-1`, `SHA-256`, `SHA-512`... with or without the dash). */
export function digestOf(algorithm: string, helper: string): Hash {
  const hash = DIGESTS[algorithm.toUpperCase().replace(/-/g, '')];
  if (!hash) throw new HelperError(helper, `unsupported digest algorithm ${JSON.stringify(algorithm)}`);
  return hash;
}

/** An HMAC by its Java name (`HmacMD5`, `HmacSHA1`, `HmacSHA256`...). */
export function hmacOf(algorithm: string, helper: string): (key: Uint8Array, data: Uint8Array) => Uint8Array {
  const name = algorithm.toUpperCase().replace(/-/g, '');
  const hash = name.startsWith('HMAC') ? DIGESTS[name.slice(4)] : undefined;
  if (!hash) throw new HelperError(helper, `unsupported HMAC algorithm ${JSON.stringify(algorithm)}`);
  return (key, data) => hmac(hash, key, data);
}

export const md5Hex = (bytes: Uint8Array): string => hexEncode(md5(bytes));
