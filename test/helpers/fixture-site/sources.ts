// A book source in the app's own syntax for every shape of the site, written as a source author
// writes them for such pages (compare ../shared/corpora/booksources-*), with the base URL filled in.
import { KINDS, type Book, type Chapter } from './model.js';
import { aioBookPath, aioChapterPath } from './shape-aio.js';
import { apiBookPath, apiChapterPath } from './shape-api.js';
import { gbkBookPath, gbkChapterPath } from './shape-gbk.js';
import { guardedBookPath, guardedChapterPath, loginToken, type Guard } from './shape-guarded.js';
import { js1BookPath, js1ChapterPath, jsBookPath, jsChapterPath } from './shape-js.js';
import { pagedBookPath, pagedChapterPath } from './shape-paged.js';
import { xpathBookPath, xpathChapterPath } from './shape-xpath.js';
import type { BookField, BookSourceJson, Expect, FixtureSource, Tier } from './source-shape.js';

const ALL: readonly BookField[] = ['name', 'author', 'kind', 'intro', 'coverUrl', 'wordCount', 'latestChapterTitle'];
const PLAIN_TOC = { volumes: false, vip: false, pay: false } as const;
const FULL_TOC = { volumes: true, vip: true, pay: true } as const;
/** Volume, VIP and pay marks where a JSON chapter item names them so (the API and the state blob). */
const JSON_FLAGS = { isVolume: '$.volume', isVip: '$.vip', isPay: '$.pay' };
/** The hit fields of the JS shape's JSON (search and the state blob name them alike). */
const JS_HIT = {
  name: '$.name',
  author: '$.author',
  kind: '$.kind',
  intro: '$.intro',
  coverUrl: '$.cover',
  wordCount: '$.wordCount',
  lastChapter: '$.latest',
};

function entry(base: string, id: string, name: string, fields: Partial<BookSourceJson>): BookSourceJson {
  return {
    bookSourceUrl: `${base}#${id}`,
    bookSourceName: name,
    bookSourceGroup: 'fixture',
    bookSourceType: 0,
    customOrder: 0,
    enabled: true,
    enabledExplore: Boolean(fields.exploreUrl),
    enabledCookieJar: false,
    lastUpdateTime: 0,
    respondTime: 180000,
    weight: 0,
    ruleExplore: {},
    ...fields,
  };
}

function expect(base: string, book: (b: Book) => string, chapter: (b: Book, c: Chapter) => string, rest: Omit<Expect, 'bookUrl' | 'chapterUrl'>): Expect {
  return { bookUrl: (b) => base + book(b), chapterUrl: (b, c) => base + chapter(b, c), ...rest };
}

interface Def {
  readonly id: string;
  readonly shape: string;
  readonly tier: Tier;
  readonly kinds: readonly string[];
  readonly name: string;
  readonly fields: Partial<BookSourceJson>;
  readonly expect: Expect;
}

/** The same plain site behind a cookie, a rate limit or a login: one rule set, three prefixes. */
function guarded(g: Guard, extra: Partial<BookSourceJson>): Partial<BookSourceJson> {
  return {
    searchUrl: `/${g}/search?kw={{key}}`,
    ruleSearch: {
      bookList: 'class.items@tag.li',
      name: 'class.name@text',
      author: 'class.author@text',
      kind: 'class.kind@text',
      lastChapter: 'class.latest@text',
      bookUrl: 'class.name@href',
    },
    ruleBookInfo: { name: 'tag.h1@text', author: 'class.author@text', kind: 'class.kind@text', wordCount: 'class.words@text', intro: 'class.intro@text' },
    ruleToc: { chapterList: 'class.toc@tag.a', chapterName: 'text', chapterUrl: 'href' },
    ruleContent: { content: 'class.text@html' },
    ...extra,
  };
}

const guardedExpect = (base: string, g: Guard, loginHeader?: Record<string, string>): Expect =>
  expect(
    base,
    (b) => guardedBookPath(g, b),
    (b, c) => guardedChapterPath(g, b, c),
    {
      searchFields: ['name', 'author', 'kind', 'latestChapterTitle'],
      infoFields: ['name', 'author', 'kind', 'intro', 'wordCount'],
      toc: PLAIN_TOC,
      ...(loginHeader ? { loginHeader } : {}),
    },
  );

const T2_TOC = `<js>
var bid = java.get("bid") || java.getString("id.bookinfo@data-id");
var parts = String(java.getString("id.parts@data-parts")).split(",");
var host = baseUrl.match(/^https?:\\/\\/[^\\/]+/)[0];
var list = [];
for (var i = 0; i < parts.length; i++) {
  var res = JSON.parse(java.ajax(host + "/js/part?book=" + bid + "&n=" + parts[i]));
  list = list.concat(res.chapters);
}
list
</js>`;

const LOGIN_JS = `function login() {
  var info = source.getLoginInfoMap();
  var host = String(source.getKey()).replace(/#.*$/, "");
  var body = JSON.stringify({ username: String(info.get("用户名")), password: String(info.get("密码")) });
  var res = JSON.parse(java.ajax(host + "/login/auth," + JSON.stringify({ method: "POST", body: body })));
  if (res.code != 0) throw new Error(res.msg);
  source.putLoginHeader(JSON.stringify({ Authorization: "Bearer " + res.token }));
}`;

function defs(base: string, seed: number): Def[] {
  const paged = (id: string, name: string, nextTocUrl: string, kinds: readonly string[]): Def => ({
    id,
    shape: 'paged',
    tier: 'T0',
    kinds: ['jsoup-positions', 'put-get', 'or', 'regex-delete', 'nextTocUrl', 'nextContentUrl', 'explore-lines', 'page-template', ...kinds],
    name,
    fields: {
      searchUrl: '/paged/search?q={{key}}&page={{page}}',
      exploreUrl: KINDS.map((k, i) => `${k}::/paged/sort/${i + 1}/{{page}}.html`).join('\n'),
      ruleSearch: {
        bookList: 'class.result-list@class.book-item',
        name: 'tag.h3@tag.a@text',
        author: 'class.author@text##作者：',
        kind: 'class.kind@text',
        wordCount: 'class.words@text',
        intro: 'class.intro@text',
        coverUrl: 'img.cover@data-original',
        lastChapter: 'class.latest@text',
        bookUrl: 'tag.h3@tag.a@href',
      },
      ruleBookInfo: {
        name: 'h1.title@text@put:{bid:"[name=book_id]@content"}',
        author: 'class.author@tag.a@text',
        kind: 'class.kind@text##类别：',
        wordCount: 'class.words@text##字数：',
        lastChapter: 'class.latest@tag.a@text',
        intro: 'class.intro@text',
        coverUrl: 'class.book-info@img.cover@src',
        tocUrl: '/paged/book/@get:{bid}/toc_1.html',
      },
      ruleToc: {
        chapterList: 'class.chapters@tag.li',
        chapterName: 'tag.a@text||text',
        chapterUrl: 'tag.a@href',
        isVolume: 'class.volume@text',
        isVip: 'class.vip@text',
        isPay: 'class.pay@text',
        nextTocUrl,
      },
      ruleContent: { content: 'id.chaptercontent@html', title: 'class.chapter-title@text##（\\d+/\\d+）', nextContentUrl: 'id.next_url@href' },
    },
    expect: expect(base, pagedBookPath, (b, c) => pagedChapterPath(b, c), { searchFields: ALL, infoFields: ALL, toc: FULL_TOC }),
  });
  return [
    {
      id: 'gbk',
      shape: 'gbk',
      tier: 'T0',
      kinds: ['post-form', 'charset-gbk', 'meta-charset', 'bookUrlPattern', 'jsoup-positions', 'jsoup-exclude', 'css-attr', 'regex-delete'],
      name: '笔趣阁（GBK）',
      fields: {
        searchUrl: '/gbk/modules/article/search.php,{"method":"POST","body":"searchkey={{key}}&searchtype=articlename","charset":"gbk"}',
        bookUrlPattern: 'https?://[^/]+/gbk/book/\\d+/',
        ruleSearch: {
          bookList: 'class.novelslist2@tag.li!0',
          name: 'class.s2@tag.a@text',
          author: 'class.s4@text',
          kind: 'class.s1@text',
          lastChapter: 'class.s3@text',
          wordCount: 'class.s5@text',
          bookUrl: 'class.s2@tag.a@href',
        },
        ruleBookInfo: {
          name: '[property=og:novel:book_name]@content',
          author: '[property=og:novel:author]@content',
          kind: '[property=og:novel:category]@content',
          intro: '[property=og:description]@content',
          coverUrl: '[property=og:image]@content',
          lastChapter: '[property=og:novel:latest_chapter_name]@content',
          wordCount: 'id.info@tag.p.1@text##字数：',
        },
        ruleToc: { chapterList: 'id.list@tag.dd!0:1:2', chapterName: 'tag.a@text', chapterUrl: 'tag.a@href' },
        ruleContent: { content: 'id.content@html##请记住本书首发域名[^<]*' },
      },
      expect: expect(base, gbkBookPath, gbkChapterPath, {
        searchFields: ['name', 'author', 'kind', 'wordCount', 'latestChapterTitle'],
        infoFields: ALL,
        toc: PLAIN_TOC,
      }),
    },
    paged('paged', '分页书屋（下一页）', 'text.下一页@href', ['toc-chain']),
    paged('pagelist', '分页书屋（页码列表）', '[name=pageselect]@tag.option!0@value', ['toc-parallel']),
    {
      id: 'api',
      shape: 'api',
      tier: 'T0',
      kinds: ['jsonpath', 'json-bare-keys', 'json-inner-rule', 'json-template', 'explore-json'],
      name: '接口书城（JSON）',
      fields: {
        searchUrl: '/api/search?keyword={{key}}&page={{page}}',
        exploreUrl: JSON.stringify(
          KINDS.map((k) => ({ title: k, url: `/api/explore?kind=${k}&page={{page}}`, style: { layout_flexGrow: 1, layout_flexBasisPercent: 0.25 } })),
        ),
        ruleSearch: {
          bookList: '$.data.list[*]',
          name: '$.name',
          author: '$.author',
          kind: '$.category',
          intro: '$.intro',
          coverUrl: '$.cover',
          wordCount: '$.words',
          lastChapter: '$.lastChapter',
          bookUrl: '/api/book/{{$.id}}',
        },
        ruleBookInfo: {
          init: '$.data',
          name: 'name',
          author: 'author',
          kind: 'category',
          intro: 'intro',
          coverUrl: 'cover',
          wordCount: 'words',
          lastChapter: 'lastChapter',
          tocUrl: '/api/book/{{$.id}}/chapters',
        },
        ruleToc: {
          chapterList: '$.data[*]',
          chapterName: '$.title',
          chapterUrl: '/api/chapter?book={$.bookId}&id={$.id}',
          ...JSON_FLAGS,
        },
        ruleContent: { content: '$.data.content' },
      },
      expect: expect(base, apiBookPath, apiChapterPath, { searchFields: ALL, infoFields: ALL, toc: FULL_TOC, plainText: true }),
    },
    {
      id: 'xpath',
      shape: 'xpath',
      tier: 'T0',
      kinds: ['xpath', 'xpath-implicit-tbody', 'xpath-position', 'css'],
      name: '表格书屋（XPath）',
      fields: {
        searchUrl: '/xpath/search?searchkey={{key}}',
        ruleSearch: {
          bookList: '//table[@class="grid"]/tbody/tr[position()>1]',
          name: '//td[1]/a/text()',
          bookUrl: '//td[1]/a/@href',
          lastChapter: '//td[2]/a/text()',
          author: '//td[3]/text()',
          wordCount: '//td[4]/text()',
          kind: '//td[5]/text()',
        },
        ruleBookInfo: {
          name: '//table[@class="info"]/tbody/tr[1]/td/text()',
          author: '//table[@class="info"]/tbody/tr[2]/td/text()',
          kind: '//table[@class="info"]/tbody/tr[3]/td/text()',
          wordCount: '//table[@class="info"]/tbody/tr[4]/td/text()',
          lastChapter: '//table[@class="info"]/tbody/tr[5]/td/text()',
          intro: '//div[@id="intro"]/text()',
          coverUrl: '@css:.cover > img@src',
          tocUrl: '//a[@class="toc"]/@href',
        },
        ruleToc: { chapterList: '//table[@class="chapters"]/tbody/tr/td', chapterName: '//a/text()', chapterUrl: '//a/@href' },
        ruleContent: { content: '//div[@id="content"]/p/text()' },
      },
      expect: expect(base, xpathBookPath, xpathChapterPath, {
        searchFields: ['name', 'author', 'kind', 'wordCount', 'latestChapterTitle'],
        infoFields: ALL,
        toc: PLAIN_TOC,
        plainText: true,
      }),
    },
    {
      id: 'aio',
      shape: 'aio',
      tier: 'T0',
      kinds: ['allinone', 'group-refs', 'regex-first-match', 'and'],
      name: '正则书屋（AllInOne）',
      fields: {
        searchUrl: '/aio/search?wd={{key}}',
        ruleSearch: {
          bookList: ':<a href="([^"]+)" title="([^"]+)">[^<]*</a>\\s*<span class="a">([^<]*)</span>\\s*<span class="k">([^<]*)</span>\\s*<em>([^<]*)</em>',
          name: '$2',
          bookUrl: '$1',
          author: '$3',
          kind: '$4',
          lastChapter: '$5',
        },
        ruleBookInfo: {
          name: 'tag.h1@text',
          author: 'class.info@text##作者：(\\S+)##$1###',
          kind: 'class.info@text##分类：(\\S+)##$1###',
          wordCount: 'class.info@text##字数：(\\S+)##$1###',
          lastChapter: 'class.info@text##最新：(.+)##$1###',
          intro: 'id.intro@text',
          coverUrl: 'img.cover@src',
        },
        ruleToc: { chapterList: ':<li><a href="([^"]+)">([^<]+)</a></li>', chapterName: '$2', chapterUrl: '$1' },
        ruleContent: { content: 'id.c1@html&&id.c2@html' },
      },
      expect: expect(base, aioBookPath, aioChapterPath, { searchFields: ['name', 'author', 'kind', 'latestChapterTitle'], infoFields: ALL, toc: PLAIN_TOC }),
    },
    {
      id: 'js-plain',
      shape: 'js',
      tier: 'T1',
      kinds: ['url-template-js', 'js-pipeline', 'js-json', 'jsonpath-on-js'],
      name: '脚本书城（纯JS）',
      fields: {
        searchUrl: '/js/s?wd={{key}}&t={{(function(){var s=0;for(var i=0;i<key.length;i++)s+=key.charCodeAt(i);return s%9973})()}}',
        ruleSearch: {
          bookList: '@js:JSON.parse(result.replace(/^searchCallback\\(/, "").replace(/\\);?\\s*$/, "")).data',
          ...JS_HIT,
          bookUrl: '$.url',
        },
        ruleBookInfo: {
          init: '@js:JSON.parse(result.match(/window.__STATE__ = (.*?);<\\/script>/)[1]).book',
          ...JS_HIT,
        },
        ruleToc: {
          chapterList: '<js>JSON.parse(result.match(/window.__STATE__ = (.*?);<\\/script>/)[1]).chapters</js>',
          chapterName: '$.title',
          chapterUrl: '$.url',
          ...JSON_FLAGS,
        },
        ruleContent: { content: 'id.content@html@js:result.replace(/<span class="hide">[^<]*<\\/span>/g, "")' },
      },
      expect: expect(base, js1BookPath, js1ChapterPath, { searchFields: ALL, infoFields: ALL, toc: FULL_TOC }),
    },
    {
      id: 'js-java',
      shape: 'js',
      tier: 'T2',
      kinds: ['url-js', 'java.md5Encode', 'java.base64Encode', 'java.base64Decode', 'java.getString', 'java.put-get', 'java.ajax-loop', 'header-json'],
      name: '脚本书城（java助手）',
      fields: {
        header: '{"X-Requested-With":"XMLHttpRequest"}',
        searchUrl:
          '@js:\nvar k = java.base64Encode(key);\nvar sign = java.md5Encode(key + "fixture");\n"/js/search?k=" + encodeURIComponent(k) + "&sign=" + sign',
        ruleSearch: {
          bookList: '$.list[*]',
          ...JS_HIT,
          bookUrl: '$.url',
        },
        ruleBookInfo: {
          name: 'id.bookinfo@tag.h1@text@js:java.put("bid", java.getString("id.bookinfo@data-id"));\nresult',
          author: 'class.author@text',
          kind: 'class.kind@text',
          wordCount: 'class.words@text',
          lastChapter: 'class.latest@text',
          intro: 'class.intro@text',
          coverUrl: 'id.bookinfo@tag.img@src',
        },
        ruleToc: { chapterList: T2_TOC, chapterName: '$.title', chapterUrl: '$.url', isVip: '$.vip' },
        ruleContent: { content: '@js:\nvar m = String(result).match(/var chapterData = "([^"]+)"/);\njava.base64Decode(m[1])' },
      },
      expect: expect(base, jsBookPath, jsChapterPath, { searchFields: ALL, infoFields: ALL, toc: { volumes: false, vip: true, pay: false } }),
    },
    {
      id: 'cookie',
      shape: 'guard',
      tier: 'T0',
      kinds: ['enabledCookieJar'],
      name: '会话书屋（Cookie）',
      fields: guarded('guard', { enabledCookieJar: true }),
      expect: guardedExpect(base, 'guard'),
    },
    {
      id: 'rate-gap',
      shape: 'rate',
      tier: 'T0',
      kinds: ['concurrentRate-ms'],
      name: '限速书屋（间隔）',
      fields: guarded('rate', { concurrentRate: '300' }),
      expect: guardedExpect(base, 'rate'),
    },
    {
      id: 'rate-window',
      shape: 'rate',
      tier: 'T0',
      kinds: ['concurrentRate-window'],
      name: '限速书屋（窗口）',
      fields: guarded('rate', { concurrentRate: '2/1000' }),
      expect: guardedExpect(base, 'rate'),
    },
    {
      id: 'login',
      shape: 'login',
      tier: 'T3',
      kinds: ['loginUrl', 'loginUi', 'login-header'],
      name: '会员书屋（登录）',
      fields: guarded('login', {
        loginUrl: LOGIN_JS,
        loginUi: JSON.stringify([
          { name: '用户名', type: 'text' },
          { name: '密码', type: 'password' },
        ]),
      }),
      expect: guardedExpect(base, 'login', { Authorization: `Bearer ${loginToken(seed)}` }),
    },
  ];
}

/** Every fixture source with what it must find, for a site at `base` (`http://127.0.0.1:port`) built from `seed`. */
export function fixtureSources(base: string, seed: number): FixtureSource[] {
  return defs(base, seed).map((d) => ({
    id: d.id,
    shape: d.shape,
    tier: d.tier,
    kinds: d.kinds,
    source: entry(base, d.id, d.name, d.fields),
    expect: d.expect,
  }));
}

/** The sources alone, as a source file would list them. */
export function sources(base: string, seed: number): BookSourceJson[] {
  return fixtureSources(base, seed).map((f) => f.source);
}

/** Sources that run without a stored login and without tripping the shared rate limit. */
const BENCH_SHAPES = new Set(['gbk', 'paged', 'pagelist', 'api', 'xpath', 'aio', 'js-plain', 'js-java', 'cookie']);

/** `n` distinct sources spread round-robin over the shapes (for a `sources check` benchmark). */
export function manySources(base: string, seed: number, n: number): FixtureSource[] {
  const pool = fixtureSources(base, seed).filter((f) => BENCH_SHAPES.has(f.id));
  return Array.from({ length: n }, (_, i) => {
    const f = pool[i % pool.length]!;
    return { ...f, source: { ...f.source, bookSourceUrl: `${base}#gen-${i}-${f.id}`, bookSourceName: `${f.source.bookSourceName} ${i}`, customOrder: i } };
  });
}

/** Sources aimed at the safety pages and at addresses a fetcher must refuse by default. */
export function safetySources(base: string): BookSourceJson[] {
  const one = (id: string, searchUrl: string) =>
    entry(base, `safety-${id}`, `安全测试 ${id}`, {
      searchUrl,
      ruleSearch: { bookList: 'class.book-item', name: 'tag.h3@text', bookUrl: 'tag.a@href' },
      ruleToc: { chapterList: 'tag.li@tag.a', chapterName: 'text', chapterUrl: 'href' },
      ruleContent: { content: 'tag.body@html' },
    });
  return [
    one('slow', '/safety/slow?ms=600000&q={{key}}'),
    one('trickle', '/safety/trickle?ms=600000&q={{key}}'),
    one('huge', '/safety/huge?mb=64&q={{key}}'),
    one('loop', '/safety/loop?q={{key}}'),
    one('ping-pong', '/safety/ping?q={{key}}'),
    one('to-loopback', '/safety/to/loopback?q={{key}}'),
    one('to-private', '/safety/to/private?q={{key}}'),
    one('to-metadata', '/safety/to/metadata?q={{key}}'),
    one('direct-private', 'http://10.0.0.1/search?q={{key}}'),
    one('direct-metadata', 'http://169.254.169.254/latest/meta-data/?q={{key}}'),
  ];
}
