// Drizzle ORM on better-sqlite3, used as its documentation shows: the query builder, with
// prepared queries and placeholders for statements run many times, db.transaction for
// atomic steps, and the schema of drizzle-schema.ts.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { and, asc, desc, eq, getTableColumns, gt, or, sql, type Column } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Contender, Session } from '../contender.js';
import { BOOK_JSON, fromJson, readJson, RULE_JSON, SOURCE_JSON, writeJson } from './backup-json.js';
import { bookSources, books, caches, chapters, replaceRules } from './drizzle-schema.js';
import { connect } from './raw.js';

/** `set` for an upsert: every column but the key takes the value of the row that was refused. */
function excludedSet(table: SQLiteTable, key: string): Record<string, ReturnType<typeof sql.raw>> {
  const set: Record<string, ReturnType<typeof sql.raw>> = {};
  for (const [field, col] of Object.entries(getTableColumns(table) as Record<string, Column>)) {
    if (field !== key) set[field] = sql.raw(`excluded.\`${col.name}\``);
  }
  return set;
}

/** Placeholders for every field of a table, for a prepared insert. */
function placeholders(table: SQLiteTable): Record<string, ReturnType<typeof sql.placeholder>> {
  return Object.fromEntries(Object.keys(getTableColumns(table)).map((f) => [f, sql.placeholder(f)]));
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

export const drizzleContender: Contender = {
  name: 'drizzle',
  engines: ['better-sqlite3'],

  open(path, clock): Session {
    const client = connect(path);
    const db = drizzle({ client });
    const once = <T>(make: () => T): (() => T) => {
      let v: T | undefined;
      return () => (v ??= make());
    };
    const insertChapter = once(() => db.insert(chapters).values(placeholders(chapters) as never).prepare());
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
      db.select().from(chapters).where(eq(chapters.bookUrl, sql.placeholder('bookUrl'))).orderBy(asc(chapters.index)).prepare(),
    );

    return {
      replaceToc(bookUrl, list) {
        const ins = insertChapter();
        return db.transaction((tx) => {
          tx.delete(chapters).where(eq(chapters.bookUrl, bookUrl)).run();
          for (const c of list) ins.run(filled(chapters, { ...c, bookUrl }));
          return list.length;
        });
      },
      upsertSources(rows) {
        const up = upsertSource();
        return db.transaction(() => {
          for (const s of rows) up.run(filled(bookSources, s));
          return rows.length;
        });
      },
      shelf: () => db.select().from(books).orderBy(desc(books.durChapterTime)).all(),
      shelfGroup: (groupId) =>
        db
          .select()
          .from(books)
          .where(sql`(${books.group} & ${groupId}) != 0`)
          .orderBy(desc(books.durChapterTime))
          .all(),
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
        client.close();
      },
    };
  },

  exportBackup(path, dir) {
    const client = connect(path);
    try {
      const db = drizzle({ client });
      mkdirSync(dir, { recursive: true });
      return (
        writeJson(join(dir, 'bookshelf.json'), db.select().from(books).all(), BOOK_JSON) +
        writeJson(join(dir, 'bookSource.json'), db.select().from(bookSources).all(), SOURCE_JSON) +
        writeJson(join(dir, 'replaceRule.json'), db.select().from(replaceRules).all(), { ...RULE_JSON, renamed: {} })
      );
    } finally {
      client.close();
    }
  },

  importBackup(path, dir) {
    const client = connect(path);
    try {
      const db = drizzle({ client });
      const all = [
        { table: books, key: 'bookUrl', rows: readJson(join(dir, 'bookshelf.json'), true).map((o) => fromJson(o, BOOK_JSON)) },
        { table: bookSources, key: 'bookSourceUrl', rows: readJson(join(dir, 'bookSource.json')).map((o) => fromJson(o, SOURCE_JSON)) },
        { table: replaceRules, key: 'id', rows: readJson(join(dir, 'replaceRule.json')) },
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
      client.close();
    }
  },
};
