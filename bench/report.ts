// The results file of a run: targets met or not, medians per contender, µs per row at every
// tier (the scaling table), the detail of every measurement, and how each contender works.
import { CONTROL_BOUND, fmtMs, fmtRate, fmtUs, instance, STORE, type Report } from './harness.js';
import { BULK, BULK_LIMIT, byInstance, RESAMPLES, SINGLE_LIMIT, steady, targets } from './ratios.js';
import type { Interval } from './stats.js';
import type { Workload } from './workloads.js';

const CONTENDER_NOTES = [
  '- **legado-store**: its public API only: `store.chapters.replaceToc`, `store.tables.book_sources.upsertMany`, ' +
    "`store.books.shelf` (the bookshelf's last-read order), `store.books.get`, `store.books.updateProgress`, `store.cache.put/get`, " +
    '`store.chapters.get/list`, `store.tables.chapters.insertMany`, `openStore` (which checks version, identity hash and every ' +
    'table, index and foreign key), `exportBackup`/`importBackup` (streamed, lenient coercion and a per-record report).',
  '- **store+listener** / **store+other-listener**: the same store with one `store.onChange` listener subscribed before the clock ' +
    'starts, on the table the workload writes / on a table it does not write (`rssStars`).',
  "- **raw**: the fastest hand-written code we know, with the engine's own API: statements prepared once per connection, " +
    'transaction functions made once, rows read as arrays (`.raw()`, `setReturnArrays`, `values()`) and built into objects by a literal, ' +
    'multi-row `INSERT … VALUES` (128 chapters per statement; sources one per statement, where more were not faster). Backups: ' +
    '`JSON.parse`/`JSON.stringify` of whole files, read as bytes and decoded by a TextDecoder (2-7× faster on Chinese text than ' +
    "`readFileSync(file, 'utf8')`).",
  "- **raw+room-tracker** (progress, transaction call, bulk insert): raw's statements with a listener by hand, as the app's Room " +
    'InvalidationTracker gives one: TEMP triggers marking the written table in a TEMP table, the marks read (and reset when set) ' +
    'after every transaction, the listener called with the changed tables. store+listener is judged against it.',
  "- **raw-again** (the control): raw's own code run as one more contender, never counted as hand-written. Its per-round ratio " +
    'to raw (the same code) is chance alone: the Targets table shows its interval beside every verdict.',
  '- **raw-naive**: the naive hand-written baseline: rows as objects mapped afterwards, one statement per row, statements ' +
    'looked up by their SQL, a transaction wrapper per call.',
  '- **drizzle** (better-sqlite3 and bun:sqlite): every repeated query built once with `sql.placeholder` and `.prepare()`d, bulk inserts as ' +
    'prepared multi-row `values([...])` batches of 128, `db.transaction`. `group` is a number (no bigint mode for SQLite integers).',
  '- **kysely**: every query built once on a "cold" Kysely (DummyDriver + SQLite compiler), `.compile()`d, and the compiled SQL ' +
    'prepared once on the engine\'s connection (Kysely\'s recipe "Splitting query building and execution"); multi-row ' +
    '`values([...])` for bulk inserts. Rows as the engine gives them (booleans 0/1). Runs on every engine.',
  '- **c-floor** (bulk insert only): the same rows made by SQLite itself, one `INSERT … SELECT` over a recursive CTE.',
  "- Every contender's result (rows read, or the table state left) is compared with legado-store's; the `result` column says so.",
  '- `peak RSS Δ`: the highest resident-set peak of a timed run above the RSS at its start (Linux `VmHWM`, reset before each run).',
];

export const x = (v: number | undefined): string => (v === undefined ? '–' : `${v.toFixed(2)}×`);
/** "[0.98–1.03]": an interval as the tables print it. */
export const ci = (i: Interval, digits = 2): string => `[${i.low.toFixed(digits)}–${i.high.toFixed(digits)}]`;
/**
 * A control's interval: three decimals where two would hide why the run is judged noise (a tight
 * interval such as 0.996–0.999 prints as [1.00–1.00] with two).
 */
export const controlCi = (i: Interval): string => {
  const hidden = !steady(i) && Number(i.low.toFixed(2)) <= 1 && Number(i.high.toFixed(2)) >= 1;
  return hidden ? `${i.median.toFixed(3)}× ${ci(i, 3)}` : `${x(i.median)} ${ci(i)}`;
};
const mb = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);

const GC_TEXT = {
  all: ', a full garbage collection before its clock (--gc all)',
  bulk: `, a full garbage collection before its clock in the bulk workloads only (${[...BULK].join(', ')}; --gc bulk)`,
  none: ', no garbage collection forced (--gc none)',
} as const;

export function markdown(r: Report, contenders: readonly string[], command: string): string {
  const lines: string[] = [];
  const by = byInstance(r);
  const ws = [...by.keys()];
  const tg = targets(r);
  lines.push(`# Benchmark results: ${r.engine}`, '');
  const env = r.environment;
  lines.push(
    `Command: \`${command}\`. Engine ${r.engine} (SQLite ${env.sqlite}), ${env.runtime}; machine: ${env.cpu}, nproc ${env.nproc}, ` +
      `load average ${env['load average (1 min) before/after']} (1 min, before/after), ${env['load average (1, 5, 15 min) after']} (1, 5, 15 min, after).`,
    '',
    `Method: ${r.processes} process(es) × at least ${r.repeats} rounds after ${r.warmup} warm-up round(s) (up to ${r.maxRepeats} while the control's ` +
      `interval reaches above ${CONTROL_BOUND}); in a round every contender runs once, in an order shuffled every round (seed ${r.seed}), each on a ` +
      `fresh copy of the workload's file with the store's pragmas${GC_TEXT[r.gc]}. Each round gives a ratio legado-store / the fastest hand-written contender ` +
      `(lowest median); shown: the median ratio and its bootstrap 95% interval (${RESAMPLES} resamples). The control is the fastest hand-written ` +
      `code run again, against itself: where its interval does not contain 1.00 the run is noise for that workload and says so. ` +
      `Targets: upper bound ≤ ${SINGLE_LIMIT.toFixed(2)}× for single-operation workloads, ≤ ${BULK_LIMIT.toFixed(2)}× for bulk ones (${[...BULK].join(', ')}). ` +
      `Sizes at tiers ×${r.tiers.join(', ×')} (9×10 is the bulk insert at ten times the base size).`,
    '',
  );
  const count = (v: string) => tg.filter((t) => t.verdict === v).length;
  lines.push(
    '## Targets',
    '',
    `${count('met')} of ${tg.length - count('shown')} met, ${count('not met')} not met, ${count('noise')} judged noise in this run (wall time, paired per round)` +
      (count('shown') ? `; ${count('shown')} probe ratio(s) shown, not judged.` : '.'),
    '',
  );
  lines.push('| # | workload | rows | target | median | 95% interval | control [interval] | verdict |', '|---|---|---:|---|---:|---|---|---|');
  for (const t of tg) {
    const store = by.get(t.workload)!.get(STORE)!;
    lines.push(
      `| ${instance(t.workload)} | ${t.workload.title} | ${store.rows} | ${t.target} | ${x(t.ratio.median)} | ${ci(t.ratio)} | ${t.control ? controlCi(t.control) : '–'} | ${t.verdict === 'met' || t.verdict === 'shown' ? t.verdict : `**${t.verdict}**`} |`,
    );
  }
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
