// Before/after in one process: the store of a previous build and this one, imported side by
// side, each hot path timed in blocks of calls, the blocks of both builds shuffled in every
// round; per-round ratios after / before, their median and bootstrap 95% interval.
//
//   git worktree add /tmp/prev <commit> && (cd /tmp/prev && npx tsc -p tsconfig.json)
//   cp -r /tmp/prev/dist/src .before   # inside this repository, so its imports resolve here
//   node dist/bench/before-after.js --before .before [--only counts,paging,in-list,source-upsert,progress,transaction,chapter-get,progress-listener,transaction-listener] [--rounds 40] [--driver node:sqlite|bun:sqlite|wasm]
//
// With --driver, each build opens its stores with its own copy of that engine's driver (for
// WASM: its own module instance and memory storage), so a change to a driver is measured too.
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { openStore as OpenStore, Store as AnyVersionStore } from '../src/index.js';
import { chapters as makeChapters, sources as makeSources, type SourceIn } from './data.js';
import { bootstrapMedian, median, pairedRatios, prng, shuffle } from './stats.js';
import { benchFiles } from './files.js';

type Store = AnyVersionStore<62>;
type Open = typeof OpenStore;

/** A hot path: made on a fresh store of the given build, then called `calls` times per block. */
interface Path {
  readonly calls: number;
  make(store: Store): (i: number) => unknown;
}

let sources: SourceIn[] | undefined;
const sourceRows = (): SourceIn[] => (sources ??= makeSources(100).rows);

const words = Array.from({ length: 2000 }, (_, i) => `w${String(i).padStart(4, '0')}`);

const PATHS: Record<string, Path> = {
  counts: { calls: 100, make: (s) => () => s.counts() },
  paging: { calls: 300, make: (s) => (i) => s.tables.search_keywords.list({ orderBy: 'word', limit: 5, offset: i % 600 }) },
  'in-list': { calls: 300, make: (s) => (i) => s.tables.search_keywords.list({ where: { word: { in: words.slice(0, 9 + (i % 300)) } } }) },
  // 100 book sources upserted into a store that has upserted them before (so statements are prepared).
  'source-upsert': { calls: 20, make: (s) => () => s.tables.book_sources.upsertMany(sourceRows()) },
  // One book's reading position, alone and in store.transaction, without and with a listener on books.
  progress: { calls: 100, make: (s) => (i) => s.books.updateProgress('u', { durChapterIndex: 1, durChapterPos: i, durChapterTime: i }) },
  transaction: {
    calls: 100,
    make: (s) => (i) => s.transaction(() => s.books.updateProgress('u', { durChapterIndex: 1, durChapterPos: i, durChapterTime: i })),
  },
  // A chapter by (bookUrl, index), as store.chapters.get reads it: 1,000 reads of a 2,000-chapter book.
  'chapter-get': { calls: 1000, make: (s) => (i) => s.chapters.get('u', (i * 7919) % 2000) },
  'progress-listener': {
    calls: 100,
    make(s) {
      s.onChange('books', () => {});
      return (i) => s.books.updateProgress('u', { durChapterIndex: 1, durChapterPos: i, durChapterTime: i });
    },
  },
  'transaction-listener': {
    calls: 1000,
    make(s) {
      s.onChange('books', () => {});
      return (i) => s.transaction(() => s.books.updateProgress('u', { durChapterIndex: 1, durChapterPos: i }));
    },
  },
};

function fresh(open: Open, path: string, driver: unknown): Store {
  for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
  const s = (driver === undefined ? open(path) : open(path, { driver } as Parameters<Open>[1])) as Store;
  s.tables.search_keywords.insertMany(words.map((word) => ({ word, usage: 1, lastUseTime: 0 })));
  s.tables.books.insert({ bookUrl: 'u', name: 'n', author: 'a', origin: 'o' });
  s.tables.chapters.insertMany(makeChapters('u', 2000));
  return s;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const flag = (k: string) => {
    const i = args.indexOf(`--${k}`);
    return i < 0 ? undefined : args[i + 1];
  };
  const dir = flag('before');
  if (!dir) throw new Error("--before <folder of the previous build's dist/src> is required");
  const rounds = Number(flag('rounds') ?? 40);
  const only = flag('only')?.split(',') ?? Object.keys(PATHS);
  const before = (await import(pathToFileURL(join(resolve(dir), 'index.js')).href)) as { openStore: Open };
  const after = await import('../src/index.js');
  const drivers = { before: await driverOf(dir, flag('driver')), after: await driverOf(fileURLToPath(new URL('../src', import.meta.url)), flag('driver')) };
  const tmp = benchFiles();
  const random = prng(7);
  for (const name of only) {
    const path = PATHS[name];
    if (!path) throw new Error(`--only: ${name} (one of ${Object.keys(PATHS).join(', ')})`);
    const builds = { before: before.openStore, after: after.openStore };
    const stores = Object.fromEntries(
      Object.entries(builds).map(([k, open]) => [k, fresh(open, join(tmp, `before-after-${k}.db`), drivers[k as keyof typeof drivers])]),
    ) as Record<string, Store>;
    const calls = Object.fromEntries(Object.entries(stores).map(([k, s]) => [k, path.make(s)]));
    const times: Record<string, number[]> = { before: [], after: [] };
    for (let r = 0; r < rounds + 3; r++) {
      for (const k of shuffle(['before', 'after'], random)) {
        const f = calls[k]!;
        const t0 = process.hrtime.bigint();
        for (let i = 0; i < path.calls; i++) f(i);
        if (r >= 3) times[k]!.push(Number(process.hrtime.bigint() - t0) / 1000 / path.calls);
      }
    }
    for (const s of Object.values(stores)) s.close();
    const ci = bootstrapMedian(pairedRatios(times['after']!, times['before']!));
    console.log(
      `${name.padEnd(22)} before ${median(times['before']!).toFixed(2)} µs, after ${median(times['after']!).toFixed(2)} µs a call; ` +
        `after / before ${ci.median.toFixed(2)}× [${ci.low.toFixed(2)}–${ci.high.toFixed(2)}] (${rounds} rounds)`,
    );
  }
}

/** The driver named, as the build in `dir` makes it: a native engine by name, WASM loaded from that build's own module. */
async function driverOf(dir: string, name: string | undefined): Promise<unknown> {
  if (name !== 'wasm') return name;
  const wasm = (await import(pathToFileURL(join(resolve(dir), 'engine/drivers/wasm.js')).href)) as {
    loadWasmDriver(options: { storage: 'memory' }): Promise<unknown>;
  };
  return wasm.loadWasmDriver({ storage: 'memory' });
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
