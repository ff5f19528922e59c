// The floor: prepared statements written by hand for exactly this work, on the engine the
// benchmark runs on (better-sqlite3, node:sqlite or bun:sqlite, each through its own API:
// raw-engines.ts), with no checking beyond what SQLite does. Results have the same shape as the store's (booleans
// as booleans, books.group as an exact bigint), since that is the work a caller needs done.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { defaultDriver } from '../../src/engine/drivers/index.js';
import type { Contender, Session } from '../contender.js';
import type { BookIn, ChapterIn, ReplaceRuleIn, SourceIn } from '../data.js';
import { BOOK_JSON, fromJson, readJson, RULE_JSON, SOURCE_JSON, writeJson } from './backup-json.js';
import { RAW_ENGINES, type RawDb, type RawStatement } from './raw-engines.js';

type Obj = Record<string, unknown>;

/** A better-sqlite3 connection with the store's pragmas, for the contenders built on it (Drizzle, Kysely). */
export function connect(path: string): Database.Database {
  const db = new Database(path, { fileMustExist: true, timeout: 5000 });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('temp_store = MEMORY');
  db.pragma('foreign_keys = ON');
  return db;
}

const b = (v: boolean | null | undefined): number | null => (v === undefined || v === null ? null : v ? 1 : 0);

const BOOK_COLUMNS =
  'bookUrl, tocUrl, origin, originName, name, author, kind, customTag, coverUrl, customCoverUrl, intro, customIntro, charset, type, ' +
  '`group`, latestChapterTitle, latestChapterTime, lastCheckTime, lastCheckCount, totalChapterNum, durChapterTitle, durChapterIndex, ' +
  'durChapterPos, durChapterTime, wordCount, canUpdate, `order`, originOrder, variable, readConfig';
/**
 * `group` is a 64-bit mask: read as a number where that is exact and as text otherwise, so
 * BigInt() of either is exact without reading every integer of the row as a bigint.
 */
const BOOK_SELECT = BOOK_COLUMNS.replace(
  '`group`',
  'CASE WHEN `group` BETWEEN -9007199254740991 AND 9007199254740991 THEN `group` ELSE CAST(`group` AS TEXT) END AS `group`',
);
const bookRow = (r: Obj): Obj => {
  r.group = BigInt(r.group as number | string);
  r.canUpdate = r.canUpdate !== 0;
  return r;
};
const bookParams = (x: BookIn): unknown[] => [
  x.bookUrl, x.tocUrl ?? '', x.origin ?? 'loc_book', x.originName ?? '', x.name ?? '', x.author ?? '', x.kind ?? null,
  x.customTag ?? null, x.coverUrl ?? null, x.customCoverUrl ?? null, x.intro ?? null, x.customIntro ?? null, x.charset ?? null,
  x.type ?? 0, BigInt.asIntN(64, BigInt(x.group ?? 0)), x.latestChapterTitle ?? null, x.latestChapterTime ?? 0,
  x.lastCheckTime ?? 0, x.lastCheckCount ?? 0, x.totalChapterNum ?? 0, x.durChapterTitle ?? null, x.durChapterIndex ?? 0,
  x.durChapterPos ?? 0, x.durChapterTime ?? 0, x.wordCount ?? null, b(x.canUpdate ?? true), x.order ?? 0, x.originOrder ?? 0,
  x.variable ?? null, x.readConfig ?? null,
];

const CHAPTER_COLUMNS =
  'url, title, isVolume, baseUrl, bookUrl, `index`, isVip, isPay, resourceUrl, tag, start, `end`, startFragmentId, endFragmentId, variable';
const chapterRow = (r: Obj): Obj => {
  r.isVolume = r.isVolume !== 0;
  r.isVip = r.isVip !== 0;
  r.isPay = r.isPay !== 0;
  return r;
};
const chapterParams = (c: ChapterIn, bookUrl: string): unknown[] => [
  c.url, c.title, b(c.isVolume), c.baseUrl, bookUrl, c.index, b(c.isVip), b(c.isPay), c.resourceUrl ?? null, c.tag ?? null,
  c.start ?? null, c.end ?? null, c.startFragmentId ?? null, c.endFragmentId ?? null, c.variable ?? null,
];

const SOURCE_COLUMNS =
  'bookSourceUrl, bookSourceName, bookSourceGroup, bookSourceType, bookUrlPattern, customOrder, enabled, enabledExplore, ' +
  'enabledReview, enabledCookieJar, concurrentRate, header, loginUrl, loginUi, loginCheckJs, coverDecodeJs, bookSourceComment, ' +
  'variableComment, lastUpdateTime, respondTime, weight, exploreUrl, ruleExplore, searchUrl, ruleSearch, ruleBookInfo, ruleToc, ' +
  'ruleContent, ruleReview';
const SOURCE_UPSERT =
  `INSERT INTO book_sources (${SOURCE_COLUMNS}) VALUES (${SOURCE_COLUMNS.split(',').map(() => '?').join(', ')}) ` +
  `ON CONFLICT(bookSourceUrl) DO UPDATE SET ${SOURCE_COLUMNS.split(', ').slice(1).map((c) => `${c} = excluded.${c}`).join(', ')}`;
const sourceParams = (s: SourceIn): unknown[] => [
  s.bookSourceUrl, s.bookSourceName, s.bookSourceGroup ?? null, s.bookSourceType, s.bookUrlPattern ?? null, s.customOrder,
  b(s.enabled), b(s.enabledExplore), b(s.enabledReview), b(s.enabledCookieJar ?? false), s.concurrentRate ?? null,
  s.header ?? null, s.loginUrl ?? null, s.loginUi ?? null, s.loginCheckJs ?? null, s.coverDecodeJs ?? null,
  s.bookSourceComment ?? null, s.variableComment ?? null, s.lastUpdateTime, s.respondTime, s.weight, s.exploreUrl ?? null,
  s.ruleExplore ?? null, s.searchUrl ?? null, s.ruleSearch ?? null, s.ruleBookInfo ?? null, s.ruleToc ?? null,
  s.ruleContent ?? null, s.ruleReview ?? null,
];

/** The benchmark's engine, through its own API. */
function rawConnect(path: string): RawDb {
  const name = defaultDriver().name;
  const open = RAW_ENGINES[name];
  if (!open) throw new Error(`the raw contender has no code for ${name}`);
  return open(path);
}

/** Statements prepared on first use, once per connection. */
function statements(db: RawDb) {
  const cache = new Map<string, RawStatement>();
  return (sql: string): RawStatement => {
    let s = cache.get(sql);
    if (!s) cache.set(sql, (s = db.prepare(sql)));
    return s;
  };
}

export const raw: Contender = {
  name: 'raw',

  open(path, clock): Session {
    const db = rawConnect(path);
    const st = statements(db);
    return {
      replaceToc(bookUrl, chapters) {
        const del = st('DELETE FROM chapters WHERE bookUrl = ?');
        const ins = st(`INSERT INTO chapters (${CHAPTER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
        return db.transaction(() => {
          del.run(bookUrl);
          for (const c of chapters) ins.run(...chapterParams(c, bookUrl));
          return chapters.length;
        });
      },
      upsertSources(rows) {
        const up = st(SOURCE_UPSERT);
        return db.transaction(() => {
          for (const s of rows) up.run(...sourceParams(s));
          return rows.length;
        });
      },
      shelf: () => (st(`SELECT ${BOOK_SELECT} FROM books ORDER BY durChapterTime DESC`).all() as Obj[]).map(bookRow),
      shelfGroup: (groupId) =>
        (st(`SELECT ${BOOK_SELECT} FROM books WHERE (\`group\` & ?) != 0 ORDER BY durChapterTime DESC`).all(groupId) as Obj[]).map(bookRow),
      saveProgress(saves) {
        const up = st('UPDATE books SET durChapterIndex = ?, durChapterPos = ?, durChapterTime = ? WHERE bookUrl = ?');
        let n = 0;
        for (const s of saves) n += Number(up.run(s.durChapterIndex, s.durChapterPos, s.durChapterTime, s.bookUrl).changes);
        return n;
      },
      cachePut(entries) {
        const put = st('INSERT INTO caches (key, value, deadline) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, deadline = excluded.deadline');
        for (const e of entries) put.run(e.key, e.value, e.ttl === 0 ? 0 : clock.now + Math.round(e.ttl * 1000));
        return entries.length;
      },
      cacheGet(keys) {
        const get = db.pluck(st('SELECT value FROM caches WHERE key = ? AND (deadline = 0 OR deadline > ?)'));
        const now = clock.now;
        return keys.map((k) => get(k, now) as string | null | undefined);
      },
      chapterAt(bookUrl, indexes) {
        const get = st(`SELECT ${CHAPTER_COLUMNS} FROM chapters WHERE bookUrl = ? AND \`index\` = ?`);
        return indexes.map((i) => {
          const r = get.get(bookUrl, i) as Obj | undefined;
          return r && chapterRow(r);
        });
      },
      chapterList: (bookUrl) =>
        (st(`SELECT ${CHAPTER_COLUMNS} FROM chapters WHERE bookUrl = ? ORDER BY \`index\``).all(bookUrl) as Obj[]).map(chapterRow),
      close: () => {
        db.close();
      },
    };
  },

  /** What a hand-written app checks before using a file: the version and Room's identity hash. */
  openAndCheck(path) {
    const db = rawConnect(path);
    try {
      const version = db.userVersion();
      const hash = db.pluck(db.prepare('SELECT identity_hash FROM room_master_table WHERE id = 42'))();
      if (version !== 62 || hash !== '965c5f1d4c60d25b4b46efb17c575c85') throw new Error(`not a schema-62 store: ${String(version)} ${String(hash)}`);
    } finally {
      db.close();
    }
  },

  exportBackup(path, dir) {
    const db = rawConnect(path);
    try {
      mkdirSync(dir, { recursive: true });
      let n = 0;
      n += writeJson(join(dir, 'bookshelf.json'), db.allExact('SELECT * FROM books'), BOOK_JSON);
      n += writeJson(join(dir, 'bookSource.json'), db.prepare('SELECT * FROM book_sources').all() as Obj[], SOURCE_JSON);
      n += writeJson(join(dir, 'replaceRule.json'), db.prepare('SELECT * FROM replace_rules').all() as Obj[], RULE_JSON);
      return n;
    } finally {
      db.close();
    }
  },

  importBackup(path, dir) {
    const db = rawConnect(path);
    try {
      const books = readJson(join(dir, 'bookshelf.json'), true);
      const sources = readJson(join(dir, 'bookSource.json'));
      const rules = readJson(join(dir, 'replaceRule.json'));
      const bookUp = db.prepare(
        `INSERT INTO books (${BOOK_COLUMNS}) VALUES (${BOOK_COLUMNS.split(',').map(() => '?').join(', ')}) ` +
          `ON CONFLICT(bookUrl) DO UPDATE SET ${BOOK_COLUMNS.split(', ').slice(1).map((c) => `${c} = excluded.${c}`).join(', ')}`,
      );
      const sourceUp = db.prepare(SOURCE_UPSERT);
      const ruleUp = db.prepare(
        'INSERT INTO replace_rules (id, name, `group`, pattern, replacement, scope, scopeTitle, scopeContent, isEnabled, isRegex, timeoutMillisecond, sortOrder) ' +
          'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET name = excluded.name, `group` = excluded.`group`, ' +
          'pattern = excluded.pattern, replacement = excluded.replacement, scope = excluded.scope, scopeTitle = excluded.scopeTitle, ' +
          'scopeContent = excluded.scopeContent, isEnabled = excluded.isEnabled, isRegex = excluded.isRegex, ' +
          'timeoutMillisecond = excluded.timeoutMillisecond, sortOrder = excluded.sortOrder',
      );
      return db.transaction(() => {
        for (const o of books) bookUp.run(...bookParams(fromJson(o, BOOK_JSON) as BookIn));
        for (const o of sources) sourceUp.run(...sourceParams(fromJson(o, SOURCE_JSON) as SourceIn));
        for (const o of rules) {
          const r = fromJson(o, RULE_JSON) as ReplaceRuleIn;
          ruleUp.run(r.id, r.name ?? '', r.group ?? null, r.pattern ?? '', r.replacement ?? '', r.scope ?? null, b(r.scopeTitle ?? false),
            b(r.scopeContent ?? true), b(r.isEnabled ?? true), b(r.isRegex ?? true), r.timeoutMillisecond ?? 3000, r.order ?? 0);
        }
        return books.length + sources.length + rules.length;
      });
    } finally {
      db.close();
    }
  },
};

