// The workloads: what each prepares (untimed, once, in a template file every run copies), what
// it times, how many rows that is, and what every contender's result must equal. The write and
// read workloads come in tiers (sizes ×1, ×10, ×100), so a cost per row that grows shows.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../src/index.js';
import type { Clock, Contender, MaybePromise, Session } from './contender.js';
import { toJson, SOURCE_JSON, writeJson } from './contenders/backup-json.js';
import * as data from './data.js';
import { RAW_IMMEDIATE } from './contenders/raw.js';
import { benchEngine } from './engine.js';

export interface Sizes {
  /** 1: chapters of the refreshed table of contents (and of the one it replaces). */
  toc: number;
  /** 2: book sources upserted, twice. */
  sources: number;
  /** 3 and 4: books on the shelf. */
  books: number;
  /** 4: progress saves. */
  updates: number;
  /** 5: cache puts, then as many gets. */
  cache: number;
  /** 6: chapters of the book listed. */
  chapters: number;
  /** 6: full chapter-list reads. */
  lists: number;
  /** 7, 8: single-row reads (the same count at every tier: the table grows, the work per read should not). */
  pointReads: number;
  /** 7: chapters of the book read one by one. */
  readChapters: number;
  /** 8: books on the shelf read one by one. */
  readBooks: number;
  /** 9: chapters inserted in one transaction. */
  bulk: number;
  /** 10: books in the store file opened. */
  openBooks: number;
  /** 11: the backup profile. */
  backupBooks: number;
  backupSources: number;
  backupRules: number;
  /** 12, 13: book sources in the imported file, and in the exported store. */
  sourceFile: number;
}

/** The sizes that scale with the tier (every write and read workload); the others stay as given. */
const SCALED: readonly (keyof Sizes)[] = ['toc', 'sources', 'books', 'updates', 'cache', 'chapters', 'readChapters', 'readBooks', 'bulk', 'sourceFile'];

/** Tier 1 sizes; tiers 10 and 100 multiply the scaled ones (so 10k / 100k / 1M chapters). */
export const DEFAULT_SIZES: Sizes = {
  toc: 10_000,
  sources: 1_000,
  books: 1_000,
  updates: 1_000,
  cache: 1_000,
  chapters: 10_000,
  lists: 2,
  pointReads: 10_000,
  readChapters: 10_000,
  readBooks: 10_000,
  bulk: 10_000,
  openBooks: 1_000,
  backupBooks: 1_000,
  backupSources: 2_000,
  backupRules: 200,
  sourceFile: 1_000,
};

/** Tiny sizes: the smoke test runs every workload and contender in a few seconds. */
export const SMOKE_SIZES: Sizes = {
  toc: 40,
  sources: 12,
  books: 40,
  updates: 25,
  cache: 60,
  chapters: 30,
  lists: 2,
  pointReads: 20,
  readChapters: 30,
  readBooks: 20,
  bulk: 50,
  openBooks: 10,
  backupBooks: 10,
  backupSources: 12,
  backupRules: 5,
  sourceFile: 15,
};

/** The sizes of a tier. */
export function tierSizes(sizes: Sizes, tier: number): Sizes {
  const out = { ...sizes };
  for (const k of SCALED) out[k] = sizes[k] * tier;
  return out;
}

/** Where one timed run happens: its own copy of the template, and a scratch folder. */
export interface RunContext {
  readonly contender: Contender;
  /** The run's store file, a fresh copy of the workload's template. */
  readonly path: string;
  /** A second fresh store file (empty), for workloads that write into another store. */
  readonly emptyPath: string;
  /** An empty scratch folder of this run. */
  readonly scratch: string;
  readonly clock: Clock;
  /** Open on `path` for workloads that use one (opened before the clock starts). */
  readonly session?: Session;
}

export interface RunOutput {
  /** Rows written plus rows read. */
  readonly rows: number;
  /** What was read, for the check. */
  readonly result?: unknown;
}

export interface Workload {
  readonly id: number;
  readonly key: string;
  readonly title: string;
  /** The size multiplier of this instance (1, 10, 100); 1 for workloads that do not scale. */
  readonly tier: number;
  /** Whether the workload comes in tiers. */
  readonly scales: boolean;
  /** What it measures, for the README and the results file. */
  readonly measures: string;
  /** False for workloads that work on files rather than an open session (open, backup). */
  readonly session: boolean;
  /** The table the timed work writes (listener contenders watch it, or another). */
  readonly writes?: string;
  /** Bytes of the input file the workload reads (the import's memory target is below it). */
  inputBytes?(): number;
  canRun(c: Contender): boolean;
  /** Fills a new store file (untimed, once): every run starts from a copy of it. `dir` is the harness's scratch root. */
  template(path: string, dir: string): void;
  /** The timed work. */
  run(ctx: RunContext): MaybePromise<RunOutput>;
  /** The result check, after the run (untimed): a digest of what must be the same for everyone. */
  check(ctx: RunContext, out: RunOutput): string;
}

const BOOK = 'https://www.site0.example.com/book/toc/';
/** The user groups of the made-up shelf; the group read is the one of bit 2. */
const SHELF_GROUP = 1n << 2n;
const CACHE_T0 = 1_750_000_000_000;

const open = (path: string) => openStore(path, { driver: benchEngine().driver, schema: 62 });

/** The shelf's book and user groups (as the app has them: a book_groups row per bit). */
function fillShelf(path: string, books: readonly data.BookIn[]): void {
  const store = open(path);
  try {
    store.transaction(() => {
      for (let bit = 0; bit < data.GROUP_BITS; bit++) store.bookGroups.create(`分组${bit}`);
      store.tables.books.insertMany(books);
    });
  } finally {
    store.close();
  }
}

function fillBookWithChapters(path: string, chapters: readonly data.ChapterIn[]): void {
  const store = open(path);
  try {
    store.transaction(() => {
      store.tables.books.insert({ bookUrl: BOOK, name: '目录测试', author: '作者', origin: 'https://www.site0.example.com' });
      store.tables.chapters.insertMany(chapters);
    });
  } finally {
    store.close();
  }
}

/** A digest of values, the same whatever JS types a contender returns them as (0/1 or booleans, bigint or number). */
export function digest(value: unknown): string {
  const h = createHash('sha1');
  const walk = (v: unknown): void => {
    if (v === null || v === undefined) h.update('~');
    else if (typeof v === 'boolean') h.update(v ? '1' : '0');
    else if (typeof v === 'number' || typeof v === 'bigint') h.update(String(v));
    else if (typeof v === 'string') h.update(JSON.stringify(v));
    else if (Array.isArray(v)) {
      h.update('[');
      for (const x of v) {
        walk(x);
        h.update(',');
      }
      h.update(']');
    } else {
      const o = v as Record<string, unknown>;
      h.update('{');
      for (const k of Object.keys(o).sort()) {
        h.update(k);
        h.update(':');
        walk(o[k]);
        h.update(',');
      }
      h.update('}');
    }
  };
  walk(value);
  return h.digest('hex').slice(0, 16);
}

/** A digest of what a table holds, read exactly (64-bit integers as bigints), in key order. */
export function tableDigest(path: string, table: string, orderBy: string, columns = '*'): string {
  const db = benchEngine().driver.open(path, { readonly: true, fileMustExist: true });
  try {
    return digest(db.prepare(`SELECT ${columns} FROM \`${table}\` ORDER BY ${orderBy}`).safeIntegers(true).all());
  } finally {
    db.close();
  }
}

/** Per lazy value: whether it holds one, and how to drop it (releaseData, heldData). */
const lazies: { held(): boolean; drop(): void }[] = [];

/** A value made on first use (in a warm-up run or a template, never in a timed run) and kept until releaseData. */
const lazy = <T>(make: () => T): (() => T) => {
  let v: T | undefined;
  lazies.push({ held: () => v !== undefined, drop: () => (v = undefined) });
  return () => (v ??= make());
};

/**
 * Drops the workloads' data (made again on next use). The harness calls it after each
 * workload: the ×10 tiers' rows (hundreds of MB of objects) otherwise stay on the heap through
 * every later workload, whose runs then pay for collecting a heap that is the benchmark's, not
 * the contender's (the ×1 bookshelf took 17 ms instead of 8 ms, for every contender alike).
 */
export function releaseData(): void {
  for (const l of lazies) l.drop();
}

/** How many workload values are held now (0 after releaseData). */
export function heldData(): number {
  return lazies.filter((l) => l.held()).length;
}

/** Every workload at every tier (the ones that do not scale once), in the order they run. */
export function workloads(base: Sizes, tiers: readonly number[] = [1]): Workload[] {
  const all: Workload[][] = tiers.map((t) => tierWorkloads(tierSizes(base, t), t));
  const out: Workload[] = [];
  for (let i = 0; i < all[0]!.length; i++) {
    for (let t = 0; t < tiers.length; t++) {
      const w = all[t]![i]!;
      if (w.scales || t === 0) out.push(w);
    }
  }
  return out;
}

function tierWorkloads(sizes: Sizes, tier: number): Workload[] {
  const toc = lazy(() => ({ old: data.chapters(BOOK, sizes.toc, 20), fresh: data.chapters(BOOK, sizes.toc, 21) }));
  const shelf = lazy(() => data.books(sizes.books));
  const sources = lazy(() => data.sources(sizes.sources).rows);
  const cache = lazy(() => data.cacheEntries(sizes.cache));
  const listed = lazy(() => data.chapters(BOOK, sizes.chapters, 60));
  const reads = lazy(() => ({ chapters: data.chapters(BOOK, sizes.readChapters, 61), picks: data.chapterPicks(sizes.readChapters, sizes.pointReads) }));
  const bookReads = lazy(() => {
    const books = data.books(sizes.readBooks, 62);
    const r = data.random(63);
    // One url in twenty is not on the shelf.
    const urls = Array.from({ length: sizes.pointReads }, (_, i) =>
      i % 20 === 19 ? `https://missing.example.com/${i}` : books[Math.floor(r() * books.length)]!.bookUrl,
    );
    return { books, urls };
  });
  const saves = lazy(() => data.progressSaves(shelf(), sizes.updates));
  const bulk = lazy(() => data.bulkChapters(BOOK, sizes.bulk));
  const profile = lazy(() => ({
    books: data.books(sizes.backupBooks, 80),
    sources: data.sources(sizes.backupSources, 81).rows,
    rules: data.replaceRules(sizes.backupRules),
  }));
  const fileSources = lazy(() => data.sources(sizes.sourceFile, 90).rows);
  let importDir = '';
  let importBytes = 0;
  const session = (ctx: RunContext): Session => ctx.session!;
  const has = (c: Contender, key: string) => !c.only || c.only.includes(key);
  const hand = (key: string) => (c: Contender) => c.kind !== 'floor' && c.kind !== 'listener' && has(c, key);
  const scaled = { tier, scales: true } as const;
  const once = { tier: 1, scales: false } as const;
  const n = (x: number) => x.toLocaleString('en-US');

  return [
    {
      id: 1,
      key: 'toc',
      title: 'TOC refresh',
      ...scaled,
      measures: `delete a book's ${n(sizes.toc)} chapters and insert ${n(sizes.toc)} new ones, in one transaction`,
      session: true,
      writes: 'chapters',
      canRun: hand('toc'),
      template: (path) => fillBookWithChapters(path, toc().old),
      run: async (ctx) => ({ rows: await session(ctx).replaceToc(BOOK, toc().fresh) }),
      check: (ctx) => tableDigest(ctx.path, 'chapters', 'bookUrl, `index`'),
    },
    {
      id: 2,
      key: 'sources',
      title: 'Source upsert',
      ...scaled,
      measures: `upsert ${n(sizes.sources)} book sources with real rule JSON (one transaction), then the same ${n(sizes.sources)} again (all updates)`,
      session: true,
      writes: 'book_sources',
      canRun: hand('sources'),
      template: (path) => open(path).close(),
      run: async (ctx) => {
        const s = session(ctx);
        const first = await s.upsertSources(sources());
        return { rows: first + (await s.upsertSources(sources())) };
      },
      check: (ctx) => tableDigest(ctx.path, 'book_sources', 'bookSourceUrl'),
    },
    {
      id: 3,
      key: 'shelf',
      title: 'Bookshelf',
      ...scaled,
      measures: `read all ${n(sizes.books)} books by durChapterTime descending, then the books of one group (bit test on \`group\`)`,
      session: true,
      canRun: hand('shelf'),
      template: (path) => fillShelf(path, shelf()),
      run: async (ctx) => {
        const s = session(ctx);
        const everything = await s.shelf();
        const group = await s.shelfGroup(SHELF_GROUP);
        return { rows: everything.length + group.length, result: [everything, group] };
      },
      check: (_ctx, out) => digest(out.result),
    },
    {
      id: 4,
      key: 'progress',
      title: 'Reading progress',
      ...scaled,
      measures: `${n(sizes.updates)} single-row updates of durChapterIndex/durChapterPos (and durChapterTime) on a shelf of ${n(sizes.books)}, each its own transaction`,
      session: true,
      writes: 'books',
      canRun: (c) => c.kind !== 'floor' && has(c, 'progress'),
      template: (path) => fillShelf(path, shelf()),
      run: async (ctx) => ({ rows: await session(ctx).saveProgress(saves()) }),
      check: (ctx) => tableDigest(ctx.path, 'books', 'bookUrl', 'bookUrl, durChapterIndex, durChapterPos, durChapterTime'),
    },
    {
      id: 14,
      key: 'transaction',
      title: 'Transaction call',
      ...scaled,
      measures: `${n(sizes.updates)} calls of store.transaction(fn) (raw: a transaction function made once), each around one progress update`,
      session: true,
      writes: 'books',
      // Of the hand-written code only the fastest (and raw-immediate): the call is what is measured.
      // Every other kind runs (the store, the listeners, the control, a probe), the C floor has no session.
      canRun: (c) => (c.kind === 'hand' ? c.name === 'raw' || c.name === RAW_IMMEDIATE : c.kind !== 'floor') && has(c, 'transaction'),
      template: (path) => fillShelf(path, shelf()),
      run: async (ctx) => ({ rows: await session(ctx).transactionCalls!(saves()) }),
      check: (ctx) => tableDigest(ctx.path, 'books', 'bookUrl', 'bookUrl, durChapterIndex, durChapterPos, durChapterTime'),
    },
    {
      id: 5,
      key: 'cache',
      title: 'Cache',
      ...scaled,
      measures: `${n(sizes.cache)} puts with deadlines (each its own transaction), then ${n(sizes.cache)} gets that honour them`,
      session: true,
      writes: 'caches',
      canRun: hand('cache'),
      template: (path) => open(path).close(),
      run: async (ctx) => {
        const s = session(ctx);
        const { entries, reads: keys } = cache();
        ctx.clock.now = CACHE_T0;
        await s.cachePut(entries);
        ctx.clock.now = CACHE_T0 + data.CACHE_READ_AFTER_S * 1000;
        const values = await s.cacheGet(keys);
        return { rows: entries.length + keys.length, result: values };
      },
      check: (ctx, out) => `${digest(out.result)}/${tableDigest(ctx.path, 'caches', 'key')}`,
    },
    {
      id: 6,
      key: 'chapters',
      title: 'Chapter list',
      ...scaled,
      measures: `${sizes.lists} full lists of a ${n(sizes.chapters)}-chapter book, by index`,
      session: true,
      canRun: hand('chapters'),
      template: (path) => fillBookWithChapters(path, listed()),
      run: async (ctx) => {
        const s = session(ctx);
        let rows = 0;
        let last: readonly object[] = [];
        for (let i = 0; i < sizes.lists; i++) {
          last = await s.chapterList(BOOK);
          rows += last.length;
        }
        return { rows, result: last };
      },
      check: (_ctx, out) => digest(out.result),
    },
    {
      id: 7,
      key: 'chapter-get',
      title: 'Chapter by index',
      ...scaled,
      measures: `${n(sizes.pointReads)} random chapters of a ${n(sizes.readChapters)}-chapter book, one by one by (bookUrl, index)`,
      session: true,
      canRun: hand('chapter-get'),
      template: (path) => fillBookWithChapters(path, reads().chapters),
      run: async (ctx) => {
        const got = await session(ctx).chapterAt(BOOK, reads().picks);
        return { rows: got.length, result: got };
      },
      check: (_ctx, out) => digest(out.result),
    },
    {
      id: 8,
      key: 'book-get',
      title: 'Book by url',
      ...scaled,
      measures: `${n(sizes.pointReads)} random books of a ${n(sizes.readBooks)}-book shelf, one by one by url (one in twenty missing)`,
      session: true,
      canRun: hand('book-get'),
      template: (path) => fillShelf(path, bookReads().books),
      run: async (ctx) => {
        const got = await session(ctx).bookAt(bookReads().urls);
        return { rows: got.length, result: got };
      },
      check: (_ctx, out) => digest(out.result),
    },
    {
      id: 9,
      key: 'bulk',
      title: 'Bulk insert',
      ...scaled,
      measures: `insert ${n(sizes.bulk)} chapters of one book in one transaction (\`insertMany\`); the C floor makes the same rows with one INSERT … SELECT`,
      session: true,
      writes: 'chapters',
      canRun: (c) => has(c, 'bulk'),
      template: (path) => fillBookWithChapters(path, []),
      run: async (ctx) => ({ rows: await session(ctx).insertChapters(BOOK, bulk()) }),
      check: (ctx) => tableDigest(ctx.path, 'chapters', 'bookUrl, `index`'),
    },
    {
      id: 10,
      key: 'open',
      title: 'Open',
      ...once,
      measures: `open an existing store file (${n(sizes.openBooks)} books) and check it fully, then close it`,
      session: false,
      canRun: (c) => c.openAndCheck !== undefined && has(c, 'open'),
      template: (path) => fillShelf(path, data.books(sizes.openBooks, 70)),
      run: (ctx) => {
        ctx.contender.openAndCheck!(ctx.path);
        return { rows: 1 };
      },
      check: () => 'opened',
    },
    {
      id: 11,
      key: 'backup',
      title: 'Backup',
      ...once,
      measures: `export a profile of ${n(sizes.backupBooks)} books, ${n(sizes.backupSources)} sources and ${n(sizes.backupRules)} replace rules to backup files, and import them into an empty store`,
      session: false,
      canRun: (c) => c.exportBackup !== undefined && c.importBackup !== undefined && has(c, 'backup'),
      template: (path) => {
        const p = profile();
        const store = open(path);
        try {
          store.transaction(() => {
            store.tables.books.insertMany(p.books);
            store.tables.book_sources.insertMany(p.sources);
            store.tables.replace_rules.insertMany(p.rules);
          });
        } finally {
          store.close();
        }
      },
      run: async (ctx) => {
        const dir = `${ctx.scratch}/backup`;
        const written = await ctx.contender.exportBackup!(ctx.path, dir);
        const read = await ctx.contender.importBackup!(ctx.emptyPath, dir);
        return { rows: written + read };
      },
      check: (ctx) =>
        [
          tableDigest(ctx.emptyPath, 'books', 'bookUrl'),
          tableDigest(ctx.emptyPath, 'book_sources', 'bookSourceUrl'),
          tableDigest(ctx.emptyPath, 'replace_rules', 'id'),
        ].join('/'),
    },
    {
      id: 12,
      key: 'import',
      title: 'Source file import',
      ...scaled,
      measures: `import a bookSource.json of ${n(sizes.sourceFile)} book sources (the app's export format) into an empty store`,
      session: false,
      writes: 'book_sources',
      inputBytes: () => importBytes,
      canRun: (c) => c.importBackup !== undefined && hand('import')(c),
      template: (path, dir) => {
        importDir = join(dir, `import-${tier}`);
        mkdirSync(importDir, { recursive: true });
        writeJson(join(importDir, 'bookSource.json'), fileSources() as unknown as Record<string, unknown>[], SOURCE_JSON);
        importBytes = statSync(join(importDir, 'bookSource.json')).size;
        open(path).close();
      },
      run: async (ctx) => ({ rows: await ctx.contender.importBackup!(ctx.path, importDir) }),
      check: (ctx) => tableDigest(ctx.path, 'book_sources', 'bookSourceUrl'),
    },
    {
      id: 13,
      key: 'export',
      title: 'Source file export',
      ...scaled,
      measures: `export the ${n(sizes.sourceFile)} book sources of a store to a bookSource.json`,
      session: false,
      canRun: (c) => c.exportBackup !== undefined && hand('export')(c),
      template: (path) => {
        const store = open(path);
        try {
          store.tables.book_sources.insertMany(fileSources());
        } finally {
          store.close();
        }
      },
      run: async (ctx) => ({ rows: await ctx.contender.exportBackup!(ctx.path, `${ctx.scratch}/export`, ['book_sources']) }),
      // The records written, as the app would read them back (key order and layout aside).
      check: (ctx) => digest((JSON.parse(readFileSync(`${ctx.scratch}/export/bookSource.json`, 'utf8')) as object[]).map(normalSource)),
    },
  ];
}

/** A source record as JSON.parse reads it, with the fields the app reads the same when left out or null. */
function normalSource(o: object): object {
  return toJson(o as Record<string, unknown>, { booleans: [], objects: [] });
}
