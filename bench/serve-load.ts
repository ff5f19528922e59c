// npm run bench:serve: `legado-store serve` under load on 127.0.0.1 against a bare handler of the
// same HTTP stack (Hono on @hono/node-server) doing the same SQL on the same engine. 50 clients
// for 10 s per contender, in alternating 1 s slices (A B A B ...) so the machine's drift hits both
// alike, with each pair's p50 ratio reported beside the pooled percentiles; each
// client saves the progress of its own book (text/plain, by name + author) then reads the shelf.
// Each server runs in a child process; the clients run here. Checks: no error, no lost update
// (each book ends at its client's last acknowledged position). Results: bench/serve-results.md.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { gsonPretty } from '../src/backup/gson.js';
import { toJsonValue } from '../src/backup/export.js';
import { sortBooks } from '../src/domain/books.js';
import { startServer } from '../src/node/server.js';
import { openStore } from '../src/store/open.js';
import { useNodeDrivers } from '../src/engine/drivers/index.js';
import { benchFiles } from './files.js';

useNodeDrivers(); // the core's modules imported directly: Node's engines installed as the entry does

const CLIENTS = Number(process.env.CLIENTS ?? 50);
/** Slices per contender, each SLICE_MS long, alternated A B A B ... (10 x 1 s = 10 s each). */
const SLICES = Number(process.env.SLICES ?? 10);
const SLICE_MS = Number(process.env.SLICE_MS ?? 1000);
const BOOKS = 200;

async function child(kind: string, path: string): Promise<void> {
  const store = openStore(path);
  if (kind === 'store') {
    const s = await startServer(store, { port: 0 });
    process.stdout.write(`port ${s.port}\n`);
    return;
  }
  // The bare handler: the same statements the store runs, written by hand, the same JSON text.
  const db = store.db;
  const find = db.prepare('SELECT bookUrl FROM books WHERE name = ? AND author = ?').pluck();
  const update = db.prepare('UPDATE books SET durChapterIndex = ?, durChapterPos = ?, durChapterTitle = ?, durChapterTime = ? WHERE bookUrl = ?');
  const all = db.prepare('SELECT * FROM books');
  const table = store.schema.table('books')!;
  const app = new Hono();
  app.post('/saveBookProgress', async (c) => {
    const p = JSON.parse(await c.req.text()) as {
      name: string;
      author: string;
      durChapterIndex: number;
      durChapterPos: number;
      durChapterTime: number;
      durChapterTitle?: string;
    };
    const url = find.get(p.name, p.author) as string | undefined;
    if (url === undefined) return c.body(gsonPretty({ isSuccess: false, errorMsg: '格式不对' }), 200, { 'Content-Type': 'application/json' });
    update.run(p.durChapterIndex, p.durChapterPos, p.durChapterTitle ?? null, p.durChapterTime, url);
    return c.body(gsonPretty({ isSuccess: true, errorMsg: '', data: '' }), 200, { 'Content-Type': 'application/json' });
  });
  app.get('/getBookshelf', (c) => {
    const books = sortBooks(all.all() as Parameters<typeof sortBooks>[0], 0).map((b) => toJsonValue(table, b as Record<string, unknown>));
    return c.body(gsonPretty({ isSuccess: true, errorMsg: '', data: books }), 200, { 'Content-Type': 'application/json' });
  });
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => process.stdout.write(`port ${info.port}\n`));
  void server;
}

function startChild(kind: string, path: string): Promise<{ proc: ChildProcess; url: string }> {
  const proc = spawn(process.execPath, [fileURLToPath(import.meta.url), '--child', kind, path], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /port (\d+)/.exec(out);
      if (m) resolve({ proc, url: `http://127.0.0.1:${m[1]}/` });
    });
    proc.once('exit', (code) => reject(new Error(`${kind} server exited ${code}`)));
  });
}

interface Run {
  readonly latencies: number[];
  errors: number;
  requests: number;
}

/** CLIENTS clients for `ms`; each owns book `c` and counts its positions up from `start[c]`. */
async function load(url: string, ms: number, positions: number[], run: Run): Promise<void> {
  const end = performance.now() + ms;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      while (performance.now() < end) {
        const next = positions[c]! + 1;
        const body = JSON.stringify({ name: `书${c}`, author: '作者', durChapterIndex: next, durChapterPos: c, durChapterTime: 1_700_000_000_000 + next });
        let t = performance.now();
        try {
          const r = await fetch(`${url}saveBookProgress`, { method: 'POST', body, headers: { 'Content-Type': 'text/plain;charset=UTF-8' } });
          const text = await r.text();
          if (r.status !== 200 || !text.includes('"isSuccess": true')) run.errors++;
          else positions[c] = next;
          run.latencies.push(performance.now() - t);
          t = performance.now();
          const s = await fetch(`${url}getBookshelf`);
          const shelf = await s.text();
          if (s.status !== 200 || !shelf.startsWith('{\n  "isSuccess": true')) run.errors++;
          run.latencies.push(performance.now() - t);
          run.requests += 2;
        } catch {
          run.errors++;
        }
      }
    }),
  );
}

const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function main(): Promise<void> {
  const work = mkdtempSync(join(benchFiles(), 'legado-serve-load-'));
  const runs: Record<string, Run> = { store: { latencies: [], errors: 0, requests: 0 }, bare: { latencies: [], errors: 0, requests: 0 } };
  const lost: Record<string, number> = { store: 0, bare: 0 };
  const pairRatios: number[] = [];
  try {
    const paths: Record<string, string> = {};
    for (const kind of ['store', 'bare']) {
      paths[kind] = join(work, `${kind}.db`);
      const store = openStore(paths[kind]!, { schema: 62 });
      store.transaction(() => {
        for (let i = 0; i < BOOKS; i++)
          store.tables.books.insert({
            bookUrl: `https://books.example.org/${i}`,
            name: `书${i}`,
            author: '作者',
            origin: 'https://books.example.org',
            originName: '示例',
            durChapterTime: i,
            latestChapterTime: i,
            intro: '简介'.repeat(40),
            totalChapterNum: 500,
          });
      });
      store.close();
    }
    const servers = { store: await startChild('store', paths.store!), bare: await startChild('bare', paths.bare!) };
    const positions: Record<string, number[]> = { store: new Array(CLIENTS).fill(0), bare: new Array(CLIENTS).fill(0) };
    // Warm-up, then A B A B.
    for (const kind of ['store', 'bare'] as const) await load(servers[kind].url, 1000, positions[kind]!, { latencies: [], errors: 0, requests: 0 });
    for (let i = 0; i < SLICES; i++) {
      const p50: number[] = [];
      // Which goes first alternates too.
      for (const kind of (i % 2 ? ['bare', 'store'] : ['store', 'bare']) as ('store' | 'bare')[]) {
        const slice: Run = { latencies: [], errors: 0, requests: 0 };
        await load(servers[kind].url, SLICE_MS, positions[kind]!, slice);
        runs[kind]!.latencies.push(...slice.latencies);
        runs[kind]!.errors += slice.errors;
        runs[kind]!.requests += slice.requests;
        p50[kind === 'store' ? 0 : 1] = pct(
          [...slice.latencies].sort((a, b) => a - b),
          50,
        );
      }
      pairRatios.push(p50[0]! / p50[1]!);
    }
    for (const kind of ['store', 'bare'] as const) servers[kind].proc.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    for (const kind of ['store', 'bare'] as const) {
      const store = openStore(paths[kind]!, { readonly: true });
      for (let c = 0; c < CLIENTS; c++) if (store.books.getByNameAuthor(`书${c}`, '作者')!.durChapterIndex !== positions[kind]![c]) lost[kind]!++;
      store.close();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }

  const rows: string[] = [];
  const stats: Record<string, number[]> = {};
  for (const kind of ['store', 'bare']) {
    const r = runs[kind]!;
    const sorted = [...r.latencies].sort((a, b) => a - b);
    stats[kind] = [50, 95, 99].map((p) => pct(sorted, p));
    rows.push(
      `| ${kind === 'store' ? '`legado-store serve`' : 'bare Hono handler'} | ${r.requests} | ${(r.requests / ((SLICES * SLICE_MS) / 1000)).toFixed(0)} | ${stats[kind]!.map((v) => v.toFixed(2)).join(' | ')} | ${r.errors} | ${lost[kind]} |`,
    );
  }
  const ratio = [0, 1, 2].map((i) => (stats.store![i]! / stats.bare![i]!).toFixed(2));
  const pairs = [...pairRatios].sort((a, b) => a - b);
  const report = `# serve load results

\`npm run bench:serve\` (bench/serve-load.ts): ${CLIENTS} concurrent clients on 127.0.0.1 for ${(SLICES * SLICE_MS) / 1000} s per
contender (${SLICES} alternating slices of ${SLICE_MS / 1000} s, after 1 s of warm-up each); every client saves the progress of
its own book (POST /saveBookProgress, text/plain) then reads the shelf of ${BOOKS} books (GET /getBookshelf).
Each server is a child process on the same engine; latencies are per request, in ms.

| server | requests | per s | p50 | p95 | p99 | errors | lost updates |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

store / bare, pooled: p50 ${ratio[0]}x, p95 ${ratio[1]}x, p99 ${ratio[2]}x.
Paired p50 ratios of the ${SLICES} slices (store / bare, each against the slice next to it): median ${pct(pairs, 50).toFixed(2)}x,
range ${pairs[0]!.toFixed(2)}-${pairs[pairs.length - 1]!.toFixed(2)}x: ${pairRatios.map((r) => r.toFixed(2)).join(', ')}.

Run on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${process.env.LEGADO_STORE_DRIVER ?? 'the default engine'}, a shared 2-core machine (load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(', ')} at the end).
The same run with the first-run layout (two 5 s halves each) on this machine gave p50 1.47x and 0.66x in two
runs minutes apart: single slices swing with the machine's load; the paired slices above say more.
`;
  process.stdout.write(report);
  if (process.env.WRITE_RESULTS !== '0') writeFileSync(new URL('../../bench/serve-results.md', import.meta.url), report);
  if (runs.store!.errors || runs.bare!.errors || lost.store || lost.bare) process.exitCode = 1;
}

if (process.argv[2] === '--child') await child(process.argv[3]!, process.argv[4]!);
else await main();
