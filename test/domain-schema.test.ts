// The domain suites' stores are at the version they are run for (domain-versions runs them at
// later versions through LEGADO_TEST_SCHEMA); at 63 on, 本地 is inserted with enableRefresh off.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DOMAIN_SCHEMA, newStore } from './helpers/domain.js';

test('the domain stores are at the version the suites run for', () => {
  const s = newStore();
  assert.equal(s.version, Number(process.env.LEGADO_TEST_SCHEMA ?? 62));
  assert.equal(s.version, DOMAIN_SCHEMA);
  const local = s.db.prepare('SELECT * FROM book_groups WHERE groupId = -2').get() as Record<string, unknown>;
  if (s.version >= 63) assert.equal(local.enableRefresh, 0);
  else assert.equal('enableRefresh' in local, false);
  s.close();
});
