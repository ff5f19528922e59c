// JSON written as the app's Gson writes it, and export's batches joining into exactly that text.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { exportBackup, openStore } from 'legado-store';
import { gsonCompact, gsonPretty } from '../src/backup/gson.js';
import { tempDir } from './helpers/files.js';

test('Gson layout: 2-space indent, no HTML escaping, U+2028/U+2029 escaped, 64-bit integers exact', () => {
  assert.equal(gsonPretty({ a: '<b>&=</b>', n: [1, {}], e: [] }), '{\n  "a": "<b>&=</b>",\n  "n": [\n    1,\n    {}\n  ],\n  "e": []\n}');
  assert.equal(gsonCompact({ s: 'line\u2028para\u2029end' }), '{"s":"line\\u2028para\\u2029end"}');
  assert.equal(gsonPretty({ g: -(2n ** 63n), h: [2n ** 62n] }), '{\n  "g": -9223372036854775808,\n  "h": [\n    4611686018427387904\n  ]\n}');
  assert.throws(
    () =>
      gsonPretty({
        toJSON() {
          throw new TypeError('not about BigInt');
        },
      }),
    /not about BigInt/,
  );
});

test('an export written in batches is exactly the whole array pretty-printed at once', async () => {
  const dir = tempDir();
  const store = openStore(join(dir, 'many.db'));
  const rows = Array.from({ length: 600 }, (_, i) => ({ id: i + 1, name: `rule ${i}\u2028`, pattern: `p${i}`, order: i }));
  store.tables.replace_rules.insertMany(rows);
  await exportBackup(store, join(dir, 'out'), { tables: ['replace_rules'] });
  const text = readFileSync(join(dir, 'out', 'replaceRule.json'), 'utf8');
  const expected = store.tables.replace_rules.list({ orderBy: 'id' }).map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null)));
  assert.equal(text, gsonPretty(expected));
  assert.ok(text.includes('rule 599\\u2028'));
  store.close();
});
