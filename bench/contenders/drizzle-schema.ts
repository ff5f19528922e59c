// The tables the benchmarks touch, modelled in Drizzle ORM as its users would: the real
// column names, NOT NULL and defaults, composite primary keys, indexes, the foreign key, and
// `integer({ mode: 'boolean' })` for the app's boolean fields. Drizzle creates no table here:
// the files come from legado-store's DDL.
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

export const books = sqliteTable(
  'books',
  {
    bookUrl: text('bookUrl').primaryKey().notNull().default(''),
    tocUrl: text('tocUrl').notNull().default(''),
    origin: text('origin').notNull().default('loc_book'),
    originName: text('originName').notNull().default(''),
    name: text('name').notNull().default(''),
    author: text('author').notNull().default(''),
    kind: text('kind'),
    customTag: text('customTag'),
    coverUrl: text('coverUrl'),
    customCoverUrl: text('customCoverUrl'),
    intro: text('intro'),
    customIntro: text('customIntro'),
    charset: text('charset'),
    type: integer('type').notNull().default(0),
    // A 64-bit bitmask; Drizzle's SQLite integer has no bigint mode, so users take number.
    group: integer('group').notNull().default(0),
    latestChapterTitle: text('latestChapterTitle'),
    latestChapterTime: integer('latestChapterTime').notNull().default(0),
    lastCheckTime: integer('lastCheckTime').notNull().default(0),
    lastCheckCount: integer('lastCheckCount').notNull().default(0),
    totalChapterNum: integer('totalChapterNum').notNull().default(0),
    durChapterTitle: text('durChapterTitle'),
    durChapterIndex: integer('durChapterIndex').notNull().default(0),
    durChapterPos: integer('durChapterPos').notNull().default(0),
    durChapterTime: integer('durChapterTime').notNull().default(0),
    wordCount: text('wordCount'),
    canUpdate: integer('canUpdate', { mode: 'boolean' }).notNull().default(true),
    order: integer('order').notNull().default(0),
    originOrder: integer('originOrder').notNull().default(0),
    variable: text('variable'),
    readConfig: text('readConfig'),
  },
  (t) => [uniqueIndex('index_books_name_author').on(t.name, t.author)],
);

export const chapters = sqliteTable(
  'chapters',
  {
    url: text('url').notNull(),
    title: text('title').notNull(),
    isVolume: integer('isVolume', { mode: 'boolean' }).notNull(),
    baseUrl: text('baseUrl').notNull(),
    bookUrl: text('bookUrl')
      .notNull()
      .references(() => books.bookUrl, { onDelete: 'cascade' }),
    index: integer('index').notNull(),
    isVip: integer('isVip', { mode: 'boolean' }).notNull(),
    isPay: integer('isPay', { mode: 'boolean' }).notNull(),
    resourceUrl: text('resourceUrl'),
    tag: text('tag'),
    start: integer('start'),
    end: integer('end'),
    startFragmentId: text('startFragmentId'),
    endFragmentId: text('endFragmentId'),
    variable: text('variable'),
  },
  (t) => [
    primaryKey({ columns: [t.url, t.bookUrl] }),
    index('index_chapters_bookUrl').on(t.bookUrl),
    uniqueIndex('index_chapters_bookUrl_index').on(t.bookUrl, t.index),
  ],
);

export const bookSources = sqliteTable(
  'book_sources',
  {
    bookSourceUrl: text('bookSourceUrl').primaryKey().notNull(),
    bookSourceName: text('bookSourceName').notNull(),
    bookSourceGroup: text('bookSourceGroup'),
    bookSourceType: integer('bookSourceType').notNull(),
    bookUrlPattern: text('bookUrlPattern'),
    customOrder: integer('customOrder').notNull(),
    enabled: integer('enabled', { mode: 'boolean' }).notNull(),
    enabledExplore: integer('enabledExplore', { mode: 'boolean' }).notNull(),
    // Nullable flags stay numbers: boolean mode writes null as 0 (it maps with `value ? 1 : 0`).
    enabledReview: integer('enabledReview'),
    enabledCookieJar: integer('enabledCookieJar').default(0),
    concurrentRate: text('concurrentRate'),
    header: text('header'),
    loginUrl: text('loginUrl'),
    loginUi: text('loginUi'),
    loginCheckJs: text('loginCheckJs'),
    coverDecodeJs: text('coverDecodeJs'),
    bookSourceComment: text('bookSourceComment'),
    variableComment: text('variableComment'),
    lastUpdateTime: integer('lastUpdateTime').notNull(),
    respondTime: integer('respondTime').notNull(),
    weight: integer('weight').notNull(),
    exploreUrl: text('exploreUrl'),
    ruleExplore: text('ruleExplore'),
    searchUrl: text('searchUrl'),
    ruleSearch: text('ruleSearch'),
    ruleBookInfo: text('ruleBookInfo'),
    ruleToc: text('ruleToc'),
    ruleContent: text('ruleContent'),
    ruleReview: text('ruleReview'),
  },
  (t) => [index('index_book_sources_bookSourceUrl').on(t.bookSourceUrl)],
);

export const caches = sqliteTable(
  'caches',
  {
    key: text('key').primaryKey().notNull(),
    value: text('value'),
    deadline: integer('deadline').notNull(),
  },
  (t) => [uniqueIndex('index_caches_key').on(t.key)],
);

export const replaceRules = sqliteTable(
  'replace_rules',
  {
    id: integer('id').primaryKey({ autoIncrement: true }).notNull(),
    name: text('name').notNull().default(''),
    group: text('group'),
    pattern: text('pattern').notNull().default(''),
    replacement: text('replacement').notNull().default(''),
    scope: text('scope'),
    scopeTitle: integer('scopeTitle', { mode: 'boolean' }).notNull().default(false),
    scopeContent: integer('scopeContent', { mode: 'boolean' }).notNull().default(true),
    isEnabled: integer('isEnabled', { mode: 'boolean' }).notNull().default(true),
    isRegex: integer('isRegex', { mode: 'boolean' }).notNull().default(true),
    timeoutMillisecond: integer('timeoutMillisecond').notNull().default(3000),
    order: integer('sortOrder').notNull().default(0),
  },
  (t) => [index('index_replace_rules_id').on(t.id)],
);
