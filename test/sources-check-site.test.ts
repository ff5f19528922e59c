// `sources check` and `sources debug` end to end: the fixture site on 127.0.0.1, its sources in
// a store, the command line in this process, the rows read back with raw SQL. Good sources pass
// and lose the invalid groups of an earlier check; a source whose search page is gone, whose
// TOC rule matches nothing, whose text rule matches nothing, whose host refuses, or which needs a
// browser is marked (or left) as the app marks it; a slow one ends at the time limit.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { startFixtureSite } from './helpers/fixture-site/node.js';
import { fixtureSources, manySources, safetySources, type BookSourceJson } from './helpers/fixture-site/index.js';
import { cli } from './helpers/cli.js';
import { storeWithSources } from './helpers/check-site.js';
import { tempDir } from './helpers/files.js';

const SEED = 20261208;
const site = await startFixtureSite(SEED);
after(() => site.close());
const dir = tempDir('legado-check-site-');
const keyword = site.site.model.keywords.many;

const storeWith = (name: string, sources: BookSourceJson[]): string => storeWithSources(dir, name, sources);

interface Marked {
  url: string;
  group: string | null;
  comment: string | null;
  respondTime: number;
}
function marks(path: string): Map<string, Marked> {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db.prepare('SELECT bookSourceUrl url, bookSourceGroup "group", bookSourceComment comment, respondTime FROM book_sources').all() as Marked[];
    return new Map(rows.map((r) => [r.url, r]));
  } finally {
    db.close();
  }
}

const byId = new Map(fixtureSources(site.url, SEED).map((f) => [f.id, f.source]));
const variant = (id: string, tag: string, change: (s: BookSourceJson) => Partial<BookSourceJson>): BookSourceJson => {
  const s = byId.get(id)!;
  return { ...s, bookSourceUrl: `${s.bookSourceUrl}-${tag}`, bookSourceName: `${s.bookSourceName} ${tag}`, ...change(s) };
};
const GOOD = ['gbk', 'paged', 'pagelist', 'api', 'xpath', 'aio', 'cookie', 'js-plain', 'js-java'];
// Sources of an earlier check carry invalid groups and an error comment; a pass clears them.
const earlier = { bookSourceGroup: '测试,搜索失效,校验超时', bookSourceComment: '// Error: old\n\n作者的话' };

test('good sources pass; a dead search page, a TOC or text rule matching nothing, a refusing host and a browser source are marked as the app marks them', async () => {
  const sources: BookSourceJson[] = [
    ...GOOD.map((id) => ({ ...byId.get(id)!, ...earlier })),
    variant('api', 'gone', () => ({ searchUrl: '/api/no-such-page?keyword={{key}}', bookSourceGroup: '测试' })),
    variant('paged', 'gone', () => ({ searchUrl: '/paged/no-such-page?q={{key}}', bookSourceGroup: '测试' })),
    variant('paged', 'no-toc', (s) => ({ ruleToc: { ...s.ruleToc, chapterList: 'class.no-such-list@tag.li' }, bookSourceGroup: '' })),
    variant('xpath', 'no-text', (s) => ({ ruleContent: { ...s.ruleContent, content: '//div[@id="no-such-text"]/text()' }, bookSourceGroup: '' })),
    variant('api', 'refused', () => ({ searchUrl: 'http://127.0.0.1:9/api/search?keyword={{key}}', bookSourceGroup: '' })),
    variant('aio', 'browser', (s) => ({ ruleContent: { ...s.ruleContent, webJs: 'document.body.innerText' }, bookSourceComment: 'unchanged' })),
  ];
  const path = storeWith('check.db', sources);
  const before = marks(path);
  const r = await cli('sources', 'check', path, '--keyword', keyword, '--allow-private-hosts', '--json', '--timeout', '60000', '--concurrency', '4');
  const lines = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { url: string; status: string; message?: string; error?: { code: string } });
  const status = new Map(lines.map((l) => [l.url, l]));
  assert.equal(lines.length, sources.length, r.stderr);
  const after = marks(path);
  for (const id of GOOD) {
    const url = byId.get(id)!.bookSourceUrl;
    assert.equal(status.get(url)?.status, 'ok', `${id}: ${JSON.stringify(status.get(url))}`);
    assert.deepEqual([after.get(url)!.group, after.get(url)!.comment], ['测试', '作者的话'], id);
    assert.ok(after.get(url)!.respondTime < 60_000, id);
  }
  const at = (s: BookSourceJson) => after.get(s.bookSourceUrl)!;
  const [apiGone, gone, noToc, noText, refused, browser] = sources.slice(GOOD.length);
  // The app reads whatever page answers. A 404 page lists no book, so it is read as a book page:
  // on the JSON source its init rule finds nothing (the app's AssertionError 内容不可空: the
  // site's failure); on the HTML one the page has no book name (no hit: 搜索失效).
  assert.equal(at(apiGone!).group, '测试,网站失效');
  assert.match(at(apiGone!).comment!, /^\/\/ Error: source .*: ruleBookInfo\.init at .*no-such-page.*: 内容不可空/);
  assert.deepEqual([at(gone!).group, at(gone!).comment], ['测试,搜索失效', '// Error: 搜索失效']);
  assert.ok(at(gone!).respondTime >= 60_000);
  // The paged source explores too: its explore hit meets the same TOC (OpenJDK's HashSet order).
  assert.equal(at(noToc!).group, '发现目录失效,搜索目录失效');
  assert.equal(at(noToc!).comment, '// Error: 发现目录失效, 搜索目录失效');
  assert.equal(at(noText!).group, '搜索正文失效');
  assert.equal(at(refused!).group, '网站失效');
  assert.match(at(refused!).comment!, /^\/\/ Error: .*127\.0\.0\.1:9/);
  assert.equal(status.get(refused!.bookSourceUrl)?.status, 'failed');
  assert.equal(status.get(browser!.bookSourceUrl)?.status, 'skipped');
  assert.deepEqual(at(browser!), before.get(browser!.bookSourceUrl));
  assert.equal(r.code, 1, 'a source failed');
});

test('a slow source ends at the time limit: 校验超时, the limit in its comment, respondTime past the limit', async () => {
  const slow = { ...safetySources(site.url).find((s) => s.bookSourceUrl.endsWith('safety-slow'))!, bookSourceGroup: '' };
  const path = storeWith('slow.db', [slow]);
  const r = await cli('sources', 'check', path, '--timeout', '1500', '--allow-private-hosts');
  assert.equal(r.code, 1);
  assert.match(r.stdout, /failed .*did not end within 1500 ms/);
  assert.match(r.stdout, /0 passed, 1 failed, 0 not checked here; marked 校验超时 ×1/);
  const m = marks(path).get(slow.bookSourceUrl)!;
  assert.equal(m.group, '校验超时');
  assert.match(m.comment!, /^\/\/ Error: source "安全测试 slow" \(.*#safety-slow\): the check did not end within 1500 ms/);
  assert.ok(m.respondTime >= 3000, String(m.respondTime));
});

test("private addresses are refused by default: the same good source fails as the site's failure", async () => {
  const path = storeWith('private.db', [{ ...byId.get('api')!, bookSourceGroup: '' }]);
  const r = await cli('sources', 'check', path, '--keyword', keyword, '--json');
  const line = JSON.parse(r.stdout) as { status: string; error: { code: string } };
  assert.equal(line.status, 'failed');
  assert.equal(line.error.code, 'ADDRESS_REFUSED');
  assert.equal(marks(path).get(byId.get('api')!.bookSourceUrl)!.group, '网站失效');
});

test('many sources at a bounded concurrency: every one checked once and passed', async () => {
  const many = manySources(site.url, SEED, 24).map((f) => f.source);
  const path = storeWith('many.db', many);
  const r = await cli('sources', 'check', path, '--keyword', keyword, '--allow-private-hosts', '--concurrency', '6', '--timeout', '60000');
  assert.match(r.stdout, /checked 24 source\(s\) in .*: 24 passed, 0 failed, 0 not checked here/, r.stdout + r.stderr);
  assert.equal(r.code, 0);
});

test("sources debug prints the app's lines: a keyword runs search, info, TOC and the first chapter", async () => {
  const path = storeWith('debug.db', [byId.get('api')!]);
  const r = await cli('sources', 'debug', path, byId.get('api')!.bookSourceUrl, keyword, '--allow-private-hosts');
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const lines = r.stdout.split('\n').filter((l) => l !== '');
  const stamp = /^\[\d\d:\d\d\.\d{3}\] /;
  assert.match(lines[0]!, new RegExp(`${stamp.source}⇒开始搜索关键字:${keyword}$`));
  const stages = lines.filter((l) => /︾|︽/.test(l)).map((l) => l.replace(stamp, ''));
  assert.deepEqual(stages, [
    '︾开始解析搜索页',
    '︽搜索页解析完成',
    '︾开始解析详情页',
    '︽详情页解析完成',
    '︾开始解析目录页',
    '︽目录页解析完成',
    '︾开始解析正文页',
    '︽正文页解析完成',
  ]);
  const j = await cli(
    'sources',
    'debug',
    path,
    byId.get('api')!.bookSourceUrl,
    '--allow-private-hosts',
    '--json',
    '--',
    `--${site.url}/api/chapter?book=no&id=no`,
  );
  const last = JSON.parse(j.stdout.trim().split('\n').at(-1)!) as { state: number; text: string };
  assert.equal(last.state, -1);
  assert.equal(j.code, 1);
});
