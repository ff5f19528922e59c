// The verdicts of a run, judged on paired intervals: for every workload instance, the per-round
// ratios legado-store / the fastest hand-written contender (the one with the lowest median time;
// both timed in the same rounds), their median and bootstrap 95% interval (stats.ts), and the
// same for the control (the fastest hand-written code run again, against its twin: chance
// alone). A target is met when the interval's upper bound is within its limit; a run whose
// control interval does not contain 1.00 is noise, and its verdicts say so instead.
// Besides: the C floor, a listener against the same guarantee by hand and against none, the import against JSON.parse plus raw inserts
// and its peak memory against the input, and a probe's ratio to its twin (shown, not judged).
import { BULK, instance, STORE, type Measurement, type Report } from './harness.js';
import { RAW_IMMEDIATE } from './contenders/raw.js';
import { bootstrapMedian, pairedRatios, type Interval } from './stats.js';
import type { Workload } from './workloads.js';

/** Bulk workloads (harness.ts BULK): the store must not be slower at all (upper bound ≤ 1.00). */
export { BULK };
/** Single-operation workloads: upper bound ≤ 1.05 (a call's own checks and bookkeeping). */
export const SINGLE_LIMIT = 1.05;
export const BULK_LIMIT = 1.0;
export const RESAMPLES = 2000;

/** 'shown': a probe's ratio (raw-on-store.ts), printed beside the targets and never judged. */
export type Verdict = 'met' | 'not met' | 'noise' | 'results differ' | 'shown';

export interface Target {
  readonly workload: Workload;
  readonly target: string;
  /** The store's (or listener's) per-round ratio: median and 95% interval; for memory, peak / input in `median` alone. */
  readonly ratio: Interval;
  /** The control's per-round ratio against its twin, when the target is judged against hand-written code. */
  readonly control: Interval | undefined;
  readonly limit: number;
  readonly verdict: Verdict;
  /** Kept for callers that want a yes/no: true only for 'met'. */
  readonly met: boolean;
}

/** Measurements by workload instance, in run order. */
export function byInstance(r: Report): Map<Workload, Map<string, Measurement>> {
  const out = new Map<Workload, Map<string, Measurement>>();
  for (const m of r.measurements) {
    if (!out.has(m.workload)) out.set(m.workload, new Map());
    out.get(m.workload)!.set(m.contender, m);
  }
  return out;
}

/** The fastest hand-written contender of a workload instance, by median wall time. */
export function fastestHand(ms: ReadonlyMap<string, Measurement>): Measurement | undefined {
  return [...ms.values()]
    .filter((m) => m.kind === 'hand')
    .reduce<Measurement | undefined>((a, m) => (a === undefined || m.median < a.median ? m : a), undefined);
}

/** Median and 95% interval of a / b, round by round. */
export const paired = (a: Measurement, b: Measurement, seed = 1): Interval => bootstrapMedian(pairedRatios(a.times, b.times), RESAMPLES, seed);

/** The control's interval against its twin (raw-again / raw), or undefined without a control. */
export function controlOf(ms: ReadonlyMap<string, Measurement>, seed = 1): { name: string; twin: string; interval: Interval } | undefined {
  const c = [...ms.values()].find((m) => m.kind === 'control' && m.twin !== undefined && ms.has(m.twin));
  return c && { name: c.contender, twin: c.twin!, interval: paired(c, ms.get(c.twin!)!, seed) };
}

/** Whether the control's interval says the run can judge: it contains 1.00. */
export const steady = (control: Interval | undefined): boolean => control === undefined || (control.low <= 1 && control.high >= 1);

/** The verdict of an interval against a limit on its upper bound. */
export function verdict(ratio: Interval, limit: number, control: Interval | undefined, same = true): Verdict {
  if (!same) return 'results differ';
  if (!steady(control)) return 'noise';
  return ratio.high <= limit ? 'met' : 'not met';
}

export function targets(r: Report): Target[] {
  const out: Target[] = [];
  for (const [w, ms] of byInstance(r)) {
    const store = ms.get(STORE);
    if (!store) continue;
    const all = [...ms.values()];
    const same = all.every((m) => m.sameAsStore);
    const control = controlOf(ms, r.seed)?.interval;
    const add = (target: string, ratio: Interval, limit: number, judged: Interval | undefined) => {
      const v = verdict(ratio, limit, judged, same);
      out.push({ workload: w, target, ratio, control: judged, limit, verdict: v, met: v === 'met' });
    };
    if (w.key === 'open') {
      const perRun = store.times.map((t) => t / 5);
      add('open and check < 5 ms (shown: time / 5 ms)', bootstrapMedian(perRun, RESAMPLES, r.seed), 1, undefined);
      continue;
    }
    const best = fastestHand(ms);
    const limit = BULK.has(w.key) ? BULK_LIMIT : SINGLE_LIMIT;
    if (best) add(`≤ ${limit.toFixed(2)}× fastest hand-written (${best.contender})`, paired(store, best, r.seed), limit, control);
    // The transaction call is also judged against the store's own guarantee (BEGIN IMMEDIATE) by hand.
    const immediate = ms.get(RAW_IMMEDIATE);
    if (immediate && immediate !== best)
      add(`≤ ${limit.toFixed(2)}× ${RAW_IMMEDIATE} (BEGIN IMMEDIATE by hand)`, paired(store, immediate, r.seed), limit, control);
    const floor = all.find((m) => m.kind === 'floor');
    if (floor) add(`≤ 1.20× the C floor (${floor.contender})`, paired(store, floor, r.seed), 1.2, control);
    // A listener is judged against the same guarantee written by hand (Room's tracker on raw code,
    // under the workload's own limit); its cost over the store without one is a second row.
    for (const h of all.filter((m) => m.kind === 'hand-listener' && m.twin !== undefined && ms.has(m.twin)))
      add(`${h.twin} ≤ ${limit.toFixed(2)}× ${h.contender} (the same guarantee by hand)`, paired(ms.get(h.twin!)!, h, r.seed), limit, control);
    for (const l of all.filter((m) => m.kind === 'listener'))
      add(`${l.contender} ≤ ${SINGLE_LIMIT.toFixed(2)}× ${STORE} (the listener's overhead)`, paired(l, store, r.seed), SINGLE_LIMIT, control);
    // What running where the store runs costs raw's own code (the part of the store's ratio its
    // per-call code does not make), and the store against that: the part its per-call code makes.
    const show = (target: string, ratio: Interval) => out.push({ workload: w, target, ratio, control, limit, verdict: 'shown', met: false });
    for (const p of all.filter((m) => m.kind === 'probe' && m.twin !== undefined && ms.has(m.twin))) {
      show(`${p.contender} / ${p.twin} (shown, not a target)`, paired(p, ms.get(p.twin!)!, r.seed));
      show(`${STORE} / ${p.contender} (shown, not a target)`, paired(store, p, r.seed));
    }
    if (w.key === 'import') {
      const raw = ms.get('raw');
      if (raw) add('≤ 1.05× JSON.parse of the file + raw inserts (raw)', paired(store, raw, r.seed), 1.05, control);
      const input = w.inputBytes?.();
      if (input) {
        const m = store.peakBytes / input;
        out.push({
          workload: w,
          target: `peak memory above the start < input size (${(input / 2 ** 20).toFixed(1)} MB)`,
          ratio: { median: m, low: m, high: m, n: 1 },
          control: undefined,
          limit: 1,
          verdict: same && m < 1 ? 'met' : 'not met',
          met: same && m < 1,
        });
      }
    }
  }
  return out;
}

/** "3×10. Bulk insert" */
export const label = (w: Workload): string => `${instance(w)}. ${w.title}`;
