// The store against the bench's hand-written contenders in one process: progress saves or
// transaction calls in paired blocks, one session per contender kept for the whole run (the
// code alone) or opened afresh every round (as the harness does: first use timed too). With
// --listener: the store with a listener on books against raw+room-tracker (the same guarantee by
// hand, Room's way) and against the store without one.
//
// With --gc, a full garbage collection after a fresh session opens and before its clock starts,
// as the harness did before every run (it slows the calls after it on every engine, and on WASM
// makes their rounds vary widely; the harness now does it before bulk runs only).
//
//   node dist/bench/in-process.js [--driver better-sqlite3|node:sqlite|bun:sqlite|wasm] [--workload progress|transaction] [--rounds 200] [--calls 100] [--fresh [--gc]] [--listener]
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openStore, type DriverName } from '../src/index.js';
import type { Contender, Session } from './contender.js';
import { legadoStore, storeListening } from './contenders/legado-store.js';
import { loadRawEngine } from './contenders/raw-engines.js';
import { raw, rawImmediate } from './contenders/raw.js';
import { rawRoomTracker } from './contenders/room-tracker.js';
import { useEngine } from './engine.js';
import { gc } from './harness.js';
import { flag, load, pairedBlocks, ratio } from './paired.js';
import { median } from './stats.js';
import { benchFiles } from './files.js';

async function main(): Promise<void> {
  const eng = await useEngine(flag('driver') as DriverName | undefined);
  await loadRawEngine(eng.name);
  const workload = flag('workload', 'progress')!;
  const rounds = Number(flag('rounds', '200'));
  const calls = Number(flag('calls', '100'));
  const fresh = process.argv.includes('--fresh');
  const collect = fresh && process.argv.includes('--gc');
  const dir = eng.name === 'wasm' ? '/bench' : mkdtempSync(join(benchFiles(), 'in-process-'));
  const template = join(dir, 't.db');
  const s = openStore(template, { driver: eng.driver, schema: 62 });
  s.tables.books.insert({ bookUrl: 'u', name: 'n', author: 'a', origin: 'o' });
  s.close();
  const clock = { now: 0 };
  const saves = Array.from({ length: calls }, (_, i) => ({ bookUrl: 'u', durChapterIndex: 1, durChapterPos: i, durChapterTime: i }));
  const listener = process.argv.includes('--listener');
  const contenders: Record<string, Contender> = {
    store: legadoStore,
    raw,
    again: raw,
    immediate: rawImmediate,
    ...(listener && { listening: storeListening, room: rawRoomTracker }),
  };
  const open = (name: string): Session => {
    const path = join(dir, `${name}.db`);
    eng.remove(path);
    eng.copy(template, path);
    return contenders[name]!.open(path, clock, { writes: 'books' });
  };
  // Fresh: each round's session is opened before its clock starts and closed after it stops (a
  // session closed unused would fail the listeners' check that they heard the writes).
  const sessions: Record<string, Session> = fresh ? {} : Object.fromEntries(Object.keys(contenders).map((n) => [n, open(n)]));
  const blocks = Object.fromEntries(
    Object.keys(contenders).map((n) => [
      n,
      () => {
        const session = fresh ? open(n) : sessions[n]!;
        if (collect) gc();
        const t0 = process.hrtime.bigint();
        void (workload === 'transaction' ? session.transactionCalls!(saves) : session.saveProgress(saves));
        const t = Number(process.hrtime.bigint() - t0) / 1000 / calls;
        if (fresh) void session.close();
        return t;
      },
    ]),
  );
  const before = load();
  const t = pairedBlocks(blocks, rounds, 17);
  console.log(
    `${eng.name} ${workload}, ${fresh ? `a fresh session per round${collect ? ', gc before the clock' : ''}` : 'one session kept'}: ${rounds} rounds × ${calls} calls, load ${before} → ${load()}`,
  );
  console.log(
    `  µs a call: ${Object.keys(t)
      .map((n) => `${n} ${median(t[n]!).toFixed(2)}`)
      .join(', ')}`,
  );
  console.log(
    `  store / raw ${ratio(t, 'store', 'raw')}; store / raw-immediate ${ratio(t, 'store', 'immediate')}; control raw-again / raw ${ratio(t, 'again', 'raw')}`,
  );
  if (listener)
    console.log(
      `  store+listener / raw+room-tracker ${ratio(t, 'listening', 'room')}; store+listener / store ${ratio(t, 'listening', 'store')}; ` +
        `raw+room-tracker / raw ${ratio(t, 'room', 'raw')}`,
    );
  for (const x of Object.values(sessions)) void x.close();
  if (eng.name !== 'wasm') rmSync(dir, { recursive: true, force: true });
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
