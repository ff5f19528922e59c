// The results file of a run: targets met or not, medians per contender, µs per row at every
// tier (the scaling table), the detail of every measurement, and how each contender works.
import { fmtMs, fmtRate, fmtUs, instance, STORE, type Report } from './harness.js';
import { byInstance, controls, targets } from './ratios.js';
import type { Workload } from './workloads.js';

const CONTENDER_NOTES = [
  '- **legado-store**: its public API only: `store.chapters.replaceToc`, `store.tables.book_sources.upsertMany`, ' +
    '`store.books.shelf` (the bookshelf\'s last-read order), `store.books.get`, `store.books.updateProgress`, `store.cache.put/get`, ' +
    '`store.chapters.get/list`, `store.tables.chapters.insertMany`, `openStore` (which checks version, identity hash and every ' +
    'table, index and foreign key), `exportBackup`/`importBackup` (streamed, lenient coercion and a per-record report).',
  '- **store+listener** / **store+other-listener**: the same store with one `store.onChange` listener subscribed before the clock ' +
    'starts, on the table the workload writes / on a table it does not write (`rssStars`).',
  '- **raw**: the fastest hand-written code we know, with the engine\'s own API: statements prepared once per connection, ' +
    'transaction functions made once, rows read as arrays (`.raw()`, `setReturnArrays`, `values()`) and built into objects by a literal, ' +
    'multi-row `INSERT … VALUES` (128 chapters per statement; sources one per statement, where more were not faster). Backups: ' +
    '`JSON.parse`/`JSON.stringify` of whole files.',
  '- **raw-again** (the control): raw\'s own code run as one more contender. It is not counted as hand-written; the Control ' +
    'table compares it with raw (chance alone) and judges it as the store is judged, against the fastest hand-written contender.',
  '- **raw-naive**: the naive hand-written baseline: rows as objects mapped afterwards, one statement per row, statements ' +
    'looked up by their SQL, a transaction wrapper per call.',
  '- **drizzle** (better-sqlite3 and bun:sqlite): every repeated query built once with `sql.placeholder` and `.prepare()`d, bulk inserts as ' +
    'prepared multi-row `values([...])` batches of 128, `db.transaction`. `group` is a number (no bigint mode for SQLite integers).',
  '- **kysely**: every query built once on a "cold" Kysely (DummyDriver + SQLite compiler), `.compile()`d, and the compiled SQL ' +
    'prepared once on the engine\'s connection (Kysely\'s recipe "Splitting query building and execution"); multi-row ' +
    '`values([...])` for bulk inserts. Rows as the engine gives them (booleans 0/1). Runs on every engine.',
  '- **c-floor** (bulk insert only): the same rows made by SQLite itself, one `INSERT … SELECT` over a recursive CTE.',
  '- Every contender\'s result (rows read, or the table state left) is compared with legado-store\'s; the `result` column says so.',
  '- `peak RSS Δ`: the highest resident-set peak of a timed run above the RSS at its start (Linux `VmHWM`, reset before each run).',
];

const x = (v: number | undefined): string => (v === undefined ? '–' : `${v.toFixed(2)}×`);
const mb = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);

export function markdown(r: Report, contenders: readonly string[], command: string): string {
  const lines: string[] = [];
  const by = byInstance(r);
  const ws = [...by.keys()];
  const tg = targets(r);
  lines.push(`# Benchmark results: ${r.engine}`, '');
  lines.push(
    `Command: \`${command}\`. Median of ${r.repeats} timed runs (the open workload: ${Math.max(r.repeats, r.openRepeats)}` +
      `${r.minTimedMs ? `; a shorter workload more, up to ${r.maxRepeats}, so that each contender is timed for about ${r.minTimedMs} ms: the runs column says how many` : ''}) after ${r.warmup} warm-up run(s), ` +
      `contenders interleaved (the order rotates every round), each run on a fresh copy of the workload's file with the store's pragmas. ` +
      `Sizes at tiers ×${r.tiers.join(', ×')} (workload numbers carry the tier: 9×10 is the bulk insert at ten times the base size). ` +
      `${r.environment.runtime}, SQLite ${r.environment.sqlite}, ${r.environment.cpu}, load ${r.environment['load average (1 min) before/after']}.`,
    '',
  );
  const met = tg.filter((t) => t.met === true).length;
  lines.push('## Targets', '', `${met} of ${tg.length} met in this run. Ratios of medians; "met" is judged on wall time.`, '');
  lines.push('| # | workload | rows | target | wall | CPU | met |', '|---|---|---:|---|---:|---:|---|');
  for (const t of tg) {
    const store = by.get(t.workload)!.get(STORE)!;
    lines.push(`| ${instance(t.workload)} | ${t.workload.title} | ${store.rows} | ${t.target} | ${x(t.wall)} | ${x(t.cpu)} | ${t.met === undefined ? '' : t.met ? 'met' : '**not met**'} |`);
  }
  lines.push('', ...control(r));
  lines.push('', '## Medians (wall ms)', '');
  lines.push(`| # | workload | rows | ${contenders.join(' | ')} |`, `|---|---|---:|${contenders.map(() => '---:').join('|')}|`);
  for (const w of ws) {
    const ms = by.get(w)!;
    const rows = ms.get(STORE)?.rows ?? [...ms.values()][0]?.rows ?? 0;
    lines.push(`| ${instance(w)} | ${w.title} | ${rows} | ${contenders.map((c) => (ms.has(c) ? fmtMs(ms.get(c)!.median) : '')).join(' | ')} |`);
  }
  lines.push('', ...scaling(r, contenders, ws));
  lines.push('', '## Detail', '');
  lines.push('| # | workload | contender | runs | median ms | min ms | CPU ms | µs/row | rows/s | peak RSS Δ MB | result |');
  lines.push('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const w of ws) {
    for (const c of contenders) {
      const m = by.get(w)!.get(c);
      if (!m) continue;
      lines.push(
        `| ${instance(w)} | ${w.title} | ${c} | ${m.times.length} | ${fmtMs(m.median)} | ${fmtMs(m.min)} | ${fmtMs(m.cpu)} | ${fmtUs(m.median, m.rows)} | ${fmtRate(m.rows, m.median)} | ${mb(m.peakBytes)} | ${m.sameAsStore ? 'same as store' : '**differs**'} |`,
      );
    }
  }
  lines.push('', '## Workloads', '');
  for (const w of ws) lines.push(`- ${instance(w)}. **${w.title}**: ${w.measures}.`);
  lines.push('', '## How each contender does the work', '', ...CONTENDER_NOTES);
  lines.push('', '## Sizes (tier 1)', '', '```', JSON.stringify(r.sizes), '```', '', '## Machine', '');
  for (const [k, v] of Object.entries(r.environment)) lines.push(`- ${k}: ${v}`);
  if (r.mismatches.length) lines.push('', '## Result mismatches', '', ...r.mismatches.map((m) => `- ${m}`));
  lines.push('');
  return lines.join('\n');
}

/**
 * The control table: the fastest hand-written code run a second time. Against its twin (the same
 * code) it shows how far a median moves by chance alone; judged against the fastest hand-written
 * contender as the store is, it shows how often identical code misses ≤ 1.00×.
 */
function control(r: Report): string[] {
  const cs = controls(r);
  if (cs.length === 0) return [];
  const missed = cs.filter((c) => c.wall > 1).length;
  const twins = cs.map((c) => c.twinWall).filter((v): v is number => v !== undefined);
  const c0 = cs[0]!;
  const lines = ['## Control: the same code twice', ''];
  lines.push(
    `${c0.contender} runs ${c0.twin === undefined ? 'hand-written' : `${c0.twin}'s own`} code as one more contender. ` +
      (twins.length > 0 ? `Against ${c0.twin}, the same code, its median lands at ${x(Math.min(...twins))} to ${x(Math.max(...twins))} (wall): by that much a median moves when nothing but chance differs. ` : '') +
      `Judged as the store is (≤ 1.00× the fastest hand-written contender, wall time), it misses in ${missed} of ${cs.length} workloads.`,
    '',
  );
  lines.push(
    `| # | workload | fastest hand-written | control / ${c0.twin ?? 'twin'}: wall | CPU | control / fastest: wall | CPU | legado-store / fastest: wall | CPU |`,
    '|---|---|---|---:|---:|---:|---:|---:|---:|',
  );
  for (const c of cs) lines.push(`| ${instance(c.workload)} | ${c.workload.title} | ${c.fastest} | ${x(c.twinWall)} | ${x(c.twinCpu)} | ${x(c.wall)} | ${x(c.cpu)} | ${x(c.storeWall)} | ${x(c.storeCpu)} |`);
  return lines;
}

/** µs per row of every contender at every tier: a cost per row that grows with the size shows as a growth above 1. */
function scaling(r: Report, contenders: readonly string[], ws: readonly Workload[]): string[] {
  if (r.tiers.length < 2) return [];
  const by = byInstance(r);
  const lines = ['## Scaling (µs per row, wall medians)', ''];
  lines.push(`| # | workload | contender | ${r.tiers.map((t) => `×${t}`).join(' | ')} | largest / smallest |`);
  lines.push(`|---|---|---|${r.tiers.map(() => '---:').join('|')}|---:|`);
  const seen = new Set<number>();
  for (const w of ws) {
    if (!w.scales || seen.has(w.id)) continue;
    seen.add(w.id);
    const tiers = ws.filter((v) => v.id === w.id);
    for (const c of contenders) {
      const us = tiers.map((v) => {
        const m = by.get(v)!.get(c);
        return m && (m.median * 1000) / Math.max(1, m.rows);
      });
      if (us.every((u) => u === undefined)) continue;
      const first = us.find((u) => u !== undefined)!;
      const last = [...us].reverse().find((u) => u !== undefined)!;
      lines.push(`| ${w.id} | ${w.title} | ${c} | ${us.map((u) => (u === undefined ? '' : u.toFixed(2))).join(' | ')} | ${x(last / first)} |`);
    }
  }
  return lines;
}
