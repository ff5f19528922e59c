// A `sources check` of many fixture sources against the fixture site's own floor: the requests
// the check of each source makes (test/helpers/fixture-site/plan.ts, search, info, TOC pages,
// the first chapter's pages) made alone with plain fetch, a source's requests one after another,
// `--concurrency` sources at a time, over Node's fetch and its default keep-alive agent. The site
// runs in a worker thread (fixture-site-thread.ts). Paired rounds in a shuffled order; floor-again
// is the control (floor / floor: chance alone); the ratio check / floor with its bootstrap 95%
// interval (target: 1.3 or less).
//   node dist/bench/sources-check.js [--sources 500] [--concurrency 32] [--rounds 15] [--seed 7]
import { Worker } from 'node:worker_threads';
import { manySources } from '../test/helpers/fixture-site/sources.js';
import { checkPlan, type PlannedRequest } from '../test/helpers/fixture-site/plan.js';
import { model as makeModel } from '../test/helpers/fixture-site/model.js';
import { flag, load } from './paired.js';
import { bootstrapMedian, median, pairedRatios, prng, shuffle } from './stats.js';

const count = Number(flag('sources', '500'));
const concurrency = Number(flag('concurrency', '32'));
const rounds = Number(flag('rounds', '15'));
const seed = Number(flag('seed', '7'));
const WARMUP = 1;

const worker = new Worker(new URL('./fixture-site-thread.js', import.meta.url), { workerData: { seed } });
const { url } = await new Promise<{ url: string }>((resolve, reject) => {
  worker.once('message', resolve);
  worker.once('error', reject);
});
const sources = manySources(url, seed, count);
const keyword = makeModel(seed).keywords.many;
const plans = sources.map((f) => checkPlan(makeModel(seed), f, keyword));
const requests = plans.reduce((n, p) => n + p.length, 0);

/** Runs `work(i)` for i in [0, n) with at most `limit` running at once, each lane taking the next index. */
async function pool(n: number, limit: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < n) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(limit, n) }, lane));
}

async function fetchAll(plan: readonly PlannedRequest[]): Promise<void> {
  for (const r of plan) {
    const res = await fetch(r.url, r.init);
    await res.arrayBuffer(); // the check reads every body
    if (!res.ok) throw new Error(`${r.url}: ${res.status}`);
  }
}

const floor = (): Promise<void> => pool(plans.length, concurrency, (i) => fetchAll(plans[i]!));

/** The check itself: wired when `legado-store sources check` is on this branch. */
const contenders: Record<string, () => Promise<void>> = { floor, 'floor-again': floor };

const times: Record<string, number[]> = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
const random = prng(seed);
const loadBefore = load();
for (let round = 0; round < rounds + WARMUP; round++) {
  for (const name of shuffle(Object.keys(contenders), random)) {
    const t0 = performance.now();
    await contenders[name]!();
    if (round >= WARMUP) times[name]!.push(performance.now() - t0);
  }
}
worker.postMessage('close');

const ci = (a: string, b: string): string => {
  const r = bootstrapMedian(pairedRatios(times[a]!, times[b]!));
  return `${r.median.toFixed(3)} [${r.low.toFixed(3)}–${r.high.toFixed(3)}]`;
};
console.log(`${count} sources, ${requests} requests, concurrency ${concurrency}, ${rounds} rounds, load ${loadBefore} → ${load()}`);
for (const [name, ts] of Object.entries(times)) console.log(`${name.padEnd(12)} ${median(ts).toFixed(0)} ms a run`);
console.log(`control floor-again / floor: ${ci('floor-again', 'floor')}`);
if (times['check']) console.log(`check / floor: ${ci('check', 'floor')} (target ≤ 1.3 on the upper bound)`);
