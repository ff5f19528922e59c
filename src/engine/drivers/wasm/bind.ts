// Binding values to a statement's parameters: through the module's exports (text encoded into
// the connection's scratch buffer), or through oo1 for what those cannot take (blobs).
import type { PreparedStatement } from '@sqlite.org/sqlite-wasm';
import type { Exports } from './c-exports.js';
import type { WasmConnection } from './connection.js';

/** SQLITE_TRANSIENT: SQLite copies bound text at once, so one scratch buffer serves every statement. */
export const TRANSIENT = -1;
/**
 * SQLITE_STATIC: SQLite reads bound text where it is, until the bindings are cleared. For run,
 * get and all, which bind, step to the end and clear the bindings before anything else can use
 * the scratch buffer; iterate's bindings outlive the call and are copied (TRANSIENT).
 */
export const STATIC = 0;
/**
 * Strings up to this long are written as UTF-8 byte by byte (surrogates aside), longer ones by
 * encodeInto. The byte loop saves a view and a native call, but its speed depends on what V8 has
 * seen: once a process has bound strings of several kinds (two-byte, sliced, concatenated: any
 * real store does), its charCodeAt is no longer specialised and costs about four times as much
 * per character, while encodeInto's cost stays put. 10,000 strings on Node 20 after that, ms:
 * 3 characters 0.64 byte by byte / 0.61 encodeInto, 6: 0.72 / 0.70, 10: 1.22 / 0.75, 30: 3.9 /
 * 0.63 (0.93 byte by byte before). A bulk insert of 10,000 chapters (30-character URLs) in a
 * process that has opened a store: 1.28x the C floor with every string up to 64 characters byte
 * by byte, 1.10-1.15x with those up to 8 or 16.
 */
const SHORT_TEXT = 8;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

const UTF8_OUT = new TextEncoder();

/**
 * `v` written as UTF-8 at `heap[at]` (room for 3 bytes a character); its length in bytes, or -1
 * when it holds a surrogate (pairs and lone ones are left to encodeInto, which writes U+FFFD).
 */
function shortUtf8(v: string, heap: Uint8Array, at: number): number {
  let o = at;
  for (let k = 0; k < v.length; k++) {
    const c = v.charCodeAt(k);
    if (c < 0x80) heap[o++] = c;
    else if (c < 0x800) {
      heap[o++] = 0xc0 | (c >> 6);
      heap[o++] = 0x80 | (c & 0x3f);
    } else if (c < 0xd800 || c > 0xdfff) {
      heap[o++] = 0xe0 | (c >> 12);
      heap[o++] = 0x80 | ((c >> 6) & 0x3f);
      heap[o++] = 0x80 | (c & 0x3f);
    } else return -1;
  }
  return o - at;
}

/**
 * start's binding through the exports: text encoded into the scratch buffer, kept there
 * (STATIC) or copied by SQLite. False, with nothing bound, when a value is an object (an array
 * to spread, named values, a blob) and `objects` is false: start's general path takes those.
 */
export function bindFast(
  conn: WasmConnection,
  stmt: PreparedStatement,
  x: Exports,
  p: number,
  values: readonly unknown[],
  keep: number,
  objects = false,
): boolean {
  let text = -1;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v === 'string')
      text += v.length * 3 + 1; // UTF-8 bytes at most, 1 byte more each: '' needs an address too
    else if (v !== null && typeof v === 'object' && !objects) return false;
  }
  const base = text >= 0 ? conn.scratchOf(text + 1) : 0;
  const wasm = conn.sqlite3.wasm;
  let heap = wasm.heap8u();
  let at = base;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    let rc: number;
    if (v === null || v === undefined) rc = x.sqlite3_bind_null(p, i + 1);
    else if (typeof v === 'string') {
      // SQLite's copy of a text before this one (TRANSIENT) may have grown the memory, which
      // leaves the older view empty: a new one is taken then.
      if (heap.length === 0) heap = wasm.heap8u();
      const len = v.length;
      let n = -1;
      if (len <= SHORT_TEXT) n = shortUtf8(v, heap, at);
      if (n < 0) n = UTF8_OUT.encodeInto(v, heap.subarray(at, base + text + 1)).written;
      rc = x.sqlite3_bind_text(p, i + 1, at, n, keep);
      at += n;
    } else if (typeof v === 'number') {
      if (Number.isInteger(v))
        rc =
          v >= INT32_MIN && v <= INT32_MAX
            ? x.sqlite3_bind_int(p, i + 1, v)
            : Number.isSafeInteger(v)
              ? x.sqlite3_bind_int64(p, i + 1, BigInt(v))
              : x.sqlite3_bind_double(p, i + 1, v);
      else rc = x.sqlite3_bind_double(p, i + 1, v);
    } else if (typeof v === 'bigint') {
      if (v < INT64_MIN || v > INT64_MAX) throw new RangeError(`BigInt value is too big to store without precision loss: ${v}`);
      rc = x.sqlite3_bind_int64(p, i + 1, v);
    } else if (typeof v === 'boolean') rc = x.sqlite3_bind_int(p, i + 1, v ? 1 : 0);
    else {
      bindOne(stmt, i + 1, v);
      rc = 0;
    }
    if (rc !== 0) throw conn.lastError(rc);
  }
  return true;
}

export function bindOne(stmt: PreparedStatement, index: number, value: unknown): void {
  if (value === undefined || value === null) stmt.bind(index, null);
  else if (typeof value === 'boolean') stmt.bind(index, value ? 1 : 0);
  else if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
    const bytes = value instanceof ArrayBuffer ? new Uint8Array(value) : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    stmt.bindAsBlob(index, bytes);
  } else if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'string') {
    stmt.bind(index, value);
  } else {
    throw new TypeError(`SQLite cannot bind a value of type ${typeof value} (parameter ${index})`);
  }
}
