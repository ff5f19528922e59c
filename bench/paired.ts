// Paired blocks in one process, for the in-process measurements (in-process.ts, trigger-cost.ts,
// wasm-split.ts): every round runs each contender's block once, in a shuffled order, so the i-th
// times of two contenders were taken moments apart; a ratio's median and bootstrap interval.
import os from 'node:os';
import { bootstrapMedian, pairedRatios, prng, shuffle } from './stats.js';

/** A contender's block: one round's work; returns what to time it by (default: wall µs). */
export type Block = (round: number) => number | undefined;

/** Runs `warmup` untimed rounds, then `rounds` timed ones; the times per contender. */
export function pairedBlocks(blocks: Record<string, Block>, rounds: number, seed = 7, warmup = 3): Record<string, number[]> {
  const names = Object.keys(blocks);
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const random = prng(seed);
  for (let r = 0; r < rounds + warmup; r++) {
    for (const n of shuffle([...names], random)) {
      const t0 = process.hrtime.bigint();
      const own = blocks[n]!(r);
      const t = typeof own === 'number' ? own : Number(process.hrtime.bigint() - t0) / 1000;
      if (r >= warmup) times[n]!.push(t);
    }
  }
  return times;
}

/** "1.037 [1.031–1.044]": the median of the per-round ratios a / b and its bootstrap 95% interval. */
export function ratio(times: Record<string, number[]>, a: string, b: string): string {
  const ci = bootstrapMedian(pairedRatios(times[a]!, times[b]!));
  return `${ci.median.toFixed(3)} [${ci.low.toFixed(3)}–${ci.high.toFixed(3)}]`;
}

/** The 1-minute load average now, for the heading of a measurement. */
export const load = (): string => os.loadavg()[0]!.toFixed(1);

/** `--name value` from the command line. */
export function flag(name: string, fallback?: string): string | undefined {
  const args = process.argv.slice(2);
  const i = args.indexOf(`--${name}`);
  return i < 0 ? fallback : args[i + 1];
}
