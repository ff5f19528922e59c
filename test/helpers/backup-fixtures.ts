// Small Legado backups and rule files built in code, so the import/export tests need nothing
// from outside the repository.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeZip } from './zip.js';

export type Json = Record<string, unknown>;

/** One record of every backup table, in the app's JSON shapes (booleans, nested rules, `order`). */
export function sampleBackup(): Record<string, Json[]> {
  return {
    'bookshelf.json': [
      {
        bookUrl: 'https://books.example/1',
        tocUrl: 'https://books.example/1/toc',
        origin: 'https://source.example',
        originName: 'Source',
        name: 'Book One',
        author: 'Author A',
        intro: '<p>intro & more</p>',
        type: 8,
        group: 3,
        latestChapterTime: 1600000000000,
        lastCheckTime: 1600000000001,
        durChapterTime: 1600000000002,
        durChapterIndex: 4,
        canUpdate: false,
        order: 2,
        variable: '{"a":"b"}',
        readConfig: { reverseToc: false, pageAnim: 1, splitLongChapter: true },
      },
      {
        bookUrl: '/storage/emulated/0/Books/local.txt',
        origin: 'loc_book',
        originName: 'local.txt',
        name: 'Local',
        author: '',
        type: 264,
        latestChapterTime: 1,
        lastCheckTime: 2,
        durChapterTime: 3,
      },
    ],
    'bookmark.json': [
      {
        time: 1600000000100,
        bookName: 'Book One',
        bookAuthor: 'Author A',
        chapterIndex: 1,
        chapterPos: 2,
        chapterName: 'C1',
        bookText: 'text',
        content: 'note',
      },
    ],
    'bookGroup.json': [{ groupId: 1, groupName: 'Fav', order: 1, show: true, bookSort: 2 }],
    'bookSource.json': [
      {
        bookSourceUrl: 'https://source.example',
        bookSourceName: 'Source',
        bookSourceGroup: 'g1,g2',
        bookSourceType: 0,
        customOrder: 7,
        enabled: true,
        enabledExplore: false,
        enabledCookieJar: true,
        header: '{"User-Agent":"x"}',
        lastUpdateTime: 1700000000000,
        respondTime: 180000,
        weight: 3,
        searchUrl: '/search?q={{key}}',
        ruleSearch: { bookList: 'class.list@li', name: 'tag.a@text' },
        ruleBookInfo: { name: 'h1@text' },
        ruleToc: { chapterList: 'li', chapterName: 'a@text', chapterUrl: 'a@href' },
        ruleContent: { content: 'id.content@html' },
      },
    ],
    'rssSources.json': [
      {
        sourceUrl: 'https://rss.example',
        sourceName: 'Rss',
        sourceIcon: 'https://rss.example/i.png',
        enabled: true,
        singleUrl: false,
        articleStyle: 1,
        enableJs: true,
        loadWithBaseUrl: false,
        customOrder: 3,
        lastUpdateTime: 5,
      },
    ],
    'rssStar.json': [{ origin: 'https://rss.example', sort: 'news', title: 'Starred', starTime: 9, link: 'https://rss.example/a1', pubDate: '2020' }],
    'replaceRule.json': [
      {
        id: 1600000000200,
        name: 'ads',
        group: 'clean',
        pattern: '广告',
        replacement: '',
        isEnabled: true,
        isRegex: false,
        scopeTitle: false,
        scopeContent: true,
        timeoutMillisecond: 3000,
        order: 5,
      },
    ],
    'searchHistory.json': [{ word: 'dragon', usage: 3, lastUseTime: 1600000000300 }],
    'sourceSub.json': [{ id: 1600000000400, name: 'sub', url: 'https://sub.example/s.json', type: 0, customOrder: 1, autoUpdate: true, update: 1600000000401 }],
    'txtTocRule.json': [{ id: -1, name: 'chapters', rule: '^第.{1,7}章', example: '第一章', serialNumber: 0, enable: true }],
    'httpTTS.json': [{ id: -100, name: 'tts', url: 'https://tts.example?t={{speakText}}', concurrentRate: '0', enabledCookieJar: false, lastUpdateTime: 1 }],
    'dictRule.json': [{ name: 'dict', urlRule: 'https://dict.example/{{key}}', showRule: '@js:result', enabled: true, sortNumber: 1 }],
    'keyboardAssists.json': [{ type: 0, key: '@css:', value: '@css:', serialNo: 0 }],
    'readRecord.json': [{ deviceId: '', bookName: 'Book One', readTime: 5000, lastRead: 1600000000500 }],
    'servers.json': [{ id: 1600000000600, name: 'dav', type: 'WEBDAV', config: '{"url":"https://dav.example","username":"u","password":"p"}', sortNumber: 0 }],
  };
}

/** Writes the files (arrays as JSON, strings as they are) into a new folder. */
export function writeBackupFolder(dir: string, files: Record<string, Json[] | string>): string {
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return dir;
}

/** The same files as a flat zip. */
export async function writeBackupZip(dir: string, zipPath: string, files: Record<string, Json[] | string>): Promise<string> {
  const folder = writeBackupFolder(join(dir, 'zip-src'), files);
  await writeZip(
    zipPath,
    Object.keys(files).map((name) => ({ name, path: join(folder, name) })),
  );
  return zipPath;
}

export function writeJson(path: string, value: unknown): string {
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return path;
}
