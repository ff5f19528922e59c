// Scale benchmark of the import and export of a source collection: synthesizes a collection of
// book sources (20,000 by default, ~50 MB; --count 100000 for the issue's 100,000) from the
// corpora in ../shared/corpora when they are there, otherwise from the generator, and in
// separate child processes (so each peak RSS is its own): imports it into a new store, imports
// it by hand ("JSON.parse the file + raw inserts", the baseline), and exports the store's
// sources again. Reports wall time, the ratio to the baseline and each child's peak memory.
// The store's and the baseline's imports run `--runs` times each (default 3), alternating which
// goes first; the ratio is the median of the runs' ratios. The input is like for like (3.x-format
// sources only, as the baseline's inserts take them) and, separately, mixed (with the corpora's
// 2.0-format sources, which the store converts and the baseline only copies).
// Run: npm run bench:import [-- --count N] [-- --runs N] [-- --generated] [-- --driver node:sqlite]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportBackup } from '../src/node/backup-export.js';
import { importFiles } from '../src/node/backup-import.js';
import type { DriverName } from '../src/index.js';
import { openStore } from '../src/store/open.js';
import { writeCollection } from '../test/helpers/synth.js';
import { loadRawEngine, rawConnect } from './contenders/raw-engines.js';
import { SOURCE_UPSERT, sourceParams } from './contenders/sql.js';
import { useEngine } from './engine.js';
import { readText } from './contenders/backup-json.js';
import { importInputs, rawSource } from './import-input.js';
import { vmHwm } from './memory.js';
import { median } from './stats.js';
import { benchFiles } from './files.js';

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

type Mode = 'store' | 'raw' | 'export';

interface ChildResult {
  wallMs: number;
  baselineRssMB: number;
  peakRssMB: number;
  /** Records written (stored by the import, or exported). */
  stored: number;
  detail?: string;
}

async function child(mode: Mode, input: string, store: string, driver: DriverName | undefined): Promise<void> {
  const engine = await useEngine(driver);
  await loadRawEngine(engine.name);
  const baseline = process.memoryUsage().rss;
  const started = performance.now();
  let rows = 0;
  let detail: string | undefined;
  if (mode === 'store') {
    const s = openStore(store, { driver: engine.driver, schema: 62 });
    const result = await importFiles(s, [input]);
    s.close();
    rows = result.totals.stored;
    const legacy = Object.values(result.kinds).reduce((n, k) => n + k.legacyConverted, 0);
    detail = `${result.totals.read} read, ${result.totals.stored} stored, ${result.totals.skipped} skipped, ${legacy} converted from 2.0`;
  } else if (mode === 'raw') {
    const db = rawConnect(store);
    const up = db.prepare(SOURCE_UPSERT);
    const records = JSON.parse(readText(input)) as Record<string, unknown>[];
    rows = db.transaction(() => {
      for (const o of records) up.run(...sourceParams(rawSource(o)));
      return records.length;
    })();
    db.close();
  } else {
    const s = openStore(store, { driver: engine.driver, create: false });
    const result = await exportBackup(s, `${store}-export`, { tables: ['book_sources'] });
    s.close();
    rows = result.files.reduce((n, f) => n + f.rows, 0);
  }
  const out: ChildResult = {
    wallMs: Math.round(performance.now() - started),
    baselineRssMB: mb(baseline),
    peakRssMB: mb(vmHwm() ?? process.resourceUsage().maxRSS * 1024),
    stored: rows,
    ...(detail && { detail }),
  };
  process.stdout.write(JSON.stringify(out) + '\n');
}

function parent(count: number, runs: number, generated: boolean, driver: string | undefined): void {
  // Each child opens the files again: WASM's memory storage does not outlive a process.
  if (driver === 'wasm') throw new Error('bench:import works on files: for WASM run npm run bench -- --driver wasm --only import,export');
  const inputs = importInputs(generated);
  const dir = mkdtempSync(join(benchFiles(), 'legado-bench-'));
  const lines: string[] = [];
  try {
    const run = (mode: Mode, input: string, db: string): ChildResult => {
      const args = [fileURLToPath(import.meta.url), '--child', input, db, mode, ...(driver ? [driver] : [])];
      const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 24 });
      if (r.status !== 0) throw new Error(`benchmark child (${mode}) failed: ${r.stderr}`);
      return JSON.parse(r.stdout.trim().split('\n').pop()!) as ChildResult;
    };
    const line = (what: string, r: ChildResult, bytes: number) =>
      `${what}: ${(r.wallMs / 1000).toFixed(2)} s (${Math.round(r.stored / (r.wallMs / 1000))} records/s), peak RSS ${r.peakRssMB} MB ` +
      `(${(r.peakRssMB - r.baselineRssMB).toFixed(1)} MB above the ${r.baselineRssMB} MB before it: ${((r.peakRssMB - r.baselineRssMB) / mb(bytes)).toFixed(2)}× the input)`;
    for (const [label, sources] of inputs) {
      const input = join(dir, 'collection.json');
      const bytes = writeCollection(input, count, sources);
      const ratios: number[] = [];
      let store: ChildResult | undefined;
      let raw: ChildResult | undefined;
      for (let i = 0; i < runs; i++) {
        // Empty store files made by the store, so both imports start from the same file.
        for (const name of ['store.db', 'raw.db']) {
          for (const f of ['', '-wal', '-shm']) rmSync(join(dir, name + f), { force: true });
          openStore(join(dir, name), { schema: 62 }).close();
        }
        const pair = (mode: 'store' | 'raw') => run(mode, input, join(dir, `${mode}.db`));
        if (i % 2 === 0) {
          store = pair('store');
          raw = pair('raw');
        } else {
          raw = pair('raw');
          store = pair('store');
        }
        ratios.push(store.wallMs / raw.wallMs);
      }
      rmSync(join(dir, 'store.db-export'), { recursive: true, force: true });
      const exported = run('export', input, join(dir, 'store.db'));
      const sorted = [...ratios].sort((a, b) => a - b);
      lines.push(
        `input, ${label}: ${count} book sources, ${mb(bytes)} MB`,
        `store import: ${store!.detail}; store file ${mb(statSync(join(dir, 'store.db')).size)} MB`,
        line('legado-store import (last run)', store!, bytes),
        line('JSON.parse + raw inserts (last run)', raw!, bytes),
        `import / baseline, ${runs} alternating pairs: median ${median(ratios).toFixed(2)}× (runs ${sorted.map((r) => r.toFixed(2)).join(', ')}; target ≤ 1.05× like for like); ` +
          `peak above baseline below the input: ${store!.peakRssMB - store!.baselineRssMB < mb(bytes) ? 'met' : 'not met'}`,
        line('legado-store export', exported, bytes),
        '',
      );
    }
    lines.push(
      `${existsSync('/proc/cpuinfo') ? 'linux' : process.platform}, ${(globalThis as { Bun?: { version: string } }).Bun ? `bun ${(globalThis as unknown as { Bun: { version: string } }).Bun.version}` : `node ${process.version}`}${driver ? `, ${driver}` : ''}`,
    );
    process.stdout.write(lines.join('\n') + '\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  // --child <input> <store> [store|raw|export] [driver] (test/backup-scale.test.ts runs the store import this way)
  await child((args[3] as Mode | undefined) ?? 'store', args[1]!, args[2]!, args[4] as DriverName | undefined);
} else {
  const opt = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  parent(Number(opt('--count') ?? 20000), Number(opt('--runs') ?? 3), args.includes('--generated'), opt('--driver'));
}
