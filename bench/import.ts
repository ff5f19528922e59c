// Scale benchmark of the import: synthesizes a ~50 MB collection of 20,000 book sources (from
// the corpora in ../shared/corpora when they are there, otherwise from the generator), imports
// it into a new store in a child process, and reports wall time and the child's peak memory
// (maxRSS). Run: npm run bench:import [-- --count N] [-- --generated]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importFiles } from '../src/backup/import-node.js';
import { openStore } from '../src/store/open.js';
import { corpusSources, writeCollection } from '../test/helpers/synth.js';

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

async function child(input: string, store: string): Promise<void> {
  const baseline = process.memoryUsage().rss;
  const s = openStore(store);
  const started = performance.now();
  const result = await importFiles(s, [input]);
  const wallMs = Math.round(performance.now() - started);
  s.close();
  process.stdout.write(
    JSON.stringify({
      wallMs,
      baselineRssMB: mb(baseline),
      peakRssMB: mb(process.resourceUsage().maxRSS * 1024),
      read: result.totals.read,
      stored: result.totals.stored,
      skipped: result.totals.skipped,
      legacy: Object.values(result.kinds).reduce((n, k) => n + k.legacyConverted, 0),
    }) + '\n',
  );
}

const TARGET_BYTES = 50 * 1024 * 1024;

/** The real sources up to the size that makes their mean about `meanBytes` (the file then holds ~50 MB). */
function fitToSize(pool: Record<string, unknown>[] | undefined, meanBytes: number): Record<string, unknown>[] | undefined {
  if (!pool) return undefined;
  const sized = pool.map((s) => ({ s, n: Buffer.byteLength(JSON.stringify(s, null, 2)) })).sort((a, b) => a.n - b.n);
  let total = 0;
  let k = 0;
  while (k < sized.length && (total + sized[k]!.n) / (k + 1) <= meanBytes) total += sized[k++]!.n;
  const kept = new Set(sized.slice(0, Math.max(k, 1)).map((x) => x.s));
  return pool.filter((s) => kept.has(s));
}

function parent(count: number, generated: boolean): void {
  const corpora = fileURLToPath(new URL('../../../shared/corpora/', import.meta.url));
  const pool = generated ? undefined : fitToSize(corpusSources(corpora), TARGET_BYTES / count);
  const dir = mkdtempSync(join(tmpdir(), 'legado-bench-'));
  try {
    const input = join(dir, 'collection.json');
    const bytes = writeCollection(input, count, pool);
    const source = pool ? `the corpora (${pool.length} real sources, modern and 2.0 format, repeated with unique URLs)` : `the generator${generated ? '' : ' (../shared/corpora not found)'}`;
    const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', input, join(dir, 'bench.db')], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`benchmark child failed: ${run.stderr}`);
    const r = JSON.parse(run.stdout) as { wallMs: number; baselineRssMB: number; peakRssMB: number; read: number; stored: number; skipped: number; legacy: number };
    const storeMB = mb(statSync(join(dir, 'bench.db')).size);
    const lines = [
      `input: ${count} book sources, ${mb(bytes)} MB, synthesized from ${source}`,
      `import: ${r.read} read, ${r.stored} stored, ${r.skipped} skipped, ${r.legacy} converted from 2.0; store ${storeMB} MB`,
      `wall time: ${(r.wallMs / 1000).toFixed(1)} s (${Math.round(r.read / (r.wallMs / 1000))} records/s)`,
      `peak memory (maxRSS of the importing process): ${r.peakRssMB} MB, ${(r.peakRssMB / mb(bytes)).toFixed(1)}× the input (RSS before the import: ${r.baselineRssMB} MB)`,
      `node ${process.version}, ${existsSync('/proc/cpuinfo') ? 'linux' : process.platform}`,
    ];
    process.stdout.write(lines.join('\n') + '\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  await child(args[1]!, args[2]!);
} else {
  const at = args.indexOf('--count');
  parent(at >= 0 ? Number(args[at + 1]) : 20000, args.includes('--generated'));
}
