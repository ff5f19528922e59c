// Connection settings measured on a large file: chapters.get at random and whole chapter lists
// on 1,000,000 chapters (100 books of 10,000), then 100,000 chapters inserted into a copy of it,
// each with its own connection per run and setting, runs interleaved, CPU time (process.cpuUsage),
// medians. The settings are applied on top of the store's own (src/engine/connection.ts), so
// "mmap_size = 0" is the store without its memory map. Writes bench/settings.md's figures to stdout.
//   npm run build && node dist/bench/settings.js [--runs 7] [--driver node:sqlite]
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openStore, type DriverName, type NewRow, type Store } from '../src/index.js';
import { benchFiles } from './files.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const RUNS = Number(arg('runs') ?? 7);
const driver = arg('driver') as DriverName | undefined;
const BOOKS = 100;
const PER_BOOK = 10_000;
const READS = 20_000;

const SETTINGS: Record<string, string[]> = {
  'no mmap (SQLite default)': ['mmap_size = 0'],
  'mmap_size 1 GiB (the store)': [],
  'no mmap, cache_size 64 MiB': ['mmap_size = 0', 'cache_size = -65536'],
  'mmap 1 GiB + cache_size 64 MiB': ['cache_size = -65536'],
};

const dir = mkdtempSync(join(benchFiles(), 'legado-settings-'));
const bookUrl = (b: number) => `https://b.example/${b}`;
const chapter = (b: string, i: number, url = `${b}/c/${i}`): NewRow<'chapters'> => ({
  url,
  title: `第${i}章 标题`,
  bookUrl: b,
  index: i,
  baseUrl: b,
  isVolume: false,
  isVip: false,
  isPay: false,
});

const big = join(dir, 'big.db');
{
  const s = openStore(big, driver ? { driver, schema: 62 } : { schema: 62 });
  s.tables.books.insertMany(Array.from({ length: BOOKS + 1 }, (_, b) => ({ bookUrl: bookUrl(b), name: `n${b}`, author: 'a' })));
  for (let b = 0; b < BOOKS; b++) s.tables.chapters.insertMany(Array.from({ length: PER_BOOK }, (_, i) => chapter(bookUrl(b), i)));
  s.db.pragma('wal_checkpoint(TRUNCATE)');
  s.close();
}

function cpu(fn: () => void): number {
  const t = process.cpuUsage();
  fn();
  const u = process.cpuUsage(t);
  return (u.user + u.system) / 1000;
}

function withStore(path: string, pragmas: string[], fn: (s: Store) => void): number {
  const s = openStore(path, driver ? { driver, schema: 62 } : { schema: 62 });
  for (const p of pragmas) s.db.pragma(p);
  try {
    return cpu(() => fn(s));
  } finally {
    s.close();
  }
}

const workloads: Record<string, (pragmas: string[]) => number> = {
  [`chapters.get x${READS}`]: (p) =>
    withStore(big, p, (s) => {
      let seed = 1;
      const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
      for (let i = 0; i < READS; i++) s.chapters.get(bookUrl((rnd() * BOOKS) | 0), (rnd() * PER_BOOK) | 0);
    }),
  'chapters.list x20': (p) =>
    withStore(big, p, (s) => {
      for (let i = 0; i < 20; i++) s.chapters.list(bookUrl((i * 37) % BOOKS));
    }),
  'insertMany 100,000': (p) => {
    const copy = join(dir, 'copy.db');
    for (const x of ['', '-wal', '-shm']) rmSync(copy + x, { force: true });
    copyFileSync(big, copy);
    const rows = Array.from({ length: 100_000 }, (_, i) => chapter(bookUrl(BOOKS), i));
    return withStore(copy, p, (s) => s.tables.chapters.insertMany(rows));
  },
};

const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;
const times = new Map<string, number[]>();
for (let r = 0; r < RUNS; r++) {
  for (const [w, run] of Object.entries(workloads)) {
    for (const [name, pragmas] of Object.entries(SETTINGS)) {
      const k = `${w}\t${name}`;
      times.set(k, [...(times.get(k) ?? []), run(pragmas)]);
    }
  }
}
console.log(`| workload | setting | CPU ms (median of ${RUNS}) | vs no mmap |`);
console.log('|---|---|---:|---:|');
for (const w of Object.keys(workloads)) {
  const base = median(times.get(`${w}\t${Object.keys(SETTINGS)[0]}`)!);
  for (const name of Object.keys(SETTINGS)) {
    const m = median(times.get(`${w}\t${name}`)!);
    console.log(`| ${w} | ${name} | ${m.toFixed(1)} | ${(m / base).toFixed(2)}x |`);
  }
}
rmSync(dir, { recursive: true, force: true });
