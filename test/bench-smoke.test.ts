// The benchmark harness in quick mode (tiny sizes, tiers ×1 and ×2, one timed run): every
// workload runs against every contender that can do it on the suite's engine, every result
// equals legado-store's, and the results file has its targets, medians and scaling tables.
// No timing is asserted: speed claims come from `npm run bench` only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bench, CONTENDERS, parseArgs } from '../bench/run.js';
import { instance } from '../bench/harness.js';
import { targets, verdict } from '../bench/ratios.js';
import { controlCi } from '../bench/report.js';
import { bootstrapMedian, pairedRatios } from '../bench/stats.js';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { constants as perfConstants, PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { heldData, workloads, SMOKE_SIZES } from '../bench/workloads.js';
import { testDriver } from './helpers/engine.js';
import type { DriverName } from '../src/engine/driver.js';

test('quick mode runs every workload at two tiers against every contender and writes the tables', async () => {
  const { report, markdown } = await bench(parseArgs(['--quick']), () => {});
  const all = workloads(SMOKE_SIZES, [1, 2]);
  const keys = new Set(all.map((w) => w.key));
  for (const key of [
    'toc',
    'sources',
    'shelf',
    'progress',
    'transaction',
    'cache',
    'chapters',
    'chapter-get',
    'book-get',
    'bulk',
    'open',
    'backup',
    'import',
    'export',
  ]) {
    assert.ok(keys.has(key), `workload ${key}`);
  }
  // Write and read workloads come at both tiers; open and backup once.
  assert.equal(all.filter((w) => w.key === 'bulk').length, 2);
  assert.equal(all.filter((w) => w.key === 'open').length, 1);
  const engine = testDriver.name as DriverName;
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
  for (const name of ['legado-store', 'c-floor', 'store+listener', 'store+other-listener', 'raw', 'raw-again', 'raw-naive', 'kysely'])
    assert.ok(bulk.includes(name), `${name} in the bulk insert`);
  const t = targets(report).map((x) => `${instance(x.workload)} ${x.target}`);
  assert.ok(t.some((x) => x.startsWith('9×2 ≤ 1.20× the C floor')));
  assert.ok(t.some((x) => x.startsWith('9×1 store+listener ≤ 1.00× raw+room-tracker')));
  assert.ok(t.some((x) => x.startsWith('12×1 ≤ 1.05× JSON.parse')));
  assert.ok(t.some((x) => x.startsWith('12×2 peak memory')));
  // Every verdict is the bootstrap interval of the per-round ratios of the two contenders it names, as printed.
  const best = (w: (typeof all)[number]) => {
    const hands = report.measurements.filter((m) => m.workload.key === w.key && m.workload.tier === w.tier && m.kind === 'hand');
    return hands.reduce((a, m) => (m.median < a.median ? m : a));
  };
  for (const target of targets(report).filter((x) => x.target.includes('fastest hand-written'))) {
    const w = target.workload;
    const store = report.measurements.find((m) => m.workload === w && m.contender === 'legado-store')!;
    const fastest = best(w);
    assert.ok(target.target.includes(`(${fastest.contender})`), `${instance(w)} judged against ${fastest.contender}`);
    assert.deepEqual(
      target.ratio,
      bootstrapMedian(
        store.times.map((t, i) => t / fastest.times[i]!),
        2000,
        report.seed,
      ),
    );
    const again = report.measurements.find((m) => m.workload === w && m.contender === 'raw-again')!;
    const twin = report.measurements.find((m) => m.workload === w && m.contender === 'raw')!;
    assert.deepEqual(
      target.control,
      bootstrapMedian(
        again.times.map((t, i) => t / twin.times[i]!),
        2000,
        report.seed,
      ),
    );
    const row = `| ${instance(w)} | ${w.title} | ${store.rows} | ${target.target} | ${target.ratio.median.toFixed(2)}× | [${target.ratio.low.toFixed(2)}–${target.ratio.high.toFixed(2)}] | ${controlCi(target.control!)} |`;
    assert.ok(markdown.includes(row), `printed: ${row}`);
  }
  // store+listener is judged against the same guarantee by hand (Room's tracker on raw code) on
  // every listener workload, under the workload's limit, and against the store without one.
  for (const key of ['progress', 'transaction', 'bulk'])
    for (const tier of [1, 2]) {
      const w = all.find((x) => x.key === key && x.tier === tier)!;
      const of = (name: string) => report.measurements.find((m) => m.workload.key === key && m.workload.tier === tier && m.contender === name)!;
      const [listening, byHand, store] = [of('store+listener'), of('raw+room-tracker'), of('legado-store')];
      const limit = key === 'bulk' ? '1.00' : '1.05';
      const judged = targets(report).filter((x) => x.workload === listening.workload && x.target.startsWith('store+listener ≤'));
      assert.deepEqual(
        judged.map((x) => x.target),
        [`store+listener ≤ ${limit}× raw+room-tracker (the same guarantee by hand)`, "store+listener ≤ 1.05× legado-store (the listener's overhead)"],
        `${key}×${tier}`,
      );
      const ratio = (a: number[], b: number[]) =>
        bootstrapMedian(
          a.map((t, i) => t / b[i]!),
          2000,
          report.seed,
        );
      assert.deepEqual(judged[0]!.ratio, ratio(listening.times, byHand.times));
      assert.deepEqual(judged[1]!.ratio, ratio(listening.times, store.times));
      for (const x of judged) {
        const row = `| ${instance(w)} | ${w.title} | ${store.rows} | ${x.target} | ${x.ratio.median.toFixed(2)}× | [${x.ratio.low.toFixed(2)}–${x.ratio.high.toFixed(2)}] |`;
        assert.ok(markdown.includes(row), `printed: ${row}`);
      }
    }
  assert.ok(!t.some((x) => x.includes('raw-again')), 'no target names the control');
  // The probe (raw's code on the store's connection, native engines) is shown beside the targets
  // on every workload it ran, as its ratio to raw, and never judged nor counted.
  const probed = report.measurements.filter((m) => m.contender === 'raw-on-store');
  assert.equal(probed.length > 0, engine !== 'wasm', 'the probe runs on the native engines only');
  const shown = targets(report).filter((x) => x.verdict === 'shown');
  assert.equal(shown.length, 2 * probed.length);
  for (const p of probed) {
    const twin = report.measurements.find((m) => m.workload === p.workload && m.contender === 'raw')!;
    const store = report.measurements.find((m) => m.workload === p.workload && m.contender === 'legado-store')!;
    const rows = shown.filter((x) => x.workload === p.workload);
    assert.deepEqual(
      rows.map((x) => x.target),
      ['raw-on-store / raw (shown, not a target)', 'legado-store / raw-on-store (shown, not a target)'],
    );
    assert.deepEqual(rows[0]!.ratio, bootstrapMedian(pairedRatios(p.times, twin.times), 2000, report.seed));
    assert.deepEqual(rows[1]!.ratio, bootstrapMedian(pairedRatios(store.times, p.times), 2000, report.seed));
    for (const row of rows) {
      assert.equal(row.met, false);
      assert.ok(markdown.includes(`| ${instance(p.workload)} | ${p.workload.title} | ${store.rows} | ${row.target} | ${row.ratio.median.toFixed(2)}× |`));
    }
  }
  const judgedCount = targets(report).length - shown.length;
  assert.match(markdown, new RegExp(`\\d+ of ${judgedCount} met, `), 'the count leaves the probe rows out');
  assert.match(markdown, /nproc \d+, load average [\d.]+ \/ [\d.]+/);
  for (const heading of ['## Targets', '## Medians (wall ms)', '## Scaling (µs per row, wall medians)', '## Detail'])
    assert.ok(markdown.includes(heading), heading);
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

/** How many collections the runtime reports as forced (V8's own GC performance entries) while `run` runs. */
async function forcedCollections(run: () => Promise<unknown>): Promise<number> {
  let forced = 0;
  const seen = new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (((e as { detail?: { flags?: number } }).detail?.flags ?? 0) & perfConstants.NODE_PERFORMANCE_GC_FLAGS_FORCED) forced++;
  });
  seen.observe({ entryTypes: ['gc'] });
  await run();
  // GC entries are delivered after the work that made them.
  await new Promise((r) => setTimeout(r, 50));
  seen.disconnect();
  return forced;
}

test('--gc: a forced collection before the clock of bulk runs only by default, of every run with all, of none with none; the results say which', async () => {
  assert.equal(parseArgs([]).gc, 'bulk');
  assert.equal(parseArgs(['--gc', 'none']).gc, 'none');
  assert.throws(() => parseArgs(['--gc', 'sometimes']), /--gc must be all, bulk or none/);
  const run = (gc: string, only: string) =>
    bench(parseArgs(['--quick', '--only', only, '--contenders', 'legado-store,raw', '--repeats', '2', '--max-repeats', '2', '--gc', gc]), () => {});
  // progress: 2 contenders x (1 warm-up + 2 rounds) x 2 tiers = 12 runs.
  assert.equal(await forcedCollections(() => run('bulk', 'progress')), 0);
  assert.ok((await forcedCollections(() => run('all', 'progress'))) >= 12);
  assert.ok((await forcedCollections(() => run('bulk', 'bulk'))) >= 12);
  assert.equal(await forcedCollections(() => run('none', 'bulk')), 0);
  const { markdown } = await run('none', 'progress');
  assert.match(markdown, /no garbage collection forced \(--gc none\)/);
  assert.match((await run('bulk', 'progress')).markdown, /in the bulk workloads only \(bulk, import, export, backup; --gc bulk\)/);
});

test('a short workload runs more rounds, up to --max-repeats, until each contender has about --min-ms timed', async () => {
  const runs = async (extra: string[]) => {
    const { report } = await bench(parseArgs(['--quick', '--only', 'open', '--contenders', 'legado-store,raw', '--repeats', '2', ...extra]), () => {});
    return report.measurements.map((m) => m.times.length);
  };
  // Opening takes about a millisecond: 1,000 ms asks for far more rounds than the cap.
  assert.deepEqual(await runs(['--min-ms', '1000', '--max-repeats', '4']), [4, 4]);
  assert.deepEqual(await runs(['--min-ms', '0', '--max-repeats', '4']), [2, 2]);
  assert.equal(parseArgs([]).minTimedMs, 0);
  assert.equal(parseArgs([]).repeats, 100);
  assert.equal(parseArgs([]).processes, 3);
  assert.equal(parseArgs(['--quick']).processes, 1);
  assert.equal(parseArgs(['--quick']).minTimedMs, 0);
});

test("each workload's data is dropped once it is done, before the next workload runs", async () => {
  // The harness logs a workload's medians after it is done: by then nothing it made is held.
  const held: number[] = [];
  await bench(parseArgs(['--quick', '--only', 'toc,shelf,progress', '--contenders', 'legado-store,raw']), () => held.push(heldData()));
  assert.ok(held.length >= 6, `logged ${held.length} lines`);
  assert.deepEqual(new Set(held), new Set([0]));
});

test('the bootstrap interval of the median, on data whose answer is worked out by hand', () => {
  // Two values: a resample of two has median 1 (both 1: p = 1/4), 1.5 (p = 1/2) or 2 (p = 1/4), so
  // the 2.5th percentile of 2,000 resampled medians is 1 and the 97.5th is 2.
  assert.deepEqual(bootstrapMedian([1, 2]), { median: 1.5, low: 1, high: 2, n: 2 });
  // All equal: every resample has that median.
  assert.deepEqual(bootstrapMedian([1.04, 1.04, 1.04, 1.04]), { median: 1.04, low: 1.04, high: 1.04, n: 4 });
  // 51 values, 50 of them 1.00 and one 9.00: a resample's median is 9 only when 26 or more of its 51
  // draws are that one value (p < 1e-20), so the interval is [1, 1] and the outlier moves nothing.
  assert.deepEqual(bootstrapMedian([...Array(50).fill(1), 9]), { median: 1, low: 1, high: 1, n: 51 });
  // Seeded: the same data and seed give the same interval.
  const xs = Array.from({ length: 99 }, (_, i) => 0.9 + ((i * 37) % 99) / 495);
  assert.deepEqual(bootstrapMedian(xs, 500, 7), bootstrapMedian(xs, 500, 7));
  const i = bootstrapMedian(xs, 500, 7);
  assert.ok(i.low < i.median && i.median < i.high, `${i.low} < ${i.median} < ${i.high}`);
  assert.deepEqual(pairedRatios([2, 3, 8], [1, 3, 4]), [2, 1, 2]);
});

test('verdicts: met within the limit, noise when the control interval leaves 1.00 out', () => {
  const at = (low: number, high: number) => ({ median: (low + high) / 2, low, high, n: 100 });
  const steady = at(0.98, 1.03);
  assert.equal(verdict(at(0.99, 1.04), 1.05, steady), 'met');
  assert.equal(verdict(at(0.99, 1.04), 1.0, steady), 'not met');
  assert.equal(verdict(at(1.0, 1.06), 1.05, steady), 'not met');
  // The control (the same code twice) 1.02–1.09 above 1.00 (or below it): the machine, not the code.
  assert.equal(verdict(at(0.99, 1.04), 1.05, at(1.02, 1.09)), 'noise');
  assert.equal(verdict(at(0.99, 1.04), 1.05, at(0.9, 0.99)), 'noise');
  assert.equal(verdict(at(0.99, 1.04), 1.05, steady, false), 'results differ');
});

test("a control's interval prints with three decimals where two would hide why the run is noise", () => {
  const at = (median: number, low: number, high: number) => ({ median, low, high, n: 300 });
  // 0.9962–0.9988 leaves 1.00 out, yet rounds to [1.00–1.00]: the table must show the miss.
  assert.equal(controlCi(at(0.9975, 0.9962, 0.9988)), '0.998× [0.996–0.999]');
  assert.equal(controlCi(at(1.0031, 1.0012, 1.0049)), '1.003× [1.001–1.005]');
  // Containing 1.00, or plainly missing it, two decimals say it.
  assert.equal(controlCi(at(1.0, 0.994, 1.006)), '1.00× [0.99–1.01]');
  assert.equal(controlCi(at(1.03, 1.02, 1.04)), '1.03× [1.02–1.04]');
});

test('processes: rounds of several processes pooled, the results file names command, engine, runtime and machine', () => {
  const dir = mkdtempSync(join(os.tmpdir(), 'bench-smoke-'));
  try {
    const out = join(dir, 'r.md');
    const files = join(dir, 'files');
    mkdirSync(files);
    const run = fileURLToPath(new URL('../bench/run.js', import.meta.url));
    const child = spawnSync(
      process.execPath,
      [run, '--quick', '--only', 'progress', '--tiers', '1', '--contenders', 'legado-store,raw,raw-again', '--processes', '2', '--repeats', '3', '--out', out],
      // LEGADO_BENCH_DIR chooses where the runs' files go: the results name it, and nothing is left there.
      { encoding: 'utf8', env: { ...process.env, LEGADO_BENCH_DIR: files } },
    );
    assert.equal(child.status, 0, child.stderr);
    const md = readFileSync(out, 'utf8');
    assert.match(md, new RegExp(`^- files: ${files.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    assert.deepEqual(readdirSync(files), []);
    assert.match(md, /Command: `(node|bun) dist\/bench\/run\.js --quick --only progress .*--processes 2 --repeats 3/);
    assert.match(md, /Method: 2 process\(es\) × at least 3 rounds/);
    assert.match(md, new RegExp(`Engine ${testDriver.name} \\(SQLite [\\d.]+\\), (Node v|Bun )[\\d.]+; machine: .+, nproc \\d+, load average`));
    // Two processes of three rounds: six timed runs per contender (the detail table's runs column).
    for (const c of ['legado-store', 'raw', 'raw-again']) assert.match(md, new RegExp(`^\\| 4×1 \\| Reading progress \\| ${c} \\| 6 \\|`, 'm'));
    assert.match(
      md,
      /^\| 4×1 \| Reading progress \| \d+ \| ≤ 1\.05× fastest hand-written \(raw\) \| [\d.]+× \| \[[\d.]+–[\d.]+\] \| [\d.]+× \[[\d.]+–[\d.]+\] \| (met|\*\*not met\*\*|\*\*noise\*\*) \|$/m,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
