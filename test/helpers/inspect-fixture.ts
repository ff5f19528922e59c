// Corpus-like stores for the CLI's look-at commands: Chinese names, a book in the 64th group
// (bit 63, stored as -2^63), a cookie and a WebDAV server config (secrets), sources whose URLs
// differ only in case, whitespace or a trailing slash, cache entries expired and not.
import { openStore, type SchemaVersion, type Store } from 'legado-store';
import { source as bookSource } from './domain.js';

export const SECRET_COOKIE = 'SESSION=s3cr3t-cookie-value';
export const SECRET_CONFIG = '{"url":"https://dav.example","username":"u","password":"p4ssw0rd"}';
export const NOW = 1_700_000_000_000;

export function fillShelf(store: Store<62> | Store<49>): { scifi: bigint; last: bigint } {
  const s = store as Store<62>;
  const scifi = s.bookGroups.create('科幻', store.version === 62 ? { bookSort: 2 } : {}).groupId;
  const wuxia = s.bookGroups.create('武侠').groupId;
  let last = wuxia;
  for (let i = 3; i <= 64; i++) last = s.bookGroups.create(`组${i}`).groupId;
  const origin = 'https://www.biquge.example';
  const type = store.version === 49 ? 0 : 8;
  const books = [
    {
      bookUrl: `${origin}/book/1`,
      name: '三体',
      author: '刘慈欣',
      group: scifi,
      durChapterIndex: 11,
      totalChapterNum: 36,
      durChapterTitle: '第十二章 三体、牛顿、冯·诺伊曼',
      durChapterTime: NOW - 1000,
      latestChapterTitle: '第三十六章',
      latestChapterTime: NOW - 5000,
    },
    {
      bookUrl: `${origin}/book/2`,
      name: '球状闪电',
      author: '刘慈欣',
      group: scifi | last,
      durChapterIndex: 0,
      totalChapterNum: 20,
      durChapterTitle: '序章',
      durChapterTime: NOW - 3000,
      latestChapterTitle: '第二十章',
      latestChapterTime: NOW - 100,
    },
    {
      bookUrl: `${origin}/book/3`,
      name: '笑傲江湖',
      author: '金庸',
      group: wuxia,
      durChapterIndex: 5,
      totalChapterNum: 40,
      durChapterTitle: '第六回',
      durChapterTime: NOW - 2000,
      latestChapterTitle: '第四十回',
      latestChapterTime: NOW - 9000,
    },
    {
      bookUrl: `${origin}/book/4`,
      name: '未分组的书, "引号"',
      author: '佚名',
      group: 0n,
      durChapterIndex: 2,
      totalChapterNum: 3,
      durChapterTitle: '第三章\n换行',
      durChapterTime: NOW - 500,
      latestChapterTitle: '第三章',
      latestChapterTime: NOW - 500,
    },
  ];
  for (const b of books) s.books.save({ ...b, origin, originName: '笔趣阁', type, canUpdate: b.name !== '三体' });
  return { scifi, last };
}

export function fillSecrets(store: Store<62> | Store<49>): void {
  const s = store as Store<62>;
  s.tables.cookies.insert({ url: 'biquge.example', cookie: SECRET_COOKIE });
  if (store.schema.table('servers')) s.tables.servers.insert({ id: 1, name: '坚果云', type: 'WEBDAV', config: SECRET_CONFIG, sortNumber: 0 });
}

/** A book source in group 精品 with a search rule. */
export function source(url: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return bookSource(url, {
    bookSourceName: `书源 ${url.trim()}`,
    bookSourceGroup: '精品',
    ruleSearch: JSON.stringify({ bookList: 'li', name: 'a@text' }),
    ...fields,
  });
}

/** Sources: three spellings of one site (the newest has spaces around it), two of another (tie on time, more rules wins), one alone. */
export function fillSources(store: Store<62> | Store<49>): void {
  const t = (store as Store<62>).tables.book_sources;
  t.insert(source('https://www.Biquge.example/', { customOrder: 1, lastUpdateTime: 10 }) as never);
  t.insert(source(' HTTPS://WWW.BIQUGE.EXAMPLE', { customOrder: 2, lastUpdateTime: 30 }) as never);
  t.insert(source('https://www.biquge.example', { customOrder: 3, lastUpdateTime: 20, bookSourceGroup: '失效' }) as never);
  t.insert(source('https://m.qidian.example', { customOrder: 4, lastUpdateTime: 5 }) as never);
  t.insert(
    source('https://m.qidian.example/', {
      customOrder: 5,
      lastUpdateTime: 5,
      ruleToc: JSON.stringify({ chapterList: 'li', chapterName: 'a@text', chapterUrl: 'a@href' }),
    }) as never,
  );
  t.insert(source('https://alone.example/path/', { customOrder: 6, bookSourceGroup: '精品,失效' }) as never);
}

export function fillCache(store: Store<62> | Store<49>, now: number): void {
  const t = (store as Store<62>).tables.caches;
  t.insert({ key: 'expired', value: 'old', deadline: now - 1 });
  t.insert({ key: 'forever', value: 'kept', deadline: 0 });
  t.insert({ key: 'future', value: 'kept too', deadline: now + 3_600_000 });
}

/** A full corpus-like store at `version`. */
export function buildStore(path: string, version: SchemaVersion = 62): void {
  const store = openStore(path, { schema: version }) as unknown as Store<62>;
  try {
    fillShelf(store);
    fillSecrets(store);
    fillSources(store);
    fillCache(store, Date.now());
  } finally {
    store.close();
  }
}
