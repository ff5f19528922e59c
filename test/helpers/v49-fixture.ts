// Schema-49 files with realistic data in all 19 tables, written through the typed API, for the
// migration tests and the benchmark. Everything is invented for this project. Also: a variant
// shaped like a long-lived app file (columns in another order, a column added by an old ALTER
// with a default), and a copy whose latest rows are still only in its -wal.
import { copyFileSync, existsSync } from 'node:fs';
import { openDb } from './engine.js';
import { openStore, schemas, type Store } from 'legado-store';
import { createIndexSql, createTableSql, type Table } from 'legado-store/tools';

export interface FixtureSize {
  /** Ordinary books (the origin edge cases of ODD_BOOKS come on top). */
  readonly books: number;
  readonly chaptersPerBook: number;
  /** Characters of intro per book: the rebuild of `books` copies them. */
  readonly introLength?: number;
  /** The first two books get this many chapters instead. */
  readonly bigBookChapters?: number;
}

export const SMALL: FixtureSize = { books: 24, chaptersPerBook: 5, bigBookChapters: 300 };

const T0 = 1_650_000_000_000;
const pretty = (o: unknown): string => JSON.stringify(o, null, 2);
export const SOURCES = ['https://a.example.org', 'https://b.example.org/书源', 'https://c.example.org'];

/**
 * Books whose origin tests the app's LIKE patterns exactly: LIKE ignores ASCII case and `_`
 * matches any character, so 'LOC_BOOK' and 'locXbook…' count as local too. [origin, old type].
 */
export const ODD_BOOKS: readonly (readonly [string, number])[] = [
  ['LOC_BOOK', 0],
  ['locXbook/odd.txt', 1],
  ['webdav::https://dav.example.org/lower.epub', 2],
  ['webDav:https://dav.example.org/one-colon.epub', 3],
  ['https://example.org/loc_book', 0],
  ['loc_book', 5],
  ['', 3],
];

/** What an origin looks like for ordinary book i: online, local, or WebDAV. */
function originOf(i: number): string {
  if (i % 3 === 1) return 'loc_book';
  if (i % 3 === 2) return `webDav::https://dav.example.org/books/${i}.epub`;
  return SOURCES[i % SOURCES.length]!;
}

export function createV49(path: string, size: FixtureSize = SMALL): void {
  const store = openStore(path, { schema: 49 });
  try {
    fillV49(store, size);
  } finally {
    store.close();
  }
}

export function fillV49(store: Store<49>, size: FixtureSize = SMALL): void {
  const t = store.tables;
  const intro = '一段简介，带“引号”与 emoji 📚。'.repeat(Math.ceil((size.introLength ?? 60) / 20)).slice(0, size.introLength ?? 60);
  store.transaction(() => {
    // Upsert: a new store may already hold the special groups (the app's open callback adds them).
    t.book_groups.upsertMany([
      { groupId: -1, groupName: '全部', order: -10, show: true },
      { groupId: -2, groupName: '本地', order: -9, show: true },
      { groupId: -3, groupName: '音频', order: -8, show: true },
      { groupId: -4, groupName: '未分组', order: -7, show: false },
      { groupId: 1, groupName: '武侠', order: 1, show: true, cover: '/storage/covers/wuxia.jpg' },
      { groupId: 2, groupName: '科幻', order: 2, show: true },
      { groupId: 2n ** 62n, groupName: '第63组', order: 63, show: true },
      { groupId: -(2n ** 63n), groupName: '第64组', order: 64, show: true },
    ]);
    t.book_sources.insertMany(
      SOURCES.map((url, i) => ({
        bookSourceUrl: url,
        bookSourceName: `书源${i}`,
        bookSourceGroup: i === 0 ? '常用,测试' : null,
        bookSourceType: i % 4,
        customOrder: i,
        enabled: i !== 2,
        enabledExplore: i === 0,
        enabledCookieJar: i === 1 ? true : null,
        concurrentRate: i === 0 ? '1000' : null,
        header: pretty({ 'User-Agent': `fixture-${i}` }),
        loginUrl: i === 1 ? `${url}/login` : null,
        loginUi: i === 1 ? 'null' : null,
        bookSourceComment: '// 注释\nline 2',
        lastUpdateTime: T0 + i,
        respondTime: 180000,
        weight: i * 10,
        exploreUrl: '热门::/hot\n新书::/new',
        ruleExplore: i === 2 ? 'null' : pretty({ bookList: '.list li', name: 'h3@text' }),
        searchUrl: '/search?q={{key}}',
        ruleSearch: pretty({ bookList: '.result', name: 'h3@text', author: '.author@text', bookUrl: 'a@href' }),
        ruleBookInfo: pretty({ name: 'h1@text', intro: '.intro@html' }),
        ruleToc: pretty({ chapterList: '#list a', chapterName: 'text', chapterUrl: 'href' }),
        ruleContent: pretty({ content: '#content@html', replaceRegex: '##<.*?>##' }),
      })),
    );
    const books = [
      ...Array.from({ length: size.books }, (_, i) => ({ origin: originOf(i), type: i % 4 })),
      ...ODD_BOOKS.map(([origin, type]) => ({ origin, type })),
    ].map(({ origin, type }, i) => ({
      bookUrl: origin.startsWith('http') ? `${origin}/book/${i}` : `/storage/Books/${i}-${origin.length}.txt`,
      tocUrl: origin.startsWith('http') ? `${origin}/book/${i}/toc` : '',
      origin,
      originName: origin.startsWith('http') ? `书源${i % SOURCES.length}` : `${i}.txt`,
      name: `书名${i}`,
      author: `作者${i % 17}`,
      kind: i % 2 ? '武侠,连载' : null,
      coverUrl: i % 5 ? `https://img.example.org/${i}.jpg` : null,
      intro,
      charset: origin.startsWith('http') ? null : 'UTF-8',
      type,
      group: i % 7 === 0 ? 2n ** 63n + 1n : BigInt(i % 4),
      latestChapterTitle: `第${size.chaptersPerBook}章`,
      latestChapterTime: T0 + i * 1000,
      lastCheckTime: T0,
      lastCheckCount: i % 3,
      totalChapterNum: size.chaptersPerBook,
      durChapterTitle: '第1章',
      durChapterIndex: i % 5,
      durChapterPos: i * 37,
      durChapterTime: T0 + i,
      wordCount: `${i}万字`,
      canUpdate: i % 2 === 0,
      order: i,
      originOrder: i % 3,
      variable: i % 4 ? null : pretty({ custom: `v${i}` }),
      readConfig: i % 6 ? 'null' : pretty({ reverseToc: false, pageAnim: 1, delTag: 0, splitLongChapter: true }),
    }));
    t.books.insertMany(books);
    books.forEach((b, i) => {
      const n = i < 2 && size.bigBookChapters ? size.bigBookChapters : size.chaptersPerBook;
      t.chapters.insertMany(
        Array.from({ length: n }, (_, j) => ({
          url: `${b.bookUrl}/${j}.html`,
          title: j % 50 === 0 ? `第${j / 50 + 1}卷` : `第${j + 1}章 标题`,
          isVolume: j % 50 === 0,
          baseUrl: b.tocUrl,
          bookUrl: b.bookUrl,
          index: j,
          isVip: j > 100,
          isPay: false,
          tag: j % 9 ? null : '更新于 2022-05-01',
          start: b.origin.startsWith('http') ? null : j * 4096,
          end: b.origin.startsWith('http') ? null : j * 4096 + 4095,
          variable: j === 0 ? '{"k":"v"}' : null,
        })),
      );
    });
    t.replace_rules.insertMany([
      { id: 0, name: '去广告', pattern: '本章未完.*', replacement: '', isRegex: true, order: 1 },
      { id: T0, name: '繁简', group: '常用', pattern: '妳', replacement: '你', isRegex: false, scope: '书名1', order: 2, timeoutMillisecond: 500 },
    ]);
    t.searchBooks.insertMany(
      Array.from({ length: 12 }, (_, i) => ({
        bookUrl: `${SOURCES[i % SOURCES.length]}/search/${i}`,
        origin: SOURCES[i % SOURCES.length]!,
        originName: `书源${i % SOURCES.length}`,
        type: i % 4,
        name: `结果${i}`,
        author: `作者${i}`,
        intro: i % 2 ? null : '简介',
        tocUrl: '',
        time: T0 + i,
        originOrder: i,
      })),
    );
    t.search_keywords.insertMany([
      { word: '剑', usage: 5, lastUseTime: T0 },
      { word: 'sci-fi', usage: 1, lastUseTime: T0 + 1 },
    ]);
    t.cookies.insertMany([{ url: 'a.example.org', cookie: 'sid=1; theme=dark' }]);
    t.rssSources.insertMany(
      Array.from({ length: 5 }, (_, i) => ({
        sourceUrl: `https://rss${i}.example.org/feed`,
        sourceName: `订阅${i}`,
        sourceIcon: i ? `https://rss${i}.example.org/icon.png` : '',
        sourceGroup: i % 2 ? 'legado' : null,
        enabled: i !== 3,
        enabledCookieJar: i === 2 ? null : i % 2 === 0,
        sortUrl: i === 1 ? '最新::/new' : null,
        singleUrl: i === 4,
        articleStyle: i % 3,
        ruleArticles: '.item',
        ruleTitle: 'h2@text',
        ruleContent: i === 0 ? null : '.body@html',
        style: i === 2 ? 'img{max-width:100%}' : null,
        enableJs: i !== 1,
        loadWithBaseUrl: i !== 2,
        customOrder: 10 - i,
      })),
    );
    t.bookmarks.insertMany([
      { time: T0 + 5, bookName: '书名0', bookAuthor: '作者0', chapterIndex: 2, chapterPos: 120, chapterName: '第3章', bookText: '山门初开', content: '好句' },
      { time: T0 + 6, bookName: '书名1', bookAuthor: '作者1', chapterIndex: 0, chapterPos: 0, chapterName: '第1章', bookText: '', content: '' },
    ]);
    t.rssArticles.insertMany([
      { origin: 'https://rss0.example.org/feed', sort: '', title: '头条', order: T0, link: 'https://rss0.example.org/a/1', read: false },
      {
        origin: 'https://rss1.example.org/feed',
        sort: '最新',
        title: '次条',
        order: T0 + 1,
        link: 'https://rss1.example.org/a/2',
        read: true,
        image: 'https://rss1.example.org/i.png',
        variable: '{}',
      },
    ]);
    t.rssReadRecords.insertMany([{ record: 'https://rss1.example.org/a/2', read: true }]);
    t.rssStars.insertMany([
      { origin: 'https://rss0.example.org/feed', sort: '', title: '头条', starTime: T0 + 9, link: 'https://rss0.example.org/a/1', content: '<p>正文</p>' },
    ]);
    t.txtTocRules.insertMany([
      {
        id: -1,
        name: '目录(去空白)',
        rule: '^[ 　\\t]{0,4}第[\\d零一二三四五六七八九十百千万壹贰叁肆伍陆柒捌玖拾佰仟]+[章节篇回].{0,30}$',
        serialNumber: 0,
        enable: true,
      },
      { id: -2, name: '数字 分隔符 标题名称', rule: '^[ 　\\t]{0,4}\\d{1,5}[:：,.， 、_—\\-].{1,30}$', serialNumber: 1, enable: false },
      { id: T0, name: '自定义', rule: '^Chapter \\d+', serialNumber: 99, enable: true },
    ]);
    t.readRecord.insertMany([
      { deviceId: '', bookName: '书名0', readTime: 3_600_000 },
      { deviceId: '', bookName: '书名1', readTime: 0 },
      { deviceId: 'android-other-device', bookName: '书名0', readTime: 2 ** 40 },
    ]);
    t.httpTTS.insertMany([
      { id: -100, name: '1.示例朗读', url: 'https://tts.example.org/speak?text={{speakText}}', contentType: 'audio/mpeg' },
      {
        id: T0,
        name: '自定义',
        url: 'https://tts2.example.org',
        concurrentRate: null,
        loginUrl: 'https://tts2.example.org/login',
        enabledCookieJar: true,
        lastUpdateTime: T0,
      },
    ]);
    t.caches.insertMany([
      { key: 'forever', value: 'kept', deadline: 0 },
      { key: 'expiring', value: null, deadline: T0 + 60_000 },
    ]);
    t.ruleSubs.insertMany([{ id: 1, name: '订阅源', url: 'https://subs.example.org/s.json', type: 0, customOrder: 0, autoUpdate: true, update: T0 }]);
    t.keyboardAssists.insertMany([
      { key: '@css:', value: '@css:', serialNo: 0 },
      { type: 0, key: '<js>', value: '<js></js>', serialNo: 1 },
    ]);
  });
}

/** A table of the 49 model with its columns in another order (as ALTERs over the years leave them). */
function reordered(t: Table): Table {
  return { ...t, columns: [...t.columns.slice(3), ...t.columns.slice(0, 3)] };
}

/**
 * A 49 file shaped like a long-lived app file: android_metadata, every table's columns in another
 * order, and rssSources.articleStyle added last by an old ALTER with `NOT NULL DEFAULT 0` (the
 * app's manual migration 12->13 did that; Room accepts it at 49, which declares no default).
 * Filled through the typed API; two rss sources then come in by raw SQL without articleStyle.
 */
export function createV49AppShaped(path: string, size: FixtureSize = SMALL): void {
  const db = openDb(path);
  db.pragma('journal_mode = WAL');
  const schema = schemas[49];
  db.transaction(() => {
    db.exec("CREATE TABLE android_metadata (locale TEXT); INSERT INTO android_metadata VALUES ('zh_CN')");
    for (const t of schema.tables) {
      const shaped = t.name === 'rssSources' ? { ...t, columns: t.columns.filter((c) => c.name !== 'articleStyle') } : reordered(t);
      db.exec(createTableSql(shaped));
      for (const ix of createIndexSql(t)) db.exec(ix);
    }
    db.exec('ALTER TABLE rssSources ADD COLUMN articleStyle INTEGER NOT NULL DEFAULT 0');
    db.exec('CREATE TABLE IF NOT EXISTS room_master_table (id INTEGER PRIMARY KEY,identity_hash TEXT)');
    db.exec(`INSERT OR REPLACE INTO room_master_table (id,identity_hash) VALUES(42, '${schema.identityHash}')`);
    db.pragma('user_version = 49');
  })();
  db.close();
  createV49(path, size);
  const raw = openDb(path);
  raw.exec(`INSERT INTO rssSources (sourceUrl, sourceName, sourceIcon, enabled, singleUrl, enableJs, loadWithBaseUrl, customOrder)
            VALUES ('https://old1.example.org/rss', '旧订阅1', '', 1, 0, 1, 1, 0), ('https://old2.example.org/rss', '旧订阅2', '', 0, 1, 0, 0, 7)`);
  raw.close();
}

/** Rows written after the fixture, by a writer that never checkpoints. */
export const WAL_BOOK = { bookUrl: 'https://a.example.org/book/wal', name: '只在WAL里', author: '新作者', origin: 'https://a.example.org', type: 1 };

/**
 * Copies a closed 49 file to `to` with its latest rows (WAL_BOOK, its chapters, a read record)
 * still only in the copy's -wal, as when the app's three files are copied while it runs.
 * With `shm: false` only the main file and the -wal are copied. `from` keeps those rows too.
 */
export function copyWithLiveWal(from: string, to: string, shm = true): void {
  const writer = openDb(from);
  writer.pragma('wal_autocheckpoint = 0');
  writer.transaction(() => {
    writer.prepare('INSERT INTO books (bookUrl, name, author, origin, type) VALUES (@bookUrl, @name, @author, @origin, @type)').run(WAL_BOOK);
    const ch = writer.prepare('INSERT INTO chapters (url, title, isVolume, baseUrl, bookUrl, `index`, isVip, isPay) VALUES (?, ?, 0, ?, ?, ?, 0, 0)');
    for (let j = 0; j < 40; j++) ch.run(`${WAL_BOOK.bookUrl}/${j}`, `第${j + 1}章`, WAL_BOOK.bookUrl, WAL_BOOK.bookUrl, j);
    writer.prepare("INSERT INTO readRecord (deviceId, bookName, readTime) VALUES ('', ?, 42)").run(WAL_BOOK.name);
  })();
  for (const suffix of shm ? ['', '-wal', '-shm'] : ['', '-wal']) copyFileSync(from + suffix, to + suffix);
  writer.close();
  if (!existsSync(to + '-wal')) throw new Error('no -wal was copied');
}
