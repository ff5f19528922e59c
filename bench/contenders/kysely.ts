// Kysely at its fastest, as its documentation's "Splitting query building and execution"
// recipe shows: a Database interface with the real column names, every query built once with
// the query builder on a "cold" Kysely (DummyDriver, SQLite's compiler), compiled, and the
// compiled SQL prepared once on the connection and run with new parameters (Kysely's own
// SqliteDialect prepares every statement again on every execution, and awaits each). Bulk
// inserts are compiled multi-row `values([...])`. Rows come back as the engine gives them:
// objects, booleans 0/1, as Kysely's users have them with SQLite. Because only compiled SQL
// reaches the engine, it runs on every engine through the engine's own API (raw-engines.ts).
import { join } from 'node:path';
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, sql, type CompiledQuery, type Generated, type Insertable } from 'kysely';
import type { Contender, Session } from '../contender.js';
import type { ChapterIn, SourceIn } from '../data.js';
import { BOOK_JSON, fromJson, SOURCE_JSON } from './backup-json.js';
import { once } from './first-use.js';
import { CHAPTER_BATCH, SOURCE_BATCH } from './raw.js';
import { exportTables, readJsonIfThere } from './raw-naive.js';
import { rawConnect, type RawDb, type RawStatement } from './raw-engines.js';

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

const SOURCE_UPDATE_COLUMNS = [
  'bookSourceName',
  'bookSourceGroup',
  'bookSourceType',
  'bookUrlPattern',
  'customOrder',
  'enabled',
  'enabledExplore',
  'enabledReview',
  'enabledCookieJar',
  'concurrentRate',
  'header',
  'loginUrl',
  'loginUi',
  'loginCheckJs',
  'coverDecodeJs',
  'bookSourceComment',
  'variableComment',
  'lastUpdateTime',
  'respondTime',
  'weight',
  'exploreUrl',
  'ruleExplore',
  'searchUrl',
  'ruleSearch',
  'ruleBookInfo',
  'ruleToc',
  'ruleContent',
  'ruleReview',
] as const;
const BOOK_UPDATE_COLUMNS = [
  'tocUrl',
  'origin',
  'originName',
  'name',
  'author',
  'kind',
  'customTag',
  'coverUrl',
  'customCoverUrl',
  'intro',
  'customIntro',
  'charset',
  'type',
  'group',
  'latestChapterTitle',
  'latestChapterTime',
  'lastCheckTime',
  'lastCheckCount',
  'totalChapterNum',
  'durChapterTitle',
  'durChapterIndex',
  'durChapterPos',
  'durChapterTime',
  'wordCount',
  'canUpdate',
  'order',
  'originOrder',
  'variable',
  'readConfig',
] as const;
const RULE_UPDATE_COLUMNS = [
  'name',
  'group',
  'pattern',
  'replacement',
  'scope',
  'scopeTitle',
  'scopeContent',
  'isEnabled',
  'isRegex',
  'timeoutMillisecond',
  'sortOrder',
] as const;

/** `excluded.<column>` for each column, for an upsert's DO UPDATE SET (Kysely's documented form). */
function excluded(columns: readonly string[]) {
  return (eb: { ref(reference: never): unknown }) => Object.fromEntries(columns.map((c) => [c, eb.ref(`excluded.${c}` as never)])) as never;
}

/** A Kysely that only builds and compiles SQLite SQL. */
const k = new Kysely<LegadoDatabase>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});

/**
 * A compiled query with named slots: built with marker values where the run-time values go,
 * so `bind` puts each value where the compiler put its marker (other parameters stay as compiled).
 */
function template(q: { compile(): CompiledQuery }) {
  const { sql: text, parameters } = q.compile();
  const slots = parameters.map((p) => (typeof p === 'string' && p.startsWith(MARK) ? p.slice(MARK.length) : undefined));
  return {
    sql: text,
    bind: (values: Record<string, unknown>): unknown[] => parameters.map((p, i) => (slots[i] === undefined ? p : values[slots[i]!])),
  };
}
const MARK = '\u0000slot:';
/** A marker for `template`, typed as whatever the builder wants there. */
const slot = (name: string): never => `${MARK}${name}` as never;

/** A row of every column (the columns of a multi-row insert come from its rows), in the table's order. */
const CHAPTER_SAMPLE: Insertable<ChaptersTable> = {
  url: '',
  title: '',
  isVolume: 0,
  baseUrl: '',
  bookUrl: '',
  index: 0,
  isVip: 0,
  isPay: 0,
  resourceUrl: '',
  tag: '',
  start: 0,
  end: 0,
  startFragmentId: '',
  endFragmentId: '',
  variable: '',
};
const SOURCE_SAMPLE = Object.fromEntries(['bookSourceUrl', ...SOURCE_UPDATE_COLUMNS].map((c) => [c, ''])) as unknown as Insertable<BookSourcesTable>;

/** Compiled multi-row statements, one per row count; parameters in the sample row's column order. */
function compiledInsert(table: 'chapters' | 'book_sources', columns: number, n: number): string {
  const q =
    table === 'chapters'
      ? k.insertInto('chapters').values(Array.from({ length: n }, () => CHAPTER_SAMPLE))
      : k
          .insertInto('book_sources')
          .values(Array.from({ length: n }, () => SOURCE_SAMPLE))
          .onConflict((oc) => oc.column('bookSourceUrl').doUpdateSet(excluded(SOURCE_UPDATE_COLUMNS)));
  const c = q.compile();
  if (c.parameters.length !== n * columns) throw new Error(`kysely: ${table} insert of ${n} rows compiled to ${c.parameters.length} parameters`);
  return c.sql;
}

const chapterValues = (out: unknown[], c: ChapterIn, bookUrl: string): void => {
  out.push(
    c.url,
    c.title,
    bit(c.isVolume),
    c.baseUrl,
    bookUrl,
    c.index,
    bit(c.isVip),
    bit(c.isPay),
    c.resourceUrl ?? null,
    c.tag ?? null,
    c.start ?? null,
    c.end ?? null,
    c.startFragmentId ?? null,
    c.endFragmentId ?? null,
    c.variable ?? null,
  );
};
const sourceValues = (out: unknown[], s: SourceIn): void => {
  out.push(
    s.bookSourceUrl,
    s.bookSourceName,
    s.bookSourceGroup ?? null,
    s.bookSourceType,
    s.bookUrlPattern ?? null,
    s.customOrder,
    bit(s.enabled),
    bit(s.enabledExplore),
    bit(s.enabledReview),
    bit(s.enabledCookieJar ?? false),
    s.concurrentRate ?? null,
    s.header ?? null,
    s.loginUrl ?? null,
    s.loginUi ?? null,
    s.loginCheckJs ?? null,
    s.coverDecodeJs ?? null,
    s.bookSourceComment ?? null,
    s.variableComment ?? null,
    s.lastUpdateTime,
    s.respondTime,
    s.weight,
    s.exploreUrl ?? null,
    s.ruleExplore ?? null,
    s.searchUrl ?? null,
    s.ruleSearch ?? null,
    s.ruleBookInfo ?? null,
    s.ruleToc ?? null,
    s.ruleContent ?? null,
    s.ruleReview ?? null,
  );
};

// Built and compiled once per process.
const Q = {
  deleteChapters: template(k.deleteFrom('chapters').where('bookUrl', '=', slot('bookUrl'))),
  shelf: template(k.selectFrom('books').selectAll().orderBy('durChapterTime', 'desc')),
  shelfGroup: template(
    k
      .selectFrom('books')
      .selectAll()
      .where(sql<boolean>`(${sql.ref('group')} & ${slot('group')}) != 0`)
      .orderBy('durChapterTime', 'desc'),
  ),
  book: template(k.selectFrom('books').selectAll().where('bookUrl', '=', slot('bookUrl'))),
  progress: template(
    k
      .updateTable('books')
      .set({ durChapterIndex: slot('durChapterIndex'), durChapterPos: slot('durChapterPos'), durChapterTime: slot('durChapterTime') })
      .where('bookUrl', '=', slot('bookUrl')),
  ),
  cachePut: template(
    k
      .insertInto('caches')
      .values({ key: slot('key'), value: slot('value'), deadline: slot('deadline') })
      .onConflict((oc) => oc.column('key').doUpdateSet(excluded(['value', 'deadline']))),
  ),
  cacheGet: template(
    k
      .selectFrom('caches')
      .select('value')
      .where('key', '=', slot('key'))
      .where((eb) => eb.or([eb('deadline', '=', 0), eb('deadline', '>', slot('now'))])),
  ),
  chapter: template(k.selectFrom('chapters').selectAll().where('bookUrl', '=', slot('bookUrl')).where('index', '=', slot('index'))),
  chapters: template(k.selectFrom('chapters').selectAll().where('bookUrl', '=', slot('bookUrl')).orderBy('index')),
};

/** Statements prepared on the connection once, by their compiled SQL. */
function prepared(db: RawDb): (sql: string) => RawStatement {
  const bySql = new Map<string, RawStatement>();
  return (text) => {
    let s = bySql.get(text);
    if (!s) bySql.set(text, (s = db.prepare(text)));
    return s;
  };
}

/** Rows in statements of `size` rows and one for the rest, each compiled and prepared once. */
function batched<T>(st: (sql: string) => RawStatement, compiled: (n: number) => string, size: number, push: (out: unknown[], row: T) => void) {
  const sqlOf = new Map<number, string>();
  return (rows: readonly T[]): void => {
    for (let at = 0; at < rows.length; at += size) {
      const n = Math.min(size, rows.length - at);
      let text = sqlOf.get(n);
      if (text === undefined) sqlOf.set(n, (text = compiled(n)));
      const params: unknown[] = [];
      for (let i = at; i < at + n; i++) push(params, rows[i]!);
      st(text).run(...params);
    }
  };
}

const upserts = {
  books: template(
    k
      .insertInto('books')
      .values(Object.fromEntries(['bookUrl', ...BOOK_UPDATE_COLUMNS].map((c) => [c, slot(c)])) as never)
      .onConflict((oc) => oc.column('bookUrl').doUpdateSet(excluded(BOOK_UPDATE_COLUMNS))),
  ),
  sources: template(
    k
      .insertInto('book_sources')
      .values(Object.fromEntries(['bookSourceUrl', ...SOURCE_UPDATE_COLUMNS].map((c) => [c, slot(c)])) as never)
      .onConflict((oc) => oc.column('bookSourceUrl').doUpdateSet(excluded(SOURCE_UPDATE_COLUMNS))),
  ),
  rules: template(
    k
      .insertInto('replace_rules')
      .values(Object.fromEntries(['id', ...RULE_UPDATE_COLUMNS].map((c) => [c, slot(c)])) as never)
      .onConflict((oc) => oc.column('id').doUpdateSet(excluded(RULE_UPDATE_COLUMNS))),
  ),
};

/** A backup record's values as the columns want them: booleans as 0/1, missing fields at their defaults. */
function record(o: Record<string, unknown>, defaults: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...defaults };
  for (const key in o) {
    const v = o[key];
    out[key] = typeof v === 'boolean' ? (v ? 1 : 0) : v;
  }
  return out;
}
const BOOK_DEFAULTS = {
  tocUrl: '',
  origin: 'loc_book',
  originName: '',
  name: '',
  author: '',
  kind: null,
  customTag: null,
  coverUrl: null,
  customCoverUrl: null,
  intro: null,
  customIntro: null,
  charset: null,
  type: 0,
  group: 0,
  latestChapterTitle: null,
  latestChapterTime: 0,
  lastCheckTime: 0,
  lastCheckCount: 0,
  totalChapterNum: 0,
  durChapterTitle: null,
  durChapterIndex: 0,
  durChapterPos: 0,
  durChapterTime: 0,
  wordCount: null,
  canUpdate: 1,
  order: 0,
  originOrder: 0,
  variable: null,
  readConfig: null,
};
const SOURCE_DEFAULTS = Object.fromEntries(SOURCE_UPDATE_COLUMNS.map((c) => [c, null]));
const RULE_DEFAULTS = {
  name: '',
  group: null,
  pattern: '',
  replacement: '',
  scope: null,
  scopeTitle: 0,
  scopeContent: 1,
  isEnabled: 1,
  isRegex: 1,
  timeoutMillisecond: 3000,
  sortOrder: 0,
};

export const kyselyContender: Contender = {
  name: 'kysely',
  kind: 'hand',

  open(path, clock): Session {
    const db = rawConnect(path);
    const st = prepared(db);
    const insertChapters = batched<ChapterIn & { bookUrl: string }>(
      st,
      (n) => compiledInsert('chapters', 15, n),
      CHAPTER_BATCH,
      (out, c) => chapterValues(out, c, c.bookUrl),
    );
    const upsertSources = batched<SourceIn>(st, (n) => compiledInsert('book_sources', 29, n), SOURCE_BATCH, sourceValues);
    const all = (q: { sql: string; bind(v: Record<string, unknown>): unknown[] }, v: Record<string, unknown> = {}) => st(q.sql).all(...q.bind(v));
    const one = (q: { sql: string; bind(v: Record<string, unknown>): unknown[] }, v: Record<string, unknown>) => st(q.sql).get(...q.bind(v));
    const refresh = once(() =>
      db.transaction((bookUrl: string, list: readonly ChapterIn[]) => {
        st(Q.deleteChapters.sql).run(...Q.deleteChapters.bind({ bookUrl }));
        insertChapters(list as (ChapterIn & { bookUrl: string })[]);
        return list.length;
      }),
    );
    const insertAll = once(() =>
      db.transaction((list: readonly ChapterIn[]) => {
        insertChapters(list as (ChapterIn & { bookUrl: string })[]);
        return list.length;
      }),
    );
    const upsertAll = once(() =>
      db.transaction((rows: readonly SourceIn[]) => {
        upsertSources(rows);
        return rows.length;
      }),
    );
    return {
      replaceToc: (bookUrl, list) => refresh()(bookUrl, list),
      insertChapters: (_bookUrl, list) => insertAll()(list),
      upsertSources: (rows) => upsertAll()(rows),
      shelf: () => all(Q.shelf) as object[],
      shelfGroup: (group) => all(Q.shelfGroup, { group }) as object[],
      bookAt: (urls) => urls.map((bookUrl) => one(Q.book, { bookUrl }) as object | undefined),
      saveProgress(saves) {
        const s = st(Q.progress.sql);
        let n = 0;
        for (const p of saves) n += Number(s.run(...Q.progress.bind(p as unknown as Record<string, unknown>)).changes);
        return n;
      },
      cachePut(entries) {
        const s = st(Q.cachePut.sql);
        for (const e of entries) s.run(...Q.cachePut.bind({ key: e.key, value: e.value, deadline: e.ttl === 0 ? 0 : clock.now + Math.round(e.ttl * 1000) }));
        return entries.length;
      },
      cacheGet(keys) {
        const now = clock.now;
        return keys.map((key) => (one(Q.cacheGet, { key, now }) as { value: string | null } | undefined)?.value);
      },
      chapterAt: (bookUrl, indexes) => indexes.map((index) => one(Q.chapter, { bookUrl, index }) as object | undefined),
      chapterList: (bookUrl) => all(Q.chapters, { bookUrl }) as object[],
      close: () => db.close(),
    };
  },

  exportBackup: (path, dir, tables) => exportTables(path, dir, tables, (t) => k.selectFrom(t).selectAll().compile().sql),

  importBackup(path, dir) {
    const db = rawConnect(path);
    try {
      const books = readJsonIfThere(join(dir, 'bookshelf.json'), true).map((o) => record(fromJson(o, BOOK_JSON), BOOK_DEFAULTS));
      const sources = readJsonIfThere(join(dir, 'bookSource.json')).map((o) => record(fromJson(o, SOURCE_JSON), SOURCE_DEFAULTS));
      const rules = readJsonIfThere(join(dir, 'replaceRule.json')).map((o) => {
        const { order, ...rest } = o;
        return record({ ...rest, sortOrder: order ?? 0 }, RULE_DEFAULTS);
      });
      const run = (q: { sql: string; bind(v: Record<string, unknown>): unknown[] }, rows: Record<string, unknown>[]) => {
        const s = db.prepare(q.sql);
        for (const r of rows) s.run(...q.bind(r));
      };
      return db.transaction(() => {
        run(
          upserts.books,
          books.map((x) => ({ ...x, group: BigInt.asIntN(64, BigInt(x.group as number | bigint)) })),
        );
        run(upserts.sources, sources);
        run(upserts.rules, rules);
        return books.length + sources.length + rules.length;
      })();
    } finally {
      db.close();
    }
  },
};
