// Explore (BookSourceExtensions.exploreKinds, WebBook.exploreBookAwait): the entries of the
// `name::url` and JSON forms of exploreUrl, and each entry's page read as search hits, over
// 127.0.0.1 against the fixture model.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startFixtureSite } from './helpers/fixture-site/node.js';
import { expectedExplore, fixtureSources, type BookFields, type BookSourceJson } from './helpers/fixture-site/index.js';
import { openSource } from '../src/sources/engine/session.js';
import type { SourceFlows } from '../src/sources/engine/types.js';
import { fixtureHost } from './helpers/source-flows.js';

const SEED = 20261207;
const running = await startFixtureSite(SEED);
after(() => running.close());
const m = running.site.model;
const all = fixtureSources(running.url, SEED);
const KINDS = ['玄幻', '仙侠', '都市', '历史', '科幻', '武侠'];

const host = fixtureHost();

function flowsOf(json: BookSourceJson): SourceFlows {
  return openSource(json, host);
}

const shown = (hit: object, want: BookFields): Record<string, unknown> =>
  Object.fromEntries(Object.keys(want).map((k) => [k, (hit as Record<string, unknown>)[k]]));

for (const id of ['paged', 'api']) {
  const f = all.find((x) => x.id === id)!;
  test(`${id}: every explore entry lists the model's books of its kind`, async () => {
    const flows = flowsOf(f.source);
    const kinds = await flows.exploreKinds();
    assert.deepEqual(
      kinds.map((k) => k.title),
      KINDS,
    );
    if (id === 'api') assert.deepEqual(kinds[0]!.style, { layout_flexGrow: 1, layout_flexBasisPercent: 0.25 });
    for (const [i, kind] of kinds.entries()) {
      const hits = await flows.explore(kind.url, 1);
      const want = expectedExplore(m, f, KINDS[i]!);
      assert.deepEqual(
        hits.map((h, j) => shown(h, want[j] ?? { bookUrl: '' })),
        want,
        `${id} explore ${kind.title}`,
      );
    }
  });
}

test('exploreUrl lines split at newlines and &&, `::` between title and URL; a bad JSON array is one ERROR entry', async () => {
  const base = all.find((x) => x.id === 'paged')!.source;
  const lines = await flowsOf({ ...base, exploreUrl: '甲::/a/{{page}}&&乙::/b\n\n丙::/c::x\n标题' }).exploreKinds();
  assert.deepEqual(lines, [
    { title: '甲', url: '/a/{{page}}' },
    { title: '乙', url: '/b' },
    { title: '丙', url: '/c' },
    { title: '标题', url: '' },
  ]);
  const json = await flowsOf({ ...base, exploreUrl: ' [{"title":"甲","url":"/a"},{"title":"分组"}] ' }).exploreKinds();
  assert.deepEqual(json, [
    { title: '甲', url: '/a' },
    { title: '分组', url: '' },
  ]);
  const bad = await flowsOf({ ...base, exploreUrl: '[{"title":}]' }).exploreKinds();
  assert.equal(bad.length, 1);
  assert.match(bad[0]!.title, /^ERROR:/);
  assert.deepEqual(await flowsOf({ ...base, exploreUrl: '' }).exploreKinds(), []);
});

test('explore reads the explore rules when their bookList is set, else the search rules', async () => {
  const f = all.find((x) => x.id === 'paged')!;
  // An explore list rule that matches nothing, on a source without bookUrlPattern: the page is
  // read as a detail page with the info rules (BookList: 列表为空,按详情页解析), where no name is found.
  const none = flowsOf({ ...f.source, ruleExplore: { ...f.source.ruleSearch, bookList: 'class.nothing' } });
  const kinds = await none.exploreKinds();
  // The kind with the most books, so that reversing shows.
  const k = KINDS.map((_, i) => i).sort((a, b) => expectedExplore(m, f, KINDS[b]!).length - expectedExplore(m, f, KINDS[a]!).length)[0]!;
  const kind = kinds[k]!;
  assert.deepEqual(await none.explore(kind.url), []);
  const reversed = flowsOf({ ...f.source, ruleExplore: { ...f.source.ruleSearch, bookList: `-${f.source.ruleSearch!['bookList']}` } });
  const want = expectedExplore(m, f, KINDS[k]!).map((b) => b.bookUrl);
  assert.ok(want.length > 1, 'a kind with several books');
  assert.deepEqual(
    (await reversed.explore(kind.url)).map((h) => h.bookUrl),
    want.reverse(),
  );
});
