// The naive hand-written baseline: what a first version written by hand looks like on the
// benchmark's engine (raw-engines.ts): rows read as objects and mapped in JS to the store's
// values, one statement per row, statements prepared on first use and looked up by their SQL,
// a transaction wrapper made per call. Its open only reads `user_version` and the identity
// hash; its backup is JSON.stringify/JSON.parse of whole files.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BackupTable, Contender, Session } from '../contender.js';
import type { BookIn, ReplaceRuleIn, SourceIn } from '../data.js';
import { BACKUP_FILES, BOOK_JSON, fromJson, readJson, RULE_JSON, SOURCE_JSON, writeJson } from './backup-json.js';
import { rawConnect, type RawDb, type RawStatement } from './raw-engines.js';
import {
  BOOK_SELECT,
  BOOK_UPSERT,
  bookParams,
  bookRow,
  CACHE_GET,
  CACHE_PUT,
  CHAPTER_COLUMNS,
  chapterInsert,
  chapterParams,
  chapterRow,
  PROGRESS_UPDATE,
  RULE_UPSERT,
  ruleParams,
  SOURCE_UPSERT,
  sourceParams,
  type Obj,
} from './sql.js';

/** Statements prepared on first use, once per connection. */
function statements(db: RawDb) {
  const cache = new Map<string, RawStatement>();
  return (sql: string): RawStatement => {
    let s = cache.get(sql);
    if (!s) cache.set(sql, (s = db.prepare(sql)));
    return s;
  };
}

/** What a hand-written app checks before using a file: the version and Room's identity hash. */
export function openAndCheckByHand(path: string): void {
  const db = rawConnect(path);
  try {
    const version = db.userVersion();
    const hash = db.rows('SELECT identity_hash FROM room_master_table WHERE id = 42').get()?.[0];
    if (Number(version) !== 62 || hash !== '965c5f1d4c60d25b4b46efb17c575c85') throw new Error(`not a schema-62 store: ${String(version)} ${String(hash)}`);
  } finally {
    db.close();
  }
}

export const rawNaive: Contender = {
  name: 'raw-naive',
  kind: 'hand',

  open(path, clock): Session {
    const db = rawConnect(path);
    const st = statements(db);
    const insertChapter = chapterInsert(1);
    return {
      replaceToc(bookUrl, chapters) {
        const del = st('DELETE FROM chapters WHERE bookUrl = ?');
        const ins = st(insertChapter);
        return db.transaction(() => {
          del.run(bookUrl);
          for (const c of chapters) ins.run(...chapterParams(c, bookUrl));
          return chapters.length;
        })();
      },
      insertChapters(bookUrl, chapters) {
        const ins = st(insertChapter);
        return db.transaction(() => {
          for (const c of chapters) ins.run(...chapterParams(c, bookUrl));
          return chapters.length;
        })();
      },
      upsertSources(rows) {
        const up = st(SOURCE_UPSERT);
        return db.transaction(() => {
          for (const s of rows) up.run(...sourceParams(s));
          return rows.length;
        })();
      },
      shelf: () => (st(`SELECT ${BOOK_SELECT} FROM books ORDER BY durChapterTime DESC`).all() as Obj[]).map(bookRow),
      shelfGroup: (groupId) =>
        (st(`SELECT ${BOOK_SELECT} FROM books WHERE (\`group\` & ?) != 0 ORDER BY durChapterTime DESC`).all(groupId) as Obj[]).map(bookRow),
      bookAt(urls) {
        const get = st(`SELECT ${BOOK_SELECT} FROM books WHERE bookUrl = ?`);
        return urls.map((u) => {
          const r = get.get(u) as Obj | undefined;
          return r && bookRow(r);
        });
      },
      saveProgress(saves) {
        const up = st(PROGRESS_UPDATE);
        let n = 0;
        for (const s of saves) n += Number(up.run(s.durChapterIndex, s.durChapterPos, s.durChapterTime, s.bookUrl).changes);
        return n;
      },
      cachePut(entries) {
        const put = st(CACHE_PUT);
        for (const e of entries) put.run(e.key, e.value, e.ttl === 0 ? 0 : clock.now + Math.round(e.ttl * 1000));
        return entries.length;
      },
      cacheGet(keys) {
        const get = st(CACHE_GET);
        const now = clock.now;
        return keys.map((k) => (get.get(k, now) as { value: string | null } | undefined)?.value);
      },
      chapterAt(bookUrl, indexes) {
        const get = st(`SELECT ${CHAPTER_COLUMNS} FROM chapters WHERE bookUrl = ? AND \`index\` = ?`);
        return indexes.map((i) => {
          const r = get.get(bookUrl, i) as Obj | undefined;
          return r && chapterRow(r);
        });
      },
      chapterList: (bookUrl) => (st(`SELECT ${CHAPTER_COLUMNS} FROM chapters WHERE bookUrl = ? ORDER BY \`index\``).all(bookUrl) as Obj[]).map(chapterRow),
      close: () => {
        db.close();
      },
    };
  },

  openAndCheck: openAndCheckByHand,

  exportBackup: (path, dir, tables) => exportTables(path, dir, tables, (t) => `SELECT * FROM ${t}`),

  importBackup(path, dir) {
    const db = rawConnect(path);
    try {
      const books = readJsonIfThere(join(dir, 'bookshelf.json'), true);
      const sources = readJsonIfThere(join(dir, 'bookSource.json'));
      const rules = readJsonIfThere(join(dir, 'replaceRule.json'));
      const bookUp = db.prepare(BOOK_UPSERT);
      const sourceUp = db.prepare(SOURCE_UPSERT);
      const ruleUp = db.prepare(RULE_UPSERT);
      return db.transaction(() => {
        for (const o of books) bookUp.run(...bookParams(fromJson(o, BOOK_JSON) as BookIn));
        for (const o of sources) sourceUp.run(...sourceParams(fromJson(o, SOURCE_JSON) as SourceIn));
        for (const o of rules) ruleUp.run(...ruleParams(fromJson(o, RULE_JSON) as ReplaceRuleIn));
        return books.length + sources.length + rules.length;
      })();
    } finally {
      db.close();
    }
  },
};

/**
 * Writes each table's rows, read whole by `sqlOf(table)` (books exactly, for the 64-bit group
 * masks), to its backup file with JSON.stringify.
 */
export function exportTables(
  path: string,
  dir: string,
  tables: readonly BackupTable[] = ['books', 'book_sources', 'replace_rules'],
  sqlOf: (t: BackupTable) => string,
): number {
  const db = rawConnect(path);
  try {
    mkdirSync(dir, { recursive: true });
    let n = 0;
    for (const t of tables) {
      const { file, shape } = BACKUP_FILES[t];
      const sql = sqlOf(t);
      n += writeJson(join(dir, file), t === 'books' ? db.allExact(sql) : (db.prepare(sql).all() as Obj[]), shape);
    }
    return n;
  } finally {
    db.close();
  }
}

/** A backup file's records, none when the backup has no such file. */
export function readJsonIfThere(file: string, exactGroups = false): Obj[] {
  try {
    return readJson(file, exactGroups);
  } catch (e) {
    if ((e as { code?: string }).code === 'ENOENT') return [];
    throw e;
  }
}
