// npm run bench [-- options]: runs the workloads against legado-store, the hand-written
// contenders (fastest and naive), Drizzle, Kysely and the C floor on one engine, prints the
// tables and writes them to bench/results.md (better-sqlite3) or bench/results-<engine>.md.
//
//   --quick, --smoke      tiny sizes, tiers ×1 and ×2, 1 timed run: checks the harness works (the test suite runs this)
//   --big                 tiers ×1, ×10 and ×100 (1,000,000 chapters in the bulk insert); default ×1 and ×10
//   --tiers 1,10          the size tiers
//   --only 1,bulk         only these workloads (numbers or keys: toc, sources, shelf, progress, cache, chapters,
//                         chapter-get, book-get, bulk, open, backup, import, export)
//   --contenders a,b      only these contenders (legado-store, store+listener, store+other-listener, raw,
//                         raw-again, raw-naive, drizzle, kysely, c-floor)
//   --driver NAME         the engine: better-sqlite3, node:sqlite (Node 22.13+), bun:sqlite (Bun), wasm
//                         (SQLite WASM, memory storage); default: the store's automatic choice
//   --repeats N           timed runs per workload and contender (default 5; open: at least 25); a short
//                         workload runs more, up to --max-repeats (default 41), until each contender has
//                         about --min-ms (default 2000) of timed runs: medians of a few 20 ms runs are noise
//   --warmup N            untimed runs first (default 1; at least 1, the result check)
//   --size k=v,...        tier-1 sizes, e.g. --size cache=20000,books=5000 (keys: see DEFAULT_SIZES)
//   --scale F             every tier-1 size times F
//   --out FILE            where to write the markdown (default bench/results.md, on another engine
//                         bench/results-<engine>.md; "-" for none)
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { DriverName } from '../src/index.js';
import type { Contender } from './contender.js';
import { cFloor } from './contenders/c-floor.js';
import { drizzleContender } from './contenders/drizzle.js';
import { kyselyContender } from './contenders/kysely.js';
import { legadoStore, storeListening, storeListeningElsewhere } from './contenders/legado-store.js';
import { loadRawEngine } from './contenders/raw-engines.js';
import { rawNaive } from './contenders/raw-naive.js';
import { raw, rawAgain } from './contenders/raw.js';
import { useEngine } from './engine.js';
import { runHarness, type Report } from './harness.js';
import { targets, label } from './ratios.js';
import { markdown } from './report.js';
import { DEFAULT_SIZES, SMOKE_SIZES, workloads, type Sizes } from './workloads.js';

export const CONTENDERS: readonly Contender[] = [legadoStore, storeListening, storeListeningElsewhere, raw, rawAgain, rawNaive, drizzleContender, kyselyContender, cFloor];

export interface BenchArgs {
  readonly smoke: boolean;
  readonly only?: readonly string[];
  readonly contenders?: readonly string[];
  readonly driver?: DriverName;
  readonly tiers: readonly number[];
  readonly repeats: number;
  readonly warmup: number;
  readonly minTimedMs: number;
  readonly maxRepeats: number;
  readonly sizes: Sizes;
  readonly out: string | undefined;
  /** The arguments as given, for the results' command line. */
  readonly argv: readonly string[];
}

const SWITCHES = new Set(['--smoke', '--quick', '--big']);

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
  const list = (k: string) => flags.get(k)?.split(',').map((s) => s.trim()).filter(Boolean);
  const tiers = list('tiers')?.map(Number) ?? (smoke ? [1, 2] : on.has('--big') ? [1, 10, 100] : [1, 10]);
  if (!tiers.every((t) => Number.isInteger(t) && t >= 1)) throw new Error('--tiers: positive integers');
  const driver = flags.get('driver');
  const out = flags.get('out') ?? (smoke ? '-' : driver && driver !== 'better-sqlite3' ? `bench/results-${driver.replace(/\W+/g, '-')}.md` : 'bench/results.md');
  return {
    smoke,
    only: list('only'),
    contenders: list('contenders'),
    ...(driver !== undefined && { driver: driver as DriverName }),
    tiers,
    repeats: Math.max(1, Number(flags.get('repeats') ?? (smoke ? 1 : 5))),
    warmup: Math.max(1, Number(flags.get('warmup') ?? 1)),
    minTimedMs: Math.max(0, Number(flags.get('min-ms') ?? (smoke ? 0 : 2000))),
    maxRepeats: Math.max(1, Number(flags.get('max-repeats') ?? 41)),
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
  const report = await runHarness({
    contenders,
    workloads: selected,
    sizes: args.sizes,
    tiers: args.tiers,
    repeats: args.repeats,
    warmup: args.warmup,
    openRepeats: args.smoke ? 1 : 25,
    minTimedMs: args.minTimedMs,
    maxRepeats: args.maxRepeats,
    log,
  });
  // What ran, as it can be run again (npm run bench is tsc, then node dist/bench/run.js).
  const runtime = (globalThis as { Bun?: unknown }).Bun ? 'bun' : 'node';
  const command = `${runtime} dist/bench/run.js${args.argv.length ? ` ${args.argv.join(' ')}` : ''}`;
  const text = markdown(report, contenders.map((c) => c.name), command);
  return { report, markdown: text };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const { report, markdown: text } = await bench(args);
  console.log(`\n${text}`);
  if (args.out) {
    writeFileSync(args.out, text);
    console.log(`written to ${args.out}`);
  }
  const missed = targets(report).filter((t) => t.met === false);
  if (report.mismatches.length) {
    console.error(`results differ:\n${report.mismatches.join('\n')}`);
    process.exitCode = 1;
  }
  if (missed.length) console.log(`targets not met: ${missed.map((t) => `${label(t.workload)} (${t.target})`).join('; ')}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : e);
    process.exit(1);
  });
}
