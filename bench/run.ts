// npm run bench [-- options]: runs the workloads against legado-store, hand-written
// better-sqlite3, Drizzle and Kysely, prints the table and writes it to bench/results.md.
//
//   --smoke               tiny sizes, 1 timed run: checks the harness works (CI runs this)
//   --only 1,3            only these workloads (numbers or keys: toc, sources, shelf, ...)
//   --contenders a,b      only these contenders (legado-store, raw, drizzle, kysely)
//   --driver NAME         the engine: better-sqlite3, node:sqlite, bun:sqlite (default: the
//                         store's automatic choice); Drizzle and Kysely run on better-sqlite3 only
//   --repeats N           timed runs per workload and contender (default 7; open: at least 25)
//   --warmup N            untimed runs first (default 1; at least 1, the result check)
//   --size k=v,...        sizes, e.g. --size cache=20000,books=5000 (keys: see DEFAULT_SIZES)
//   --scale F             every size times F
//   --out FILE            where to write the markdown (default bench/results.md, with --driver
//                         bench/results-<driver>.md; "-" for none)
import { writeFileSync } from 'node:fs';
import { defaultDriver, DRIVER_ENV } from '../src/engine/drivers/index.js';
import type { DriverName } from '../src/index.js';
import { pathToFileURL } from 'node:url';
import type { Contender } from './contender.js';
import { drizzleContender } from './contenders/drizzle.js';
import { kyselyContender } from './contenders/kysely.js';
import { legadoStore } from './contenders/legado-store.js';
import { raw } from './contenders/raw.js';
import { markdown, runHarness, targets, type Report } from './harness.js';
import { DEFAULT_SIZES, SMOKE_SIZES, workloads, type Sizes } from './workloads.js';

export const CONTENDERS: readonly Contender[] = [legadoStore, raw, drizzleContender, kyselyContender];

export interface BenchArgs {
  readonly smoke: boolean;
  readonly only?: readonly string[];
  readonly contenders?: readonly string[];
  readonly driver?: DriverName;
  readonly repeats: number;
  readonly warmup: number;
  readonly sizes: Sizes;
  readonly out: string | undefined;
  /** The arguments as given, for the results' command line. */
  readonly argv: readonly string[];
}

export function parseArgs(argv: readonly string[]): BenchArgs {
  const flags = new Map<string, string>();
  let smoke = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--smoke') smoke = true;
    else if (a.startsWith('--')) {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      flags.set(a.slice(2), v);
    } else throw new Error(`unknown argument ${a}`);
  }
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
  const driver = flags.get('driver');
  const out = flags.get('out') ?? (smoke ? '-' : driver ? `bench/results-${driver.replace(/\W+/g, '-')}.md` : 'bench/results.md');
  return {
    smoke,
    only: list('only'),
    contenders: list('contenders'),
    ...(driver !== undefined && { driver: driver as DriverName }),
    repeats: Math.max(1, Number(flags.get('repeats') ?? (smoke ? 1 : 7))),
    warmup: Math.max(1, Number(flags.get('warmup') ?? 1)),
    sizes: sizes as unknown as Sizes,
    out: out === '-' ? undefined : out,
    argv: [...argv],
  };
}

export async function bench(args: BenchArgs, log: (line: string) => void = console.log): Promise<{ report: Report; markdown: string }> {
  const all = workloads(args.sizes);
  const selected = args.only ? all.filter((w) => args.only!.some((o) => o === String(w.id) || o === w.key)) : all;
  if (selected.length === 0) throw new Error(`--only ${args.only?.join(',')}: no such workload`);
  // Every store the harness opens, and the raw contender, run on this engine.
  if (args.driver) process.env[DRIVER_ENV] = args.driver;
  const engine = defaultDriver().name;
  const contenders = (args.contenders ? CONTENDERS.filter((c) => args.contenders!.includes(c.name)) : CONTENDERS).filter(
    (c) => !c.engines || c.engines.includes(engine),
  );
  const report = await runHarness({
    contenders,
    workloads: selected,
    sizes: args.sizes,
    repeats: args.repeats,
    warmup: args.warmup,
    openRepeats: args.smoke ? 1 : 25,
    log,
  });
  const command = `npm run bench${args.argv.length ? ` -- ${args.argv.join(' ')}` : ''}`;
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
  if (missed.length) console.log(`targets missed: ${missed.map((t) => `${t.workload.id}. ${t.workload.title}`).join(', ')}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : e);
    process.exit(1);
  });
}
