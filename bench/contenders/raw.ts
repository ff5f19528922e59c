// The fastest hand-written code we know for each workload, on the benchmark's engine
// (raw-engines.ts), written the way the engines' documentation recommends for speed: every
// statement prepared once per connection and reused (on first use, as the store's: see
// openRaw), each transaction function made once, rows read as arrays (better-sqlite3 `.raw()`,
// node:sqlite `setReturnArrays`, Bun `values()`) and turned into the store's objects by an
// object literal, and bulk inserts as multi-row `INSERT … VALUES (…), (…)` statements (one
// prepared statement per batch size).
import type { Clock, Contender, Session } from '../contender.js';
import type { ChapterIn, ProgressSave, SourceIn } from '../data.js';
import { once } from './first-use.js';
import { openAndCheckByHand, rawNaive } from './raw-naive.js';
import { rawConnect, type RawDb, type RawStatement } from './raw-engines.js';
import {
  BOOK_SELECT,
  bookFromArray,
  CACHE_GET,
  CACHE_PUT,
  CHAPTER_COLUMNS,
  chapterFromArray,
  chapterInsert,
  inBatches,
  PROGRESS_UPDATE,
  pushChapter,
  sourceParams,
  sourceUpsert,
} from './sql.js';

/** Rows per multi-row statement: measured (bench/README.md), well under every engine's variable limit. */
export const CHAPTER_BATCH = 128;
export const SOURCE_BATCH = 1;

/** A statement per batch size, prepared on first use. */
function sized(db: RawDb, sql: (n: number) => string): (n: number) => RawStatement {
  const bySize = new Map<number, RawStatement>();
  return (n) => {
    let s = bySize.get(n);
    if (!s) bySize.set(n, (s = db.prepare(sql(n))));
    return s;
  };
}

/**
 * The control: raw's own code (the same functions, so the same optimised machine code) as a
 * second contender. Its ratio to the fastest hand-written contender is what the store's target
 * asks of code that does exactly what the hand-written code does (ratios.ts, controlOf).
 */
export const RAW_AGAIN = 'raw-again';

/**
 * The second hand-written contender of the transaction call: raw's code with each transaction
 * begun IMMEDIATE, as `store.transaction` begins (the write lock first), so the store is also
 * judged against the same guarantee written by hand at its fastest.
 */
export const RAW_IMMEDIATE = 'raw-immediate';

export const raw: Contender = {
  name: 'raw',
  kind: 'hand',
  open: (path, clock) => openRaw(path, clock, false),
  openAndCheck: openAndCheckByHand,
  // Whole files: JSON.parse and JSON.stringify are as fast as reading and writing JSON gets by hand.
  exportBackup: rawNaive.exportBackup!,
  importBackup: rawNaive.importBackup!,
};

export const rawAgain: Contender = { ...raw, name: RAW_AGAIN, kind: 'control', twin: raw.name };

export const rawImmediate: Contender = { name: RAW_IMMEDIATE, kind: 'hand', only: ['transaction'], open: (path, clock) => openRaw(path, clock, true) };

/**
 * raw's session; `immediate`: its transaction calls begin IMMEDIATE. Every statement and
 * transaction function is made on first use (`once`), inside the timed call that first needs
 * it, as the store prepares its own: the harness opens sessions before the clock starts, so
 * preparing here in `open` would leave raw's first use untimed and the store's timed.
 */
function openRaw(path: string, clock: Clock, immediate: boolean): Session {
  return rawSession(rawConnect(path), clock, immediate);
}

/** raw's session on a connection made for it (openRaw) or on a store's (raw-on-store.ts). */
export function rawSession(db: RawDb, clock: Clock, immediate: boolean): Session {
  const chapterBatch = sized(db, chapterInsert);
  const sourceBatch = sized(db, sourceUpsert);
  const del = once(() => db.prepare('DELETE FROM chapters WHERE bookUrl = ?'));
  const progress = once(() => db.prepare(PROGRESS_UPDATE));
  const put = once(() => db.prepare(CACHE_PUT));
  const get = once(() => db.rows(CACHE_GET));
  const shelf = once(() => db.rows(`SELECT ${BOOK_SELECT} FROM books ORDER BY durChapterTime DESC`));
  const shelfGroup = once(() => db.rows(`SELECT ${BOOK_SELECT} FROM books WHERE (\`group\` & ?) != 0 ORDER BY durChapterTime DESC`));
  const book = once(() => db.rows(`SELECT ${BOOK_SELECT} FROM books WHERE bookUrl = ?`));
  const chapter = once(() => db.rows(`SELECT ${CHAPTER_COLUMNS} FROM chapters WHERE bookUrl = ? AND \`index\` = ?`));
  const chapters = once(() => db.rows(`SELECT ${CHAPTER_COLUMNS} FROM chapters WHERE bookUrl = ? ORDER BY \`index\``));

  const insertAll = (bookUrl: string, rows: readonly ChapterIn[]): void =>
    inBatches(
      rows,
      CHAPTER_BATCH,
      (p, c) => pushChapter(p, c, bookUrl),
      (n, p) => chapterBatch(n).run(...p),
    );
  const replaceToc = once(() =>
    db.transaction((bookUrl: string, rows: readonly ChapterIn[]) => {
      del().run(bookUrl);
      insertAll(bookUrl, rows);
      return rows.length;
    }),
  );
  const insertChapters = once(() =>
    db.transaction((bookUrl: string, rows: readonly ChapterIn[]) => {
      insertAll(bookUrl, rows);
      return rows.length;
    }),
  );
  const saveInTransaction = once(() => {
    const update = progress();
    return db.transaction((s: ProgressSave) => Number(update.run(s.durChapterIndex, s.durChapterPos, s.durChapterTime, s.bookUrl).changes), immediate);
  });
  const upsertSources = once(() =>
    db.transaction((rows: readonly SourceIn[]) => {
      inBatches(
        rows,
        SOURCE_BATCH,
        (p, s) => p.push(...sourceParams(s)),
        (n, p) => sourceBatch(n).run(...p),
      );
      return rows.length;
    }),
  );

  return {
    replaceToc: (bookUrl, rows) => replaceToc()(bookUrl, rows),
    insertChapters: (bookUrl, rows) => insertChapters()(bookUrl, rows),
    upsertSources: (rows) => upsertSources()(rows),
    shelf: () => shelf().all().map(bookFromArray),
    shelfGroup: (groupId) => shelfGroup().all(groupId).map(bookFromArray),
    bookAt(urls) {
      const s = book();
      return urls.map((u) => {
        const r = s.get(u);
        return r && bookFromArray(r);
      });
    },
    saveProgress(saves) {
      const update = progress();
      let n = 0;
      for (const s of saves) n += Number(update.run(s.durChapterIndex, s.durChapterPos, s.durChapterTime, s.bookUrl).changes);
      return n;
    },
    transactionCalls(saves) {
      const save = saveInTransaction();
      let n = 0;
      for (const s of saves) n += save(s);
      return n;
    },
    cachePut(entries) {
      const s = put();
      const now = clock.now;
      for (const e of entries) s.run(e.key, e.value, e.ttl === 0 ? 0 : now + Math.round(e.ttl * 1000));
      return entries.length;
    },
    cacheGet(keys) {
      const s = get();
      const now = clock.now;
      return keys.map((k) => s.get(k, now)?.[0] as string | null | undefined);
    },
    chapterAt(bookUrl, indexes) {
      const s = chapter();
      return indexes.map((i) => {
        const r = s.get(bookUrl, i);
        return r && chapterFromArray(r);
      });
    },
    chapterList: (bookUrl) => chapters().all(bookUrl).map(chapterFromArray),
    close: () => db.close(),
  };
}
