// The ratios of one run and the issue's targets, each met or not: legado-store against the
// fastest hand-written contender (wall and CPU medians), against the C floor for the bulk
// insert, with a change listener against without, and the import against "JSON.parse the file
// plus raw inserts" with its peak memory against the input's size.
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
    const hands = all.filter((m) => m.kind === 'hand');
    const wallBest = fastest(hands, 'median');
    const cpuBest = fastest(hands, 'cpu');
    if (wallBest && cpuBest) {
      add(`≤ 1.00× fastest hand-written (${wallBest.contender}${cpuBest !== wallBest ? `; CPU: ${cpuBest.contender}` : ''})`, store.median / wallBest.median, store.cpu / cpuBest.cpu, 1);
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
