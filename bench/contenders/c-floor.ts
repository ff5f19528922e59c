// The C floor of the bulk insert: SQLite making the same rows itself, one INSERT … SELECT over a
// recursive CTE, with no JavaScript per row. Nothing that binds values from JavaScript can be
// faster on the same engine, so the store's bulk writes are measured against it.
import type { Contender, Session } from '../contender.js';
import { BULK_CHAPTERS_SQL } from '../data.js';
import { once } from './first-use.js';
import { rawConnect } from './raw-engines.js';

const notHere = (): never => {
  throw new Error('the C floor only does the bulk insert');
};

export const cFloor: Contender = {
  name: 'c-floor',
  kind: 'floor',
  only: ['bulk'],

  open(path): Session {
    const db = rawConnect(path);
    // Prepared on first use, inside the timed call, as every contender's statements.
    const insert = once(() => db.prepare(BULK_CHAPTERS_SQL));
    return {
      insertChapters(bookUrl, chapters) {
        const n = chapters.length;
        insert().run(n - 1, bookUrl, `${bookUrl}index.html`, bookUrl);
        return n;
      },
      replaceToc: notHere,
      upsertSources: notHere,
      shelf: notHere,
      shelfGroup: notHere,
      bookAt: notHere,
      saveProgress: notHere,
      cachePut: notHere,
      cacheGet: notHere,
      chapterAt: notHere,
      chapterList: notHere,
      close: () => db.close(),
    };
  },
};
