// legado-store, through its public API only: the domain operations where the app has one
// (replaceToc, shelf, books.get, updateProgress, cache, chapters), the typed tables otherwise.
// The listener contenders are the same store with one onChange listener subscribed before the
// clock starts: on the table the workload writes, or on another one.
import { BookshelfSort, exportBackup, importBackup, openStore } from '../../src/index.js';
import type { Contender, Session, SessionPurpose } from '../contender.js';
import { benchEngine } from '../engine.js';

/** onChange on a table named at run time (the store's own type wants a literal name). */
type Listenable = { onChange(table: string, listener: () => void): () => void };

const lastRead = { sort: BookshelfSort.lastRead } as const;
/** Whatever a workload writes, a listener on this table sees nothing of it. */
const OTHER_TABLE = { chapters: 'rssStars', books: 'rssStars' } as Record<string, string>;

const open = (path: string, clock?: { now: number }, create = true) =>
  openStore(path, { driver: benchEngine().driver, schema: 62, create, ...(clock && { clock: () => clock.now }) });

function session(path: string, clock: { now: number }, listen?: (purpose: SessionPurpose) => string | undefined, purpose: SessionPurpose = {}): Session {
  const store = open(path, clock);
  const watched = listen?.(purpose);
  let heard = 0;
  if (watched) (store as unknown as Listenable).onChange(watched, () => void heard++);
  return {
    replaceToc: (bookUrl, chapters) => store.chapters.replaceToc(bookUrl, chapters),
    insertChapters: (_bookUrl, chapters) => store.tables.chapters.insertMany(chapters),
    upsertSources: (rows) => store.tables.book_sources.upsertMany(rows),
    shelf: () => store.books.shelf(-1n, lastRead),
    shelfGroup: (groupId) => store.books.shelf(groupId, lastRead),
    bookAt: (urls) => urls.map((u) => store.books.get(u)),
    saveProgress(saves) {
      let n = 0;
      for (const s of saves) if (store.books.updateProgress(s.bookUrl, s)) n++;
      return n;
    },
    cachePut(entries) {
      for (const e of entries) store.cache.put(e.key, e.value, e.ttl);
      return entries.length;
    },
    transactionCalls(saves) {
      let n = 0;
      for (const s of saves) if (store.transaction(() => store.books.updateProgress(s.bookUrl, s))) n++;
      return n;
    },
    cacheGet: (keys) => keys.map((k) => store.cache.get(k)),
    chapterAt: (bookUrl, indexes) => indexes.map((i) => store.chapters.get(bookUrl, i)),
    chapterList: (bookUrl) => store.chapters.list(bookUrl),
    close: () => {
      store.close();
      // A listener on the written table must have heard the writes (else the ratio means nothing).
      if (watched && watched === purpose.writes && heard === 0) throw new Error(`the listener on ${watched} heard nothing`);
    },
  };
}

export const legadoStore: Contender = {
  name: 'legado-store',
  kind: 'store',

  open: (path, clock) => session(path, clock),

  openAndCheck(path: string): void {
    open(path, undefined, false).close();
  },

  async exportBackup(path, dir, tables = ['books', 'book_sources', 'replace_rules']) {
    const store = open(path, undefined, false);
    try {
      const result = await exportBackup(store, dir, { tables: [...tables] });
      return result.files.reduce((n, f) => n + f.rows, 0);
    } finally {
      store.close();
    }
  },

  async importBackup(path, dir) {
    const store = open(path);
    try {
      const result = await importBackup(store, dir);
      return result.totals.stored;
    } finally {
      store.close();
    }
  },
};

/** The writes a listener slows down: the bulk insert, the single-row progress saves, and those in transaction calls. */
const LISTENED = ['bulk', 'progress', 'transaction'];

export const storeListening: Contender = {
  name: 'store+listener',
  kind: 'listener',
  only: LISTENED,
  open: (path, clock, purpose) => session(path, clock, (p) => p.writes, purpose),
};

export const storeListeningElsewhere: Contender = {
  name: 'store+other-listener',
  kind: 'listener',
  only: LISTENED,
  open: (path, clock, purpose) => session(path, clock, (p) => (p.writes ? OTHER_TABLE[p.writes] : undefined), purpose),
};
