// The benchmark harness in smoke mode (tiny sizes, one timed run): every workload runs against
// every contender that can do it, every result equals legado-store's, and the markdown table
// has a row per workload. No timing is asserted: speed claims come from `npm run bench` only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bench, CONTENDERS, parseArgs } from '../bench/run.js';
import { workloads, SMOKE_SIZES } from '../bench/workloads.js';
import { testDriver } from './helpers/engine.js';

test('smoke mode runs every workload against every contender and writes the table', async () => {
  const { report, markdown } = await bench(parseArgs(['--smoke']), () => {});
  const all = workloads(SMOKE_SIZES);
  assert.equal(all.length, 8);
  for (const w of all) {
    const row = new RegExp(`^\\| ${w.id} \\| ${w.title} \\| \\d+ \\|`, 'm');
    assert.match(markdown, row, `summary row of workload ${w.id}`);
    // Drizzle and Kysely are built on better-sqlite3; the others run on every engine.
    for (const c of CONTENDERS.filter((x) => !x.engines || x.engines.includes(testDriver.name))) {
      const m = report.measurements.find((x) => x.workload.id === w.id && x.contender === c.name);
      if (!w.canRun(c)) {
        assert.equal(m, undefined);
        continue;
      }
      assert.ok(m, `${c.name} ran workload ${w.id}`);
      assert.ok(m.rows > 0, `${c.name} did rows in workload ${w.id}`);
      assert.equal(m.times.length, 1);
    }
  }
  if (testDriver.name === 'better-sqlite3') assert.deepEqual(new Set(report.measurements.map((m) => m.contender)), new Set(CONTENDERS.map((c) => c.name)));
  else assert.deepEqual(new Set(report.measurements.map((m) => m.contender)), new Set(['legado-store', 'raw']));
  // Open and backup: legado-store can do them, and raw too (its own minimal check and files).
  for (const key of ['open', 'backup']) assert.ok(report.measurements.some((m) => m.workload.key === key && m.contender === 'legado-store'));
  assert.deepEqual(report.mismatches, [], 'every contender returned the same results as legado-store');
});

test('arguments: sizes, scale, only, repeats', () => {
  const a = parseArgs(['--only', '1,cache', '--repeats', '9', '--size', 'cache=500', '--scale', '0.5', '--out', '-']);
  assert.deepEqual(a.only, ['1', 'cache']);
  assert.equal(a.repeats, 9);
  assert.equal(a.sizes.cache, 500);
  assert.equal(a.sizes.toc, 5000);
  assert.equal(a.out, undefined);
  assert.throws(() => parseArgs(['--size', 'nope=1']), /--size/);
});
