// The statistics the harness judges with: a seeded PRNG (so a run's intervals, and the smoke
// test's, are reproducible), the median, and a percentile bootstrap 95% interval of the median.
// The bootstrap is written here: no small, well-kept package does a bootstrap of a median (simple-statistics has
// none), and it is a few lines.
import { random } from './data.js';

/** The seeded PRNG (mulberry32) the data generator uses too. */
export const prng = random;

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** Fisher–Yates, in place, with the given random source. */
export function shuffle<T>(xs: T[], random: () => number): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}

export interface Interval {
  readonly median: number;
  readonly low: number;
  readonly high: number;
  /** How many values the interval is of. */
  readonly n: number;
}

/**
 * The median of `xs` and its percentile bootstrap 95% interval: `resamples` samples of xs's size
 * drawn with replacement, the 2.5th and 97.5th percentiles of their medians (sorted, taken at
 * floor(0.025·B) and ceil(0.975·B) − 1).
 */
export function bootstrapMedian(xs: readonly number[], resamples = 2000, seed = 1): Interval {
  if (xs.length === 0) return { median: NaN, low: NaN, high: NaN, n: 0 };
  const random = prng(seed);
  const meds = new Float64Array(resamples);
  const sample = new Array<number>(xs.length);
  for (let b = 0; b < resamples; b++) {
    for (let i = 0; i < xs.length; i++) sample[i] = xs[Math.floor(random() * xs.length)]!;
    meds[b] = median(sample);
  }
  meds.sort();
  return { median: median(xs), low: meds[Math.floor(0.025 * resamples)]!, high: meds[Math.ceil(0.975 * resamples) - 1]!, n: xs.length };
}

/** Per-round ratios a[i] / b[i] of two contenders timed in the same rounds. */
export function pairedRatios(a: readonly number[], b: readonly number[]): number[] {
  const n = Math.min(a.length, b.length);
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = a[i]! / b[i]!;
  return out;
}
