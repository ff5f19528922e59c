// The ratios of one run and the issue's targets, each met or not: legado-store against the
// fastest hand-written contender (wall and CPU medians), against the C floor for the bulk
// insert, with a change listener against without, and the import against "JSON.parse the file
// plus raw inserts" with its peak memory against the input's size; and the control, the fastest
// hand-written code run a second time, judged as the store is against the fastest hand-written.
import { instance, STORE, type Measurement, type Report } from './harness.js';
import type { Workload } from './workloads.js';

export interface Target {
  readonly workload: Workload;
  readonly target: string;
  /** Wall-time ratio (or, for memory, peak / input). */
  readonly wall: number | undefined;
  readonly cpu: number | undefined;
  readonly limit: number;
  readonly met: boolean | undefined;
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

const fastest = (ms: readonly Measurement[], by: 'median' | 'cpu'): Measurement | undefined =>
  ms.reduce<Measurement | undefined>((a, m) => (a === undefined || m[by] < a[by] ? m : a), undefined);

/** The fastest hand-written contender of a workload instance, by wall and by CPU time. */
function fastestHand(ms: ReadonlyMap<string, Measurement>): { wall: Measurement; cpu: Measurement } | undefined {
  const hands = [...ms.values()].filter((m) => m.kind === 'hand');
  const wall = fastest(hands, 'median');
  const cpu = fastest(hands, 'cpu');
  return wall && cpu && { wall, cpu };
}

/** The control (kind 'control': the fastest hand-written code run again) against the store's target, per workload instance. */
export interface Control {
  readonly workload: Workload;
  readonly contender: string;
  /** Control / the fastest hand-written contender, wall and CPU: what the ≤ 1.00× target judges. */
  readonly wall: number;
  readonly cpu: number;
  /** Control / its twin (the contender whose code it runs), wall and CPU: chance alone. */
  readonly twin: string | undefined;
  readonly twinWall: number | undefined;
  readonly twinCpu: number | undefined;
  /** The same ratios for the store, beside it. */
  readonly storeWall: number | undefined;
  readonly storeCpu: number | undefined;
  /** Who was fastest by wall time. */
  readonly fastest: string;
}

export function controls(r: Report): Control[] {
  const out: Control[] = [];
  for (const [w, ms] of byInstance(r)) {
    const best = fastestHand(ms);
    if (!best || w.key === 'open') continue;
    const store = ms.get(STORE);
    for (const c of ms.values()) {
      if (c.kind !== 'control') continue;
      const twin = c.twin === undefined ? undefined : ms.get(c.twin);
      out.push({
        workload: w,
        contender: c.contender,
        wall: c.median / best.wall.median,
        cpu: c.cpu / best.cpu.cpu,
        twin: twin?.contender,
        twinWall: twin && c.median / twin.median,
        twinCpu: twin && c.cpu / twin.cpu,
        storeWall: store && store.median / best.wall.median,
        storeCpu: store && store.cpu / best.cpu.cpu,
        fastest: best.wall.contender,
      });
    }
  }
  return out;
}

export function targets(r: Report): Target[] {
  const out: Target[] = [];
  for (const [w, ms] of byInstance(r)) {
    const store = ms.get(STORE);
    if (!store) continue;
    const all = [...ms.values()];
    const ok = all.every((m) => m.sameAsStore);
    const add = (target: string, wall: number | undefined, cpu: number | undefined, limit: number, strict = false) =>
      out.push({ workload: w, target, wall, cpu, limit, met: wall === undefined ? undefined : ok && (strict ? wall < limit : wall <= limit) });
    if (w.key === 'open') {
      add('open and check < 5 ms (shown: median / 5 ms)', store.median / 5, store.cpu / 5, 1, true);
      continue;
    }
    const best = fastestHand(ms);
    if (best) {
      const { wall, cpu } = best;
      add(`≤ 1.00× fastest hand-written (${wall.contender}${cpu !== wall ? `; CPU: ${cpu.contender}` : ''})`, store.median / wall.median, store.cpu / cpu.cpu, 1);
    }
    const floor = all.find((m) => m.kind === 'floor');
    if (floor) add(`≤ 1.20× the C floor (${floor.contender})`, store.median / floor.median, store.cpu / floor.cpu, 1.2);
    for (const l of all.filter((m) => m.kind === 'listener')) {
      add(`${l.contender} ≤ 1.20× ${STORE}`, l.median / store.median, l.cpu / store.cpu, 1.2);
    }
    if (w.key === 'import') {
      const raw = ms.get('raw');
      if (raw) add('≤ 1.15× JSON.parse of the file + raw inserts (raw)', store.median / raw.median, store.cpu / raw.cpu, 1.15);
      const input = w.inputBytes?.();
      if (input) add(`peak memory above the start < input size (${(input / 2 ** 20).toFixed(1)} MB)`, store.peakBytes / input, undefined, 1, true);
    }
  }
  return out;
}

/** "3×10. Bulk insert" */
export const label = (w: Workload): string => `${instance(w)}. ${w.title}`;
