// What an open store keeps alive on the JavaScript heap: `--stores` stores opened on copies of one
// file and kept open, the heap measured after a full collection before and after them; bytes per
// store, the median of `--rounds` rounds. With --before, a previous build's stores too, the
// builds taking turns in one process (as before-after.ts loads them). Node only (it forces
// collections through V8's flag).
//
//   node dist/bench/open-heap.js [--before .before] [--stores 50] [--rounds 7] [--driver node:sqlite]
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { openStore as OpenStore } from '../src/index.js';
import { median } from './stats.js';
import { benchFiles } from './files.js';

type Open = typeof OpenStore;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const flag = (k: string) => {
    const i = args.indexOf(`--${k}`);
    return i < 0 ? undefined : args[i + 1];
  };
  const stores = Number(flag('stores') ?? 50);
  const rounds = Number(flag('rounds') ?? 7);
  const driver = flag('driver');
  if (driver === 'wasm') throw new Error('--driver wasm: its memory storage is not a file this copies');
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const builds: Record<string, Open> = { after: (await import('../src/index.js')).openStore };
  const before = flag('before');
  if (before) builds['before'] = ((await import(pathToFileURL(join(resolve(before), 'index.js')).href)) as { openStore: Open }).openStore;
  const open = (o: Open, path: string, create: boolean) => o(path, { schema: 62, create, ...(driver ? { driver } : {}) } as Parameters<Open>[1]);

  const dir = mkdtempSync(join(benchFiles(), 'open-heap-'));
  try {
    const template = join(dir, 't.db');
    open(builds['after']!, template, true).close();
    const perStore: Record<string, number[]> = {};
    let n = 0;
    for (let r = 0; r < rounds + 1; r++) {
      for (const [name, o] of Object.entries(builds)) {
        const paths = Array.from({ length: stores }, () => join(dir, `${n++}.db`));
        for (const p of paths) copyFileSync(template, p);
        settle(gc);
        const h0 = process.memoryUsage().heapUsed;
        let kept = paths.map((p) => open(o, p, false));
        settle(gc);
        const h1 = process.memoryUsage().heapUsed;
        for (const s of kept) s.close();
        kept = [];
        for (const p of paths) for (const f of [p, `${p}-wal`, `${p}-shm`]) rmSync(f, { force: true });
        // The first round warms the code up; its figures are left out.
        if (r > 0) (perStore[name] ??= []).push((h1 - h0) / stores);
      }
    }
    for (const [name, xs] of Object.entries(perStore)) {
      console.log(`${name.padEnd(6)} ${(median(xs) / 1024).toFixed(1)} KB kept alive per open store (median of ${rounds} rounds of ${stores} stores)`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Full collections until the heap stops shrinking (what a closed store leaves goes in more than one). */
function settle(gc: () => void): void {
  let last = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 10; i++) {
    gc();
    const now = process.memoryUsage().heapUsed;
    if (now >= last) return;
    last = now;
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
