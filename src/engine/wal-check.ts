// The check of a -wal before a write open, at the cost of the -wal rather than of the file.
// SQLite merges a -wal into its file on the first checkpoint without asking whether the -wal
// belongs to that file (its header names no file), so a stale or foreign one must be caught
// first. Only the pages the -wal brings can be wrong (the rest is the file as it was), so, read
// from the two files (no connection to them, so nothing is created beside the file):
// - the -wal as SQLite recovers it: header and frame checksums, salts, frames up to the last
//   commit (what SQLite would use; a -wal with none changes nothing);
// - every b-tree walked through its interior pages only (a small part of a file), which says
//   which tree each page of the -wal belongs to;
// - each of those pages read as a b-tree page of its tree's kind: header, cell pointers and
//   cells within the page, keys in order, index records well formed;
// - for a -wal no connection has open (no -shm: left by a copy, or from another file), what
//   integrity_check adds for those pages: every entry on an index page of the -wal names a row
//   that holds its values (foreign pages show as entries that do not match their rows).
// Whatever this reading does not cover (see docs/wal-check.md) answers 'unsure', and the caller
// runs SQLite's whole-file check as before.
import type { Driver, DriverFiles, FileReader } from './driver.js';

export interface WalPages {
  readonly pageSize: number;
  /** Page number → offset in the -wal of its last committed image. */
  readonly frames: ReadonlyMap<number, number>;
  /** The file's size in pages after the last commit. */
  readonly dbPages: number;
}

const u32 = (b: Uint8Array, o: number): number => ((b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!) >>> 0;
const u16 = (b: Uint8Array, o: number): number => (b[o]! << 8) | b[o + 1]!;

/** SQLite's WAL checksum over `b[from, to)`, continuing from `s` (big- or little-endian words, as the magic says). */
function checksum(b: Uint8Array, from: number, to: number, s: [number, number], bigEndian: boolean): void {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let [s0, s1] = s;
  for (let i = from; i < to; i += 8) {
    s0 = (s0 + v.getUint32(i, !bigEndian) + s1) >>> 0;
    s1 = (s1 + v.getUint32(i + 4, !bigEndian) + s0) >>> 0;
  }
  s[0] = s0;
  s[1] = s1;
}

/** The committed frames of a -wal, as SQLite's recovery reads them; undefined when it holds none (or no valid header). */
export function readWal(files: DriverFiles, walPath: string): WalPages | undefined {
  const fd = files.openRead(walPath);
  try {
    const size = fd.size;
    const header = new Uint8Array(32);
    if (size < 32 || fd.read(header, 0) !== 32) return undefined;
    const magic = u32(header, 0);
    if (magic !== 0x377f0682 && magic !== 0x377f0683) return undefined;
    const bigEndian = magic === 0x377f0683;
    const raw = u32(header, 8);
    const pageSize = raw === 1 ? 65536 : raw;
    if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return undefined;
    const s: [number, number] = [0, 0];
    checksum(header, 0, 24, s, bigEndian);
    if (s[0] !== u32(header, 24) || s[1] !== u32(header, 28)) return undefined;
    const salt1 = u32(header, 16);
    const salt2 = u32(header, 20);
    // Read 64 frames at a time: a read a frame was most of the time of a large -wal.
    const frameSize = 24 + pageSize;
    const chunk = new Uint8Array(frameSize * 64);
    let chunkAt = 32;
    let chunkBytes = 0;
    const frames = new Map<number, number>();
    const pending = new Map<number, number>();
    let dbPages = 0;
    for (let at = 32; at + frameSize <= size; at += frameSize) {
      if (at + frameSize > chunkAt + chunkBytes) {
        chunkAt = at;
        chunkBytes = fd.read(chunk, at);
        if (chunkBytes < frameSize) break;
      }
      const frame = chunk.subarray(at - chunkAt, at - chunkAt + frameSize);
      if (u32(frame, 8) !== salt1 || u32(frame, 12) !== salt2) break;
      checksum(frame, 0, 8, s, bigEndian);
      checksum(frame, 24, frameSize, s, bigEndian);
      if (s[0] !== u32(frame, 16) || s[1] !== u32(frame, 20)) break;
      pending.set(u32(frame, 0), at + 24);
      const commit = u32(frame, 4);
      if (commit !== 0) {
        for (const [p, o] of pending) frames.set(p, o);
        pending.clear();
        dbPages = commit;
      }
    }
    return frames.size === 0 ? undefined : { pageSize, frames, dbPages };
  } finally {
    fd.close();
  }
}

/** What the check found: sound, damage (messages), or a case it does not cover. */
export type WalVerdict = { readonly sound: true } | { readonly sound: false; readonly damage: string[] } | 'unsure';

interface Tree {
  readonly name: string;
  readonly table: string;
  readonly index: boolean;
}

class Unsure extends Error {}

/** Reads pages as the file plus its -wal show them. */
class Pages {
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
function varint(b: Uint8Array, o: number): [number, number] {
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
const sizeOf = (t: number): number => (t >= 12 ? (t - (t % 2 ? 13 : 12)) / 2 : SIZES[t]!);
const isNumber = (t: number): boolean => t >= 1 && t <= 9;

/**
 * The serial types and value offsets of a record's first `upTo` values, into `types` and `at`;
 * how many there are. A value beyond `end` (on overflow pages) is Unsure.
 */
function fields(b: Uint8Array, start: number, end: number, payloadEnd: number, upTo: number, types: number[], at: number[]): number {
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
function numberAt(b: Uint8Array, t: number, o: number): number {
  if (t === 8 || t === 9) return t - 8;
  if (t === 7) return new DataView(b.buffer, b.byteOffset + o, 8).getFloat64(0);
  const len = sizeOf(t);
  if (len === 8) return Number(new DataView(b.buffer, b.byteOffset + o, 8).getBigInt64(0));
  let v = 0;
  for (let i = 0; i < len; i++) v = v * 256 + b[o + i]!;
  return b[o]! & 0x80 ? v - 2 ** (8 * len) : v;
}

// Scratch for the records read in place (a record has at most SQLite's 2,000 columns).
const entryTypes: number[] = [];
const entryAt: number[] = [];
const rowTypes: number[] = [];
const rowAt: number[] = [];

/**
 * A record's first `upTo` values, decoded (integers as numbers, exact up to 2^53): the schema's
 * rows. A value on overflow pages is Unsure; a record that contradicts itself is an Error.
 */
function record(b: Uint8Array, start: number, end: number, upTo: number, payloadEnd: number): unknown[] {
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

/** Bytes of a table-leaf cell's payload stored on the page (SQLite's local payload rule). */
function localPayload(payload: number, usable: number): number {
  const max = usable - 35;
  if (payload <= max) return payload;
  const min = Math.floor(((usable - 12) * 32) / 255) - 23;
  const k = min + ((payload - min) % (usable - 4));
  return k <= max ? k : min;
}

type SchemaRow = readonly [type: string, name: string, table: string, root: number, sql: string | null];

/**
 * Checks the pages the -wal beside `path` brings into it, reading the two files (no SQLite
 * connection to the file, so nothing is created beside it). `deep`: also the index entries on
 * those pages against the rows they name. `driver` makes an in-memory database of the file's
 * schema, to learn the indexes' columns as SQLite reads them.
 */
export function checkWal(path: string, driver: Driver, deep: boolean): WalVerdict {
  // An engine without a file system of its own to read from: SQLite's whole-file check instead.
  if (!driver.capabilities.files || !driver.files) return 'unsure';
  const files = driver.files;
  let pages: Pages | undefined;
  try {
    const wal = readWal(files, `${path}-wal`);
    if (wal === undefined) return { sound: true };
    pages = new Pages(files, path, wal);
    const head = pages.read(1);
    // "SQLite format 3", the -wal's page size, UTF-8 text.
    if (decoder.decode(head.subarray(0, 15)) !== 'SQLite format 3' || (u16(head, 16) === 1 ? 65536 : u16(head, 16)) !== wal.pageSize || u32(head, 56) !== 1)
      return 'unsure';
    return walk(pages, wal, deep, driver);
  } catch (e) {
    if (e instanceof Unsure) return 'unsure';
    // A file or -wal that cannot be read here: SQLite's own check says what it is.
    if ((e as { code?: unknown }).code !== undefined) return 'unsure';
    throw e;
  } finally {
    pages?.close();
  }
}

const headerAt = (p: number): number => (p === 1 ? 100 : 0);
const isInterior = (p: number, b: Uint8Array): boolean => b[headerAt(p)] === 2 || b[headerAt(p)] === 5;

/** The first child page of an interior page (its right-most when it has no cell). */
function firstChild(p: number, b: Uint8Array): number {
  const h = headerAt(p);
  return u16(b, h + 3) > 0 ? u32(b, u16(b, h + 12)) : u32(b, h + 8);
}

/** The child pages of an interior page, the right-most last. */
function children(p: number, b: Uint8Array): number[] {
  const h = headerAt(p);
  const n = u16(b, h + 3);
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(u32(b, u16(b, h + 12 + 2 * i)));
  out.push(u32(b, h + 8));
  return out;
}

/** sqlite_master's rows, read from its b-tree (page 1). */
function readSchema(pages: Pages, usable: number): SchemaRow[] {
  const out: SchemaRow[] = [];
  const stack = [1];
  while (stack.length) {
    const p = stack.pop()!;
    const b = pages.read(p);
    if (isInterior(p, b)) {
      stack.push(...children(p, b));
      continue;
    }
    const h = headerAt(p);
    if (b[h] !== 13) throw new Unsure(`sqlite_master page ${p} of type ${b[h]}`);
    for (let i = 0; i < u16(b, h + 3); i++) {
      let at = u16(b, h + 8 + 2 * i);
      const [payload, a] = varint(b, at);
      at += a;
      at += varint(b, at)[1];
      const v = record(b, at, at + localPayload(payload, usable), 5, at + payload);
      out.push([String(v[0]), String(v[1]), String(v[2]), Number(v[3] ?? 0), v[4] === null ? null : String(v[4])]);
    }
  }
  return out;
}

function walk(pages: Pages, wal: WalPages, deep: boolean, driver: Driver): WalVerdict {
  const usable = wal.pageSize;
  const schema = readSchema(pages, usable);
  const owner = new Map<number, Tree>();
  const trees: [Tree, number][] = [[{ name: 'sqlite_master', table: 'sqlite_master', index: false }, 1]];
  for (const [type, name, table, root, sql] of schema) {
    if (root <= 0 || (type !== 'table' && type !== 'index')) continue;
    if (type === 'table' && sql && /\bWITHOUT\s+ROWID\b/i.test(sql)) throw new Unsure('WITHOUT ROWID');
    trees.push([{ name, table, index: type === 'index' }, root]);
  }
  // Interior pages only: they name every page of their tree, leaves included. A b-tree has all
  // its leaves at one depth, so a level whose first page is a leaf is read no further. Only the
  // -wal's pages are remembered, with their tree. The pages named are read in place and tested
  // against a bitmap of the -wal's pages: the level above the leaves names almost every page of
  // the file, so that loop is most of an open's cost on a large file.
  const inWal = new Uint8Array(wal.dbPages + 1);
  for (const p of wal.frames.keys()) if (p <= wal.dbPages) inWal[p] = 1;
  const place = (p: number, tree: Tree) => {
    if (p > wal.dbPages || inWal[p] !== 1) return;
    if (owner.has(p)) throw new Unsure(`page ${p} in two places`);
    owner.set(p, tree);
  };
  for (const [tree, root] of trees) {
    place(root, tree);
    let level = [root];
    let first = pages.read(root);
    while (isInterior(level[0]!, first)) {
      // Whether the level below is interior too (then its pages are listed, to be read next).
      const leftmost = firstChild(level[0]!, first);
      const below = pages.read(leftmost);
      const deeper = isInterior(leftmost, below);
      const next: number[] = [];
      for (let i = 0; i < level.length; i++) {
        const p = level[i]!;
        const b = i === 0 ? first : pages.read(p);
        const h = headerAt(p);
        if (b[h] !== 2 && b[h] !== 5) throw new Unsure(`page ${p}: a leaf beside interior pages`);
        const n = u16(b, h + 3);
        for (let k = 0; k <= n; k++) {
          const c = k < n ? u32(b, u16(b, h + 12 + 2 * k)) : u32(b, h + 8);
          if (inWal[c] === 1) place(c, tree);
          if (deeper) next.push(c);
        }
      }
      if (!deeper) break;
      level = next;
      first = below;
    }
  }
  const damage: string[] = [];
  const entries = new Map<string, Entry[]>();
  for (const p of wal.frames.keys()) {
    if (p > wal.dbPages) continue;
    const tree = owner.get(p);
    // Overflow and free pages: what they hold is read only through the cells that point to them.
    if (tree === undefined) continue;
    const problem = readPage(pages.read(p), p, tree, usable, deep ? entries : undefined);
    if (problem) damage.push(`${tree.index ? 'index' : 'table'} ${tree.name}: page ${p}: ${problem}`);
  }
  if (damage.length === 0 && deep && entries.size > 0) for (const d of crossCheck(pages, usable, schema, entries, driver)) damage.push(d);
  return damage.length ? { sound: false, damage } : { sound: true };
}

/** One b-tree page read as its tree's kind; its index entries collected. A problem, or undefined. */
function readPage(b: Uint8Array, p: number, tree: Tree, usable: number, entries: Map<string, Entry[]> | undefined): string | undefined {
  const h = headerAt(p);
  const type = b[h]!;
  const ok = tree.index ? type === 2 || type === 10 : type === 5 || type === 13;
  if (!ok) return `a page of type ${type} in a ${tree.index ? 'index' : 'table'} tree`;
  const interior = type === 2 || type === 5;
  const n = u16(b, h + 3);
  const pointers = h + (interior ? 12 : 8);
  const content = u16(b, h + 5) || 65536;
  if (pointers + 2 * n > content || content > usable) return 'cell pointers overlap the cell content';
  let last = -Infinity;
  for (let i = 0; i < n; i++) {
    let at = u16(b, pointers + 2 * i);
    if (at < content || at >= usable) return `cell ${i} outside the page`;
    if (type === 5) {
      const [key] = varint(b, at + 4);
      if (key < last) return 'keys out of order';
      last = key;
      continue;
    }
    if (interior) at += 4;
    const [payload, a] = varint(b, at);
    at += a;
    if (type === 13) {
      const [rowid, r] = varint(b, at);
      if (rowid < last || (rowid === last && Number.isSafeInteger(rowid))) return 'rowids out of order';
      last = rowid;
      at += r;
      if (at + localPayload(payload, usable) > usable) return `cell ${i} runs past the page`;
      continue;
    }
    // Index cells: the whole record must be on the page (else overflow pages: the whole-file check).
    if (payload > Math.floor(((usable - 12) * 64) / 255) - 23) throw new Unsure('an index entry on overflow pages');
    try {
      // Read as a record (nothing decoded): well formed, every value on the page.
      fields(b, at, at + payload, at + payload, Infinity, entryTypes, entryAt);
      // Looked up later from where it lies: its page stays in memory (Pages keeps what it reads).
      if (entries) (entries.get(tree.name) ?? entries.set(tree.name, []).get(tree.name)!).push({ b, start: at, end: at + payload });
    } catch (e) {
      if (e instanceof Unsure) throw e;
      return `cell ${i}: ${(e as Error).message}`;
    }
  }
  return undefined;
}

/** Where the row with this rowid lies in the table b-tree at `root`: its record; undefined when there is none. */
function findRow(pages: Pages, usable: number, root: number, key: number): RowAt | undefined {
  let p = root;
  for (let depth = 0; depth < 64; depth++) {
    const b = pages.read(p);
    const h = headerAt(p);
    const n = u16(b, h + 3);
    if (b[h] === 5) {
      // The first cell whose key is at least the rowid holds its child; none: the right-most child.
      let lo = 0;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (varint(b, u16(b, h + 12 + 2 * mid) + 4)[0] < key) lo = mid + 1;
        else hi = mid;
      }
      p = lo < n ? u32(b, u16(b, h + 12 + 2 * lo)) : u32(b, h + 8);
      continue;
    }
    if (b[h] !== 13) throw new Unsure(`page ${p} of type ${b[h]} in a table`);
    for (let i = 0; i < n; i++) {
      let at = u16(b, h + 8 + 2 * i);
      const [payload, a] = varint(b, at);
      at += a;
      const [k, r] = varint(b, at);
      if (k !== key) continue;
      at += r;
      return { b, start: at, end: at + localPayload(payload, usable), payloadEnd: at + payload };
    }
    return undefined;
  }
  throw new Unsure('a table deeper than 64 levels');
}

/** Where an index's key columns are in its table's records, as SQLite reads its CREATE statements. */
interface IndexLayout {
  /** The table column of each key column of the index, in order. */
  readonly cids: readonly number[];
  /** The column that is the rowid (an INTEGER PRIMARY KEY), or -1. */
  readonly alias: number;
  /** How many leading columns of a row the key columns reach. */
  readonly upTo: number;
}

// Per the table's and the index's CREATE text: the same schema opened again (a server that opens
// one reader's store after another, a tool run in a loop) learns it once. Bounded: a process that
// meets many schemas forgets the oldest.
const layouts = new Map<string, IndexLayout>();
const LAYOUTS_KEPT = 256;

/**
 * The layout of each index named in `names`, learnt from an in-memory database made of the
 * index's table and the index only (columns appended by ALTER TABLE are in the table's text; an
 * index made by a UNIQUE or PRIMARY KEY constraint has no text and comes with its table).
 */
function indexLayouts(schema: readonly SchemaRow[], names: Iterable<string>, driver: Driver): Map<string, IndexLayout> {
  const found = new Map<string, IndexLayout>();
  const missing: [name: string, table: string, tableSql: string, indexSql: string | null, key: string][] = [];
  for (const name of names) {
    const index = schema.find(([type, n]) => type === 'index' && n === name);
    const tableSql = index && schema.find(([type, n]) => type === 'table' && n === index[2])?.[4];
    if (!index || !tableSql) throw new Unsure(`index ${name}`);
    const key = `${tableSql}\0${index[4] ?? name}`;
    const known = layouts.get(key);
    if (known) found.set(name, known);
    else missing.push([name, index[2], tableSql, index[4], key]);
  }
  if (missing.length === 0) return found;
  const mem = driver.open(':memory:');
  try {
    const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
    const made = new Set<string>();
    for (const [name, table, tableSql, indexSql, key] of missing) {
      if (!made.has(table)) mem.exec(tableSql);
      made.add(table);
      if (indexSql) mem.exec(indexSql);
      const info = mem.pragma(`index_xinfo(${q(name)})`) as { cid: number; key: number; desc: number; coll: string | null }[];
      const keys = info.filter((c) => c.key === 1);
      if (keys.length === 0 || keys.some((c) => c.cid < 0 || c.desc !== 0 || (c.coll !== null && c.coll !== 'BINARY'))) throw new Unsure(`index ${name}`);
      const cols = mem.pragma(`table_info(${q(table)})`) as { cid: number; type: string; pk: number }[];
      const pk = cols.filter((c) => c.pk > 0);
      const cids = keys.map((c) => c.cid);
      const layout = { cids, alias: pk.length === 1 && pk[0]!.type.toUpperCase() === 'INTEGER' ? pk[0]!.cid : -1, upTo: Math.max(...cids) + 1 };
      if (layouts.size >= LAYOUTS_KEPT) layouts.delete(layouts.keys().next().value!);
      layouts.set(key, layout);
      found.set(name, layout);
    }
  } finally {
    mem.close();
  }
  return found;
}

/** An index entry as it lies on its page (its record's bytes). */
interface Entry {
  readonly b: Uint8Array;
  readonly start: number;
  readonly end: number;
}

/** A row's record as it lies on its leaf: `end` where the page's part of it ends. */
interface RowAt extends Entry {
  readonly payloadEnd: number;
}

/**
 * The same value as SQLite stores it: the same serial type and bytes (text, blob, integer,
 * null), or two numbers equal as numbers (a REAL is stored as an integer when nothing is lost).
 * Compared where they lie: nothing is decoded for the common case.
 */
function sameAt(a: Uint8Array, ta: number, oa: number, b: Uint8Array, tb: number, ob: number): boolean {
  if (ta === tb) {
    const len = sizeOf(ta);
    let i = 0;
    while (i < len && a[oa + i] === b[ob + i]) i++;
    if (i === len) return true;
  }
  return isNumber(ta) && isNumber(tb) && numberAt(a, ta, oa) === numberAt(b, tb, ob);
}

/**
 * Every entry on an index page of the -wal against the row it names: the row exists and has
 * the entry's values in the index's columns (`indexLayouts` says which).
 */
function crossCheck(pages: Pages, usable: number, schema: readonly SchemaRow[], entries: Map<string, Entry[]>, driver: Driver): string[] {
  const damage: string[] = [];
  const known = indexLayouts(schema, entries.keys(), driver);
  for (const [name, list] of entries) {
    const { cids, alias, upTo } = known.get(name)!;
    const [, , table] = schema.find(([type, n]) => type === 'index' && n === name)!;
    const root = schema.find(([type, n]) => type === 'table' && n === table)?.[3];
    if (!root) throw new Unsure(`index ${name}`);
    for (const e of list) {
      const n = fields(e.b, e.start, e.end, e.end, Infinity, entryTypes, entryAt);
      const last = entryTypes[n - 1]!;
      // The rowid: an integer, the entry's last value after one per key column.
      if (n !== cids.length + 1 || !(isNumber(last) && last !== 7)) {
        damage.push(`index ${name}: an entry of ${n} values`);
        continue;
      }
      const rowid = numberAt(e.b, last, entryAt[n - 1]!);
      if (!Number.isSafeInteger(rowid)) throw new Unsure('a rowid past 2^53');
      const row = findRow(pages, usable, root, rowid);
      let matches = row !== undefined;
      if (row) {
        // A column appended by ALTER TABLE after the row was written: its default, not in the record.
        if (fields(row.b, row.start, row.end, row.payloadEnd, upTo, rowTypes, rowAt) < upTo) throw new Unsure('a row shorter than its table');
        for (let i = 0; i < cids.length && matches; i++) {
          const cid = cids[i]!;
          const t = entryTypes[i]!;
          matches = cid === alias ? isNumber(t) && numberAt(e.b, t, entryAt[i]!) === rowid : sameAt(e.b, t, entryAt[i]!, row.b, rowTypes[cid]!, rowAt[cid]!);
        }
      }
      if (!matches) damage.push(`index ${name}: the entry for row ${rowid} ${row ? 'does not match the row' : 'names no row'}`);
      if (damage.length >= 100) return damage;
    }
  }
  return damage;
}
