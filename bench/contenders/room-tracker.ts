// The honest contender for "a write with a listener": hand-written code with the guarantee the
// store's onChange gives, done the way the Legado app itself gets it (androidx.room's
// InvalidationTracker): one TEMP table of marks, one row per observed table; TEMP triggers AFTER
// INSERT, UPDATE and DELETE on the observed table set its mark (Room's body: `UPDATE … SET
// invalidated = 1 WHERE table_id = ? AND invalidated = 0`, so only a table's first change in a
// transaction writes); after every transaction ends (an auto-commit statement is one), the marks
// set are read and, if any, reset, and the listener is called with the changed tables. The marks
// are written in the transaction that caused them, so a rolled-back transaction reports nothing,
// and raw SQL on the connection is seen as well as this code's own statements.
// At its fastest: the refresh's two statements prepared once (on first use, inside the timed call,
// as the store's and raw's are), the UPDATE run only when the SELECT found a mark, and no
// transaction around the refresh (Room takes one because another thread may write meanwhile;
// a single JavaScript thread has no such writer). The writes themselves are raw's (raw.ts).
import type { Contender, Session } from '../contender.js';
import type { ChapterIn, ProgressSave } from '../data.js';
import { storeListening } from './legado-store.js';
import { rawConnect, type RawRows, type RawStatement } from './raw-engines.js';
import { CHAPTER_BATCH } from './raw.js';
import { chapterInsert, inBatches, PROGRESS_UPDATE, pushChapter } from './sql.js';

export const RAW_ROOM_TRACKER = 'raw+room-tracker';

const LOG = 'room_table_modification_log';
const OPERATIONS = ['INSERT', 'UPDATE', 'DELETE'] as const;
const NOT_HERE = (): never => {
  throw new Error(`${RAW_ROOM_TRACKER} takes part in the listener workloads only`);
};

function openRoomTracker(path: string, watched: string | undefined): Session {
  const db = rawConnect(path);
  const tables = watched ? [watched] : [];
  // Before the clock, as the store's onChange subscribes before it: the marks' table and the triggers.
  db.exec(`CREATE TEMP TABLE ${LOG} (table_id INTEGER PRIMARY KEY, invalidated INTEGER NOT NULL DEFAULT 0)`);
  tables.forEach((t, id) => {
    db.exec(`INSERT OR IGNORE INTO ${LOG} VALUES (${id}, 0)`);
    for (const op of OPERATIONS)
      db.exec(
        `CREATE TEMP TRIGGER IF NOT EXISTS \`room_table_modification_trigger_${t}_${op}\` AFTER ${op} ON \`${t}\` ` +
          `BEGIN UPDATE ${LOG} SET invalidated = 1 WHERE table_id = ${id} AND invalidated = 0; END`,
      );
  });
  let heard = 0;
  const listener = (changed: ReadonlySet<string>): void => void (heard += changed.size);

  let marked: RawRows | undefined;
  let reset: RawStatement | undefined;
  /** Room's refresh: after a transaction ended, the tables marked since the last one. */
  const refresh = (): void => {
    const rows = (marked ??= db.rows(`SELECT table_id FROM ${LOG} WHERE invalidated = 1`)).all();
    if (rows.length === 0) return;
    (reset ??= db.prepare(`UPDATE ${LOG} SET invalidated = 0 WHERE invalidated = 1`)).run();
    const changed = new Set<string>();
    for (const r of rows) changed.add(tables[r[0] as number]!);
    listener(changed);
  };

  let progress: RawStatement | undefined;
  const bySize = new Map<number, RawStatement>();
  const batch = (n: number): RawStatement => {
    let s = bySize.get(n);
    if (!s) bySize.set(n, (s = db.prepare(chapterInsert(n))));
    return s;
  };
  const save = (s: ProgressSave): number =>
    Number((progress ??= db.prepare(PROGRESS_UPDATE)).run(s.durChapterIndex, s.durChapterPos, s.durChapterTime, s.bookUrl).changes);
  const saveInTransaction = db.transaction(save);
  const insertChapters = db.transaction((bookUrl: string, rows: readonly ChapterIn[]) => {
    inBatches(
      rows,
      CHAPTER_BATCH,
      (p, c) => pushChapter(p, c, bookUrl),
      (n, p) => batch(n).run(...p),
    );
    return rows.length;
  });

  /** Each save as its own transaction (auto-commit or a transaction function), Room's refresh after each. */
  const eachRefreshed = (saves: readonly ProgressSave[], write: (s: ProgressSave) => number): number => {
    let n = 0;
    for (const s of saves) {
      n += write(s);
      refresh();
    }
    return n;
  };

  return {
    saveProgress: (saves) => eachRefreshed(saves, save),
    transactionCalls: (saves) => eachRefreshed(saves, saveInTransaction),
    insertChapters(bookUrl, chapters) {
      const n = insertChapters(bookUrl, chapters);
      refresh();
      return n;
    },
    replaceToc: NOT_HERE,
    upsertSources: NOT_HERE,
    shelf: NOT_HERE,
    shelfGroup: NOT_HERE,
    cachePut: NOT_HERE,
    cacheGet: NOT_HERE,
    chapterAt: NOT_HERE,
    chapterList: NOT_HERE,
    bookAt: NOT_HERE,
    close() {
      db.close();
      // As the store's listener contender: a listener that heard nothing makes the ratio meaningless.
      if (watched && heard === 0) throw new Error(`${RAW_ROOM_TRACKER}: the listener on ${watched} heard nothing`);
    },
  };
}

/** raw's statements with Room's tracker on the written table: store+listener is judged against it. */
export const rawRoomTracker: Contender = {
  name: RAW_ROOM_TRACKER,
  kind: 'hand-listener',
  // The store contender it is the hand-written form of: one listener on the table the workload writes.
  twin: storeListening.name,
  only: ['bulk', 'progress', 'transaction'],
  open: (path, _clock, purpose) => openRoomTracker(path, purpose?.writes),
};
