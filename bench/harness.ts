// Runs the workloads against the contenders in one process: a fresh copy of the workload's
// template per run, warm-up runs first, then rounds in which every contender runs once, in an
// order shuffled every round (seeded), so that the i-th time of two contenders is a pair taken
// moments apart. Rounds are added (up to maxRepeats) while the control's interval against its
// twin reaches above 1.05: the machine was too noisy to judge 5%. The medians (wall and CPU),
// rows per second and µs per row, the peak memory of each run, every contender's result checked
// against legado-store's; then the paired intervals and targets (ratios.ts), the tables (report.ts).
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { openStore } from '../src/index.js';
import type { Clock, Contender } from './contender.js';
import { benchEngine } from './engine.js';
import { benchFiles } from './files.js';
import { resetPeak, vmHwm } from './memory.js';
import { bootstrapMedian, median, pairedRatios, prng, shuffle } from './stats.js';
import { releaseData, type RunContext, type RunOutput, type Sizes, type Workload } from './workloads.js';

export interface HarnessOptions {
  readonly contenders: readonly Contender[];
  readonly workloads: readonly Workload[];
  readonly sizes: Sizes;
  readonly tiers: readonly number[];
  /** Timed runs per contender and workload (the median is reported). */
  readonly repeats: number;
  /** Untimed runs first (the first one is also the result check). */
  readonly warmup: number;
  /** Extra timed runs for the open workload, which is short. */
  readonly openRepeats: number;
  /**
   * Timed milliseconds each contender gets at least per workload: a short workload runs more
   * rounds than `repeats` (up to `maxRepeats`), estimated from the fastest contender's warm-up,
   * so that a median of 20 ms runs is not a median of five samples of the machine's noise.
   */
  readonly minTimedMs?: number;
  readonly maxRepeats?: number;
  /**
   * Which runs get a full garbage collection after their session opens and before their clock
   * starts: 'bulk' (the default) the bulk workloads', whose runs leave hundreds of MB for the next
   * one to collect and whose peak memory is reported; 'all'; 'none'. A forced collection leaves the
   * calls after it slower for thousands of calls on every engine, and their rounds far more
   * varied on WASM (README, "A forced collection only before bulk runs"), so the single-operation workloads go without.
   */
  readonly gc?: GcBeforeClock;
  /** Seeds the round order (and the bootstrap): a process of a multi-process run gets its own. */
  readonly seed?: number;
  readonly log?: (line: string) => void;
}

export interface Measurement {
  readonly workload: Workload;
  readonly contender: string;
  readonly kind: Contender['kind'];
  readonly twin?: string;
  /** Milliseconds of each timed run, in round order (the i-th of every contender of a workload come from the same round). */
  readonly times: number[];
  /** CPU milliseconds of each timed run, in the same order. */
  readonly cpus: number[];
  readonly median: number;
  /** Median CPU milliseconds (user + system) of the process during a run: steadier than wall time on a busy machine. */
  readonly cpu: number;
  readonly min: number;
  readonly rows: number;
  /** Highest peak RSS of a run above the RSS at its start, in bytes. */
  readonly peakBytes: number;
  /** The result check, and whether it equals legado-store's. */
  readonly check: string;
  readonly sameAsStore: boolean;
}

export interface Report {
  readonly engine: string;
  readonly measurements: Measurement[];
  readonly sizes: Sizes;
  readonly tiers: readonly number[];
  readonly repeats: number;
  readonly warmup: number;
  readonly openRepeats: number;
  readonly minTimedMs: number;
  readonly maxRepeats: number;
  /** Which runs had a full garbage collection before their clock (HarnessOptions.gc). */
  readonly gc: GcBeforeClock;
  readonly seed: number;
  /** Processes whose rounds were pooled (run.ts --processes). */
  readonly processes: number;
  readonly environment: Record<string, string>;
  readonly mismatches: string[];
}

export const STORE = 'legado-store';

/** The bulk workloads (their target is 1.00, not 1.05; only they get a collection before the clock by default). */
export const BULK = new Set(['bulk', 'import', 'export', 'backup']);

export type GcBeforeClock = 'all' | 'bulk' | 'none';
const collectFor = (gc: GcBeforeClock, key: string): boolean => gc === 'all' || (gc === 'bulk' && BULK.has(key));

/** gc() without the command-line flag (Bun has its own). */
export const gc: () => void = (() => {
  const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun;
  if (bun) return () => bun.gc(true);
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
})();

/** The peak RSS since resetPeak (memory.ts): a true per-run peak where Linux lets it be reset. */
let peakResets = true;
function peakRss(): number {
  return (peakResets && vmHwm()) || process.memoryUsage().rss;
}

export { median };

/** The control's bound: rounds are added while its interval against its twin reaches above this. */
export const CONTROL_BOUND = 1.05;

/** A workload instance's label: its number, and its tier when it has tiers. */
export const instance = (w: Workload): string => (w.scales ? `${w.id}×${w.tier}` : String(w.id));

export async function runHarness(o: HarnessOptions): Promise<Report> {
  const log = o.log ?? (() => {});
  const engine = benchEngine();
  const seed = o.seed ?? 1;
  const random = prng(seed);
  const root = mkdtempSync(join(benchFiles(), 'legado-bench-'));
  const loadBefore = os.loadavg()[0]!;
  const measurements: Measurement[] = [];
  const mismatches: string[] = [];
  const files: string[] = [];
  const remove = (path: string) => {
    engine.remove(path);
    files.splice(files.indexOf(path), 1);
  };
  const made = (path: string) => (files.push(path), path);
  try {
    const empty = made(join(root, 'empty.db'));
    // The benchmarks run at the spec's schema, 62 (the raw contenders' SQL is written for it).
    openStore(empty, { driver: engine.driver, schema: 62 }).close();
    for (const w of o.workloads) {
      const template = made(join(root, `template-${w.key}-${w.tier}.db`));
      w.template(template, root);
      const contenders = o.contenders.filter((c) => w.canRun(c));
      const times = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
      const cpus = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
      const peaks = new Map<string, number>(contenders.map((c) => [c.name, 0]));
      const checks = new Map<string, string>();
      const rowsOf = new Map<string, number>();
      let repeats = w.key === 'open' ? Math.max(o.repeats, o.openRepeats) : o.repeats;
      let rounds = o.warmup + repeats;
      let fastestWarmup = Infinity;
      const cap = Math.max(repeats, o.maxRepeats ?? repeats);
      const control = contenders.find((c) => c.kind === 'control' && c.twin !== undefined);
      for (let round = 0; round < rounds; round++) {
        if (round === o.warmup && o.minTimedMs) {
          repeats = Math.max(repeats, Math.min(cap, Math.ceil(o.minTimedMs / Math.max(fastestWarmup, 0.1))));
          rounds = o.warmup + repeats;
        }
        for (const c of shuffle([...contenders], random)) {
          const dir = join(root, `run-${w.key}-${w.tier}-${c.name}-${round}`);
          mkdirSync(dir);
          const path = made(join(dir, 'store.db'));
          const emptyPath = made(join(dir, 'empty.db'));
          engine.copy(template, path);
          engine.copy(empty, emptyPath);
          const clock: Clock = { now: 1_750_000_000_000 };
          const session = w.session ? c.open(path, clock, { ...(w.writes && { writes: w.writes }) }) : undefined;
          const ctx: RunContext = { contender: c, path, emptyPath, scratch: dir, clock, ...(session ? { session } : {}) };
          if (collectFor(o.gc ?? 'bulk', w.key)) gc();
          const rssBefore = process.memoryUsage().rss;
          peakResets = resetPeak();
          const cpu0 = process.cpuUsage();
          const t0 = process.hrtime.bigint();
          let out: RunOutput | Promise<RunOutput> = w.run(ctx);
          if (out instanceof Promise) out = await out;
          const ms = Number(process.hrtime.bigint() - t0) / 1e6;
          const cpu = process.cpuUsage(cpu0);
          const peak = Math.max(0, peakRss() - rssBefore);
          if (session) await session.close();
          if (round < o.warmup) fastestWarmup = Math.min(fastestWarmup, ms);
          if (round === 0) {
            checks.set(c.name, w.check(ctx, out));
            rowsOf.set(c.name, out.rows);
          } else if (round >= o.warmup) {
            times.get(c.name)!.push(ms);
            cpus.get(c.name)!.push((cpu.user + cpu.system) / 1000);
            peaks.set(c.name, Math.max(peaks.get(c.name)!, peak));
          }
          remove(path);
          remove(emptyPath);
          rmSync(dir, { recursive: true, force: true });
        }
        // Too noisy to judge 5%: the control (the same code as its twin) is not within 1.05 of it.
        if (round === rounds - 1 && control && rounds - o.warmup < cap) {
          const ratios = pairedRatios(times.get(control.name)!, times.get(control.twin!)!);
          if (ratios.length > 1 && bootstrapMedian(ratios, 1000, seed).high > CONTROL_BOUND) {
            rounds = Math.min(o.warmup + cap, rounds + Math.max(10, (rounds - o.warmup) >> 1));
            log(`${instance(w)} ${w.title}: control interval above ${CONTROL_BOUND} after ${round + 1 - o.warmup} rounds, now ${rounds - o.warmup}`);
          }
        }
      }
      remove(template);
      releaseData();
      const storeCheck = checks.get(STORE);
      for (const c of contenders) {
        const ts = times.get(c.name)!;
        const check = checks.get(c.name) ?? '';
        const same = storeCheck === undefined || check === storeCheck;
        if (!same) mismatches.push(`${instance(w)}. ${w.title}: ${c.name} result ${check} differs from ${STORE}'s ${storeCheck}`);
        const m: Measurement = {
          workload: w,
          contender: c.name,
          kind: c.kind,
          ...(c.twin === undefined ? {} : { twin: c.twin }),
          times: ts,
          cpus: cpus.get(c.name)!,
          median: median(ts),
          cpu: median(cpus.get(c.name)!),
          min: Math.min(...ts),
          rows: rowsOf.get(c.name) ?? 0,
          peakBytes: peaks.get(c.name)!,
          check,
          sameAsStore: same,
        };
        measurements.push(m);
        log(
          `${instance(w).padEnd(6)} ${w.title.padEnd(19)} ${c.name.padEnd(21)} median ${fmtMs(m.median).padStart(8)} ms  cpu ${fmtMs(m.cpu).padStart(8)} ms  ${fmtUs(m.median, m.rows).padStart(8)} µs/row${same ? '' : '  RESULT DIFFERS'}`,
        );
      }
    }
  } finally {
    for (const f of [...files]) engine.remove(f);
    rmSync(root, { recursive: true, force: true });
  }
  return {
    engine: engine.name,
    measurements,
    sizes: o.sizes,
    tiers: o.tiers,
    repeats: o.repeats,
    minTimedMs: o.minTimedMs ?? 0,
    maxRepeats: o.maxRepeats ?? o.repeats,
    gc: o.gc ?? 'bulk',
    warmup: o.warmup,
    openRepeats: o.openRepeats,
    seed,
    processes: 1,
    environment: environment(loadBefore),
    mismatches,
  };
}

export function environment(loadBefore: number): Record<string, string> {
  const cpus = os.cpus();
  const engine = benchEngine();
  const db = engine.driver.open(':memory:');
  const sqlite = db.prepare('SELECT sqlite_version()').pluck().get() as string;
  db.close();
  const version = (pkg: string): string => {
    try {
      return (JSON.parse(readFileSync(join('node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      return '?';
    }
  };
  const bun = (globalThis as { Bun?: { version: string } }).Bun;
  return {
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    cpu: `${cpus[0]?.model ?? '?'} (${cpus.length} cores)`,
    nproc: String(os.availableParallelism?.() ?? cpus.length),
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    os: `${os.type()} ${os.release()}`,
    files: benchFiles(),
    runtime: bun ? `Bun ${bun.version}` : `Node ${process.version}`,
    engine: engine.name,
    sqlite,
    ...(engine.name === 'better-sqlite3' && { 'better-sqlite3': version('better-sqlite3') }),
    ...(engine.name === 'wasm' && { '@sqlite.org/sqlite-wasm': version('@sqlite.org/sqlite-wasm') }),
    'drizzle-orm': version('drizzle-orm'),
    kysely: version('kysely'),
    'load average (1 min) before/after': `${loadBefore.toFixed(2)} / ${os.loadavg()[0]!.toFixed(2)}`,
    'load average (1, 5, 15 min) after': os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', '),
  };
}

export const fmtMs = (ms: number): string => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
export const fmtUs = (ms: number, rows: number): string => {
  const us = (ms * 1000) / Math.max(1, rows);
  return us >= 100 ? us.toFixed(0) : us >= 10 ? us.toFixed(1) : us.toFixed(2);
};
export const fmtRate = (rows: number, ms: number): string => {
  const r = rows / (ms / 1000);
  return r >= 1e6 ? `${(r / 1e6).toFixed(2)} M` : r >= 1e3 ? `${(r / 1e3).toFixed(0)} k` : r.toFixed(0);
};
