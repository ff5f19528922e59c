// Search hits kept as the app keeps them (searchBooks rows, REPLACE by bookUrl) and merged into
// the list SearchModel.mergeItems shows: exact name/author matches first, then "contains"
// matches, each by number of sources (stable), then the rest; precision drops the rest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ForeignKeyError } from 'legado-store/errors';
import { matchesKeyword, mergeAllSearchBooks, mergeSearchBooks, saveSearchBooks } from '../src/sources/shelf/index.js';
import { FakeClock, newStore, source, T0 } from './helpers/domain.js';
import { searchHit } from './helpers/web-books.js';

const hit = searchHit;

const shown = (list: readonly { name: string; author: string; origins: readonly string[] }[]): string[] =>
  list.map((b) => `${b.name}/${b.author}:${b.origins.join('+')}`);

test('merged as SearchModel merges: equal, then contains by sources (stable), then the rest in arrival order', () => {
  const key = '三体';
  const a = [hit('a', '三体', '刘慈欣'), hit('a', '三体前传', '某'), hit('a', '三体外传', '某'), hit('a', '球状闪电', '刘慈欣'), hit('a', '诗集', '三体')];
  const b = [hit('b', '三体外传', '某'), hit('b', '超新星纪元', '刘慈欣'), hit('b', '三体', '别人')];
  const c = [hit('c', '三体外传', '某'), hit('c', '三体', '别人'), hit('c', '三体', '别人', { bookUrl: 'c/other-url' })];
  const merged = mergeAllSearchBooks([a, b, c], key);
  assert.deepEqual(shown(merged), [
    // An author equal to the keyword is an exact match too; 三体/别人 (2 sources) moves ahead of 三体/刘慈欣 (1).
    '三体/别人:b+c',
    '三体/刘慈欣:a',
    '诗集/三体:a',
    // 外传 (3 sources) passes 前传 (1), which came first.
    '三体外传/某:a+b+c',
    '三体前传/某:a',
    '球状闪电/刘慈欣:a',
    '超新星纪元/刘慈欣:b',
  ]);
  // The entry keeps the first hit's fields (its bookUrl), whatever came later.
  assert.equal(merged.find((m) => m.name === '三体外传')!.bookUrl, 'a/book/三体外传/某');
  // Precision: the rest is dropped, those merged earlier included.
  const precise = mergeSearchBooks(mergeSearchBooks([], a, key), b, key, true);
  assert.deepEqual(shown(precise), ['三体/刘慈欣:a', '诗集/三体:a', '三体/别人:b', '三体外传/某:a+b', '三体前传/某:a']);
  assert.deepEqual(
    a.filter((h) => matchesKeyword(key)(h.name, h.author)).map((h) => h.name),
    ['三体', '三体前传', '三体外传', '诗集'],
  );
});

test('merging is pure: the list given is not changed, and no page HTML is carried', () => {
  const first = mergeSearchBooks([], [hit('a', 'x', 'y', { infoHtml: '<html>', tocHtml: '<html>' })], 'x');
  const snapshot = JSON.stringify(first);
  const second = mergeSearchBooks(first, [hit('b', 'x', 'y')], 'x');
  assert.equal(JSON.stringify(first), snapshot);
  assert.deepEqual(second[0]!.origins, ['a', 'b']);
  assert.equal('infoHtml' in second[0]!, false);
  assert.equal('tocHtml' in second[0]!, false);
});

test('hits are stored one row each in searchBooks, replaced whole by bookUrl, in one transaction', () => {
  const clock = new FakeClock();
  const s = newStore({ clock: clock.read });
  s.tables.book_sources.insert(source('a', { customOrder: 5 }));
  const h1 = hit('a', '三体', '刘慈欣', { kind: '科幻', coverUrl: 'http://c/1.jpg', time: T0 + 1, originOrder: 5, variable: '{"k":"v"}', infoHtml: '<b>' });
  const h2 = hit('a', '三体前传', '某', { latestChapterTitle: '第九章', tocUrl: 'a/toc', time: T0 + 1, originOrder: 5 });
  assert.equal(saveSearchBooks(s, [h1, h2]), 2);
  const rows = s.db.prepare('SELECT * FROM searchBooks ORDER BY bookUrl').all() as Record<string, unknown>[];
  assert.deepEqual(
    rows.map((r) => [
      r['bookUrl'],
      r['origin'],
      r['originName'],
      r['type'],
      r['name'],
      r['author'],
      r['kind'],
      r['coverUrl'],
      r['latestChapterTitle'],
      r['tocUrl'],
      r['time'],
      r['variable'],
      r['originOrder'],
    ]),
    [
      ['a/book/三体/刘慈欣', 'a', 'A', 8, '三体', '刘慈欣', '科幻', 'http://c/1.jpg', null, '', T0 + 1, '{"k":"v"}', 5],
      ['a/book/三体前传/某', 'a', 'A', 8, '三体前传', '某', null, null, '第九章', 'a/toc', T0 + 1, null, 5],
    ],
  );
  // The same bookUrl again: the row is replaced whole (REPLACE), not merged.
  saveSearchBooks(s, [hit('a', '三体', '刘慈欣', { time: T0 + 2 })]);
  assert.deepEqual(s.db.prepare("SELECT kind, coverUrl, variable, time FROM searchBooks WHERE bookUrl = 'a/book/三体/刘慈欣'").get(), {
    kind: null,
    coverUrl: null,
    variable: null,
    time: T0 + 2,
  });
  // A hit of a source the store does not have: nothing of the batch is stored.
  assert.throws(() => saveSearchBooks(s, [hit('a', 'new', 'n'), hit('ghost', 'g', 'g')]), ForeignKeyError);
  assert.equal(s.db.prepare('SELECT count(*) FROM searchBooks').pluck().get(), 2);
  s.close();
});
