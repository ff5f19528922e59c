// Search history: each use counts (insert with usage 1, or usage + 1 and a new lastUseTime).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, T0, newStore } from './helpers/domain.js';

test('recordUse inserts with usage 1, then increments usage and moves lastUseTime', () => {
  const clock = new FakeClock();
  const s = newStore({ clock: clock.read });
  assert.deepEqual(s.searchKeywords.recordUse('剑客'), { word: '剑客', usage: 1, lastUseTime: T0 });
  clock.advance(1000);
  assert.deepEqual(s.searchKeywords.recordUse('剑客'), { word: '剑客', usage: 2, lastUseTime: T0 + 1000 });
  assert.deepEqual(s.db.prepare('SELECT word, usage, lastUseTime FROM search_keywords').all(), [{ word: '剑客', usage: 2, lastUseTime: T0 + 1000 }]);
  s.close();
});

test('ranked by usage or by time; search by substring or prefix, most used first', () => {
  const clock = new FakeClock();
  const s = newStore({ clock: clock.read });
  const use = (w: string, times: number) => {
    for (let i = 0; i < times; i++) {
      clock.advance(1);
      s.searchKeywords.recordUse(w);
    }
  };
  use('星海', 3);
  use('剑客', 1);
  use('青山剑客', 2);
  use('海', 1);
  const words = (rows: readonly { word: string }[]) => rows.map((r) => r.word);
  assert.deepEqual(words(s.searchKeywords.byUsage()), ['星海', '青山剑客', '剑客', '海']);
  assert.deepEqual(words(s.searchKeywords.byUsage(2)), ['星海', '青山剑客']);
  assert.deepEqual(words(s.searchKeywords.byTime()), ['海', '青山剑客', '剑客', '星海']);
  assert.deepEqual(words(s.searchKeywords.search('剑客')), ['青山剑客', '剑客']);
  assert.deepEqual(words(s.searchKeywords.search('剑', { prefix: true })), ['剑客']);
  assert.deepEqual(words(s.searchKeywords.search('海', { limit: 1 })), ['星海']);
  assert.equal(s.searchKeywords.delete('海'), true);
  assert.equal(s.searchKeywords.clear(), 3);
  s.close();
});
