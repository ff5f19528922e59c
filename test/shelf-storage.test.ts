// engineStorage: the engine's cookies and caches land in the app's `cookies` and `caches`
// tables as the app keeps them (a cookie merge keeps the other keys, a cache deadline is
// absolute epoch ms, 0 forever).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engineStorage } from '../src/sources/shelf/index.js';
import { FakeClock, newStore, T0 } from './helpers/domain.js';

test('cookies and caches through engineStorage, read back with raw SQL', () => {
  const clock = new FakeClock();
  const s = newStore({ clock: clock.read });
  const st = engineStorage(s);
  st.cookies.set('example.com', 'a=1; b=2');
  st.cookies.set('example.com', 'b=3; c=4');
  st.cookies.replace('other.org', 'x=9');
  assert.deepEqual(s.db.prepare('SELECT url, cookie FROM cookies ORDER BY url').all(), [
    { url: 'example.com', cookie: 'a=1; b=3; c=4' },
    { url: 'other.org', cookie: 'x=9' },
  ]);
  assert.equal(st.cookies.get('example.com'), 'a=1; b=3; c=4');
  st.cookies.delete('other.org');
  assert.equal(s.db.prepare('SELECT count(*) FROM cookies').pluck().get(), 1);
  st.cache.put('v_https://s_k', 'v');
  st.cache.put('loginHeader_https://s', '{"a":"b"}', 60);
  assert.deepEqual(s.db.prepare('SELECT key, value, deadline FROM caches ORDER BY key').all(), [
    { key: 'loginHeader_https://s', value: '{"a":"b"}', deadline: T0 + 60_000 },
    { key: 'v_https://s_k', value: 'v', deadline: 0 },
  ]);
  clock.advance(61_000);
  assert.equal(st.cache.get('loginHeader_https://s'), undefined);
  assert.equal(st.cache.get('v_https://s_k'), 'v');
  st.cache.delete('v_https://s_k');
  assert.equal(s.db.prepare("SELECT count(*) FROM caches WHERE key = 'v_https://s_k'").pluck().get(), 0);
  s.close();
});
