// legado-store, through its public API only: the domain operations where the app has one
// (replaceToc, shelf, updateProgress, cache, chapters), the typed tables otherwise.
import { BookshelfSort, exportBackup, importBackup, openStore } from '../../src/index.js';
import type { Clock, Contender, Session } from '../contender.js';

const lastRead = { sort: BookshelfSort.lastRead } as const;

export const legadoStore: Contender = {
  name: 'legado-store',

  open(path: string, clock: Clock): Session {
    const store = openStore(path, { clock: () => clock.now });
    return {
      replaceToc: (bookUrl, chapters) => store.chapters.replaceToc(bookUrl, chapters),
      upsertSources: (rows) => store.tables.book_sources.upsertMany(rows),
      shelf: () => store.books.shelf(-1n, lastRead),
      shelfGroup: (groupId) => store.books.shelf(groupId, lastRead),
      saveProgress(saves) {
        let n = 0;
        for (const s of saves) if (store.books.updateProgress(s.bookUrl, s)) n++;
        return n;
      },
      cachePut(entries) {
        for (const e of entries) store.cache.put(e.key, e.value, e.ttl);
        return entries.length;
      },
      cacheGet: (keys) => keys.map((k) => store.cache.get(k)),
      chapterAt: (bookUrl, indexes) => indexes.map((i) => store.chapters.get(bookUrl, i)),
      chapterList: (bookUrl) => store.chapters.list(bookUrl),
      close: () => store.close(),
    };
  },

  openAndCheck(path: string): void {
    openStore(path, { create: false }).close();
  },

  async exportBackup(path: string, dir: string): Promise<number> {
    const store = openStore(path, { create: false });
    try {
      const result = await exportBackup(store, dir, { tables: ['books', 'book_sources', 'replace_rules'] });
      return result.files.reduce((n, f) => n + f.rows, 0);
    } finally {
      store.close();
    }
  },

  async importBackup(path: string, dir: string): Promise<number> {
    const store = openStore(path);
    try {
      const result = await importBackup(store, dir);
      return result.totals.stored;
    } finally {
      store.close();
    }
  },
};
