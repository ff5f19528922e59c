// Kysely on better-sqlite3 through its own SqliteDialect, used as its documentation shows: a
// Database interface with the real column names, the query builder, transactions. Kysely is
// asynchronous (every query is a promise) and maps nothing: booleans are 0/1 both ways, as
// its users write them with SQLite.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, SqliteDialect, sql, type Generated, type Insertable, type Selectable } from 'kysely';
import type { Contender, Session } from '../contender.js';
import type { BookIn, ChapterIn, SourceIn } from '../data.js';
import { BOOK_JSON, fromJson, readJson, RULE_JSON, SOURCE_JSON, writeJson } from './backup-json.js';
import { connect } from './raw.js';

type Bool = number;

interface BooksTable {
  bookUrl: string;
  tocUrl: Generated<string>;
  origin: Generated<string>;
  originName: Generated<string>;
  name: Generated<string>;
  author: Generated<string>;
  kind: string | null;
  customTag: string | null;
  coverUrl: string | null;
  customCoverUrl: string | null;
  intro: string | null;
  customIntro: string | null;
  charset: string | null;
  type: Generated<number>;
  group: Generated<number | bigint>;
  latestChapterTitle: string | null;
  latestChapterTime: Generated<number>;
  lastCheckTime: Generated<number>;
  lastCheckCount: Generated<number>;
  totalChapterNum: Generated<number>;
  durChapterTitle: string | null;
  durChapterIndex: Generated<number>;
  durChapterPos: Generated<number>;
  durChapterTime: Generated<number>;
  wordCount: string | null;
  canUpdate: Generated<Bool>;
  order: Generated<number>;
  originOrder: Generated<number>;
  variable: string | null;
  readConfig: string | null;
}

interface ChaptersTable {
  url: string;
  title: string;
  isVolume: Bool;
  baseUrl: string;
  bookUrl: string;
  index: number;
  isVip: Bool;
  isPay: Bool;
  resourceUrl: string | null;
  tag: string | null;
  start: number | null;
  end: number | null;
  startFragmentId: string | null;
  endFragmentId: string | null;
  variable: string | null;
}

interface BookSourcesTable {
  bookSourceUrl: string;
  bookSourceName: string;
  bookSourceGroup: string | null;
  bookSourceType: number;
  bookUrlPattern: string | null;
  customOrder: number;
  enabled: Bool;
  enabledExplore: Bool;
  enabledReview: Bool | null;
  enabledCookieJar: Generated<Bool | null>;
  concurrentRate: string | null;
  header: string | null;
  loginUrl: string | null;
  loginUi: string | null;
  loginCheckJs: string | null;
  coverDecodeJs: string | null;
  bookSourceComment: string | null;
  variableComment: string | null;
  lastUpdateTime: number;
  respondTime: number;
  weight: number;
  exploreUrl: string | null;
  ruleExplore: string | null;
  searchUrl: string | null;
  ruleSearch: string | null;
  ruleBookInfo: string | null;
  ruleToc: string | null;
  ruleContent: string | null;
  ruleReview: string | null;
}

interface CachesTable {
  key: string;
  value: string | null;
  deadline: number;
}

interface ReplaceRulesTable {
  id: Generated<number>;
  name: Generated<string>;
  group: string | null;
  pattern: Generated<string>;
  replacement: Generated<string>;
  scope: string | null;
  scopeTitle: Generated<Bool>;
  scopeContent: Generated<Bool>;
  isEnabled: Generated<Bool>;
  isRegex: Generated<Bool>;
  timeoutMillisecond: Generated<number>;
  sortOrder: Generated<number>;
}

export interface LegadoDatabase {
  books: BooksTable;
  chapters: ChaptersTable;
  book_sources: BookSourcesTable;
  caches: CachesTable;
  replace_rules: ReplaceRulesTable;
}

const bit = (v: boolean | null | undefined): Bool | null => (v === undefined || v === null ? null : v ? 1 : 0);

function chapterRow(c: ChapterIn): Insertable<ChaptersTable> {
  return { ...c, isVolume: bit(c.isVolume)!, isVip: bit(c.isVip)!, isPay: bit(c.isPay)! };
}

function sourceRow(s: SourceIn | Record<string, unknown>): Insertable<BookSourcesTable> {
  const x = s as SourceIn;
  return {
    ...x,
    enabled: bit(x.enabled)!,
    enabledExplore: bit(x.enabledExplore)!,
    enabledReview: bit(x.enabledReview),
    enabledCookieJar: bit(x.enabledCookieJar ?? false),
  };
}

function bookRow(b: BookIn | Record<string, unknown>): Insertable<BooksTable> {
  const x = b as BookIn;
  return { ...x, group: x.group ?? 0, canUpdate: bit(x.canUpdate ?? true)! };
}

const SOURCE_UPDATE_COLUMNS = [
  'bookSourceName', 'bookSourceGroup', 'bookSourceType', 'bookUrlPattern', 'customOrder', 'enabled', 'enabledExplore',
  'enabledReview', 'enabledCookieJar', 'concurrentRate', 'header', 'loginUrl', 'loginUi', 'loginCheckJs', 'coverDecodeJs',
  'bookSourceComment', 'variableComment', 'lastUpdateTime', 'respondTime', 'weight', 'exploreUrl', 'ruleExplore', 'searchUrl',
  'ruleSearch', 'ruleBookInfo', 'ruleToc', 'ruleContent', 'ruleReview',
] as const;

/** `excluded.<column>` for each column, for an upsert's DO UPDATE SET (Kysely's documented form). */
function excluded(columns: readonly string[]) {
  return (eb: { ref(reference: never): unknown }) => Object.fromEntries(columns.map((c) => [c, eb.ref(`excluded.${c}` as never)])) as never;
}

function database(path: string): Kysely<LegadoDatabase> {
  return new Kysely<LegadoDatabase>({ dialect: new SqliteDialect({ database: connect(path) }) });
}

export const kyselyContender: Contender = {
  name: 'kysely',
  engines: ['better-sqlite3'],

  open(path, clock): Session {
    const db = database(path);
    return {
      async replaceToc(bookUrl, list) {
        return db.transaction().execute(async (trx) => {
          await trx.deleteFrom('chapters').where('bookUrl', '=', bookUrl).execute();
          for (const c of list) await trx.insertInto('chapters').values(chapterRow({ ...c, bookUrl })).execute();
          return list.length;
        });
      },
      async upsertSources(rows) {
        return db.transaction().execute(async (trx) => {
          for (const s of rows) {
            await trx
              .insertInto('book_sources')
              .values(sourceRow(s))
              .onConflict((oc) => oc.column('bookSourceUrl').doUpdateSet(excluded(SOURCE_UPDATE_COLUMNS)))
              .execute();
          }
          return rows.length;
        });
      },
      shelf: () => db.selectFrom('books').selectAll().orderBy('durChapterTime', 'desc').execute(),
      shelfGroup: (groupId) =>
        db.selectFrom('books').selectAll().where(sql<boolean>`(${sql.ref('group')} & ${groupId}) != 0`).orderBy('durChapterTime', 'desc').execute(),
      async saveProgress(saves) {
        let n = 0;
        for (const s of saves) {
          const r = await db
            .updateTable('books')
            .set({ durChapterIndex: s.durChapterIndex, durChapterPos: s.durChapterPos, durChapterTime: s.durChapterTime })
            .where('bookUrl', '=', s.bookUrl)
            .executeTakeFirst();
          n += Number(r.numUpdatedRows);
        }
        return n;
      },
      async cachePut(entries) {
        for (const e of entries) {
          const deadline = e.ttl === 0 ? 0 : clock.now + Math.round(e.ttl * 1000);
          await db
            .insertInto('caches')
            .values({ key: e.key, value: e.value, deadline })
            .onConflict((oc) => oc.column('key').doUpdateSet(excluded(['value', 'deadline'])))
            .execute();
        }
        return entries.length;
      },
      async cacheGet(keys) {
        const now = clock.now;
        const out: (string | null | undefined)[] = [];
        for (const key of keys) {
          const r = await db
            .selectFrom('caches')
            .select('value')
            .where('key', '=', key)
            .where((eb) => eb.or([eb('deadline', '=', 0), eb('deadline', '>', now)]))
            .executeTakeFirst();
          out.push(r?.value);
        }
        return out;
      },
      async chapterAt(bookUrl, indexes) {
        const out: (Selectable<ChaptersTable> | undefined)[] = [];
        for (const index of indexes) {
          out.push(await db.selectFrom('chapters').selectAll().where('bookUrl', '=', bookUrl).where('index', '=', index).executeTakeFirst());
        }
        return out;
      },
      chapterList: (bookUrl) => db.selectFrom('chapters').selectAll().where('bookUrl', '=', bookUrl).orderBy('index').execute(),
      close: () => db.destroy(),
    };
  },

  async exportBackup(path, dir) {
    const db = database(path);
    try {
      mkdirSync(dir, { recursive: true });
      // `group` read exactly: as text where a double cannot hold it.
      const shelf = await db
        .selectFrom('books')
        .selectAll()
        .select(sql<number | string>`CASE WHEN ${sql.ref('group')} BETWEEN -9007199254740991 AND 9007199254740991 THEN ${sql.ref('group')} ELSE CAST(${sql.ref('group')} AS TEXT) END`.as('group'))
        .execute();
      const exact = shelf.map((b) => ({ ...b, group: BigInt(b.group) }));
      return (
        writeJson(join(dir, 'bookshelf.json'), exact, BOOK_JSON) +
        writeJson(join(dir, 'bookSource.json'), await db.selectFrom('book_sources').selectAll().execute(), SOURCE_JSON) +
        writeJson(join(dir, 'replaceRule.json'), await db.selectFrom('replace_rules').selectAll().execute(), RULE_JSON)
      );
    } finally {
      await db.destroy();
    }
  },

  async importBackup(path, dir) {
    const db = database(path);
    try {
      const books = readJson(join(dir, 'bookshelf.json'), true).map((o) => bookRow(fromJson(o, BOOK_JSON)));
      const sources = readJson(join(dir, 'bookSource.json')).map((o) => sourceRow(fromJson(o, SOURCE_JSON)));
      const rules = readJson(join(dir, 'replaceRule.json')).map((o) => {
        const { order, scopeTitle, scopeContent, isEnabled, isRegex, ...rest } = o as Record<string, unknown>;
        return {
          ...rest,
          sortOrder: (order as number | undefined) ?? 0,
          scopeTitle: bit((scopeTitle as boolean | undefined) ?? false)!,
          scopeContent: bit((scopeContent as boolean | undefined) ?? true)!,
          isEnabled: bit((isEnabled as boolean | undefined) ?? true)!,
          isRegex: bit((isRegex as boolean | undefined) ?? true)!,
        } as Insertable<ReplaceRulesTable>;
      });
      return await db.transaction().execute(async (trx) => {
        for (const b of books) {
          const { bookUrl: _key, ...rest } = b;
          await trx.insertInto('books').values(b).onConflict((oc) => oc.column('bookUrl').doUpdateSet(rest)).execute();
        }
        for (const s of sources) {
          await trx.insertInto('book_sources').values(s).onConflict((oc) => oc.column('bookSourceUrl').doUpdateSet(excluded(SOURCE_UPDATE_COLUMNS))).execute();
        }
        for (const r of rules) {
          const { id: _key, ...rest } = r;
          await trx.insertInto('replace_rules').values(r).onConflict((oc) => oc.column('id').doUpdateSet(rest)).execute();
        }
        return books.length + sources.length + rules.length;
      });
    } finally {
      await db.destroy();
    }
  },
};

