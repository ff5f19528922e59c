// npm run bench [-- options]: runs the workloads against legado-store, the hand-written
// contenders (fastest and naive), Drizzle, Kysely and the C floor on one engine, prints the
// tables and writes them to bench/results.md (better-sqlite3) or bench/results-<engine>.md.
//
//   --quick, --smoke      tiny sizes, tiers ×1 and ×2, 1 timed run: checks the harness works (the test suite runs this)
//   --big                 tiers ×1, ×10 and ×100 (1,000,000 chapters in the bulk insert); default ×1 and ×10
//   --tiers 1,10          the size tiers
//   --only 1,bulk         only these workloads (numbers or keys: toc, sources, shelf, progress, transaction, cache, chapters,
//                         chapter-get, book-get, bulk, open, backup, import, export)
//   --contenders a,b      only these contenders (legado-store, store+listener, store+other-listener, raw,
//                         raw-again, raw-immediate (transaction call only), raw+room-tracker (the listener
//                         workloads: progress, transaction, bulk), raw-on-store (a probe: raw's code on the
//                         store's connection, native engines), raw-naive, drizzle, kysely, c-floor)
//   --driver NAME         the engine: better-sqlite3, node:sqlite (Node 22.13+), bun:sqlite (Bun), wasm
//                         (SQLite WASM, memory storage); default: the store's automatic choice
//   --processes N         processes run one after another, their rounds pooled (default 3; smoke 1)
//   --repeats N           rounds per process (default 100; smoke 1): every contender once per round, in a
//                         shuffled order; rounds are added, up to --max-repeats (default 300), while the
//                         control's 95% interval against its twin reaches above 1.05; --min-ms (default 0)
//                         asks for at least that many timed ms per contender
//   --seed N              seeds the round order and the bootstrap (default 1; process p gets seed + p)
//   --warmup N            untimed runs first (default 1; at least 1, the result check)
//   --gc all|bulk|none    which workloads' runs get a full garbage collection before their clock (default bulk:
//                         bulk, import, export, backup; a forced collection slows the calls after it)
//   --size k=v,...        tier-1 sizes, e.g. --size cache=20000,books=5000 (keys: see DEFAULT_SIZES)
//   --scale F             every tier-1 size times F
//   --out FILE            where to write the markdown (default bench/results.md, on another engine
//                         bench/results-<engine>.md; "-" for none)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { DriverName } from '../src/index.js';
import type { Contender } from './contender.js';
import { cFloor } from './contenders/c-floor.js';
import { drizzleContender } from './contenders/drizzle.js';
import { kyselyContender } from './contenders/kysely.js';
import { legadoStore, storeListening, storeListeningElsewhere } from './contenders/legado-store.js';
import { loadRawEngine } from './contenders/raw-engines.js';
import { rawNaive } from './contenders/raw-naive.js';
import { raw, rawAgain, rawImmediate } from './contenders/raw.js';
import { rawOnStore } from './contenders/raw-on-store.js';
import { rawRoomTracker } from './contenders/room-tracker.js';
import { useEngine } from './engine.js';
import { environment, type GcBeforeClock, median, runHarness, type Measurement, type Report } from './harness.js';
import { targets, label } from './ratios.js';
import { markdown } from './report.js';
import { DEFAULT_SIZES, SMOKE_SIZES, workloads, type Sizes, type Workload } from './workloads.js';
import { benchFiles } from './files.js';

export const CONTENDERS: readonly Contender[] = [
  legadoStore,
  storeListening,
  storeListeningElsewhere,
  raw,
  rawAgain,
  rawImmediate,
  rawRoomTracker,
  rawOnStore,
  rawNaive,
  drizzleContender,
  kyselyContender,
  cFloor,
];

export interface BenchArgs {
  readonly smoke: boolean;
  readonly only?: readonly string[] | undefined;
  readonly contenders?: readonly string[] | undefined;
  readonly driver?: DriverName | undefined;
  readonly tiers: readonly number[];
  readonly repeats: number;
  readonly warmup: number;
  readonly minTimedMs: number;
  readonly maxRepeats: number;
  /** Which workloads' runs get a full garbage collection before their clock (`--gc all|bulk|none`, default bulk). */
  readonly gc: GcBeforeClock;
  readonly processes: number;
  readonly seed: number;
  /** Set in a child process: write the measurements as JSON here. */
  readonly json?: string | undefined;
  readonly sizes: Sizes;
  readonly out: string | undefined;
  /** The arguments as given, for the results' command line. */
  readonly argv: readonly string[];
}

const SWITCHES = new Set(['--smoke', '--quick', '--big']);

function gcFlag(v: string | undefined): GcBeforeClock {
  if (v === undefined) return 'bulk';
  if (v === 'all' || v === 'bulk' || v === 'none') return v;
  throw new Error('--gc must be all, bulk or none');
}

export function parseArgs(argv: readonly string[]): BenchArgs {
  const flags = new Map<string, string>();
  const on = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (SWITCHES.has(a)) on.add(a);
    else if (a.startsWith('--')) {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      flags.set(a.slice(2), v);
    } else throw new Error(`unknown argument ${a}`);
  }
  const smoke = on.has('--smoke') || on.has('--quick');
  const sizes: Record<string, number> = { ...(smoke ? SMOKE_SIZES : DEFAULT_SIZES) };
  const scale = Number(flags.get('scale') ?? 1);
  if (!(scale > 0)) throw new Error('--scale must be a positive number');
  for (const k of Object.keys(sizes)) sizes[k] = Math.max(1, Math.round(sizes[k]! * scale));
  for (const kv of (flags.get('size') ?? '').split(',').filter(Boolean)) {
    const [k, v] = kv.split('=');
    if (!k || !(k in sizes) || !Number.isInteger(Number(v)) || Number(v) < 1) throw new Error(`--size: ${kv} (keys: ${Object.keys(sizes).join(', ')})`);
    sizes[k] = Number(v);
  }
  const list = (k: string) =>
    flags
      .get(k)
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  const tiers = list('tiers')?.map(Number) ?? (smoke ? [1, 2] : on.has('--big') ? [1, 10, 100] : [1, 10]);
  if (!tiers.every((t) => Number.isInteger(t) && t >= 1)) throw new Error('--tiers: positive integers');
  const driver = flags.get('driver');
  const out =
    flags.get('out') ?? (smoke ? '-' : driver && driver !== 'better-sqlite3' ? `bench/results-${driver.replace(/\W+/g, '-')}.md` : 'bench/results.md');
  return {
    smoke,
    only: list('only'),
    contenders: list('contenders'),
    ...(driver !== undefined && { driver: driver as DriverName }),
    tiers,
    repeats: Math.max(1, Number(flags.get('repeats') ?? (smoke ? 1 : 100))),
    warmup: Math.max(1, Number(flags.get('warmup') ?? 1)),
    minTimedMs: Math.max(0, Number(flags.get('min-ms') ?? 0)),
    maxRepeats: Math.max(1, Number(flags.get('max-repeats') ?? (smoke ? 1 : 300))),
    gc: gcFlag(flags.get('gc')),
    processes: Math.max(1, Number(flags.get('processes') ?? (smoke ? 1 : 3))),
    seed: Number(flags.get('seed') ?? 1),
    ...(flags.has('json') && { json: flags.get('json')! }),
    sizes: sizes as unknown as Sizes,
    out: out === '-' ? undefined : out,
    argv: [...argv],
  };
}

export async function bench(args: BenchArgs, log: (line: string) => void = console.log): Promise<{ report: Report; markdown: string }> {
  const all = workloads(args.sizes, args.tiers);
  const selected = args.only ? all.filter((w) => args.only!.some((o) => o === String(w.id) || o === w.key)) : all;
  if (selected.length === 0) throw new Error(`--only ${args.only?.join(',')}: no such workload`);
  // Every store the harness opens, and every hand-written contender, run on this engine.
  const engine = await useEngine(args.driver);
  await loadRawEngine(engine.name);
  const contenders = (args.contenders ? CONTENDERS.filter((c) => args.contenders!.includes(c.name)) : CONTENDERS).filter(
    (c) => !c.engines || c.engines.includes(engine.name),
  );
  for (const c of contenders) await c.load?.(engine.name);
  const report =
    args.processes > 1 && !args.json
      ? pool(selected, inProcesses(args))
      : await runHarness({
          contenders,
          workloads: selected,
          sizes: args.sizes,
          tiers: args.tiers,
          repeats: args.repeats,
          warmup: args.warmup,
          openRepeats: args.smoke ? 1 : 25,
          minTimedMs: args.minTimedMs,
          maxRepeats: args.maxRepeats,
          gc: args.gc,
          seed: args.seed,
          log,
        });
  if (args.json) writeFileSync(args.json, JSON.stringify(toJson(report)));
  // What ran, as it can be run again (npm run bench is tsc, then node dist/bench/run.js).
  const runtime = (globalThis as { Bun?: unknown }).Bun ? 'bun' : 'node';
  const command = `${runtime} dist/bench/run.js${args.argv.length ? ` ${args.argv.join(' ')}` : ''}`;
  const text = markdown(
    report,
    contenders.map((c) => c.name),
    command,
  );
  return { report, markdown: text };
}

/** A measurement as a child process writes it: its workload by key and tier. */
type MeasurementJson = Omit<Measurement, 'workload'> & { key: string; tier: number };
type ReportJson = Omit<Report, 'measurements'> & { measurements: MeasurementJson[] };

const toJson = (r: Report): ReportJson => ({
  ...r,
  measurements: r.measurements.map(({ workload, ...m }) => ({ ...m, key: workload.key, tier: workload.tier })),
});

/** Runs the harness in `args.processes` child processes, one after another, each with its own seed. */
function inProcesses(args: BenchArgs): ReportJson[] {
  const dir = mkdtempSync(join(benchFiles(), 'legado-bench-runs-'));
  try {
    return Array.from({ length: args.processes }, (_, p) => {
      const json = join(dir, `${p}.json`);
      const argv = [...args.argv.filter((_, i, a) => !['--seed', '--processes'].includes(a[i]!) && !['--seed', '--processes'].includes(a[i - 1]!))];
      const child = spawnSync(
        process.execPath,
        [...process.execArgv, fileURLToPath(import.meta.url), ...argv, '--processes', '1', '--seed', String(args.seed + p), '--json', json, '--out', '-'],
        {
          stdio: ['ignore', 'inherit', 'inherit'],
        },
      );
      if (child.status !== 0) throw new Error(`bench process ${p + 1} of ${args.processes} failed (exit ${child.status ?? child.signal})`);
      return JSON.parse(readFileSync(json, 'utf8')) as ReportJson;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The processes' rounds pooled: a contender's times are concatenated in process order, so the
 * i-th time of two contenders of a workload still come from the same round of the same process.
 */
export function pool(ws: readonly Workload[], runs: readonly ReportJson[]): Report {
  const first = runs[0]!;
  const measurements: Measurement[] = [];
  for (const m of first.measurements) {
    const workload = ws.find((w) => w.key === m.key && w.tier === m.tier)!;
    const all = runs.map((r) => r.measurements.find((x) => x.key === m.key && x.tier === m.tier && x.contender === m.contender)!);
    const times = all.flatMap((x) => x.times);
    const cpus = all.flatMap((x) => x.cpus);
    const { key: _k, tier: _t, ...rest } = m;
    measurements.push({
      ...rest,
      workload,
      times,
      cpus,
      median: median(times),
      cpu: median(cpus),
      min: Math.min(...times),
      peakBytes: Math.max(...all.map((x) => x.peakBytes)),
      sameAsStore: all.every((x) => x.sameAsStore),
    });
  }
  const load = runs.map((r) => r.environment['load average (1 min) before/after']);
  return {
    ...first,
    measurements,
    processes: runs.length,
    environment: {
      ...environment(Number(load[0]!.split(' / ')[0])),
      'load average (1 min) before/after': `${load[0]!.split(' / ')[0]} / ${load.at(-1)!.split(' / ')[1]}`,
    },
    mismatches: [...new Set(runs.flatMap((r) => r.mismatches))],
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const { report, markdown: text } = await bench(args);
  if (args.json) return; // a child process: the parent pools and prints
  console.log(`\n${text}`);
  if (args.out) {
    writeFileSync(args.out, text);
    console.log(`written to ${args.out}`);
  }
  const missed = targets(report).filter((t) => t.verdict === 'not met');
  if (report.mismatches.length) {
    console.error(`results differ:\n${report.mismatches.join('\n')}`);
    process.exitCode = 1;
  }
  if (missed.length) console.log(`targets not met: ${missed.map((t) => `${label(t.workload)} (${t.target})`).join('; ')}`);
  const noise = targets(report).filter((t) => t.verdict === 'noise');
  if (noise.length) console.log(`noise (the control's interval does not contain 1.00): ${noise.map((t) => label(t.workload)).join('; ')}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : e);
    process.exit(1);
  });
}
