// The benchmark harness in quick mode (tiny sizes, tiers ×1 and ×2, one timed run): every
// workload runs against every contender that can do it on the suite's engine, every result
// equals legado-store's, and the results file has its targets, medians and scaling tables.
// No timing is asserted: speed claims come from `npm run bench` only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bench, CONTENDERS, parseArgs } from '../bench/run.js';
import { instance } from '../bench/harness.js';
import { controls, targets } from '../bench/ratios.js';
import { heldData, workloads, SMOKE_SIZES } from '../bench/workloads.js';
import { testDriver } from './helpers/engine.js';

test('quick mode runs every workload at two tiers against every contender and writes the tables', async () => {
  const { report, markdown } = await bench(parseArgs(['--quick']), () => {});
  const all = workloads(SMOKE_SIZES, [1, 2]);
  const keys = new Set(all.map((w) => w.key));
  for (const key of ['toc', 'sources', 'shelf', 'progress', 'cache', 'chapters', 'chapter-get', 'book-get', 'bulk', 'open', 'backup', 'import', 'export']) {
    assert.ok(keys.has(key), `workload ${key}`);
  }
  // Write and read workloads come at both tiers; open and backup once.
  assert.equal(all.filter((w) => w.key === 'bulk').length, 2);
  assert.equal(all.filter((w) => w.key === 'open').length, 1);
  const engine = testDriver.name;
  const here = CONTENDERS.filter((c) => !c.engines || c.engines.includes(engine));
  for (const w of workloads(SMOKE_SIZES, [1, 2])) {
    assert.match(markdown, new RegExp(`^\\| ${instance(w)} \\| ${w.title} \\| \\d+ \\|`, 'm'), `medians row of ${instance(w)}`);
    for (const c of here) {
      const m = report.measurements.find((x) => x.workload.key === w.key && x.workload.tier === w.tier && x.contender === c.name);
      if (!w.canRun(c)) {
        assert.equal(m, undefined, `${c.name} left out of ${instance(w)}`);
        continue;
      }
      assert.ok(m, `${c.name} ran ${instance(w)}`);
      assert.ok(m.rows > 0, `${c.name} did rows in ${instance(w)}`);
      assert.equal(m.times.length, 1);
    }
  }
  assert.deepEqual(new Set(report.measurements.map((m) => m.contender)), new Set(here.map((c) => c.name)));
  // The bulk insert has its C floor and both listener variants; the import its memory target.
  const bulk = report.measurements.filter((m) => m.workload.key === 'bulk').map((m) => m.contender);
  for (const name of ['legado-store', 'c-floor', 'store+listener', 'store+other-listener', 'raw', 'raw-again', 'raw-naive', 'kysely']) assert.ok(bulk.includes(name), `${name} in the bulk insert`);
  const t = targets(report).map((x) => `${instance(x.workload)} ${x.target}`);
  assert.ok(t.some((x) => x.startsWith('9×2 ≤ 1.20× the C floor')));
  assert.ok(t.some((x) => x.startsWith('9×1 store+listener ≤ 1.20×')));
  assert.ok(t.some((x) => x.startsWith('12×1 ≤ 1.15× JSON.parse')));
  assert.ok(t.some((x) => x.startsWith('12×2 peak memory')));
  // The control (raw's code run again) is judged in its own table, never as the fastest hand-written contender.
  const control = controls(report);
  assert.deepEqual(
    control.map((c) => instance(c.workload)),
    all.filter((w) => w.key !== 'open').map(instance),
    'a control row for every workload instance but open',
  );
  for (const c of control) {
    const again = report.measurements.find((m) => m.workload === c.workload && m.contender === 'raw-again')!;
    const hands = report.measurements.filter((m) => m.workload === c.workload && m.kind === 'hand');
    assert.equal(c.wall, again.median / Math.min(...hands.map((m) => m.median)), `control ratio of ${instance(c.workload)}`);
    assert.notEqual(c.fastest, 'raw-again');
    const twin = report.measurements.find((m) => m.workload === c.workload && m.contender === 'raw')!;
    assert.equal(c.twin, 'raw');
    assert.equal(c.twinWall, again.median / twin.median, `control / raw of ${instance(c.workload)}`);
    assert.equal(c.twinCpu, again.cpu / twin.cpu, `control / raw CPU of ${instance(c.workload)}`);
  }
  assert.ok(!t.some((x) => x.includes('raw-again')), 'no target names the control');
  assert.match(markdown, /raw-again runs raw's own code as one more contender\. Against raw, the same code, its median lands at \d+\.\d\d× to \d+\.\d\d×/);
  for (const heading of ['## Targets', '## Control: the same code twice', '## Medians (wall ms)', '## Scaling (µs per row, wall medians)', '## Detail']) assert.ok(markdown.includes(heading), heading);
  assert.deepEqual(report.mismatches, [], 'every contender returned the same results as legado-store');
});

test('arguments: sizes, scale, tiers, only, repeats', () => {
  const a = parseArgs(['--only', '1,cache', '--repeats', '9', '--size', 'cache=500', '--scale', '0.5', '--out', '-']);
  assert.deepEqual(a.only, ['1', 'cache']);
  assert.equal(a.repeats, 9);
  assert.equal(a.sizes.cache, 500);
  assert.equal(a.sizes.toc, 5000);
  assert.equal(a.out, undefined);
  assert.deepEqual(a.tiers, [1, 10]);
  assert.deepEqual(parseArgs(['--big']).tiers, [1, 10, 100]);
  assert.deepEqual(parseArgs(['--tiers', '1,3']).tiers, [1, 3]);
  assert.equal(parseArgs(['--driver', 'node:sqlite']).out, 'bench/results-node-sqlite.md');
  assert.equal(parseArgs([]).out, 'bench/results.md');
  assert.throws(() => parseArgs(['--size', 'nope=1']), /--size/);
});

test('a short workload runs more rounds, up to --max-repeats, until each contender has about --min-ms timed', async () => {
  const runs = async (extra: string[]) => {
    const { report } = await bench(parseArgs(['--quick', '--only', 'open', '--contenders', 'legado-store,raw', '--repeats', '2', ...extra]), () => {});
    return report.measurements.map((m) => m.times.length);
  };
  // Opening takes about a millisecond: 1,000 ms asks for far more rounds than the cap.
  assert.deepEqual(await runs(['--min-ms', '1000', '--max-repeats', '4']), [4, 4]);
  assert.deepEqual(await runs(['--min-ms', '0', '--max-repeats', '4']), [2, 2]);
  assert.equal(parseArgs([]).minTimedMs, 2000);
  assert.equal(parseArgs(['--quick']).minTimedMs, 0);
});

test('each workload\'s data is dropped once it is done, before the next workload runs', async () => {
  // The harness logs a workload's medians after it is done: by then nothing it made is held.
  const held: number[] = [];
  await bench(parseArgs(['--quick', '--only', 'toc,shelf,progress', '--contenders', 'legado-store,raw']), () => held.push(heldData()));
  assert.ok(held.length >= 6, `logged ${held.length} lines`);
  assert.deepEqual(new Set(held), new Set([0]));
});
