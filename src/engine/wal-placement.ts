// Which tree each page of a -wal belongs to: found from the page's own first key, looked up
// from every tree's root (a few pages read), or from a walk of every tree's interior pages
// (1% of the file) where the lookups cannot place every page.
import {
  indexEntryOnPage,
  children,
  fields,
  firstChild,
  headerAt,
  isInterior,
  isNumber,
  numberAt,
  type Pages,
  sizeOf,
  u16,
  u32,
  Unsure,
  varintSize,
  varintValue,
} from './btree-page.js';
import type { WalPages } from './wal-file.js';

export interface Tree {
  readonly name: string;
  readonly table: string;
  readonly index: boolean;
}

/**
 * The tree of each page of the -wal, found from the page itself: its first key (a rowid, or an
 * index entry) looked up from the root of every tree of its kind; a tree owns the page when its
 * lookup goes through it. A lookup reads a few pages where the walk reads every interior page
 * (1% of the file), and a page a lookup goes through is one its tree names, whatever the keys
 * say. Undefined (the caller walks instead) unless every page of the -wal is a b-tree page that
 * exactly one tree's lookup reaches and every -wal page an interior page of the -wal names is
 * placed in that page's tree: a page a lookup misses (a free or overflow page, keys that are not
 * where their tree would put them, an index whose order is not SQLite's default) is left to the
 * walk, which says what names it. Also undefined for a -wal of more than 1/256 of the file's
 * pages, for which the walk costs less than the lookups.
 */
export function placeBySearch(pages: Pages, wal: WalPages, trees: readonly [Tree, number][], usable: number): Map<number, Tree> | undefined {
  if (wal.frames.size * 256 > wal.dbPages) return undefined;
  const owner = new Map<number, Tree>();
  // How many values an index tree's entries hold (read from its root), by root: -1 empty.
  const widths = new Map<number, number>();
  try {
    for (const p of wal.frames.keys()) {
      if (p > wal.dbPages) continue;
      const b = pages.read(p);
      const h = headerAt(p);
      const type = b[h]!;
      if (type !== 2 && type !== 5 && type !== 10 && type !== 13) return undefined;
      const index = type === 2 || type === 10;
      const n = u16(b, h + 3);
      // The page's first key: a leaf's first rowid, an interior table cell's key, an index entry.
      const cell = n === 0 ? 0 : type === 2 || type === 5 ? u16(b, h + 12) + 4 : u16(b, h + 8);
      let rowid = 0;
      let probe = 0;
      if (n > 0 && index) probe = indexRecord(b, cell + varintSize(b, cell), varintValue(b, cell), usable, probeTypes, probeAt);
      else if (n > 0) rowid = varintValue(b, type === 13 ? cell + varintSize(b, cell) : cell);
      let found: Tree | undefined;
      for (const [tree, root] of trees) {
        if (tree.index !== index) continue;
        const reached =
          n === 0 || root === p
            ? root === p
            : index && widthOf(pages, root, usable, widths) !== probe
              ? false
              : searchReaches(pages, root, p, b, rowid, probe, index, usable);
        if (!reached) continue;
        if (found) return undefined;
        found = tree;
      }
      if (!found) return undefined;
      owner.set(p, found);
    }
    // An interior page of the -wal names its children: those in the -wal are in its tree.
    for (const [p, tree] of owner) {
      const b = pages.read(p);
      if (!isInterior(p, b)) continue;
      for (const c of children(p, b)) if (wal.frames.has(c) && c <= wal.dbPages && owner.get(c) !== tree) return undefined;
    }
  } catch {
    // A page or a key this reading cannot follow: the walk decides.
    return undefined;
  }
  return owner;
}

/** How many values the entries of the index tree at `root` hold, from its root's first cell; -1 when it has none. */
function widthOf(pages: Pages, root: number, usable: number, widths: Map<number, number>): number {
  let w = widths.get(root);
  if (w === undefined) {
    const b = pages.read(root);
    const h = headerAt(root);
    const interior = b[h] === 2;
    const cell = u16(b, h + 3) === 0 ? -1 : interior ? u16(b, h + 12) + 4 : u16(b, h + 8);
    w = cell < 0 ? -1 : indexRecord(b, cell + varintSize(b, cell), varintValue(b, cell), usable, keyTypes, keyAt);
    widths.set(root, w);
  }
  return w;
}

/**
 * Whether the lookup from `root` of a key (`rowid` in a table; in an index the record read into
 * probeTypes/probeAt, `probe` values, from page `b`) goes through page `target`.
 */
function searchReaches(pages: Pages, root: number, target: number, b: Uint8Array, rowid: number, probe: number, index: boolean, usable: number): boolean {
  let p = root;
  for (let depth = 0; depth < 64; depth++) {
    if (p === target) return true;
    const page = pages.read(p);
    const h = headerAt(p);
    if (page[h] !== (index ? 2 : 5)) return false;
    const n = u16(page, h + 3);
    // The first cell whose key is at least the one looked up holds its child; none: the right-most.
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const at = u16(page, h + 12 + 2 * mid) + 4;
      const below = index
        ? compareRecords(page, indexRecord(page, at + varintSize(page, at), varintValue(page, at), usable, keyTypes, keyAt), b, probe) < 0
        : varintValue(page, at) < rowid;
      if (below) lo = mid + 1;
      else hi = mid;
    }
    p = lo < n ? u32(page, u16(page, h + 12 + 2 * lo)) : u32(page, h + 8);
  }
  return false;
}

// Scratch for the two records an index lookup compares.
const probeTypes: number[] = [];
const probeAt: number[] = [];
const keyTypes: number[] = [];
const keyAt: number[] = [];

/** The values of an index cell's record into `types` and `at` (all on the page, else Unsure); how many. */
function indexRecord(b: Uint8Array, start: number, payload: number, usable: number, types: number[], at: number[]): number {
  indexEntryOnPage(payload, usable);
  return fields(b, start, start + payload, start + payload, Infinity, types, at);
}

/**
 * The order of an index key (keyTypes/keyAt, `n` values, on `a`) against the probe (probeTypes/
 * probeAt, `probeCount` values, on `b`), as SQLite orders records with the BINARY collation: NULL, then numbers by
 * value, then text, then blobs, byte by byte; the common values equal, the shorter first.
 */
function compareRecords(a: Uint8Array, n: number, b: Uint8Array, probeCount: number): number {
  const m = Math.min(n, probeCount);
  for (let i = 0; i < m; i++) {
    const ta = keyTypes[i]!;
    const tb = probeTypes[i]!;
    const ca = typeClass(ta);
    const cb = typeClass(tb);
    if (ca !== cb) return ca - cb;
    if (ca === 0) continue;
    if (ca === 1) {
      const x = numberAt(a, ta, keyAt[i]!);
      const y = numberAt(b, tb, probeAt[i]!);
      if (x !== y) return x < y ? -1 : 1;
      continue;
    }
    const la = sizeOf(ta);
    const lb = sizeOf(tb);
    const oa = keyAt[i]!;
    const ob = probeAt[i]!;
    for (let k = 0; k < Math.min(la, lb); k++) if (a[oa + k] !== b[ob + k]) return a[oa + k]! - b[ob + k]!;
    if (la !== lb) return la - lb;
  }
  return n - probeCount;
}

/** SQLite's order of value kinds: NULL, numbers, text, blobs. */
const typeClass = (t: number): number => (t === 0 ? 0 : isNumber(t) ? 1 : t % 2 ? 2 : 3);

/**
 * The tree of each page of the -wal, from a walk of every b-tree's interior pages: they name
 * every page of their tree, leaves included. A page two trees name is Unsure.
 */
export function placeByWalk(pages: Pages, wal: WalPages, trees: readonly [Tree, number][]): Map<number, Tree> {
  const owner = new Map<number, Tree>();
  // A b-tree has all its leaves at one depth, so a level whose first page is a leaf is read no further. Only the
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
  return owner;
}
