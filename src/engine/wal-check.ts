// The check of a -wal before a write open, at the cost of the -wal rather than of the file.
// SQLite merges a -wal into its file on the first checkpoint without asking whether the -wal
// belongs to that file (its header names no file), so a stale or foreign one must be caught
// first. Only the pages the -wal brings can be wrong (the rest is the file as it was), so, read
// from the two files (no connection to them, so nothing is created beside the file):
// - the -wal as SQLite recovers it: header and frame checksums, salts, frames up to the last
//   commit (what SQLite would use; a -wal with none changes nothing);
// - which tree each page of the -wal belongs to (wal-placement.ts): its first key looked up
//   from the roots (a few pages), or every b-tree walked through its interior pages (1% of a
//   file) where the lookups cannot place every page;
// - each of those pages read as a b-tree page of its tree's kind: header, cell pointers and
//   cells within the page, keys in order, index records well formed;
// - for a -wal no connection has open (no -shm: left by a copy, or from another file), what
//   integrity_check adds for those pages: every entry on an index page of the -wal names a row
//   that holds its values (foreign pages show as entries that do not match their rows).
// Whatever this reading does not cover (see docs/wal-check.md) answers 'unsure', and the caller
// runs SQLite's whole-file check as before. The -wal's frames: wal-file.ts; the file format
// read in place: btree-page.ts.
import {
  indexEntryOnPage,
  fields,
  headerAt,
  readableHeader,
  isInterior,
  isNumber,
  localPayload,
  numberAt,
  Pages,
  record,
  sameAt,
  children,
  u16,
  u32,
  Unsure,
  varint,
} from './btree-page.js';
import type { Driver } from './driver.js';
import { readWal, type WalPages } from './wal-file.js';
import { placeBySearch, placeByWalk, type Tree } from './wal-placement.js';

/** What the check found: sound, damage (messages), or a case it does not cover. */
export type WalVerdict = { readonly sound: true } | { readonly sound: false; readonly damage: string[] } | 'unsure';

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
    if (!readableHeader(head, wal.pageSize)) return 'unsure';
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
  const trees: [Tree, number][] = [[{ name: 'sqlite_master', table: 'sqlite_master', index: false }, 1]];
  for (const [type, name, table, root, sql] of schema) {
    if (root <= 0 || (type !== 'table' && type !== 'index')) continue;
    if (type === 'table' && sql && /\bWITHOUT\s+ROWID\b/i.test(sql)) throw new Unsure('WITHOUT ROWID');
    trees.push([{ name, table, index: type === 'index' }, root]);
  }
  const owner = placeBySearch(pages, wal, trees, usable) ?? placeByWalk(pages, wal, trees);
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

// Scratch for the records read in place (a record has at most SQLite's 2,000 columns).
const entryTypes: number[] = [];
const entryAt: number[] = [];
const rowTypes: number[] = [];
const rowAt: number[] = [];

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
    indexEntryOnPage(payload, usable);
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
