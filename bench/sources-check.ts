// A `sources check` of many fixture sources against the fixture site's own floor: the requests
// the check of each source makes (test/helpers/fixture-site/plan.ts: search, info, TOC pages,
// the first chapter's pages) made alone, a source's requests one after another, `--concurrency`
// sources at a time, every body read. Two floors: `floor` with plain fetch (undici, its default
// keep-alive agent) and `floor-http` with node:http over a keep-alive Agent, the transport the
// engine's own fetch uses (src/node/net-fetch.ts); the check is judged against the faster (the
// lower median). The site runs in a worker thread (fixture-site-thread.ts), so its work stays off
// the timed thread as a remote site's would. `check` is `legado-store sources check` run in this
// process (main() with its output kept, as the CLI tests run it) on a fresh copy of a store
// holding the sources, copied before the clock. Paired rounds in a shuffled order; floor-again is
// the control (chance alone). The ratio check / floor with its bootstrap 95% interval (target:
// 1.3 or less on the upper bound).
//   node dist/bench/sources-check.js [--sources 500] [--concurrency 32] [--rounds 15] [--seed 7] [--no-check]
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request, type IncomingMessage } from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { openStore } from '../src/index.js';
import { main } from '../src/cli/main.js';
import { manySources } from '../test/helpers/fixture-site/sources.js';
import { checkPlan, type PlannedRequest } from '../test/helpers/fixture-site/plan.js';
import { model as makeModel } from '../test/helpers/fixture-site/model.js';
import type { BookSourceJson } from '../test/helpers/fixture-site/source-shape.js';
import { benchFiles } from './files.js';
import { flag } from './paired.js';
import { bootstrapMedian, type Interval, median, pairedRatios, prng, shuffle } from './stats.js';

const count = Number(flag('sources', '500'));
const concurrency = Number(flag('concurrency', '32'));
const rounds = Number(flag('rounds', '15'));
const seed = Number(flag('seed', '7'));
const withCheck = !process.argv.includes('--no-check');
const WARMUP = 1;

const worker = new Worker(new URL('./fixture-site-thread.js', import.meta.url), { workerData: { seed } });
const { url } = await new Promise<{ url: string }>((resolve, reject) => {
  worker.once('message', resolve);
  worker.once('error', reject);
});
const sources = manySources(url, seed, count);
const model = makeModel(seed);
const keyword = model.keywords.many;
const plans = sources.map((f) => checkPlan(model, f, keyword));
const requests = plans.reduce((n, p) => n + p.length, 0);

/** Runs `work(i)` for i in [0, n) with at most `limit` running at once, each lane taking the next index. */
async function pool(n: number, limit: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < n) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(limit, n) }, lane));
}

async function viaFetch(plan: readonly PlannedRequest[]): Promise<void> {
  for (const r of plan) {
    const res = await fetch(r.url, r.init);
    await res.arrayBuffer(); // the check reads every body
    if (!res.ok) throw new Error(`${r.url}: ${res.status}`);
  }
}

const agent = new Agent({ keepAlive: true });

/** One request over node:http, its body read, redirects followed (303 and a POST's 301/302 as GET). */
function httpOnce(url: string, init: RequestInit | undefined, hops = 0): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const method = init?.method ?? 'GET';
    const req = request(url, { method, headers: init?.headers as Record<string, string> | undefined, agent }, (res: IncomingMessage) => {
      res.on('data', () => {});
      res.on('error', reject);
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location && hops < 10) {
          const keep = status === 307 || status === 308;
          resolve(httpOnce(new URL(res.headers.location, url).href, keep ? init : undefined, hops + 1));
        } else if (status >= 200 && status < 300) resolve();
        else reject(new Error(`${url}: ${status}`));
      });
    });
    req.on('error', reject);
    req.end(typeof init?.body === 'string' ? init.body : undefined);
  });
}

async function viaHttp(plan: readonly PlannedRequest[]): Promise<void> {
  for (const r of plan) await httpOnce(r.url, r.init);
}

const contenders: Record<string, () => Promise<void>> = {
  floor: () => pool(plans.length, concurrency, (i) => viaFetch(plans[i]!)),
  'floor-again': () => pool(plans.length, concurrency, (i) => viaFetch(plans[i]!)),
  'floor-http': () => pool(plans.length, concurrency, (i) => viaHttp(plans[i]!)),
};

/** The store's row of a source: rule objects as the JSON text the app's columns hold. */
function row(s: BookSourceJson): Record<string, unknown> {
  const out: Record<string, unknown> = { ...s };
  for (const k of ['ruleSearch', 'ruleExplore', 'ruleBookInfo', 'ruleToc', 'ruleContent'] as const) if (s[k]) out[k] = JSON.stringify(s[k]);
  return out;
}

const dir = mkdtempSync(join(benchFiles(), 'legado-sources-check-'));
const template = join(dir, 'template.db');
/** A stream that keeps what is written to it. */
function kept(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({ write: (chunk: Buffer, _encoding, done) => (chunks.push(chunk), done()) });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}
let fresh = '';
let checked = 0;
if (withCheck) {
  const store = openStore(template);
  try {
    const table = store.tables['book_sources' as never] as { insert(row: unknown): void };
    for (const f of sources) table.insert(row(f.source));
  } finally {
    store.close();
  }
  contenders['check'] = async () => {
    const args = ['sources', 'check', fresh, '--keyword', keyword, '--concurrency', String(concurrency), '--allow-private-hosts', '--json'];
    const out = kept();
    const err = kept();
    const code = await main(args, { stdout: out.stream, stderr: err.stream, stdin: Readable.from([]), env: process.env });
    if (code !== 0) throw new Error(`sources check exited ${code}: ${err.text().slice(0, 2000)}`);
    checked = out.text().trim().split('\n').length;
  };
}

const times: Record<string, number[]> = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
const random = prng(seed);
const loadBefore = os.loadavg();
try {
  for (let round = 0; round < rounds + WARMUP; round++) {
    for (const name of shuffle(Object.keys(contenders), random)) {
      if (name === 'check') {
        fresh = join(dir, `round-${round}.db`);
        copyFileSync(template, fresh);
      }
      const t0 = performance.now();
      await contenders[name]!();
      if (round >= WARMUP) times[name]!.push(performance.now() - t0);
      if (name === 'check') for (const ext of ['', '-wal', '-shm']) rmSync(fresh + ext, { force: true });
    }
  }
} finally {
  worker.postMessage('close');
  agent.destroy();
  rmSync(dir, { recursive: true, force: true });
}

const ci = (a: string, b: string): Interval => bootstrapMedian(pairedRatios(times[a]!, times[b]!));
const show = (r: Interval): string => `${r.median.toFixed(3)} [${r.low.toFixed(3)}–${r.high.toFixed(3)}]`;
const loads = (l: number[]): string => l.map((x) => x.toFixed(1)).join('/');
console.log(
  `${count} sources, ${requests} requests, concurrency ${concurrency}, ${rounds} rounds, load (1/5/15 min) ${loads(loadBefore)} → ${loads(os.loadavg())}`,
);
for (const [name, ts] of Object.entries(times)) console.log(`${name.padEnd(12)} ${median(ts).toFixed(0)} ms a run`);
const control = ci('floor-again', 'floor');
console.log(`control floor-again / floor: ${show(control)}; floor-http / floor: ${show(ci('floor-http', 'floor'))}`);
if (times['check']) {
  const base = median(times['floor-http']!) < median(times['floor']!) ? 'floor-http' : 'floor';
  const r = ci('check', base);
  const verdict = control.low > 1 || control.high < 1 ? 'noise' : r.high <= 1.3 ? 'met' : 'not met';
  console.log(`check / ${base} (the faster floor): ${show(r)} → ${verdict} (target ≤ 1.3 on the upper bound); ${checked} sources reported`);
}
