// Bytes as the app hands them to scripts (Java byte[]: signed, -128..127, here plain arrays of
// numbers) and text in a Java charset: the HTTP client's charset tables, with Java's own reading
// of ISO-8859-1, US-ASCII and UTF-16 where the WHATWG labels differ.
import { decodeText as decodeCharset, encodeText as encodeCharset } from '../http/charset.js';
import { HelperError } from './errors.js';

/** A Java byte[] as scripts see it: signed numbers. */
export const toSigned = (bytes: Uint8Array): number[] => Array.from(bytes, (b) => (b << 24) >> 24);

/** Bytes from what a script passes as a byte[]: an array of numbers (signed or not) or a typed array. */
export function fromScriptBytes(value: unknown, helper: string): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (Array.isArray(value)) return Uint8Array.from(value, (v) => Number(v) & 0xff);
  if (value && typeof value === 'object') {
    // an array that came back through JSON as {"0":..,"1":..} keeps its order
    const values = Object.values(value as Record<string, unknown>);
    if (values.every((v) => typeof v === 'number')) return Uint8Array.from(values as number[], (v) => v & 0xff);
  }
  throw new HelperError(helper, `expected a byte array, got ${value === null ? 'null' : typeof value}`);
}

/** Java's names that the WHATWG labels read otherwise: ISO-8859-1 and US-ASCII are not windows-1252 in Java, UTF-16 is big-endian. */
function javaOnly(name: string): 'latin1' | 'ascii' | 'utf-16' | undefined {
  const n = name.trim().toLowerCase().replace(/_/g, '-');
  if (n === 'iso-8859-1' || n === 'iso8859-1' || n === 'latin1' || n === 'iso-latin-1') return 'latin1';
  if (n === 'us-ascii' || n === 'ascii') return 'ascii';
  if (n === 'utf-16') return 'utf-16';
  return undefined;
}

function unsupported(helper: string, name: string): HelperError {
  return new HelperError(helper, `unsupported charset ${JSON.stringify(name)}`);
}

/** `String.getBytes(charset)`: a character the charset lacks becomes `?`, as Java's encoder does. */
export function encodeText(text: string, charset: string, helper: string): Uint8Array {
  const java = javaOnly(charset);
  if (java === 'latin1' || java === 'ascii') {
    const max = java === 'ascii' ? 0x7f : 0xff;
    return Uint8Array.from(text, (ch) => {
      const c = ch.codePointAt(0)!;
      return c <= max ? c : 0x3f;
    });
  }
  if (java === 'utf-16') {
    const be = encodeCharset(text, 'utf-16be')!;
    const out = new Uint8Array(be.length + 2);
    out.set([0xfe, 0xff]); // Java's UTF-16 encoder writes a big-endian byte order mark
    out.set(be, 2);
    return out;
  }
  const bytes = encodeCharset(text, charset);
  if (!bytes) throw unsupported(helper, charset);
  return bytes;
}

/** `new String(bytes, charset)`: malformed input becomes U+FFFD, as Java's decoder replaces it. */
export function decodeText(bytes: Uint8Array, charset: string, helper: string): string {
  const java = javaOnly(charset);
  if (java === 'ascii') return Array.from(bytes, (b) => (b < 0x80 ? String.fromCharCode(b) : '\ufffd')).join('');
  if (java === 'latin1') return latin1(bytes);
  const text = decodeCharset(bytes, java === 'utf-16' ? 'utf-16be' : charset);
  if (text === undefined) throw unsupported(helper, charset);
  return java === 'utf-16' && text.startsWith('\ufeff') ? text.slice(1) : text;
}

const encoder = new TextEncoder();
export const utf8 = (text: string): Uint8Array => encoder.encode(text);
export const fromUtf8 = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

// The ISO-8859-1 decoder of WHATWG is windows-1252; Java's is the identity on bytes.
export function latin1(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}
