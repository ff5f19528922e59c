// Zips read in place: damaged, hostile and mislabelled archives are typed errors that name the
// file and the entry, and store nothing; expansion is capped; and the in-memory entry points
// (importBackupBytes, exportBackupBytes) give what the file ones give, without Node modules.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { ArchiveLimitError, BadArchiveError } from '../src/backup/errors.js';
import { exportBackupBytes } from '../src/backup/export.js';
import { exportBackup } from '../src/node/backup-export.js';
import { importBackupBytes, newPlan, planZip } from '../src/backup/import.js';
import { importBackup } from '../src/node/backup-import.js';
import { bytesAccess } from '../src/backup/byte-source.js';
import { ZipReader } from '../src/backup/zip.js';
import { openStore } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { sampleBackup, writeBackupFolder } from './helpers/backup-fixtures.js';
import { tempDir } from './helpers/files.js';
import { bombZip, hugeRecord, zipBytes } from './helpers/zip.js';
import { CLI, MACHINE_NODE, machineCli, machineEnv } from './helpers/cli.js';
import './helpers/engine.js'; // Node's engines, as the package's entry installs them

const SOURCES = JSON.stringify([{ bookSourceUrl: 'https://a', bookSourceName: 'A' }]);
const fresh = (dir: string, name = 's.db') => openStore(join(dir, name)) as Store<62>;

/** Offsets of every occurrence of a 4-byte little-endian signature. */
function offsets(bytes: Uint8Array, sig: number): number[] {
  const out: number[] = [];
  for (let i = 0; i + 4 <= bytes.length; i++) {
    if (bytes[i] === (sig & 0xff) && bytes[i + 1] === ((sig >> 8) & 0xff) && bytes[i + 2] === ((sig >> 16) & 0xff) && bytes[i + 3] === sig >>> 24) out.push(i);
  }
  return out;
}
const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;

async function rejectsWith(store: Store<62>, input: string | Uint8Array, check: (e: unknown) => boolean, strict = false): Promise<void> {
  await assert.rejects(importBackup(store, input, { strict }), (e: unknown) => check(e));
  assert.equal(store.tables.book_sources.count(), 0, 'nothing stored');
}

test('zip faults are BAD_ARCHIVE errors naming the file and the entry; nothing is stored', async () => {
  // A fault in the archive's directory fails any import; a fault in one entry fails a strict
  // import, and in a lenient one skips that file like any unreadable file (tested below).
  const dir = tempDir();
  const store = fresh(dir);
  const good = zipBytes([
    { name: 'bookSource.json', data: SOURCES },
    { name: 'bookGroup.json', data: '[]' },
  ]);
  const write = (name: string, bytes: Uint8Array) => {
    const p = join(dir, name);
    writeFileSync(p, bytes);
    return p;
  };
  const bad = (file: string, entry: string | undefined, words: RegExp) => (e: unknown) =>
    e instanceof BadArchiveError && e.code === 'BAD_ARCHIVE' && e.file === file && e.entry === entry && words.test(e.message) && e.message.startsWith(file);

  // Truncated: the end of the central directory is gone.
  const truncated = write('truncated.zip', good.subarray(0, good.length - 30));
  await rejectsWith(store, truncated, bad(truncated, undefined, /truncated/));
  // Cut inside the first entry's data, the directory kept: "unexpected EOF" from the inflater.
  const first = offsets(good, CENTRAL)[0]!;
  const cut = new Uint8Array(good);
  const dataAt = 30 + 'bookSource.json'.length;
  const compressed = new DataView(good.buffer, good.byteOffset).getUint32(first + 20, true);
  cut.fill(0xff, dataAt, dataAt + compressed); // invalid deflate data: block type 3
  const damaged = write('damaged.zip', cut);
  await rejectsWith(store, damaged, bad(damaged, 'bookSource.json', /invalid block type/), true);
  // Encrypted entry (flag bit 0 in both headers).
  const enc = new Uint8Array(good);
  enc[offsets(enc, LOCAL)[0]! + 6]! |= 1;
  enc[first + 8]! |= 1;
  const encrypted = write('encrypted.zip', enc);
  await rejectsWith(store, encrypted, bad(encrypted, 'bookSource.json', /entry is encrypted/), true);
  // Absolute and escaping paths.
  const absolute = write('absolute.zip', zipBytes([{ name: '/etc/bookSource.json', data: SOURCES }]));
  await rejectsWith(store, absolute, bad(absolute, '/etc/bookSource.json', /absolute path/));
  const escaping = write('escaping.zip', zipBytes([{ name: 'a/../../bookSource.json', data: SOURCES }]));
  await rejectsWith(store, escaping, bad(escaping, 'a/../../bookSource.json', /invalid relative path/));
  // CRC mismatch: one bit of the expanded content changed where deflate stores it literally.
  const crc = new Uint8Array(good);
  crc[first + 16]! ^= 1;
  const wrongCrc = write('crc.zip', crc);
  await rejectsWith(store, wrongCrc, bad(wrongCrc, 'bookSource.json', /CRC-32 mismatch/), true);
  // The inflater's own words for a stream that ends early.
  const short = new Uint8Array(good);
  const view = new DataView(short.buffer);
  view.setUint32(first + 20, compressed - 3, true);
  const early = write('early.zip', short);
  await rejectsWith(store, early, bad(early, 'bookSource.json', /unexpected EOF/), true);
  // Not a zip at all, called .zip; and in memory.
  const fake = join(dir, 'fake.zip');
  writeFileSync(fake, SOURCES);
  await rejectsWith(store, fake, bad(fake, undefined, /not a zip archive/));
  const headOnly = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]);
  await assert.rejects(importBackupBytes(store, headOnly, { name: 'mem.zip' }), bad('mem.zip', undefined, /truncated/));
  // In a lenient import a damaged table file of a backup is skipped like an unreadable one, and
  // reported with its code; --strict fails on it.
  const mixed = zipBytes([
    { name: 'bookSource.json', data: SOURCES },
    { name: 'replaceRule.json', data: '[{"id":1,"pattern":"a"}]' },
  ]);
  const rr = offsets(mixed, CENTRAL)[1]!;
  mixed[rr + 16]! ^= 1;
  const r = await importBackupBytes(store, mixed, { name: 'mixed.zip' });
  assert.equal(store.tables.book_sources.count(), 1);
  assert.equal(store.tables.replace_rules.count(), 0);
  assert.equal(r.files.find((f) => f.file === 'mixed.zip:replaceRule.json')!.error, 'BAD_ARCHIVE');
  store.close();
  const strict = fresh(dir, 'strict.db');
  await assert.rejects(importBackupBytes(strict, mixed, { name: 'mixed.zip', strict: true }), bad('mixed.zip', 'replaceRule.json', /CRC-32/));
  assert.equal(strict.tables.book_sources.count(), 0);
  strict.close();
});

test('zip bombs stop at a limit with ARCHIVE_LIMIT, nothing stored; the limits can be raised', async () => {
  const dir = tempDir();
  const store = fresh(dir);
  // 80 MiB of white space before one record: about 80 KiB compressed, a ratio near 1000.
  const spaces = Buffer.alloc(80 * 2 ** 20, 0x20);
  const record = new TextEncoder().encode(SOURCES);
  spaces.set(record, spaces.length - record.length);
  const bomb = bombZip([{ name: 'bookSource.json', data: spaces }]);
  assert.ok(bomb.length < 2 ** 20, `compressed to ${bomb.length} bytes`);
  // Refused from the directory: no byte of the entry's data is read (the bytes read are counted).
  const dataAt = offsets(bomb, LOCAL)[0]! + 30 + 'bookSource.json'.length;
  const reads: [number, number][] = [];
  const counting = { name: 'bomb.zip', size: bomb.length, read: (at: number, n: number) => (reads.push([at, n]), bomb.subarray(at, at + n)) };
  assert.throws(
    () => planZip(newPlan(), counting, {}),
    (e: unknown) =>
      e instanceof ArchiveLimitError &&
      e.limit === 'ratio' &&
      e.entry === 'bookSource.json' &&
      /^bomb\.zip:bookSource\.json: declares more than 67108864 bytes, 100 times/.test(e.message),
  );
  const dataEnd = offsets(bomb, CENTRAL)[0]!;
  // The directory's tail (the last 64 KiB, where the end record is looked for) and the headers only.
  const tail = bomb.length - (22 + 0xffff);
  assert.ok(reads.length > 0 && reads.every(([at, n]) => at + n <= dataAt || at >= Math.min(tail, dataEnd)), `read ${JSON.stringify(reads)}`);
  await assert.rejects(importBackupBytes(store, bomb, { name: 'bomb.zip' }), (e: unknown) => e instanceof ArchiveLimitError && e.limit === 'ratio');
  assert.equal(store.tables.book_sources.count(), 0);
  // A declared size over the entry limit fails before anything is inflated; so does the real size.
  await assert.rejects(
    importBackupBytes(store, bomb, { name: 'bomb.zip', zipLimits: { entryBytes: 2 ** 20, ratio: 1e9 } }),
    (e: unknown) => e instanceof ArchiveLimitError && e.limit === 'entryBytes',
  );
  const two = zipBytes([
    { name: 'bookSource.json', data: SOURCES },
    { name: 'rssSources.json', data: '[]'.padEnd(4000, ' ') },
  ]);
  await assert.rejects(
    importBackupBytes(store, two, { name: 'two.zip', zipLimits: { archiveBytes: 1000 } }),
    (e: unknown) => e instanceof ArchiveLimitError && e.limit === 'archiveBytes',
  );
  assert.equal(store.tables.book_sources.count(), 0);
  // An entry that inflates past the size its directory declares is stopped there.
  const liar = new Uint8Array(zipBytes([{ name: 'bookSource.json', data: SOURCES.padEnd(5000, ' ') }]));
  const cd = offsets(liar, CENTRAL)[0]!;
  new DataView(liar.buffer).setUint32(cd + 24, 100, true);
  await assert.rejects(
    importBackupBytes(store, liar, { name: 'liar.zip', strict: true }),
    (e: unknown) =>
      e instanceof BadArchiveError &&
      e.entry === 'bookSource.json' &&
      /^liar\.zip:bookSource\.json: expands past the 100 bytes the directory declares$/.test(e.message),
  );
  // Raised limits let the same archive through (its white space is read as part of its record).
  const r = await importBackupBytes(store, bomb, { name: 'bomb.zip', zipLimits: { ratio: 10_000, recordBytes: 2 ** 27 } });
  assert.equal(r.totals.stored, 1);
  store.close();
});

/**
 * The CLI's import in a child process, with its peak memory in bytes as the process itself saw
 * it: VmHWM of /proc/self/status where there is one (it starts afresh with the program, where
 * getrusage's maxRSS may carry the forking parent's), else maxRSS.
 */
function importMeasured(dir: string, zip: string, ...flags: string[]): { code: number | null; stderr: string; maxRss: number } {
  const peak = `process.on("exit",()=>{let k;try{k=/VmHWM:\\s*(\\d+)/.exec(readFileSync("/proc/self/status","utf8"))[1]}catch{k=process.resourceUsage().maxRSS}process.stderr.write("peakKB="+k+"\\n")})`;
  const r = spawnSync(
    MACHINE_NODE,
    ['--import', `data:text/javascript,import{readFileSync}from"node:fs";${peak}`, CLI, 'import', join(dir, 'm.db'), zip, ...flags],
    { encoding: 'utf8', env: machineEnv() },
  );
  const kb = Number(/peakKB=(\d+)/.exec(r.stderr)?.[1]);
  return { code: r.status, stderr: r.stderr, maxRss: kb * 1024 };
}

test('bombs of huge records are refused before their memory is spent', () => {
  const dir = tempDir();
  const record = hugeRecord(256 * 2 ** 20);
  // Five entries of one 256 MiB record each (1.3 MB in all): the directory declares 1.25 GiB,
  // over the archive limit, so nothing is inflated. This reached 1.05 GB of memory before.
  const five = join(dir, 'bomb-records-256m.zip');
  const names = ['bookSource.json', 'rssSources.json', 'replaceRule.json', 'txtTocRule.json', 'dictRule.json'];
  writeFileSync(five, bombZip(names.map((name) => ({ name, data: record }))));
  const a = importMeasured(dir, five, '--max-ratio', '1000000');
  assert.equal(a.code, 1, a.stderr);
  assert.match(a.stderr, /^legado-store: ARCHIVE_LIMIT: .*bomb-records-256m\.zip:\w+\.json: the entries read declare more than 1073741824 bytes together/m);
  assert.ok(a.maxRss < 200 * 2 ** 20, `peak memory ${a.maxRss}`);
  // One such entry is within the archive limits (and ratio raised): its record is stopped at
  // 64 MiB (recordBytes) instead of being held whole (1.75 GB of memory before).
  const one = join(dir, 'one.zip');
  writeFileSync(one, bombZip([{ name: 'bookSource.json', data: record }]));
  const b = importMeasured(dir, one, '--max-ratio', '1000000');
  assert.equal(b.code, 1, b.stderr);
  assert.match(
    b.stderr,
    /^legado-store: ARCHIVE_LIMIT: .*one\.zip:bookSource\.json: holds a record of more than 67108864 bytes \(the limit for one record\); nothing was stored/m,
  );
  assert.ok(b.maxRss < 700 * 2 ** 20, `peak memory ${b.maxRss}`);
  // Nothing stored: the import was into a new path, so it leaves no store there at all.
  assert.equal(existsSync(join(dir, 'm.db')), false);
});

test('the store takes back its own export: a 10 MB field of one repeated character', async () => {
  const dir = tempDir();
  const comment = 'a'.repeat(10_000_000);
  const rules = join(dir, 'sources.json');
  writeFileSync(rules, JSON.stringify([{ bookSourceUrl: 'https://long', bookSourceName: 'Long', bookSourceComment: comment }]));
  assert.equal(machineCli('import', join(dir, 'own.db'), rules).code, 0);
  const out = join(dir, 'own.zip');
  const exported = machineCli('export', join(dir, 'own.db'), out);
  assert.equal(exported.code, 0, exported.stderr);
  const zip = new ZipReader(bytesAccess('own.zip', readFileSync(out)));
  const entry = zip.entries.find((e) => e.name === 'bookSource.json')!;
  assert.ok(entry.size > 100 * entry.compressedSize, `ratio ${entry.size / entry.compressedSize}`);
  const r = machineCli('import', join(dir, 'back.db'), out);
  assert.equal(r.code, 0, r.stderr);
  // Read back by SQL on the machine's engine (this suite also runs on SQLite WASM, which has no
  // file system to open the CLI's file): 10,000,000 characters, every one of them an 'a'.
  const q = machineCli(
    'query',
    join(dir, 'back.db'),
    "SELECT length(bookSourceComment) AS n, length(replace(bookSourceComment, 'a', '')) AS others FROM book_sources WHERE bookSourceUrl = 'https://long'",
    '--json',
  );
  assert.equal(q.code, 0, q.stderr);
  assert.deepEqual(JSON.parse(q.stdout), [{ n: 10_000_000, others: 0 }]);
});

test('importBackupBytes and exportBackupBytes: the same reports and rows as the file path, and a zip the file import reads back', async () => {
  const dir = tempDir();
  const files = sampleBackup();
  const folder = writeBackupFolder(join(dir, 'b'), files);
  const fromFolder = fresh(dir, 'a.db');
  const rFolder = await importBackup(fromFolder, folder);
  const zip = zipBytes(Object.entries(files).map(([name, data]) => ({ name, data: JSON.stringify(data) })));
  const fromBytes = fresh(dir, 'b.db');
  const rBytes = await importBackupBytes(fromBytes, zip, { name: 'mem.zip' });
  assert.deepEqual(rBytes.kinds, rFolder.kinds);
  assert.deepEqual(rBytes.totals, rFolder.totals);
  assert.deepEqual(
    rBytes.files.map((f) => f.file.split(':').pop()),
    rFolder.files.map((f) => f.file.split('/').pop()),
  );
  // A rule file in memory.
  const rule = fresh(dir, 'c.db');
  const rRule = await importBackupBytes(rule, new TextEncoder().encode(SOURCES));
  assert.equal(rRule.kinds.bookSource!.stored, 1);
  // Export to bytes, and read those bytes back through the file import: same rows.
  const out = await exportBackupBytes(fromBytes);
  const outPath = join(dir, 'out.zip');
  writeFileSync(outPath, out);
  const again = fresh(dir, 'd.db');
  await importBackup(again, outPath);
  for (const t of ['books', 'book_sources', 'replace_rules', 'servers', 'readRecord'] as const) {
    assert.deepEqual(again.table(t).list(), fromBytes.table(t).list(), t);
  }
  // The file export writes the same entries as the bytes export.
  await exportBackup(fromBytes, join(dir, 'file.zip'));
  const names = (b: Uint8Array) => new ZipReader(bytesAccess('x', b)).entries.map((e) => e.name);
  assert.deepEqual(names(readFileSync(join(dir, 'file.zip'))), names(out));
  for (const s of [fromFolder, fromBytes, rule, again]) s.close();
});

test('the in-memory entry points import no Node module, however deep', () => {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../src/backup/bytes.js');
  const seen = new Set<string>();
  const nodeImports: string[] = [];
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm)) {
      const spec = m[1]!;
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec));
      else if (spec.startsWith('node:') || ['fs', 'path', 'os', 'crypto', 'stream', 'util', 'better-sqlite3'].includes(spec))
        nodeImports.push(`${file}: ${spec}`);
    }
  };
  visit(root);
  assert.ok(seen.size > 10, `walked ${seen.size} modules`);
  assert.deepEqual(nodeImports, []);
});
