// The four flows of every T0 fixture source over real HTTP on 127.0.0.1: search, book info, TOC
// and the first chapters' text, compared with what the site's model says they must be.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startFixtureSite } from './helpers/fixture-site/node.js';
import {
  expectedInfo,
  expectedSearch,
  expectedText,
  expectedToc,
  fixtureSources,
  CLIENT_HEADER,
  type Book,
  type BookFields,
  type FixtureSource,
} from './helpers/fixture-site/index.js';
import { openSource } from '../src/sources/engine/session.js';
import { SourceStepError } from '../src/sources/book/index.js';
import type { SearchBook, SourceFlows, WebChapter } from '../src/sources/engine/types.js';
import { fixtureHost, NOW } from './helpers/source-flows.js';
import { QuickJsEngine } from '../src/sources/js/index.js';

const SEED = 20261207;
const running = await startFixtureSite(SEED);
const engine = new QuickJsEngine({ lanes: 1 });
after(async () => {
  engine.dispose();
  await running.close();
});
const m = running.site.model;
const all = fixtureSources(running.url, SEED).map((f) =>
  // The rate-limited site counts requests per client: each rate source is its own client, so one
  // source's requests do not count against the next (each keeps under the limit by itself).
  f.shape === 'rate' ? { ...f, source: { ...f.source, header: JSON.stringify({ [CLIENT_HEADER]: f.id }) } } : f,
);

const host = fixtureHost({ js: engine });
for (const f of all) if (f.expect.loginHeader) host.storage.cache.put(`loginHeader_${f.source.bookSourceUrl}`, JSON.stringify(f.expect.loginHeader));
const flowsOf = (f: FixtureSource): SourceFlows => openSource(f.source, host);

/** The fields the model promises, read off a hit or book. */
function shown(hit: object, want: BookFields): Record<string, unknown> {
  return Object.fromEntries(Object.keys(want).map((k) => [k, (hit as Record<string, unknown>)[k]]));
}

const bookOf = (f: FixtureSource, url: string): Book => {
  const b = m.books.find((x) => f.expect.bookUrl(x) === url);
  assert.ok(b, `a model book at ${url}`);
  return b;
};

/** A chapter's URL made absolute against the page it was listed on, by the platform's URL parser. */
const absoluteOf = (c: WebChapter): string => new URL(c.url, c.baseUrl).href;

/** T0 (no JS), T1 (plain JS), and the login source with the header its login() stores, as the README says. */
const SOURCES = ['gbk', 'paged', 'pagelist', 'api', 'xpath', 'aio', 'cookie', 'rate-gap', 'rate-window', 'js-plain', 'js-java', 'login'];
for (const id of SOURCES) {
  const f = all.find((x) => x.id === id)!;
  test(`${id}: search finds the model's books with the fields the list shows`, async () => {
    const flows = flowsOf(f);
    for (const keyword of [m.keywords.many, m.keywords.one]) {
      const hits = await flows.search(keyword);
      const want = expectedSearch(m, f, keyword);
      assert.deepEqual(
        hits.map((h, i) => shown(h, want[i] ?? { bookUrl: '' })),
        want,
        `${id} search ${keyword}`,
      );
      for (const h of hits) {
        assert.equal(h.origin, f.source.bookSourceUrl);
        assert.equal(h.originName, f.source.bookSourceName);
        assert.equal(h.type, 8);
        assert.equal(h.time, NOW);
      }
    }
    if (id === 'js-plain') {
      // An empty list on a source without bookUrlPattern is read as a detail page: this source's
      // init script then matches nothing and throws, which fails the app's search as well.
      await assert.rejects(
        flows.search(m.keywords.none),
        (e: unknown) => e instanceof SourceStepError && e.code === 'SCRIPT_ERROR' && e.rule === 'ruleBookInfo.init',
      );
      return;
    }
    const none = await flows.search(m.keywords.none);
    if (id !== 'aio') assert.deepEqual(none, []);
    else {
      // The app's AllInOne mode outlives the empty list: the page is then read as a detail page
      // with the info rules in regex mode, where a rule gives its own text (AnalyzeRule.getString's
      // `else -> rule`), so the app lists one hit named after the name rule, at the search URL.
      assert.deepEqual(
        none.map((h) => [h.name, h.bookUrl]),
        [[f.source.ruleBookInfo!['name'], `${running.url}/aio/search?wd=${encodeURIComponent(m.keywords.none)}`]],
      );
    }
  });

  test(`${id}: book info, TOC and the first chapters' text match the model`, async () => {
    const flows = flowsOf(f);
    const [hit] = await flows.search(m.keywords.many);
    assert.ok(hit);
    const b = bookOf(f, hit.bookUrl);
    const book = await flows.bookInfo(hit);
    const info = expectedInfo(f, b);
    assert.deepEqual(shown(book, info), info);
    const toc = await flows.toc(book);
    const want = expectedToc(f, b);
    assert.deepEqual(
      toc.map((c) => ({ index: c.index, title: c.title, isVolume: c.isVolume, isVip: c.isVip, isPay: c.isPay })),
      want.map((c) => ({ index: c.index, title: c.title, isVolume: c.isVolume, isVip: c.isVip, isPay: c.isPay })),
    );
    for (const [i, c] of toc.entries()) if (!c.isVolume) assert.equal(absoluteOf(c), want[i]!.url, `chapter ${i} URL`);
    const readable = toc.filter((c) => !c.isVolume);
    for (let i = 0; i < 2; i++) {
      const c = readable[i]!;
      const text = await flows.content(book, c, readable[i + 1]?.url);
      assert.equal(text, expectedText(want[c.index]!.chapter, f), `${id} chapter ${c.index}`);
    }
  });
}

test('a hit on a detail page (bookUrlPattern) carries the page, and book info reads it without a fetch', async () => {
  const f = all.find((x) => x.id === 'gbk')!;
  const flows = flowsOf(f);
  const [hit] = await flows.search(m.keywords.one);
  assert.ok(hit?.infoHtml, 'the page kept as infoHtml');
  const before = [...running.site.hits.values()].reduce((a, b) => a + b, 0);
  const book = await flows.bookInfo(hit as SearchBook);
  const after = [...running.site.hits.values()].reduce((a, b) => a + b, 0);
  assert.equal(after, before, 'no request for the info step');
  assert.equal(book.tocUrl, hit.bookUrl);
  assert.ok(book.tocHtml, 'the book page kept for the TOC');
});
