// Cache: deadline 0 never expires, otherwise an absolute deadline in ms; expired entries read
// as absent; purgeExpired deletes them. Time from an injected clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ValueTypeError } from 'legado-store/errors';
import { FakeClock, T0, newStore, raw, rawAll } from './helpers/domain.js';

test('put stores an absolute deadline (now + ttl seconds), or 0 for no ttl', () => {
  const clock = new FakeClock();
  const s = newStore({ clock: clock.read });
  assert.equal(s.cache.put('forever', 'v'), 0);
  assert.equal(s.cache.put('minute', 'm', 60), T0 + 60_000);
  assert.equal(s.cache.put('half', 'h', 0.5), T0 + 500);
  assert.equal(raw(s, "SELECT deadline FROM caches WHERE key = 'minute'"), BigInt(T0 + 60_000));
  assert.equal(raw(s, "SELECT deadline FROM caches WHERE key = 'forever'"), 0n);
  assert.throws(() => s.cache.put('bad', 'x', -1), ValueTypeError);
  s.close();
});

test('get treats expired entries as absent; a deadline equal to now is expired', () => {
  const clock = new FakeClock();
  const s = newStore({ clock: clock.read });
  s.cache.put('forever', 'f');
  s.cache.put('minute', 'm', 60);
  s.cache.put('null-value', null, 60);
  assert.equal(s.cache.get('minute'), 'm');
  assert.equal(s.cache.get('null-value'), null, 'a stored null is a value');
  assert.equal(s.cache.has('null-value'), true);
  clock.advance(59_999);
  assert.equal(s.cache.get('minute'), 'm');
  clock.advance(1);
  assert.equal(s.cache.get('minute'), undefined);
  assert.equal(s.cache.has('minute'), false);
  assert.equal(s.cache.entry('minute'), undefined);
  assert.equal(raw(s, "SELECT count(*) FROM caches WHERE key = 'minute'"), 1n, 'get does not delete');
  clock.advance(10 * 365 * 86_400_000);
  assert.equal(s.cache.get('forever'), 'f', 'deadline 0 never expires');
  assert.equal(s.cache.get('missing'), undefined);
  s.close();
});

test('put replaces; purgeExpired deletes only what is past its deadline', () => {
  const clock = new FakeClock();
  const s = newStore({ clock: clock.read });
  s.cache.put('a', '1', 10);
  s.cache.put('a', '2', 100);
  assert.equal(raw(s, 'SELECT count(*) FROM caches'), 1n);
  s.cache.put('b', 'b', 10);
  s.cache.put('c', 'c');
  s.db.prepare('INSERT INTO caches (key, value, deadline) VALUES (?, ?, ?)').run('app-written', 'x', T0 + 20_000);
  clock.advance(20_000);
  assert.equal(s.cache.get('app-written'), undefined, 'deadline == now reads as expired');
  assert.equal(s.cache.purgeExpired(), 1, 'b; the app’s purge keeps deadline == now (deadline < now)');
  clock.advance(1);
  assert.equal(s.cache.purgeExpired(), 1);
  assert.deepEqual(rawAll(s, 'SELECT key FROM caches ORDER BY key'), ['a', 'c']);
  assert.equal(s.cache.delete('a'), true);
  s.close();
});
