// Drizzle ORM on better-sqlite3, at its fastest as its documentation ("Query performance")
// recommends: every query run more than once built once with `sql.placeholder` and
// `.prepare()`d, bulk inserts as prepared multi-row `values([...])` batches (one prepared
// statement per batch size), db.transaction for atomic steps, and the schema of drizzle-schema.ts.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { and, asc, desc, eq, getTableColumns, gt, or, sql, type Column } from 'drizzle-orm';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Contender, Session } from '../contender.js';
import { BOOK_JSON, fromJson, RULE_JSON, SOURCE_JSON, writeJson } from './backup-json.js';
import { once } from './first-use.js';
import { readJsonIfThere } from './raw-naive.js';
import { bookSources, books, caches, chapters, replaceRules } from './drizzle-schema.js';
import { connectBetterSqlite3, PRAGMAS } from './raw-engines.js';
import { benchEngine } from '../engine.js';
import { CHAPTER_BATCH } from './raw.js';

/** `set` for an upsert: every column but the key takes the value of the row that was refused. */
function excludedSet(table: SQLiteTable, key: string): Record<string, ReturnType<typeof sql.raw>> {
  const set: Record<string, ReturnType<typeof sql.raw>> = {};
  for (const [field, col] of Object.entries(getTableColumns(table) as Record<string, Column>)) {
    if (field !== key) set[field] = sql.raw(`excluded.\`${col.name}\``);
  }
  return set;
}

/** Placeholders for every field of a table, for a prepared insert (row `r` of a batch: `<field>_<r>`). */
function placeholders(table: SQLiteTable, r?: number): Record<string, ReturnType<typeof sql.placeholder>> {
  return Object.fromEntries(Object.keys(getTableColumns(table)).map((f) => [f, sql.placeholder(r === undefined ? f : `${f}_${r}`)]));
}

/**
 * Every field present, as a prepared statement's placeholders need them: a missing field takes
 * the column default, or null. The nullable flags are numbers in the Drizzle schema.
 */
function filled<T extends object>(table: SQLiteTable, row: T): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [f, col] of Object.entries(getTableColumns(table) as Record<string, Column>)) {
    const v = (row as Record<string, unknown>)[f];
    out[f] = typeof v === 'boolean' && col.dataType !== 'boolean' ? (v ? 1 : 0) : v !== undefined ? v : col.hasDefault ? col.default : null;
  }
  return out;
}

/** Drizzle's Bun driver, loaded only under Bun (it imports bun:sqlite). */
let bunDrizzle:
  | { drizzle(config: { client: unknown }): unknown; Database: new (path: string, options: object) => { exec(sql: string): void; close(): void } }
  | undefined;

/** A Drizzle database on the benchmark's engine (better-sqlite3, or bun:sqlite with Drizzle's Bun driver), with the store's pragmas. */
function connect(path: string): { db: BetterSQLite3Database; close(): void } {
  if (benchEngine().name === 'bun:sqlite') {
    const client = new bunDrizzle!.Database(path, { readwrite: true, create: false });
    client.exec('PRAGMA busy_timeout = 5000');
    for (const p of PRAGMAS) client.exec(`PRAGMA ${p}`);
    // Both drivers are synchronous SQLite sessions with the same query API.
    return { db: bunDrizzle!.drizzle({ client }) as BetterSQLite3Database, close: () => client.close() };
  }
  const client = connectBetterSqlite3(path);
  return { db: drizzle({ client }), close: () => void client.close() };
}

export const drizzleContender: Contender = {
  name: 'drizzle',
  kind: 'hand',
  engines: ['better-sqlite3', 'bun:sqlite'],

  async load(engine) {
    if (engine !== 'bun:sqlite' || bunDrizzle) return;
    const driver = 'drizzle-orm/bun-sqlite';
    const sqlite = 'bun:sqlite';
    const [d, b] = await Promise.all([import(driver), import(sqlite)]);
    bunDrizzle = { drizzle: d.drizzle, Database: b.Database };
  },

  open(path, clock): Session {
    const { db, close } = connect(path);
    // A prepared multi-row insert per batch size, bound with one object of `<field>_<row>` values.
    const chapterBatches = new Map<number, { run(values: Record<string, unknown>): unknown }>();
    const chapterBatch = (n: number) => {
      let q = chapterBatches.get(n);
      if (!q)
        chapterBatches.set(
          n,
          (q = db
            .insert(chapters)
            .values(Array.from({ length: n }, (_, r) => placeholders(chapters, r)) as never)
            .prepare()),
        );
      return q;
    };
    const fields = Object.keys(getTableColumns(chapters));
    const insertChapters = (list: readonly Record<string, unknown>[], bookUrl: string): void => {
      for (let at = 0; at < list.length; at += CHAPTER_BATCH) {
        const n = Math.min(CHAPTER_BATCH, list.length - at);
        const values: Record<string, unknown> = {};
        for (let r = 0; r < n; r++) {
          const row = filled(chapters, { ...list[at + r], bookUrl });
          for (const f of fields) values[`${f}_${r}`] = row[f];
        }
        chapterBatch(n).run(values);
      }
    };
    const bookAt = once(() =>
      db
        .select()
        .from(books)
        .where(eq(books.bookUrl, sql.placeholder('bookUrl')))
        .prepare(),
    );
    const shelf = once(() => db.select().from(books).orderBy(desc(books.durChapterTime)).prepare());
    const shelfGroup = once(() =>
      db
        .select()
        .from(books)
        .where(sql`(${books.group} & ${sql.placeholder('group')}) != 0`)
        .orderBy(desc(books.durChapterTime))
        .prepare(),
    );
    const deleteChapters = once(() =>
      db
        .delete(chapters)
        .where(eq(chapters.bookUrl, sql.placeholder('bookUrl')))
        .prepare(),
    );
    const upsertSource = once(() =>
      db
        .insert(bookSources)
        .values(placeholders(bookSources) as never)
        .onConflictDoUpdate({ target: bookSources.bookSourceUrl, set: excludedSet(bookSources, 'bookSourceUrl') })
        .prepare(),
    );
    const saveProgress = once(() =>
      db
        .update(books)
        .set({
          durChapterIndex: sql.placeholder('durChapterIndex'),
          durChapterPos: sql.placeholder('durChapterPos'),
          durChapterTime: sql.placeholder('durChapterTime'),
        } as never)
        .where(eq(books.bookUrl, sql.placeholder('bookUrl')))
        .prepare(),
    );
    const putCache = once(() =>
      db
        .insert(caches)
        .values({ key: sql.placeholder('key'), value: sql.placeholder('value'), deadline: sql.placeholder('deadline') })
        .onConflictDoUpdate({ target: caches.key, set: excludedSet(caches, 'key') })
        .prepare(),
    );
    const getCache = once(() =>
      db
        .select({ value: caches.value })
        .from(caches)
        .where(and(eq(caches.key, sql.placeholder('key')), or(eq(caches.deadline, 0), gt(caches.deadline, sql.placeholder('now')))))
        .prepare(),
    );
    const chapterAt = once(() =>
      db
        .select()
        .from(chapters)
        .where(and(eq(chapters.bookUrl, sql.placeholder('bookUrl')), eq(chapters.index, sql.placeholder('index'))))
        .prepare(),
    );
    const chapterList = once(() =>
      db
        .select()
        .from(chapters)
        .where(eq(chapters.bookUrl, sql.placeholder('bookUrl')))
        .orderBy(asc(chapters.index))
        .prepare(),
    );

    return {
      replaceToc(bookUrl, list) {
        const del = deleteChapters();
        return db.transaction(() => {
          del.run({ bookUrl });
          insertChapters(list as never, bookUrl);
          return list.length;
        });
      },
      insertChapters(bookUrl, list) {
        return db.transaction(() => {
          insertChapters(list as never, bookUrl);
          return list.length;
        });
      },
      bookAt(urls) {
        const get = bookAt();
        return urls.map((bookUrl) => get.get({ bookUrl }));
      },
      upsertSources(rows) {
        const up = upsertSource();
        return db.transaction(() => {
          for (const s of rows) up.run(filled(bookSources, s));
          return rows.length;
        });
      },
      shelf: () => shelf().all(),
      shelfGroup: (groupId) => shelfGroup().all({ group: groupId }),
      saveProgress(saves) {
        const up = saveProgress();
        let n = 0;
        for (const s of saves) n += up.run(s as unknown as Record<string, unknown>).changes;
        return n;
      },
      cachePut(entries) {
        const put = putCache();
        for (const e of entries) put.run({ key: e.key, value: e.value, deadline: e.ttl === 0 ? 0 : clock.now + Math.round(e.ttl * 1000) });
        return entries.length;
      },
      cacheGet(keys) {
        const get = getCache();
        const now = clock.now;
        return keys.map((key) => get.get({ key, now })?.value);
      },
      chapterAt(bookUrl, indexes) {
        const get = chapterAt();
        return indexes.map((index) => get.get({ bookUrl, index }));
      },
      chapterList: (bookUrl) => chapterList().all({ bookUrl }),
      close: () => {
        close();
      },
    };
  },

  exportBackup(path, dir, tables = ['books', 'book_sources', 'replace_rules']) {
    const { db, close } = connect(path);
    try {
      mkdirSync(dir, { recursive: true });
      const files = {
        books: () => writeJson(join(dir, 'bookshelf.json'), db.select().from(books).all(), BOOK_JSON),
        book_sources: () => writeJson(join(dir, 'bookSource.json'), db.select().from(bookSources).all(), SOURCE_JSON),
        replace_rules: () => writeJson(join(dir, 'replaceRule.json'), db.select().from(replaceRules).all(), { ...RULE_JSON, renamed: {} }),
      };
      return tables.reduce((n, t) => n + files[t](), 0);
    } finally {
      close();
    }
  },

  importBackup(path, dir) {
    const { db, close } = connect(path);
    try {
      const all = [
        { table: books, key: 'bookUrl', rows: readJsonIfThere(join(dir, 'bookshelf.json'), true).map((o) => fromJson(o, BOOK_JSON)) },
        { table: bookSources, key: 'bookSourceUrl', rows: readJsonIfThere(join(dir, 'bookSource.json')).map((o) => fromJson(o, SOURCE_JSON)) },
        { table: replaceRules, key: 'id', rows: readJsonIfThere(join(dir, 'replaceRule.json')) },
      ];
      return db.transaction((tx) => {
        let n = 0;
        for (const { table, key, rows } of all) {
          const up = tx
            .insert(table)
            .values(placeholders(table) as never)
            .onConflictDoUpdate({ target: (getTableColumns(table) as Record<string, Column>)[key] as never, set: excludedSet(table, key) })
            .prepare();
          for (const r of rows) up.run(filled(table, r));
          n += rows.length;
        }
        return n;
      });
    } finally {
      close();
    }
  },
};
