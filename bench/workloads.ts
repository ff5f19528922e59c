// The eight workloads: what each prepares (untimed, once, in a template file every run copies),
// what it times, how many rows that is, and what every contender's result must equal.
import { createHash } from 'node:crypto';
import { defaultDriver } from '../src/engine/drivers/index.js';
import { openStore } from '../src/index.js';
import type { Clock, Contender, MaybePromise, Session } from './contender.js';
import * as data from './data.js';

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
  /** 6: chapters of the book read. */
  chapters: number;
  /** 6: random single-chapter reads. */
  reads: number;
  /** 6: full chapter-list reads. */
  lists: number;
  /** 7: books in the store file opened. */
  openBooks: number;
  /** 8: the backup profile. */
  backupBooks: number;
  backupSources: number;
  backupRules: number;
}

export const DEFAULT_SIZES: Sizes = {
  toc: 10_000,
  sources: 5_000,
  books: 10_000,
  updates: 10_000,
  cache: 100_000,
  chapters: 10_000,
  reads: 10_000,
  lists: 10,
  openBooks: 1_000,
  backupBooks: 2_000,
  backupSources: 5_000,
  backupRules: 500,
};

/** Tiny sizes: the smoke test runs every workload and contender in a few seconds. */
export const SMOKE_SIZES: Sizes = {
  toc: 40,
  sources: 12,
  books: 40,
  updates: 25,
  cache: 60,
  chapters: 30,
  reads: 20,
  lists: 2,
  openBooks: 10,
  backupBooks: 10,
  backupSources: 12,
  backupRules: 5,
};

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
  /** What it measures, for the README and the results file. */
  readonly measures: string;
  /** False for workloads that work on files rather than an open session (open, backup). */
  readonly session: boolean;
  canRun(c: Contender): boolean;
  /** Fills a new store file (untimed, once): every run starts from a copy of it. */
  template(path: string): void;
  /** The timed work. */
  run(ctx: RunContext): MaybePromise<RunOutput>;
  /** The result check, after the run (untimed): a digest of what must be the same for everyone. */
  check(ctx: RunContext, out: RunOutput): string;
}

const BOOK = 'https://www.site0.example.com/book/toc/';
/** The user groups of the made-up shelf; the group read is the one of bit 2. */
const SHELF_GROUP = 1n << 2n;
const CACHE_T0 = 1_750_000_000_000;

/** The shelf's book and user groups (as the app has them: a book_groups row per bit). */
function fillShelf(path: string, books: readonly data.BookIn[]): void {
  const store = openStore(path);
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
  const store = openStore(path);
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
  const db = defaultDriver().open(path, { readonly: true, fileMustExist: true });
  try {
    return digest(db.prepare(`SELECT ${columns} FROM \`${table}\` ORDER BY ${orderBy}`).safeIntegers(true).all());
  } finally {
    db.close();
  }
}

export function workloads(sizes: Sizes): Workload[] {
  const lazy = <T>(make: () => T): (() => T) => {
    let v: T | undefined;
    return () => (v ??= make());
  };
  const toc = lazy(() => ({ old: data.chapters(BOOK, sizes.toc, 20), fresh: data.chapters(BOOK, sizes.toc, 21) }));
  const shelf = lazy(() => data.books(sizes.books));
  const sources = lazy(() => data.sources(sizes.sources).rows);
  const cache = lazy(() => data.cacheEntries(sizes.cache));
  const reads = lazy(() => ({ chapters: data.chapters(BOOK, sizes.chapters, 60), picks: data.chapterPicks(sizes.chapters, sizes.reads) }));
  const saves = lazy(() => data.progressSaves(shelf(), sizes.updates));
  const profile = lazy(() => ({
    books: data.books(sizes.backupBooks, 80),
    sources: data.sources(sizes.backupSources, 81).rows,
    rules: data.replaceRules(sizes.backupRules),
  }));
  const session = (ctx: RunContext): Session => ctx.session!;
  const all = () => true;

  return [
    {
      id: 1,
      key: 'toc',
      title: 'TOC refresh',
      measures: `delete a book's ${sizes.toc} chapters and insert ${sizes.toc} new ones, in one transaction`,
      session: true,
      canRun: all,
      template: (path) => fillBookWithChapters(path, toc().old),
      run: async (ctx) => ({ rows: await session(ctx).replaceToc(BOOK, toc().fresh) }),
      check: (ctx) => tableDigest(ctx.path, 'chapters', 'bookUrl, `index`'),
    },
    {
      id: 2,
      key: 'sources',
      title: 'Source import',
      measures: `upsert ${sizes.sources} book sources with real rule JSON (one transaction), then the same ${sizes.sources} again (all updates)`,
      session: true,
      canRun: all,
      template: (path) => openStore(path).close(),
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
      measures: `read all ${sizes.books} books by durChapterTime descending, then the books of one group (bit test on \`group\`)`,
      session: true,
      canRun: all,
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
      measures: `${sizes.updates} single-row updates of durChapterIndex/durChapterPos (and durChapterTime), each its own transaction`,
      session: true,
      canRun: all,
      template: (path) => fillShelf(path, shelf()),
      run: async (ctx) => ({ rows: await session(ctx).saveProgress(saves()) }),
      check: (ctx) => tableDigest(ctx.path, 'books', 'bookUrl', 'bookUrl, durChapterIndex, durChapterPos, durChapterTime'),
    },
    {
      id: 5,
      key: 'cache',
      title: 'Cache',
      measures: `${sizes.cache} puts with deadlines (each its own transaction), then ${sizes.cache} gets that honour them`,
      session: true,
      canRun: all,
      template: (path) => openStore(path).close(),
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
      title: 'Chapter reads',
      measures: `${sizes.reads} random chapters by (bookUrl, index), then ${sizes.lists} full lists of a ${sizes.chapters}-chapter book`,
      session: true,
      canRun: all,
      template: (path) => fillBookWithChapters(path, reads().chapters),
      run: async (ctx) => {
        const s = session(ctx);
        const single = await s.chapterAt(BOOK, reads().picks);
        let rows = single.length;
        let last: readonly object[] = [];
        for (let i = 0; i < sizes.lists; i++) {
          last = await s.chapterList(BOOK);
          rows += last.length;
        }
        return { rows, result: [single, last] };
      },
      check: (_ctx, out) => digest(out.result),
    },
    {
      id: 7,
      key: 'open',
      title: 'Open',
      measures: `open an existing store file (${sizes.openBooks} books) and check it fully, then close it`,
      session: false,
      canRun: (c) => c.openAndCheck !== undefined,
      template: (path) => fillShelf(path, data.books(sizes.openBooks, 70)),
      run: (ctx) => {
        ctx.contender.openAndCheck!(ctx.path);
        return { rows: 1 };
      },
      check: () => 'opened',
    },
    {
      id: 8,
      key: 'backup',
      title: 'Backup',
      measures: `export a profile of ${sizes.backupBooks} books, ${sizes.backupSources} sources and ${sizes.backupRules} replace rules to backup files, and import them into an empty store`,
      session: false,
      canRun: (c) => c.exportBackup !== undefined && c.importBackup !== undefined,
      template: (path) => {
        const p = profile();
        const store = openStore(path);
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
  ];
}
