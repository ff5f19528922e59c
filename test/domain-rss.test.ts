// RSS: articles of a source and sort with the read mark joined from rssReadRecords, mark read,
// star/unstar, stars by time, clearing old articles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, T0, newStore, raw, rawAll } from './helpers/domain.js';

const SRC = 'https://news.example.org/rss';

function fill() {
  const clock = new FakeClock();
  const s = newStore({ clock: clock.read });
  s.rss.addArticles(SRC, '头条', [
    { title: 'A', link: 'https://n/a' },
    { title: 'B', link: 'https://n/b', pubDate: '2024-01-01' },
    { title: 'C', link: 'https://n/c' },
  ]);
  s.rss.addArticles(SRC, '科技', [{ title: 'T', link: 'https://n/t' }], T0 - 50);
  s.rss.addArticles('https://other', '头条', [{ title: 'O', link: 'https://n/a' }], T0 - 100);
  return { s, clock };
}

test('addArticles numbers order from now down by one, so the page keeps its order', () => {
  const { s } = fill();
  assert.deepEqual(rawAll(s, "SELECT `order` FROM rssArticles WHERE sort = '头条' AND origin = ? ORDER BY link", SRC), [
    BigInt(T0),
    BigInt(T0 - 1),
    BigInt(T0 - 2),
  ]);
  assert.deepEqual(
    s.rss.articles(SRC, '头条').map((a) => a.title),
    ['A', 'B', 'C'],
  );
  assert.deepEqual(
    s.rss.articles(SRC, '科技').map((a) => a.title),
    ['T'],
  );
  s.close();
});

test('read comes from rssReadRecords joined on the link, not from rssArticles.read', () => {
  const { s } = fill();
  s.db.exec("UPDATE rssArticles SET read = 1 WHERE link = 'https://n/c'");
  assert.deepEqual(
    s.rss.articles(SRC, '头条').map((a) => a.read),
    [false, false, false],
    'the stored flag is ignored',
  );
  s.rss.markRead('https://n/a');
  s.rss.markRead('https://n/a');
  assert.equal(raw(s, 'SELECT count(*) FROM rssReadRecords'), 1n);
  assert.deepEqual(
    s.rss.articles(SRC, '头条').map((a) => [a.title, a.read]),
    [
      ['A', true],
      ['B', false],
      ['C', false],
    ],
  );
  assert.equal(s.rss.articles('https://other', '头条')[0]?.read, true, 'the join ignores the origin, as the app’s does');
  assert.equal(s.rss.isRead('https://n/a'), true);
  assert.equal(s.rss.isRead('https://n/b'), false);
  s.db.exec("INSERT INTO rssReadRecords (record, read) VALUES ('https://n/b', 0)");
  s.rss.markRead('https://n/b');
  assert.equal(s.rss.isRead('https://n/b'), true, 'markRead sets a stored 0 to 1');
  s.close();
});

test('star copies the article with starTime now; stars newest first; unstar', () => {
  const { s, clock } = fill();
  const [a, b] = s.rss.articles(SRC, '头条');
  s.rss.star(a!);
  clock.advance(10);
  s.rss.star(b!);
  assert.deepEqual(
    s.rss.stars().map((x) => [x.title, x.starTime]),
    [
      ['B', T0 + 10],
      ['A', T0],
    ],
  );
  assert.equal(s.rss.stars()[0]?.pubDate, '2024-01-01');
  assert.equal(s.rss.isStarred(SRC, 'https://n/a'), true);
  clock.advance(10);
  s.rss.star(a!);
  assert.deepEqual(
    s.rss.stars().map((x) => x.title),
    ['A', 'B'],
    'starring again refreshes the time',
  );
  assert.equal(s.rss.unstar(SRC, 'https://n/a'), true);
  assert.equal(s.rss.unstar(SRC, 'https://n/a'), false);
  assert.deepEqual(rawAll(s, 'SELECT title FROM rssStars'), ['B']);
  s.close();
});

test('clearOld deletes the older articles of one source and sort', () => {
  const { s } = fill();
  assert.equal(s.rss.clearOld(SRC, '头条', T0 - 1), 1);
  assert.deepEqual(
    s.rss.articles(SRC, '头条').map((a) => a.title),
    ['A', 'B'],
  );
  assert.equal(s.rss.articles(SRC, '科技').length, 1, 'other sorts kept');
  assert.equal(s.rss.articles('https://other', '头条').length, 1, 'other sources kept');
  assert.equal(s.rss.deleteArticles(SRC), 3);
  s.close();
});
