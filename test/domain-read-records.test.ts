// Read records: time added per (deviceId, bookName), totals per book across devices sorted
// Chinese-aware, the overall total, the last read per book.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, T0, newStore, newStore49, rawAll } from './helpers/domain.js';

test('addTime adds to the (device, book) row and moves lastRead; other devices are separate rows', () => {
  const clock = new FakeClock();
  const s = newStore({ clock: clock.read });
  assert.deepEqual(s.readRecords.addTime('青山剑客', 60_000), { deviceId: '', bookName: '青山剑客', readTime: 60_000, lastRead: T0 });
  clock.advance(5000);
  assert.deepEqual(s.readRecords.addTime('青山剑客', 30_000), { deviceId: '', bookName: '青山剑客', readTime: 90_000, lastRead: T0 + 5000 });
  s.readRecords.addTime('青山剑客', 1000, { deviceId: 'tablet', now: T0 + 9000 });
  assert.deepEqual(s.db.prepare('SELECT deviceId, readTime, lastRead FROM readRecord ORDER BY deviceId').all(), [
    { deviceId: '', readTime: 90_000, lastRead: T0 + 5000 },
    { deviceId: 'tablet', readTime: 1000, lastRead: T0 + 9000 },
  ]);
  assert.equal(s.readRecords.timeOf('青山剑客'), 91_000);
  assert.equal(s.readRecords.timeOf('青山剑客', 'tablet'), 1000);
  assert.equal(s.readRecords.timeOf('青山剑客', 'phone'), 0);
  assert.equal(s.readRecords.lastRead('青山剑客'), T0 + 9000);
  assert.equal(s.readRecords.lastRead('nope'), undefined);
  s.close();
});

test('totals per book across devices, sorted by name Chinese-aware; search; overall total', () => {
  const s = newStore();
  s.tables.readRecord.insertMany([
    { deviceId: '', bookName: '中国史', readTime: 10, lastRead: 5 },
    { deviceId: 'x', bookName: '中国史', readTime: 5, lastRead: 9 },
    { deviceId: '', bookName: '阿Q正传', readTime: 7, lastRead: 1 },
    { deviceId: '', bookName: '边城', readTime: 3, lastRead: 2 },
  ]);
  assert.deepEqual(s.readRecords.totals(), [
    { bookName: '阿Q正传', readTime: 7, lastRead: 1 },
    { bookName: '边城', readTime: 3, lastRead: 2 },
    { bookName: '中国史', readTime: 15, lastRead: 9 },
  ]);
  assert.deepEqual(
    s.readRecords.search('国').map((t) => t.bookName),
    ['中国史'],
  );
  assert.equal(s.readRecords.total(), 25);
  assert.equal(s.readRecords.delete('中国史'), 2);
  assert.deepEqual(rawAll(s, 'SELECT bookName FROM readRecord ORDER BY bookName'), ['边城', '阿Q正传']);
  assert.equal(s.readRecords.clear(), 2);
  assert.equal(s.readRecords.total(), 0);
  s.close();
});

test('schema 49 has no lastRead: time still adds, lastRead reads as 0', () => {
  const s = newStore49();
  s.readRecords.addTime('书', 100);
  s.readRecords.addTime('书', 50);
  assert.deepEqual(s.readRecords.totals(), [{ bookName: '书', readTime: 150, lastRead: 0 }]);
  assert.equal(s.readRecords.lastRead('书'), 0);
  s.close();
});
