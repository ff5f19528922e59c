// Reading SQLite's file format in place (sqlite.org/fileformat2.html): pages as a file plus
// its -wal show them, b-tree page headers, varints and records, with nothing decoded that is
// only compared. What this reading does not cover throws Unsure: the caller then leaves the
// question to SQLite.
import type { DriverFiles, FileReader } from './driver.js';
import type { WalPages } from './wal-file.js';

export const u32 = (b: Uint8Array, o: number): number => ((b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!) >>> 0;
export const u16 = (b: Uint8Array, o: number): number => (b[o]! << 8) | b[o + 1]!;

/** A case this reading does not cover (not damage): SQLite's own check answers it. */
export class Unsure extends Error {}

/** Reads pages as the file plus its -wal show them. */
export class Pages {
  private readonly fd: FileReader;
  private readonly walFd: FileReader;
  constructor(
    files: DriverFiles,
    path: string,
    private readonly wal: WalPages,
  ) {
    this.fd = files.openRead(path);
    try {
      this.walFd = files.openRead(`${path}-wal`);
    } catch (e) {
      this.fd.close();
      throw e;
    }
  }
  /** Pages read once (up to 8,192): row lookups go down through the same interior pages, often to the same leaf. */
  private readonly interiors = new Map<number, Uint8Array>();
  read(p: number): Uint8Array {
    if (p < 1 || p > this.wal.dbPages) throw new Unsure(`page ${p} outside the file`);
    const kept = this.interiors.get(p);
    if (kept) return kept;
    const b = this.page();
    const inWal = this.wal.frames.get(p);
    const n = inWal === undefined ? this.fd.read(b, (p - 1) * b.length) : this.walFd.read(b, inWal);
    if (n !== b.length) throw new Unsure(`page ${p} short`);
    if (this.interiors.size < 8192) this.interiors.set(p, b);
    return b;
  }
  /** Room for one page: cut from a shared block while pages are kept (a buffer each cost more than reading it). */
  private slab: Uint8Array = new Uint8Array(0);
  private slabAt = 0;
  private readonly slabs: Uint8Array[] = [];
  private page(): Uint8Array {
    const size = this.wal.pageSize;
    if (this.interiors.size >= 8192) return new Uint8Array(size);
    if (this.slabAt + size > this.slab.length) {
      this.slab = spare(size * 64);
      this.slabs.push(this.slab);
      this.slabAt = 0;
    }
    this.slabAt += size;
    return this.slab.subarray(this.slabAt - size, this.slabAt);
  }
  close(): void {
    this.fd.close();
    this.walFd.close();
    // Nothing read here outlives the check: its blocks serve the next one (no zeroing, no GC).
    for (const slab of this.slabs) keep(slab);
    this.slabs.length = 0;
  }
}

// Blocks of pages kept between checks, up to 8 MiB: a server opening stores one after another
// reuses them. Every byte of a page is read from the file before it is looked at.
const spares: Uint8Array[] = [];
let spareBytes = 0;
const SPARE_LIMIT = 8 * 1024 * 1024;
function spare(bytes: number): Uint8Array {
  const i = spares.findIndex((s) => s.length === bytes);
  if (i < 0) return new Uint8Array(bytes);
  const [s] = spares.splice(i, 1);
  spareBytes -= bytes;
  return s!;
}
function keep(slab: Uint8Array): void {
  if (spareBytes + slab.length > SPARE_LIMIT) return;
  spares.push(slab);
  spareBytes += slab.length;
}

/**
 * A varint at `o`: [value, bytes], as SQLite's signed 64-bit integer (negative rowids take nine
 * bytes). Past 2^53 the number is rounded: keys there are only compared for order, loosely.
 */
export function varint(b: Uint8Array, o: number): [number, number] {
  let v = 0;
  for (let i = 0; i < 7; i++) {
    const x = b[o + i]!;
    v = v * 128 + (x & 0x7f);
    if ((x & 0x80) === 0) return [v, i + 1];
  }
  let big = BigInt(v);
  const x = b[o + 7]!;
  big = (big << 7n) | BigInt(x & 0x7f);
  if ((x & 0x80) === 0) return [Number(big), 8];
  return [Number(BigInt.asIntN(64, (big << 8n) | BigInt(b[o + 8]!))), 9];
}

const SIZES = [0, 1, 2, 3, 4, 6, 8, 8, 0, 0, 0, 0];
export const sizeOf = (t: number): number => (t >= 12 ? (t - (t % 2 ? 13 : 12)) / 2 : SIZES[t]!);
export const isNumber = (t: number): boolean => t >= 1 && t <= 9;

/**
 * The serial types and value offsets of a record's first `upTo` values, into `types` and `at`;
 * how many there are. A value beyond `end` (on overflow pages) is Unsure.
 */
export function fields(b: Uint8Array, start: number, end: number, payloadEnd: number, upTo: number, types: number[], at: number[]): number {
  const [headerSize, h] = varint(b, start);
  if (start + headerSize > end)
    throw start + headerSize > payloadEnd ? new Error('a record header runs past its cell') : new Unsure('a record header on overflow pages');
  let typeAt = start + h;
  let o = start + headerSize;
  let n = 0;
  while (typeAt < start + headerSize && n < upTo) {
    const [t, k] = varint(b, typeAt);
    typeAt += k;
    const len = sizeOf(t);
    if (t === 10 || t === 11 || o + len > payloadEnd) throw new Error('a record runs past its cell');
    if (o + len > end) throw new Unsure('a value on overflow pages');
    types[n] = t;
    at[n] = o;
    n++;
    o += len;
  }
  return n;
}

/** A number value (serial types 1 to 9) as a double: exact up to 2^53, which is where rowids are compared. */
export function numberAt(b: Uint8Array, t: number, o: number): number {
  if (t === 8 || t === 9) return t - 8;
  if (t === 7) return new DataView(b.buffer, b.byteOffset + o, 8).getFloat64(0);
  const len = sizeOf(t);
  if (len === 8) return Number(new DataView(b.buffer, b.byteOffset + o, 8).getBigInt64(0));
  let v = 0;
  for (let i = 0; i < len; i++) v = v * 256 + b[o + i]!;
  return b[o]! & 0x80 ? v - 2 ** (8 * len) : v;
}

/**
 * A record's first `upTo` values, decoded (integers as numbers, exact up to 2^53): the schema's
 * rows. A value on overflow pages is Unsure; a record that contradicts itself is an Error.
 */
export function record(b: Uint8Array, start: number, end: number, upTo: number, payloadEnd: number): unknown[] {
  const types: number[] = [];
  const at: number[] = [];
  const n = fields(b, start, end, payloadEnd, upTo, types, at);
  const values: unknown[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const t = types[i]!;
    const o = at[i]!;
    values[i] = t === 0 ? null : isNumber(t) ? numberAt(b, t, o) : t % 2 ? decoder.decode(b.subarray(o, o + sizeOf(t))) : b.slice(o, o + sizeOf(t));
  }
  return values;
}
const decoder = new TextDecoder();

/** Whether page 1 starts a file this reading covers: "SQLite format 3", pages of `pageSize` bytes, UTF-8 text. */
export function readableHeader(head: Uint8Array, pageSize: number): boolean {
  return decoder.decode(head.subarray(0, 15)) === 'SQLite format 3' && (u16(head, 16) === 1 ? 65536 : u16(head, 16)) === pageSize && u32(head, 56) === 1;
}

/** Unsure unless an index cell's whole record lies on its page (SQLite's largest local payload of an index cell). */
export function indexEntryOnPage(payload: number, usable: number): void {
  if (payload > Math.floor(((usable - 12) * 64) / 255) - 23) throw new Unsure('an index entry on overflow pages');
}

/** Bytes of a table-leaf cell's payload stored on the page (SQLite's local payload rule). */
export function localPayload(payload: number, usable: number): number {
  const max = usable - 35;
  if (payload <= max) return payload;
  const min = Math.floor(((usable - 12) * 32) / 255) - 23;
  const k = min + ((payload - min) % (usable - 4));
  return k <= max ? k : min;
}

export const headerAt = (p: number): number => (p === 1 ? 100 : 0);
export const isInterior = (p: number, b: Uint8Array): boolean => b[headerAt(p)] === 2 || b[headerAt(p)] === 5;

/** The first child page of an interior page (its right-most when it has no cell). */
export function firstChild(p: number, b: Uint8Array): number {
  const h = headerAt(p);
  return u16(b, h + 3) > 0 ? u32(b, u16(b, h + 12)) : u32(b, h + 8);
}

/** The child pages of an interior page, the right-most last. */
export function children(p: number, b: Uint8Array): number[] {
  const h = headerAt(p);
  const n = u16(b, h + 3);
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(u32(b, u16(b, h + 12 + 2 * i)));
  out.push(u32(b, h + 8));
  return out;
}

/** A varint's value alone, without varint's array (the lookups read thousands). */
export function varintValue(b: Uint8Array, o: number): number {
  let v = 0;
  for (let i = 0; i < 7; i++) {
    const x = b[o + i]!;
    v = v * 128 + (x & 0x7f);
    if ((x & 0x80) === 0) return v;
  }
  return varint(b, o)[0];
}

/** How many bytes the varint at `o` takes. */
export function varintSize(b: Uint8Array, o: number): number {
  for (let i = 0; i < 8; i++) if ((b[o + i]! & 0x80) === 0) return i + 1;
  return 9;
}

/**
 * The same value as SQLite stores it: the same serial type and bytes (text, blob, integer,
 * null), or two numbers equal as numbers (a REAL is stored as an integer when nothing is lost).
 * Compared where they lie: nothing is decoded for the common case.
 */
export function sameAt(a: Uint8Array, ta: number, oa: number, b: Uint8Array, tb: number, ob: number): boolean {
  if (ta === tb) {
    const len = sizeOf(ta);
    let i = 0;
    while (i < len && a[oa + i] === b[ob + i]) i++;
    if (i === len) return true;
  }
  return isNumber(ta) && isNumber(tb) && numberAt(a, ta, oa) === numberAt(b, tb, ob);
}
