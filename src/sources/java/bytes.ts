// Bytes as the app hands them to scripts (Java byte[]: signed, -128..127, here plain arrays of
// numbers) and text in a Java charset: UTF-8 and the single-byte and UTF-16 forms directly, the
// double-byte Chinese, Japanese and Korean ones by inverting the host's TextDecoder.
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

/** Java's canonical spelling of the charsets scripts name (Charset.forName is case-insensitive). */
function canonical(name: string): string {
  const n = name.trim().toLowerCase().replace(/_/g, '-');
  if (n === 'utf8') return 'utf-8';
  if (n === 'iso8859-1' || n === 'latin1' || n === 'iso-latin-1') return 'iso-8859-1';
  if (n === 'ascii' || n === 'us-ascii') return 'us-ascii';
  if (n === 'cp936' || n === 'x-gbk') return 'gbk';
  if (n === 'sjis' || n === 'shift-jis') return 'shift_jis';
  return n;
}

const encoder = new TextEncoder();
const tables = new Map<string, Map<string, number>>();

/** Character → double-byte code for a charset the host decodes, built once from TextDecoder. */
function doubleByteTable(label: string): Map<string, number> {
  let table = tables.get(label);
  if (table) return table;
  table = new Map();
  const decoder = new TextDecoder(label);
  for (let lead = 0x81; lead <= 0xfe; lead++) {
    for (let trail = 0x40; trail <= 0xfe; trail++) {
      const ch = decoder.decode(new Uint8Array([lead, trail]));
      if (ch.length === 1 && ch !== '\ufffd' && !table.has(ch)) table.set(ch, (lead << 8) | trail);
    }
  }
  tables.set(label, table);
  return table;
}

const DOUBLE_BYTE = new Set(['gbk', 'gb2312', 'gb18030', 'big5', 'shift_jis', 'euc-kr', 'euc-jp']);

function unsupported(helper: string, name: string): HelperError {
  return new HelperError(helper, `unsupported charset ${JSON.stringify(name)}`);
}

/** `String.getBytes(charset)`: a character the charset lacks becomes `?`, as Java's encoder does. */
export function encodeText(text: string, charset: string, helper: string): Uint8Array {
  const cs = canonical(charset);
  if (cs === 'utf-8') return encoder.encode(text);
  if (cs === 'iso-8859-1' || cs === 'us-ascii') {
    const max = cs === 'us-ascii' ? 0x7f : 0xff;
    return Uint8Array.from(text, (ch) => {
      const c = ch.codePointAt(0)!;
      return c <= max ? c : 0x3f;
    });
  }
  if (cs === 'utf-16' || cs === 'utf-16be' || cs === 'utf-16le') {
    const le = cs === 'utf-16le';
    const out: number[] = cs === 'utf-16' ? [0xfe, 0xff] : []; // Java's UTF-16 writes a big-endian BOM
    for (let i = 0; i < text.length; i++) {
      const u = text.charCodeAt(i);
      if (le) out.push(u & 0xff, u >> 8);
      else out.push(u >> 8, u & 0xff);
    }
    return Uint8Array.from(out);
  }
  if (!DOUBLE_BYTE.has(cs)) throw unsupported(helper, charset);
  const table = doubleByteTable(cs);
  const out: number[] = [];
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    const code = c < 0x80 ? c : table.get(ch);
    if (code === undefined) out.push(0x3f);
    else if (code < 0x100) out.push(code);
    else out.push(code >> 8, code & 0xff);
  }
  return Uint8Array.from(out);
}

/** `new String(bytes, charset)`: malformed input becomes U+FFFD, as Java's decoder replaces it. */
export function decodeText(bytes: Uint8Array, charset: string, helper: string): string {
  const cs = canonical(charset);
  if (cs === 'us-ascii') return Array.from(bytes, (b) => (b < 0x80 ? String.fromCharCode(b) : '\ufffd')).join('');
  if (cs === 'iso-8859-1') return latin1(bytes);
  try {
    return new TextDecoder(cs).decode(bytes);
  } catch {
    throw unsupported(helper, charset);
  }
}

export const utf8 = (text: string): Uint8Array => encoder.encode(text);
export const fromUtf8 = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

// The ISO-8859-1 decoder of WHATWG is windows-1252; Java's is the identity on bytes.
export function latin1(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}
