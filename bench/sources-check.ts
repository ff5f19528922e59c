// A `sources check` of many fixture sources against the fixture site's own floor: the requests
// the check of each source makes (test/helpers/fixture-site/plan.ts: search, info, TOC pages,
// the first chapter's pages) made alone, a source's requests one after another, `--concurrency`
// sources at a time, every body read. Two floors: `floor` with plain fetch (undici, its default
// keep-alive agent) and `floor-http` with node:http over a keep-alive Agent, the transport the
// engine's own fetch uses (src/node/net-fetch.ts); the check is judged against the faster (the
// lower median). The site runs in a worker thread (fixture-site-thread.ts), so its work stays off
// the timed thread as a remote site's would. `check` is `legado-store sources check` run in this
// process (main() with its output kept, as the CLI tests run it) on a fresh copy of a store
// holding the sources, copied before the clock, with `--steps search,info,toc,content`: the
// floor's plan has no explore requests. `flows` is the engine alone, no check driver and no
// store writes: per source openSource's search, the first hit's info, the TOC and the first
// readable chapter (the next one's URL given, as the check gives it), on the CLI's kind of host
// (Node's checking fetch, a QuickJS sandbox, a store's cookies and caches). The site counts the
// requests each contender made. Paired rounds in a shuffled order; floor-again is
// the control (chance alone). The ratio check / floor with its bootstrap 95% interval (target:
// 1.3 or less on the upper bound).
// `--latency <ms>` delays every answer of the site (0 by default: loopback, where the floor is
// the transport alone and the engine's own work per page is all that is measured).
//   node dist/bench/sources-check.js [--sources 500] [--concurrency 32] [--rounds 15] [--seed 7] [--latency 0] [--no-check]
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request, type IncomingMessage } from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { openStore } from '../src/index.js';
import { nodeFetch } from '../src/node/net-fetch.js';
import { openSource } from '../src/sources/engine/session.js';
import type { EngineHost } from '../src/sources/engine/types.js';
import { QuickJsEngine } from '../src/sources/js/index.js';
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
const latencyMs = Number(flag('latency', '0'));
const withCheck = !process.argv.includes('--no-check');
const WARMUP = 1;

const worker = new Worker(new URL('./fixture-site-thread.js', import.meta.url), { workerData: { seed, latencyMs } });
const { url } = await new Promise<{ url: string }>((resolve, reject) => {
  worker.once('message', resolve);
  worker.once('error', reject);
});
/** The requests the site has answered so far. */
const answered = (): Promise<number> =>
  new Promise((resolve) => {
    worker.once('message', (m: { hits: number }) => resolve(m.hits));
    worker.postMessage('hits');
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

const js = new QuickJsEngine();
const hostStore = openStore(join(benchFiles(), `legado-sources-check-host-${process.pid}.db`));
const host: EngineHost = {
  fetch: nodeFetch(),
  allowPrivateHosts: true,
  js,
  storage: { cookies: hostStore.cookies, cache: hostStore.cache } as unknown as EngineHost['storage'],
};

/** Sources whose flows failed in the last run, by error code: reported, never hidden. */
let flowFailures: Record<string, number> = {};

/** The engine's steps of a check on one source (no driver, no writes). */
async function flowsOf(i: number): Promise<void> {
  try {
    const flows = openSource(sources[i]!.source as unknown as Record<string, unknown>, host);
    const hit = (await flows.search(keyword))[0];
    if (!hit) throw Object.assign(new Error(`${flows.source.bookSourceUrl}: no hit`), { code: 'NO_HIT' });
    const book = await flows.bookInfo(hit);
    const readable = (await flows.toc(book)).filter((c) => !c.isVolume);
    await flows.content(book, readable[0]!, (readable[1] ?? readable[0]!).url);
  } catch (e) {
    const code = String((e as { code?: unknown }).code ?? (e as Error).name);
    flowFailures[code] = (flowFailures[code] ?? 0) + 1;
  }
}
contenders['flows'] = () => ((flowFailures = {}), pool(sources.length, concurrency, flowsOf));

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
let statuses: Record<string, number> = {}; // the check's last run, sources by status
if (withCheck) {
  const store = openStore(template);
  try {
    const table = store.tables['book_sources' as never] as { insert(row: unknown): void };
    for (const f of sources) table.insert(row(f.source));
  } finally {
    store.close();
  }
  contenders['check'] = async () => {
    const args = [
      'sources',
      'check',
      fresh,
      '--keyword',
      keyword,
      '--steps',
      'search,info,toc,content',
      '--concurrency',
      String(concurrency),
      '--allow-private-hosts',
      '--json',
    ];
    const out = kept();
    const err = kept();
    const code = await main(args, { stdout: out.stream, stderr: err.stream, stdin: Readable.from([]), env: process.env });
    if (code !== 0) throw new Error(`sources check exited ${code}: ${err.text().slice(0, 2000)}`);
    statuses = {};
    for (const line of out.text().trim().split('\n')) {
      const status = String((JSON.parse(line) as { status?: unknown }).status);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
}

const times: Record<string, number[]> = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
const made: Record<string, number> = {}; // requests the site answered in a contender's last run
const random = prng(seed);
const loadBefore = os.loadavg();
try {
  for (let round = 0; round < rounds + WARMUP; round++) {
    for (const name of shuffle(Object.keys(contenders), random)) {
      if (name === 'check') {
        fresh = join(dir, `round-${round}.db`);
        copyFileSync(template, fresh);
      }
      const h0 = await answered();
      const t0 = performance.now();
      await contenders[name]!();
      if (round >= WARMUP) times[name]!.push(performance.now() - t0);
      made[name] = (await answered()) - h0;
      if (name === 'check') for (const ext of ['', '-wal', '-shm']) rmSync(fresh + ext, { force: true });
    }
  }
} finally {
  worker.postMessage('close');
  agent.destroy();
  js.dispose();
  hostStore.close();
  for (const ext of ['', '-wal', '-shm']) rmSync(hostStore.path + ext, { force: true });
  rmSync(dir, { recursive: true, force: true });
}

const ci = (a: string, b: string): Interval => bootstrapMedian(pairedRatios(times[a]!, times[b]!));
const show = (r: Interval): string => `${r.median.toFixed(3)} [${r.low.toFixed(3)}–${r.high.toFixed(3)}]`;
const loads = (l: number[]): string => l.map((x) => x.toFixed(1)).join('/');
console.log(
  `${count} sources, ${requests} requests, concurrency ${concurrency}, site latency ${latencyMs} ms, ${rounds} rounds, load (1/5/15 min) ${loads(loadBefore)} → ${loads(os.loadavg())}`,
);
for (const [name, ts] of Object.entries(times)) console.log(`${name.padEnd(12)} ${median(ts).toFixed(0)} ms a run, ${made[name]} requests`);
const control = ci('floor-again', 'floor');
const fastest = median(times['floor-http']!) < median(times['floor']!) ? 'floor-http' : 'floor';
console.log(`control floor-again / floor: ${show(control)}; floor-http / floor: ${show(ci('floor-http', 'floor'))}`);
console.log(`flows / ${fastest}: ${show(ci('flows', fastest))} (the engine alone); failed in the last run: ${JSON.stringify(flowFailures)}`);
if (times['check']) {
  const r = ci('check', fastest);
  const verdict = control.low > 1 || control.high < 1 ? 'noise' : r.high <= 1.3 ? 'met' : 'not met';
  console.log(`check / ${fastest} (the faster floor): ${show(r)} → ${verdict} (target ≤ 1.3 on the upper bound); last run: ${JSON.stringify(statuses)}`);
}
