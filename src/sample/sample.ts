// A small, made-up reader profile touching every table of schema 62: used by `legado-store demo`
// and as a fixture by the tests. All names, URLs and texts are invented for this project.
import type { Store } from '../store/store.js';

const T0 = 1_700_000_000_000;
const pretty = (o: unknown): string => JSON.stringify(o, null, 2);

export const SAMPLE_SOURCE_URL = 'https://books.example.org';

export function fillSample(store: Store<62>, chaptersPerBook = 12): void {
  const t = store.tables;
  store.transaction(() => {
    // Upsert: a store created by openStore already holds the special groups (全部 among them).
    t.book_groups.upsertMany([
      { groupId: -1, groupName: '全部', order: -10, show: true },
      { groupId: 1, groupName: '武侠', order: 1, show: true },
      { groupId: 2, groupName: '科幻', order: 2, show: true, bookSort: 2 },
    ]);
    t.book_sources.insert({
      bookSourceUrl: SAMPLE_SOURCE_URL,
      bookSourceName: '示例书源',
      bookSourceGroup: '示例,测试',
      bookSourceType: 0,
      customOrder: 0,
      enabled: true,
      enabledExplore: true,
      lastUpdateTime: T0,
      respondTime: 180000,
      weight: 0,
      searchUrl: '/search?q={{key}}&page={{page}}',
      exploreUrl: '热门::/hot',
      header: '{"User-Agent":"legado-store-sample"}',
      ruleSearch: pretty({ bookList: '.result', name: 'h3@text', author: '.author@text', bookUrl: 'a@href' }),
      ruleBookInfo: pretty({ name: 'h1@text', author: '.author@text', intro: '.intro@html' }),
      ruleToc: pretty({ chapterList: '#list a', chapterName: 'text', chapterUrl: 'href' }),
      ruleContent: pretty({ content: '#content@html' }),
    });
    const books = [
      {
        bookUrl: `${SAMPLE_SOURCE_URL}/book/1`,
        name: '青山剑客',
        author: '林远',
        group: 1,
        type: 8,
        origin: SAMPLE_SOURCE_URL,
        originName: '示例书源',
        durChapterTime: T0 + 3000,
      },
      {
        bookUrl: `${SAMPLE_SOURCE_URL}/book/2`,
        name: '星海尽头',
        author: '周航',
        group: 2,
        type: 8,
        origin: SAMPLE_SOURCE_URL,
        originName: '示例书源',
        durChapterTime: T0 + 2000,
      },
      { bookUrl: 'local/旧日笔记.txt', name: '旧日笔记', author: '佚名', group: 0, type: 264, originName: '旧日笔记.txt', durChapterTime: T0 + 1000 },
    ];
    for (const b of books) {
      t.books.insert({
        ...b,
        tocUrl: b.bookUrl,
        totalChapterNum: chaptersPerBook,
        latestChapterTitle: `第${chaptersPerBook}章`,
        durChapterIndex: 2,
        durChapterTitle: '第3章',
      });
      t.chapters.insertMany(
        Array.from({ length: chaptersPerBook }, (_, i) => ({
          url: `${b.bookUrl}/c${i + 1}`,
          title: `第${i + 1}章`,
          isVolume: false,
          baseUrl: b.bookUrl,
          bookUrl: b.bookUrl,
          index: i,
          isVip: i >= chaptersPerBook - 2,
          isPay: false,
        })),
      );
    }
    t.searchBooks.insert({
      bookUrl: `${SAMPLE_SOURCE_URL}/book/3`,
      origin: SAMPLE_SOURCE_URL,
      originName: '示例书源',
      type: 8,
      name: '雾城',
      author: '许安',
      tocUrl: '',
      time: T0,
      originOrder: 0,
    });
    t.search_keywords.insertMany([
      { word: '剑客', usage: 3, lastUseTime: T0 },
      { word: '星海', usage: 1, lastUseTime: T0 + 10 },
    ]);
    t.replace_rules.insert({ id: 1, name: '去广告', pattern: '本章未完.*', replacement: '', isRegex: true, order: 1 });
    t.bookmarks.insert({
      time: T0 + 5,
      bookName: '青山剑客',
      bookAuthor: '林远',
      chapterIndex: 2,
      chapterPos: 120,
      chapterName: '第3章',
      bookText: '山门初开',
      content: '好句',
    });
    t.readRecord.insert({ deviceId: '', bookName: '青山剑客', readTime: 3_600_000, lastRead: T0 + 3000 });
    t.rssSources.insert({
      sourceUrl: 'https://news.example.org/rss',
      sourceName: '示例资讯',
      sourceIcon: '',
      enabled: true,
      singleUrl: false,
      sourceGroup: '资讯',
    });
    t.rssArticles.insert({ origin: 'https://news.example.org/rss', sort: '', title: '第一条', order: T0, link: 'https://news.example.org/a/1', read: false });
    t.rssReadRecords.insert({ record: 'https://news.example.org/a/1', read: true });
    t.rssStars.insert({ origin: 'https://news.example.org/rss', sort: '', title: '第一条', starTime: T0, link: 'https://news.example.org/a/1' });
    t.txtTocRules.insert({ id: -1, name: '数字章节', rule: '^第[0-9]+章.*', serialNumber: 0, enable: true });
    t.httpTTS.insert({ id: -100, name: '示例朗读', url: 'https://tts.example.org/speak?text={{speakText}}' });
    t.caches.insertMany([
      { key: 'sample_forever', value: 'kept', deadline: 0 },
      { key: 'sample_expiring', value: 'soon gone', deadline: T0 + 60_000 },
    ]);
    t.cookies.insert({ url: 'example.org', cookie: 'session=abc; theme=dark' });
    t.ruleSubs.insert({ id: 1, name: '示例订阅', url: 'https://subs.example.org/sources.json', type: 0, customOrder: 0, autoUpdate: false, update: T0 });
    t.dictRules.insert({ name: '示例词典', urlRule: 'https://dict.example.org/{{key}}', showRule: '.def@text' });
    t.keyboardAssists.insert({ key: '@css:', value: '@css:', serialNo: 0 });
    t.servers.insert({
      id: 1,
      name: '示例 WebDAV',
      type: 'WEBDAV',
      config: '{"url":"https://dav.example.org/","username":"reader","password":"secret"}',
      sortNumber: 0,
    });
  });
}
