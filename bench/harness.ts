// Runs the workloads against the contenders in one process: a fresh copy of the workload's
// template per run, warm-up runs first, contenders interleaved (the order rotates every round
// so none always runs first), the median of the timed runs, rows per second, the peak memory of
// each run, every contender's result checked against legado-store's, and the tables.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { defaultDriver } from '../src/engine/drivers/index.js';
import { openStore } from '../src/index.js';
import type { Clock, Contender } from './contender.js';
import type { RunContext, RunOutput, Sizes, Workload } from './workloads.js';

export interface HarnessOptions {
  readonly contenders: readonly Contender[];
  readonly workloads: readonly Workload[];
  readonly sizes: Sizes;
  /** Timed runs per contender and workload (the median is reported). */
  readonly repeats: number;
  /** Untimed runs first (the first one is also the result check). */
  readonly warmup: number;
  /** Extra timed runs for the open workload, which is short. */
  readonly openRepeats: number;
  readonly log?: (line: string) => void;
}

export interface Measurement {
  readonly workload: Workload;
  readonly contender: string;
  /** Milliseconds of each timed run. */
  readonly times: number[];
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
  readonly measurements: Measurement[];
  readonly sizes: Sizes;
  readonly repeats: number;
  readonly warmup: number;
  readonly openRepeats: number;
  readonly environment: Record<string, string>;
  readonly mismatches: string[];
}

const STORE = 'legado-store';

const CONTENDER_NOTES = [
  '- **legado-store**: its public API only: `store.chapters.replaceToc`, `store.tables.book_sources.upsertMany`, ' +
    '`store.books.shelf` (sorted by the bookshelf\'s last-read order), `store.books.updateProgress`, `store.cache.put/get`, ' +
    '`store.chapters.get/list`, `openStore` (which checks version, identity hash and every table, index and foreign key), ' +
    '`exportBackup`/`importBackup` (streamed, one record in memory at a time, lenient coercion and a per-record report).',
  '- **raw**: better-sqlite3 prepared statements written by hand, rows read as objects (`stmt.all()`) and mapped in JS ' +
    'to the same values (booleans, `group` as an exact bigint via a `CASE` that reads it as text only beyond 2^53). ' +
    'Its open only reads `user_version` and the identity hash; its backup is `JSON.stringify`/`JSON.parse` of whole files.',
  '- **drizzle**: the schema as `sqliteTable`s; prepared queries with `sql.placeholder` for everything run many times ' +
    '(its fastest path here: in a quick test, 10,000 chapters went in about 4 times faster this way than as multi-row `values([...])` inserts), ' +
    '`db.transaction`, `onConflictDoUpdate` with `excluded.*`. `group` is a number (Drizzle\'s SQLite integer has no bigint mode).',
  '- **kysely**: a `Database` interface and its own `SqliteDialect` on better-sqlite3; every query built and awaited ' +
    '(Kysely prepares each statement again on every execution); booleans stay 0/1.',
  '- Every contender\'s result (rows read, or the table state left) is compared with legado-store\'s; the `result` column says so.',
  '- `peak RSS Δ`: the highest resident-set peak of a timed run above the RSS at its start (Linux `VmHWM`, reset before each run).',
];

/** gc() without the command-line flag (Bun has its own). */
const gc: () => void = (() => {
  const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun;
  if (bun) return () => bun.gc(true);
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
})();

/** Linux keeps the peak RSS of a process (VmHWM) and lets it be reset: a true per-run peak. */
const PROC_STATUS = '/proc/self/status';
const PROC_CLEAR = '/proc/self/clear_refs';
let canResetPeak = existsSync(PROC_CLEAR);
function resetPeak(): void {
  if (!canResetPeak) return;
  try {
    writeFileSync(PROC_CLEAR, '5');
  } catch {
    canResetPeak = false;
  }
}
function peakRss(): number {
  if (canResetPeak) {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(PROC_STATUS, 'utf8'));
    if (m) return Number(m[1]) * 1024;
  }
  return process.memoryUsage().rss;
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export async function runHarness(o: HarnessOptions): Promise<Report> {
  const log = o.log ?? (() => {});
  const root = mkdtempSync(join(os.tmpdir(), 'legado-bench-'));
  const loadBefore = os.loadavg()[0]!;
  const measurements: Measurement[] = [];
  const mismatches: string[] = [];
  try {
    const empty = join(root, 'empty.db');
    makeEmpty(empty);
    for (const w of o.workloads) {
      const template = join(root, `template-${w.key}.db`);
      w.template(template);
      const contenders = o.contenders.filter((c) => w.canRun(c));
      const times = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
      const cpus = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
      const peaks = new Map<string, number>(contenders.map((c) => [c.name, 0]));
      const checks = new Map<string, string>();
      const rowsOf = new Map<string, number>();
      const repeats = w.key === 'open' ? Math.max(o.repeats, o.openRepeats) : o.repeats;
      const rounds = o.warmup + repeats;
      for (let round = 0; round < rounds; round++) {
        for (let k = 0; k < contenders.length; k++) {
          const c = contenders[(k + round) % contenders.length]!;
          const dir = join(root, `run-${w.key}-${c.name}-${round}`);
          mkdirSync(dir);
          const path = join(dir, 'store.db');
          const emptyPath = join(dir, 'empty.db');
          copyFileSync(template, path);
          copyFileSync(empty, emptyPath);
          const clock: Clock = { now: 1_750_000_000_000 };
          const session = w.session ? c.open(path, clock) : undefined;
          const ctx: RunContext = { contender: c, path, emptyPath, scratch: dir, clock, ...(session ? { session } : {}) };
          gc();
          const rssBefore = process.memoryUsage().rss;
          resetPeak();
          const cpu0 = process.cpuUsage();
          const t0 = process.hrtime.bigint();
          let out: RunOutput | Promise<RunOutput> = w.run(ctx);
          if (out instanceof Promise) out = await out;
          const ms = Number(process.hrtime.bigint() - t0) / 1e6;
          const cpu = process.cpuUsage(cpu0);
          const peak = Math.max(0, peakRss() - rssBefore);
          if (session) await session.close();
          if (round === 0) {
            checks.set(c.name, w.check(ctx, out));
            rowsOf.set(c.name, out.rows);
          } else if (round >= o.warmup) {
            times.get(c.name)!.push(ms);
            cpus.get(c.name)!.push((cpu.user + cpu.system) / 1000);
            peaks.set(c.name, Math.max(peaks.get(c.name)!, peak));
          }
          rmSync(dir, { recursive: true, force: true });
        }
      }
      const storeCheck = checks.get(STORE);
      for (const c of contenders) {
        const ts = times.get(c.name)!;
        const check = checks.get(c.name) ?? '';
        const same = storeCheck === undefined || check === storeCheck;
        if (!same) mismatches.push(`${w.id}. ${w.title}: ${c.name} result ${check} differs from ${STORE}'s ${storeCheck}`);
        const m: Measurement = {
          workload: w,
          contender: c.name,
          times: ts,
          median: median(ts),
          cpu: median(cpus.get(c.name)!),
          min: Math.min(...ts),
          rows: rowsOf.get(c.name) ?? 0,
          peakBytes: peaks.get(c.name)!,
          check,
          sameAsStore: same,
        };
        measurements.push(m);
        log(`${w.id}. ${w.title.padEnd(17)} ${c.name.padEnd(13)} median ${fmtMs(m.median).padStart(10)} ms  cpu ${fmtMs(m.cpu).padStart(10)} ms  ${fmtRate(m.rows, m.median).padStart(12)} rows/s${same ? '' : '  RESULT DIFFERS'}`);
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return {
    measurements,
    sizes: o.sizes,
    repeats: o.repeats,
    warmup: o.warmup,
    openRepeats: o.openRepeats,
    environment: environment(loadBefore),
    mismatches,
  };
}

/** A new, empty store, created by legado-store's own DDL as every file of the benchmark is. */
function makeEmpty(path: string): void {
  openStore(path).close();
}

function environment(loadBefore: number): Record<string, string> {
  const cpus = os.cpus();
  const driver = defaultDriver();
  const db = driver.open(':memory:');
  const sqlite = db.prepare('SELECT sqlite_version()').pluck().get() as string;
  db.close();
  const version = (pkg: string): string => {
    try {
      return (JSON.parse(readFileSync(join('node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      return '?';
    }
  };
  return {
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    cpu: `${cpus[0]?.model ?? '?'} (${cpus.length} cores)`,
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    ...((globalThis as { Bun?: { version: string } }).Bun && { bun: (globalThis as unknown as { Bun: { version: string } }).Bun.version }),
    engine: driver.name,
    sqlite,
    'better-sqlite3': version('better-sqlite3'),
    'drizzle-orm': version('drizzle-orm'),
    kysely: version('kysely'),
    'load average (1 min) before/after': `${loadBefore.toFixed(2)} / ${os.loadavg()[0]!.toFixed(2)}`,
  };
}

export const fmtMs = (ms: number): string => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
export const fmtRate = (rows: number, ms: number): string => {
  const r = rows / (ms / 1000);
  return r >= 1e6 ? `${(r / 1e6).toFixed(2)} M` : r >= 1e3 ? `${(r / 1e3).toFixed(0)} k` : r.toFixed(0);
};
const fmtMb = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);
const ratio = (a: number | undefined, b: number | undefined): string => (a === undefined || b === undefined ? '–' : `${(a / b).toFixed(2)}x`);

/** The target of each workload, and whether the measurements meet it. */
export function targets(r: Report): { workload: Workload; target: string; met: boolean | undefined }[] {
  const byW = new Map<number, Map<string, Measurement>>();
  for (const m of r.measurements) {
    if (!byW.has(m.workload.id)) byW.set(m.workload.id, new Map());
    byW.get(m.workload.id)!.set(m.contender, m);
  }
  const out: { workload: Workload; target: string; met: boolean | undefined }[] = [];
  for (const ms of byW.values()) {
    const store = ms.get(STORE);
    if (!store) continue;
    const w = store.workload;
    const parts: string[] = [];
    let met: boolean | undefined = true;
    if (w.id >= 1 && w.id <= 6) {
      const raw = ms.get('raw');
      parts.push('≤ 1.10x raw');
      if (raw) met &&= store.median <= raw.median * 1.1;
    }
    if (w.key === 'open') {
      parts.push('< 5 ms');
      met &&= store.median < 5;
    }
    const orms = ['drizzle', 'kysely'].filter((n) => ms.has(n));
    if (orms.length) {
      parts.push(`faster than ${orms.join(' and ')}`);
      for (const n of orms) met &&= store.median < ms.get(n)!.median;
    }
    if (![...ms.values()].every((m) => m.sameAsStore)) met = false;
    out.push({ workload: w, target: parts.join(', '), met });
  }
  return out;
}

export function markdown(r: Report, contenders: readonly string[], command: string): string {
  const lines: string[] = [];
  const byW = new Map<number, Map<string, Measurement>>();
  const ws: Workload[] = [];
  for (const m of r.measurements) {
    if (!byW.has(m.workload.id)) {
      byW.set(m.workload.id, new Map());
      ws.push(m.workload);
    }
    byW.get(m.workload.id)!.set(m.contender, m);
  }
  const others = contenders.filter((c) => c !== STORE);
  lines.push('# Benchmark results', '');
  lines.push(`Command: \`${command}\`. Median of ${r.repeats} timed runs (the open workload: ${Math.max(r.repeats, r.openRepeats)}) after ${r.warmup} warm-up run(s), contenders interleaved, each run on a fresh copy of the workload's file (WAL, foreign keys on, synchronous NORMAL).`, '');
  lines.push('## Summary', '');
  lines.push(`| # | workload | rows | ${contenders.map((c) => `${c} ms`).join(' | ')} | ${others.map((c) => `store / ${c}`).join(' | ')} | target | met |`);
  lines.push(`|---|---|---:|${contenders.map(() => '---:').join('|')}|${others.map(() => '---:').join('|')}|---|---|`);
  const tg = new Map(targets(r).map((t) => [t.workload.id, t]));
  for (const w of ws) {
    const ms = byW.get(w.id)!;
    const store = ms.get(STORE);
    const cells = contenders.map((c) => (ms.has(c) ? fmtMs(ms.get(c)!.median) : 'n/a'));
    const ratios = others.map((c) => (ms.has(c) ? ratio(store?.median, ms.get(c)!.median) : 'n/a'));
    const t = tg.get(w.id);
    lines.push(`| ${w.id} | ${w.title} | ${store?.rows ?? ''} | ${cells.join(' | ')} | ${ratios.join(' | ')} | ${t?.target ?? ''} | ${t?.met === undefined ? '' : t.met ? 'yes' : '**no**'} |`);
  }
  lines.push('', '## Detail', '');
  lines.push('| # | workload | contender | median ms | min ms | CPU ms | rows/s | peak RSS Δ MB | result |');
  lines.push('|---|---|---|---:|---:|---:|---:|---:|---|');
  for (const w of ws) {
    for (const c of contenders) {
      const m = byW.get(w.id)!.get(c);
      if (!m) {
        lines.push(`| ${w.id} | ${w.title} | ${c} | n/a | | | | | cannot do this work |`);
        continue;
      }
      lines.push(`| ${w.id} | ${w.title} | ${c} | ${fmtMs(m.median)} | ${fmtMs(m.min)} | ${fmtMs(m.cpu)} | ${fmtRate(m.rows, m.median)} | ${fmtMb(m.peakBytes)} | ${m.sameAsStore ? 'same as store' : '**differs**'} |`);
    }
  }
  lines.push('', '## Workloads', '');
  for (const w of ws) lines.push(`${w.id}. **${w.title}**: ${w.measures}.`);
  lines.push('', '## How each contender does the work', '', ...CONTENDER_NOTES);
  lines.push('', '## Sizes', '', '```', JSON.stringify(r.sizes), '```', '', '## Machine', '');
  for (const [k, v] of Object.entries(r.environment)) lines.push(`- ${k}: ${v}`);
  if (r.mismatches.length) lines.push('', '## Result mismatches', '', ...r.mismatches.map((m) => `- ${m}`));
  lines.push('');
  return lines.join('\n');
}
