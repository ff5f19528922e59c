// Book and RSS sources: customOrder lists, search, the comma-aware group match, group names
// split on ,;，； and sorted Chinese-aware, explore, login, min/max order, enable many.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NewRow } from 'legado-store';
import { newStore, newStore49, rawAll, source } from './helpers/domain.js';

function rss(url: string, fields: Partial<NewRow<'rssSources'>> = {}): NewRow<'rssSources'> {
  return { sourceUrl: url, sourceName: url, sourceIcon: '', enabled: true, singleUrl: false, ...fields };
}

const urls = (rows: readonly { bookSourceUrl: string }[]) => rows.map((r) => r.bookSourceUrl);

function fill() {
  const s = newStore();
  s.tables.book_sources.insertMany([
    source('https://c.example', { customOrder: 3, bookSourceGroup: '武侠,玄幻', bookSourceName: '丙' }),
    source('https://a.example', { customOrder: 1, bookSourceGroup: '武侠', bookSourceName: '甲', loginUrl: 'https://a.example/login' }),
    source('https://b.example', { customOrder: 2, bookSourceGroup: '新武侠;都市', enabled: false, bookSourceName: '乙', loginUrl: '' }),
    source('https://d.example', { customOrder: -5, bookSourceGroup: '玄幻，都市', bookSourceComment: '好用', exploreUrl: '  ' }),
    source('https://e.example', { customOrder: 9, bookSourceGroup: null, exploreUrl: '热门::/hot', enabledExplore: true }),
    source('https://f.example', { customOrder: 4, bookSourceGroup: '未分组', exploreUrl: '/x', enabledExplore: false }),
  ]);
  return s;
}

test('lists in customOrder: all, enabled, disabled', () => {
  const s = fill();
  assert.deepEqual(urls(s.bookSources.all()), [
    'https://d.example',
    'https://a.example',
    'https://b.example',
    'https://c.example',
    'https://f.example',
    'https://e.example',
  ]);
  assert.deepEqual(urls(s.bookSources.disabled()), ['https://b.example']);
  assert.equal(s.bookSources.enabled().length, 5);
  assert.equal(s.bookSources.minOrder(), -5);
  assert.equal(s.bookSources.maxOrder(), 9);
  s.close();
});

test('the group match is comma-aware: exact, first, last or middle item; not a substring', () => {
  const s = fill();
  assert.deepEqual(urls(s.bookSources.byGroup('武侠')), ['https://a.example', 'https://c.example'], '新武侠;都市 is not 武侠');
  assert.deepEqual(urls(s.bookSources.byGroup('玄幻')), ['https://c.example'], 'the app only splits on , here: 玄幻，都市 does not match');
  assert.deepEqual(urls(s.bookSources.byGroup('武侠', { enabledOnly: true })), ['https://a.example', 'https://c.example']);
  s.tables.book_sources.insert(source('https://g.example', { customOrder: 5, bookSourceGroup: 'x,武侠,y' }));
  s.tables.book_sources.insert(source('https://h.example', { customOrder: 6, bookSourceGroup: '武_' }));
  assert.deepEqual(urls(s.bookSources.byGroup('武侠')), ['https://a.example', 'https://c.example', 'https://g.example']);
  assert.deepEqual(urls(s.bookSources.byGroup('武_')), ['https://h.example'], '_ is not a wildcard');
  assert.deepEqual(urls(s.bookSources.noGroup()), ['https://f.example', 'https://e.example']);
  s.close();
});

test('group names: split on , ; ， ；, trimmed, distinct, Chinese-aware order', () => {
  const s = fill();
  s.tables.book_sources.insert(source('https://z.example', { bookSourceGroup: ' 爱情 ; ' }));
  assert.deepEqual(s.bookSources.groups(), ['爱情', '都市', '未分组', '武侠', '新武侠', '玄幻']);
  s.close();
});

test('search looks in name, group, url and comment; explore and login lists', () => {
  const s = fill();
  assert.deepEqual(urls(s.bookSources.search('好用')), ['https://d.example']);
  assert.deepEqual(urls(s.bookSources.search('武侠')), ['https://a.example', 'https://b.example', 'https://c.example']);
  assert.deepEqual(urls(s.bookSources.search('武侠', { enabledOnly: true })), ['https://a.example', 'https://c.example']);
  assert.deepEqual(urls(s.bookSources.search('c.example')), ['https://c.example']);
  assert.deepEqual(urls(s.bookSources.explore()), ['https://e.example'], 'explore enabled and a non-blank explore URL');
  assert.deepEqual(urls(s.bookSources.explore('甲')), []);
  assert.deepEqual(urls(s.bookSources.withLogin()), ['https://a.example']);
  s.close();
});

test('enable or disable many at once, in one transaction', () => {
  const s = fill();
  assert.equal(s.bookSources.setEnabled(['https://a.example', 'https://b.example', 'https://nope'], false), 1, 'a was enabled; b already off');
  assert.deepEqual(rawAll(s, 'SELECT bookSourceUrl FROM book_sources WHERE enabled = 0 ORDER BY bookSourceUrl'), ['https://a.example', 'https://b.example']);
  assert.equal(s.bookSources.setEnabled(new Set(['https://a.example', 'https://b.example']), true), 2);
  assert.equal(s.bookSources.disabled().length, 0);
  s.close();
});

test('RSS sources share the logic with their own field names', () => {
  const s = newStore();
  s.tables.rssSources.insertMany([
    rss('https://r2', { customOrder: 2, sourceGroup: '资讯,科技', sourceName: '二' }),
    rss('https://r1', { customOrder: 1, sourceGroup: '科技', enabled: false, loginUrl: 'https://r1/login', sourceComment: '注释' }),
    rss('https://r3', { customOrder: 3, sourceGroup: '生活；资讯' }),
  ]);
  const u = (rows: readonly { sourceUrl: string }[]) => rows.map((r) => r.sourceUrl);
  assert.deepEqual(u(s.rssSources.all()), ['https://r1', 'https://r2', 'https://r3']);
  assert.deepEqual(u(s.rssSources.byGroup('科技')), ['https://r1', 'https://r2']);
  assert.deepEqual(u(s.rssSources.byGroup('科技', { enabledOnly: true })), ['https://r2']);
  assert.deepEqual(s.rssSources.groups(), ['科技', '生活', '资讯'], 'ke, sheng, zi');
  assert.deepEqual(u(s.rssSources.search('二')), ['https://r2']);
  assert.deepEqual(u(s.rssSources.search('注释')), [], 'the v62 RSS search does not look at the comment');
  assert.deepEqual(u(s.rssSources.withLogin()), ['https://r1']);
  assert.equal(s.rssSources.setEnabled(['https://r1'], true), 1);
  assert.deepEqual(u(s.rssSources.enabled()), ['https://r1', 'https://r2', 'https://r3']);
  assert.equal(s.rssSources.maxOrder(), 3);
  s.close();
});

test('schema 49: the same operations on the older tables', () => {
  const s = newStore49();
  s.tables.book_sources.insert(source('https://a.example', { bookSourceGroup: '武侠' }));
  s.tables.rssSources.insert({ ...rss('https://r1'), articleStyle: 0, enableJs: true, loadWithBaseUrl: true, customOrder: 0 });
  assert.deepEqual(
    s.bookSources.byGroup('武侠').map((r) => r.bookSourceUrl),
    ['https://a.example'],
  );
  assert.equal('enabledReview' in s.bookSources.all()[0]!, false, 'rows have the v49 fields');
  assert.equal(s.rssSources.all().length, 1);
  s.close();
});
