// Opening for writing with a -wal beside the file checks the pages the -wal brings, read from
// the two files, instead of running SQLite's whole-file checks: a sound -wal opens without
// quick_check or integrity_check (counted at the engine seam), a foreign one is refused by the
// index entries on its pages that do not match their rows, and a -wal whose frames are valid
// (checksums recomputed here, by SQLite's documented algorithm) but whose page is broken is
// refused with the page named. Each page of a small -wal is placed in its tree by looking up its
// first key (read counted at the seam: fewer than the file's interior pages), in the tree
// SQLite's dbstat says; a -wal with a page no lookup places (an overflow page) is walked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from 'legado-store';
import { CorruptError } from 'legado-store/errors';
import type { Driver } from '../src/engine/driver.js';
import { checkWal } from '../src/engine/wal-check.js';
import { chapter } from './helpers/domain.js';
import { resolveDriver } from '../src/engine/drivers/index.js';
import { recording, testDriver } from './helpers/engine.js';
import { tempDir } from './helpers/files.js';

const dir = tempDir();
/** The check reads files on disk: on a suite run on WASM (whose files are its own), a file engine. */
const fileDriver: Driver = testDriver.capabilities.files ? testDriver : resolveDriver('better-sqlite3');

/** A closed store with `n` chapters of `book`, and a -wal of `more` more (copied aside as `<path>.wal`, the file as it was in `<path>.file`). */
function storeAndWal(name: string, book: string, n: number, more = 300): string {
  const path = join(dir, name);
  const s = openStore(path, { schema: 62, driver: fileDriver });
  s.books.save({ bookUrl: book, name: book, author: 'A' });
  s.transaction(() => {
    for (let i = 0; i < n; i++) s.tables.chapters.insert(chapter(book, i));
  });
  s.close();
  copyFileSync(path, `${path}.file`);
  const w = openStore(path, { driver: fileDriver });
  w.db.pragma('wal_autocheckpoint = 0');
  w.transaction(() => {
    for (let i = n; i < n + more; i++) w.tables.chapters.insert(chapter(book, i));
  });
  copyFileSync(`${path}-wal`, `${path}.wal`);
  w.close();
  return path;
}

/** `path` laid out again as the file before the -wal, with `wal` beside it and no -shm (nobody has it open). */
function lay(path: string, wal: string): void {
  rmSync(`${path}-shm`, { force: true });
  copyFileSync(`${path}.file`, path);
  copyFileSync(wal, `${path}-wal`);
}

/** SQLite's WAL checksum (sqlite.org/fileformat2.html#walformat), over 32-bit words in the -wal's byte order. */
function walChecksum(b: Buffer, from: number, to: number, s: [number, number], bigEndian: boolean): void {
  for (let i = from; i < to; i += 8) {
    const x0 = bigEndian ? b.readUInt32BE(i) : b.readUInt32LE(i);
    const x1 = bigEndian ? b.readUInt32BE(i + 4) : b.readUInt32LE(i + 4);
    s[0] = (s[0] + x0 + s[1]) >>> 0;
    s[1] = (s[1] + x1 + s[0]) >>> 0;
  }
}

/** Rewrites every frame's checksum after the frames were edited. */
function resum(wal: Buffer): void {
  const bigEndian = wal.readUInt32BE(0) === 0x377f0683;
  const pageSize = wal.readUInt32BE(8);
  const s: [number, number] = [wal.readUInt32BE(24), wal.readUInt32BE(28)];
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    walChecksum(wal, at, at + 8, s, bigEndian);
    walChecksum(wal, at + 24, at + 24 + pageSize, s, bigEndian);
    wal.writeUInt32BE(s[0], at + 16);
    wal.writeUInt32BE(s[1], at + 20);
  }
}

test('a sound orphan -wal: checked from the files, no whole-file check, and its rows are there', () => {
  const path = storeAndWal('sound.db', 'a', 2000);
  lay(path, `${path}.wal`);
  assert.deepEqual(checkWal(path, fileDriver, true), { sound: true });
  assert.equal(existsSync(`${path}-shm`), false, 'the check itself leaves nothing beside the file');
  const { driver, calls: pragmas } = recording('pragma', fileDriver);
  const s = openStore(path, { driver });
  assert.equal(s.db.prepare('SELECT count(*) FROM chapters').pluck().get(), 2300);
  s.close();
  assert.deepEqual(
    pragmas.filter((p) => /quick_check|integrity_check/.test(p)),
    [],
  );
});

test("another store's -wal: entries on its index pages name rows that do not hold them, and the open is refused", () => {
  const path = storeAndWal('mine.db', 'a', 2000);
  const other = storeAndWal('other.db', 'b', 2000);
  lay(path, `${other}.wal`);
  const verdict = checkWal(path, fileDriver, true);
  assert.ok(verdict !== 'unsure' && !verdict.sound, JSON.stringify(verdict));
  assert.ok(
    verdict.damage.some((d) => /^index \S+: the entry for row \d+ does not match the row$/.test(d)),
    verdict.damage[0],
  );
  const wal = readFileSync(`${path}-wal`);
  assert.throws(
    () => openStore(path, { driver: fileDriver }),
    (e: unknown) => e instanceof CorruptError && /nothing was written/.test(e.message),
  );
  assert.ok(readFileSync(`${path}-wal`).equals(wal));
  assert.equal(existsSync(`${path}-shm`), false);
});

/** Breaks the first chapters-table leaf (type 13) in `path`'s saved -wal: its cell count made larger than the page holds. Returns the -wal and the page. */
function breakLeaf(path: string, name: string): [string, number] {
  const wal = readFileSync(`${path}.wal`);
  const pageSize = wal.readUInt32BE(8);
  // The first frame of a chapters table leaf (type 13): its cell count made larger than the page holds.
  const db = fileDriver.open(`${path}.file`, { readonly: true });
  const rootOfChapters = db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'chapters'").pluck().get() as number;
  db.close();
  let edited = -1;
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    const page = wal.readUInt32BE(at);
    if (page !== 1 && page !== rootOfChapters && wal[at + 24] === 13) {
      wal.writeUInt16BE(4000, at + 24 + 3);
      edited = page;
      break;
    }
  }
  assert.ok(edited > 0, 'a table leaf in the -wal');
  resum(wal);
  writeFileSync(join(dir, name), wal);
  return [join(dir, name), edited];
}

test('a -wal whose frames are valid but whose page is broken is refused, the page named', () => {
  const path = storeAndWal('broken.db', 'a', 2000);
  const [broken, edited] = breakLeaf(path, 'broken.wal');
  lay(path, broken);
  const verdict = checkWal(path, fileDriver, false);
  assert.ok(verdict !== 'unsure' && !verdict.sound, JSON.stringify(verdict));
  assert.match(verdict.damage.join('\n'), new RegExp(`page ${edited}: cell pointers overlap the cell content`));
  assert.throws(
    () => openStore(path, { driver: fileDriver }),
    (e: unknown) => e instanceof CorruptError,
  );
  // The same edit without new checksums: SQLite stops reading the -wal at that frame, and so does the check.
  const stale = readFileSync(`${path}.wal`);
  stale.writeUInt16BE(4000, 32 + 24 + 3);
  writeFileSync(join(dir, 'stale.wal'), stale);
  lay(path, join(dir, 'stale.wal'));
  assert.deepEqual(checkWal(path, fileDriver, true), { sound: true });
});

test('a broken leaf three levels below its root is found too, in its tree', () => {
  // A long book URL in every row: a few rows a page, so 20,000 of them need a third level.
  const path = storeAndWal('deep.db', `https://example.com/${'a'.repeat(300)}/`, 20000);
  // The chapters table's root and its first child are both interior pages (type 5) in the file.
  const file = readFileSync(`${path}.file`);
  const db = fileDriver.open(`${path}.file`, { readonly: true });
  const root = db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'chapters'").pluck().get() as number;
  db.close();
  const pageSize = file.readUInt16BE(16);
  const at = (p: number) => (p - 1) * pageSize;
  assert.equal(file[at(root)], 5, 'the root is interior');
  const first = file.readUInt32BE(at(root) + file.readUInt16BE(at(root) + 12));
  assert.equal(file[at(first)], 5, 'its first child is interior too');
  const [broken, edited] = breakLeaf(path, 'deep-broken.wal');
  lay(path, broken);
  const verdict = checkWal(path, fileDriver, false);
  assert.ok(verdict !== 'unsure' && !verdict.sound, JSON.stringify(verdict));
  assert.match(verdict.damage.join('\n'), new RegExp(`table chapters: page ${edited}: cell pointers overlap the cell content`));
});

/** SQLite's varint at `o` (values here are below 2^32): [value, bytes]. */
function varintAt(b: Buffer, o: number): [number, number] {
  let v = 0;
  for (let i = 0; i < 9; i++) {
    v = v * 128 + (b[o + i]! & 0x7f);
    if ((b[o + i]! & 0x80) === 0) return [v, i + 1];
  }
  return [v, 9];
}

test('one index entry on a -wal page one letter off its row is found, the row named; the rest of the page matches', () => {
  const path = storeAndWal('entry.db', 'https://example.com/book/1', 2000);
  const wal = readFileSync(`${path}.wal`);
  const pageSize = wal.readUInt32BE(8);
  let edited: string | undefined;
  for (let at = 32; at + 24 + pageSize <= wal.length && edited === undefined; at += 24 + pageSize) {
    const page = at + 24;
    // An index leaf (type 10) whose first entry starts with a text of 9 bytes or more: its ninth changed.
    if (wal[page] !== 10 || wal.readUInt32BE(at) === 1) continue;
    let cell = page + wal.readUInt16BE(page + 8);
    cell += varintAt(wal, cell)[1];
    const [headerSize, h] = varintAt(wal, cell);
    const [type] = varintAt(wal, cell + h);
    if (type < 13 + 2 * 9 || type % 2 === 0) continue;
    const text = cell + headerSize;
    edited = wal.toString('utf8', text, text + (type - 13) / 2);
    wal[text + 8] = wal[text + 8] === 0x78 ? 0x79 : 0x78;
  }
  assert.ok(edited, 'an index leaf whose first entry is text');
  resum(wal);
  writeFileSync(join(dir, 'entry.wal'), wal);
  lay(path, join(dir, 'entry.wal'));
  // Without the -shm (an orphan): the entries are looked up, and exactly that one is wrong.
  const verdict = checkWal(path, fileDriver, true);
  assert.ok(verdict !== 'unsure' && !verdict.sound, JSON.stringify(verdict));
  assert.equal(verdict.damage.length, 1, verdict.damage.join('\n'));
  assert.match(verdict.damage[0]!, /^index \S+: the entry for row \d+ does not match the row$/);
  // As a live -wal the pages are only read as pages: well formed, so it passes that check.
  assert.deepEqual(checkWal(path, fileDriver, false), { sound: true });
});

/** The file's reads (pages and blocks) a check makes, counted at the engine seam. */
function countingReads(): { driver: Driver; reads: () => number } {
  let n = 0;
  const files = fileDriver.files!;
  const driver = Object.create(fileDriver, {
    files: {
      value: {
        ...files,
        openRead(p: string) {
          const r = files.openRead(p);
          const mine = !p.endsWith('-wal');
          return { size: r.size, close: () => r.close(), read: (into: Uint8Array, at: number) => ((n += mine ? 1 : 0), r.read(into, at)) };
        },
      },
    },
  }) as Driver;
  return { driver, reads: () => n };
}

/** SQLite's own answer (dbstat, on a copy of the file with its -wal): the tree of each page, how many interior pages the file has, its overflow pages. */
function dbstat(path: string): { owner: Map<number, string>; interior: number; overflow: Set<number> } {
  const copy = join(dir, 'dbstat-copy.db');
  for (const f of ['', '-wal', '-shm']) rmSync(copy + f, { force: true });
  copyFileSync(path, copy);
  copyFileSync(`${path}-wal`, `${copy}-wal`);
  const db = fileDriver.open(copy);
  const rows = db.prepare('SELECT name, pageno, pagetype FROM dbstat').all() as { name: string; pageno: number; pagetype: string }[];
  db.close();
  return {
    owner: new Map(rows.map((r) => [r.pageno, r.name === 'sqlite_schema' ? 'sqlite_master' : r.name])),
    interior: rows.filter((r) => r.pagetype === 'internal').length,
    overflow: new Set(rows.filter((r) => r.pagetype === 'overflow').map((r) => r.pageno)),
  };
}

/** The page numbers of a -wal's frames. */
function walPages(wal: Buffer): number[] {
  const pageSize = wal.readUInt32BE(8);
  const pages: number[] = [];
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) pages.push(wal.readUInt32BE(at));
  return pages;
}

test('a sound -wal places its pages by looking up their keys: a few reads, not every interior page of the file', () => {
  // A -wal of a few chapters (under 1/256 of the file's pages: larger ones are walked, which costs less then).
  const path = storeAndWal('lookups.db', `https://example.com/${'a'.repeat(300)}/`, 20000, 3);
  lay(path, `${path}.wal`);
  const { owner, interior } = dbstat(path);
  // Every page of this -wal is a b-tree page (no overflow, nothing freed): each one is looked up.
  const pages = walPages(readFileSync(`${path}.wal`));
  assert.ok(pages.every((p) => owner.has(p) && owner.get(p) !== undefined));
  const { driver, reads } = countingReads();
  assert.deepEqual(checkWal(path, driver, true), { sound: true });
  assert.ok(interior > 100, `${interior} interior pages`);
  assert.ok(reads() < interior / 2, `${reads()} reads of the file against ${interior} interior pages`);
});

test('a page placed by its keys is checked as a page of the tree SQLite says it is in: a broken one named with that tree', () => {
  const path = storeAndWal('named.db', `https://example.com/${'a'.repeat(300)}/`, 20000, 3);
  const wal = readFileSync(`${path}.wal`);
  const pageSize = wal.readUInt32BE(8);
  lay(path, `${path}.wal`);
  const { owner } = dbstat(path);
  // Every b-tree page of the -wal in turn, its cell content start moved past the page's end (checksums redone).
  let checked = 0;
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    const page = wal.readUInt32BE(at);
    const h = at + 24 + (page === 1 ? 100 : 0);
    if (![2, 5, 10, 13].includes(wal[h]!)) continue;
    const broken = Buffer.from(wal);
    broken.writeUInt16BE(pageSize - 1, h + 5);
    resum(broken);
    writeFileSync(join(dir, 'named-broken.wal'), broken);
    lay(path, join(dir, 'named-broken.wal'));
    const verdict = checkWal(path, fileDriver, false);
    assert.ok(verdict !== 'unsure' && !verdict.sound, `page ${page}: ${JSON.stringify(verdict)}`);
    const kind = wal[h] === 2 || wal[h] === 10 ? 'index' : 'table';
    assert.match(verdict.damage.join('\n'), new RegExp(`^${kind} ${owner.get(page)}: page ${page}: `, 'm'));
    checked++;
  }
  assert.ok(checked >= 4, `${checked} pages`);
});

test('a -wal with a page no lookup can place (an overflow page) is walked instead, and still checked in full', () => {
  const path = join(dir, 'overflow.db');
  const s = openStore(path, { schema: 62, driver: fileDriver });
  const book = 'https://example.com/book/o';
  s.books.save({ bookUrl: book, name: 'b', author: 'A' });
  s.transaction(() => {
    for (let i = 0; i < 20000; i++) s.tables.chapters.insert(chapter(book, i));
  });
  s.close();
  copyFileSync(path, `${path}.file`);
  const w = openStore(path, { driver: fileDriver });
  w.db.pragma('wal_autocheckpoint = 0');
  // A chapter whose variable (its JSON) is longer than a page: overflow pages in the -wal.
  w.tables.chapters.insert({ ...chapter(book, 20000), variable: JSON.stringify({ x: 'v'.repeat(20000) }) });
  copyFileSync(`${path}-wal`, `${path}.wal`);
  w.close();
  lay(path, `${path}.wal`);
  const { owner, interior, overflow } = dbstat(path);
  const pages = walPages(readFileSync(`${path}.wal`));
  assert.ok(
    pages.some((p) => overflow.has(p)),
    'an overflow page in the -wal',
  );
  const { driver, reads } = countingReads();
  assert.deepEqual(checkWal(path, driver, true), { sound: true });
  assert.ok(reads() >= interior, `walked: ${reads()} reads, ${interior} interior pages`);
  // The same -wal with its chapters leaf broken: found by the walk, with its tree.
  const [broken, edited] = breakLeaf(path, 'overflow-broken.wal');
  lay(path, broken);
  const verdict = checkWal(path, fileDriver, false);
  assert.ok(verdict !== 'unsure' && !verdict.sound, JSON.stringify(verdict));
  assert.match(verdict.damage.join('\n'), new RegExp(`table ${owner.get(edited)}: page ${edited}: cell pointers overlap the cell content`));
});
