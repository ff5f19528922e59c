// Chapter by index, peeled: the store's `chapters.get(bookUrl, i)` against raw's exact code, and
// the steps between them, in paired blocks in one process on one connection's file. Each step
// changes one thing from the one before it, so the ratio of neighbours is that thing's cost:
//
//   raw        raw's statement on its own connection (setReturnArrays), an object literal (raw.ts)
//   raw-text   the same, with the store's statement text (its column list, LIMIT 1)
//   adapter    the store's statement through the driver's adapter (raw mode), the literal
//   builder    the adapter, and the store's row builder (codec.fromRaw) for the literal
//   finder     the table's finder (tables.chapters.finder(['bookUrl', 'index']).get)
//   store      store.chapters.get: the finder behind the domain area and its guard
//
//   node dist/bench/point-read.js [--driver node:sqlite|better-sqlite3|bun:sqlite|wasm] [--rounds 200] [--reads 1000] [--fresh [--warm] [--gc] | --sessions | --split]
import { mkdtempSync, rmSync } from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import { join } from 'node:path';
import { openStore, type DriverName } from '../src/index.js';
import { setUpForWork } from '../src/engine/connection.js';
import { Codec } from '../src/table/codec.js';
import { chapterPicks, chapters as makeChapters } from './data.js';
import type { Contender, Session } from './contender.js';
import { legadoStore } from './contenders/legado-store.js';
import { raw } from './contenders/raw.js';
import { loadRawEngine, rawConnect } from './contenders/raw-engines.js';
import { CHAPTER_COLUMNS, chapterFromArray } from './contenders/sql.js';
import { useEngine } from './engine.js';
import { flag, load, pairedBlocks, ratio } from './paired.js';
import { median } from './stats.js';
import { benchFiles } from './files.js';

const BOOK = 'https://www.site0.example.com/book/1';

async function main(): Promise<void> {
  const eng = await useEngine(flag('driver') as DriverName | undefined);
  // On WASM the path names an image in the engine's memory storage, which raw's connection loads.
  await loadRawEngine(eng.name);
  const rounds = Number(flag('rounds', '200'));
  const reads = Number(flag('reads', '1000'));
  const dir = mkdtempSync(join(benchFiles(), 'point-read-'));
  const path = join(dir, 'p.db');
  const rows = makeChapters(BOOK, 10_000);
  const s0 = openStore(path, { driver: eng.driver, schema: 62 });
  s0.transaction(() => {
    s0.tables.books.insert({ bookUrl: BOOK, name: 'n', author: 'a', origin: 'o' });
    s0.tables.chapters.insertMany(rows);
  });
  s0.close();
  const picks = chapterPicks(rows.length, reads);

  const store = openStore(path, { driver: eng.driver, schema: 62, create: false });
  const finder = store.tables.chapters.finder(['bookUrl', 'index']);
  const storeSql = finder.sql;
  const adapter = store.db.prepare(storeSql).raw(true);
  const db = rawConnect(path);
  const rawStmt = db.rows(`SELECT ${CHAPTER_COLUMNS} FROM chapters WHERE bookUrl = ? AND \`index\` = ?`);
  const rawText = db.rows(storeSql);
  const build = builderOf(store);

  const loop = (get: (i: number) => unknown) => () => {
    let n = 0;
    for (const i of picks) if (get(i) !== undefined) n++;
    if (n !== picks.length) throw new Error(`found ${n} of ${picks.length}`);
    return undefined;
  };
  const blocks = {
    raw: loop((i) => {
      const r = rawStmt.get(BOOK, i);
      return r && chapterFromArray(r);
    }),
    'raw-text': loop((i) => {
      const r = rawText.get(BOOK, i);
      return r && chapterFromArray(r);
    }),
    again: loop((i) => {
      const r = rawStmt.get(BOOK, i);
      return r && chapterFromArray(r);
    }),
    adapter: loop((i) => {
      const r = adapter.get(BOOK, i) as unknown[] | undefined;
      return r && chapterFromArray(r);
    }),
    builder: loop((i) => {
      const r = adapter.get(BOOK, i) as unknown[] | undefined;
      return r && build(r);
    }),
    finder: loop((i) => finder.get(BOOK, i)),
    store: loop((i) => store.chapters.get(BOOK, i)),
  };
  // --fresh: the harness's way, the bench's own sessions (raw.ts, legado-store.ts) opened anew
  // every round before the clock, first use timed.
  const fresh = process.argv.includes('--fresh');
  const warm = process.argv.includes('--warm');
  const bun = (globalThis as { Bun?: { gc(sync: boolean): void } }).Bun;
  // Bun has no V8 flags: its own synchronous collection.
  const collect = !process.argv.includes('--gc')
    ? undefined
    : bun
      ? () => bun.gc(true)
      : (v8.setFlagsFromString('--expose-gc'), vm.runInNewContext('gc') as () => void);
  const sessions = process.argv.includes('--sessions');
  const kept = new Map<Contender, Session>();
  const session = (c: Contender) => (): number => {
    let x = kept.get(c);
    if (!x) x = c.open(path, { now: 0 });
    if (sessions) kept.set(c, x);
    // --gc: the heap collected after the open, before the clock (what opening left to collect is then not timed).
    if (collect) collect();
    // --warm: a first untimed pass of a tenth of the reads, so only the code after first use is timed.
    if (warm) x.chapterAt(BOOK, picks.slice(0, picks.length / 10));
    const t0 = process.hrtime.bigint();
    const got = x.chapterAt(BOOK, picks) as unknown[];
    const us = Number(process.hrtime.bigint() - t0) / 1000;
    if (!sessions) void x.close();
    if (got.length !== picks.length || got.includes(undefined)) throw new Error(`${c.name}: not every chapter found`);
    return us;
  };
  // Sessions that read with raw's code (the statement's get, an object literal) on a connection
  // opened some other way: `open` gives the statement and what closes the connection.
  const reader = (name: string, open: (p: string) => { stmt: { get(...a: unknown[]): unknown }; close(): void }): Contender =>
    ({
      name,
      kind: 'hand',
      open(p: string) {
        const { stmt, close } = open(p);
        const chapterAt = (bookUrl: string, indexes: readonly number[]) =>
          indexes.map((i) => {
            const r = stmt.get(bookUrl, i) as unknown[] | undefined;
            return r && chapterFromArray(r);
          });
        return { chapterAt, close } as unknown as Session;
      },
    }) as Contender;
  /** A connection through the store's driver, set up with its pragmas (setUpForWork), no store. */
  const driverOpen = (p: string) => {
    const c = eng.driver.open(p, { fileMustExist: true });
    setUpForWork(c as never, p, false);
    return c;
  };
  // The store's connection as the store opens it, through the adapter: the connection's part of a
  // fresh session apart from the store's code's.
  const storeConnection = reader('store-connection', (p) => {
    const st = openStore(p, { driver: eng.driver, schema: 62, create: true });
    const s = st.db.prepare(storeSql).raw(true);
    return { stmt: s, close: () => st.close() };
  });
  // The same through the store's driver and pragmas alone.
  const driverConnection = reader('driver-connection', (p) => {
    const c = driverOpen(p);
    const s = c.prepare(storeSql).raw(true);
    return { stmt: s, close: () => c.close() };
  });
  // node:sqlite only: the driver's own DatabaseSync (opened and set up as above), its statement called directly, no adapter.
  const driverNative = reader('driver-native', (p) => {
    const c = driverOpen(p);
    type Native = { prepare(sql: string): { setReturnArrays(on: boolean): void; get(...a: unknown[]): unknown } };
    const s = (c as unknown as { db: Native }).db.prepare(storeSql);
    s.setReturnArrays(true);
    return { stmt: s, close: () => c.close() };
  });
  // --split: fresh sessions of raw and the store in turn, their first read, the next tenth and
  // the rest timed apart (medians): first use apart from what a fresh session costs after it.
  if (process.argv.includes('--split')) {
    const parts = [picks.slice(0, 1), picks.slice(1, reads / 10), picks.slice(reads / 10)];
    const split: Record<string, number[][]> = { raw: [[], [], []], store: [[], [], []] };
    const load0 = load();
    for (let r = 0; r < rounds + 3; r++) {
      for (const c of r % 2 ? [raw, legadoStore] : [legadoStore, raw]) {
        const x = c.open(path, { now: 0 });
        parts.forEach((part, k) => {
          const t0 = process.hrtime.bigint();
          x.chapterAt(BOOK, part);
          if (r >= 3) split[c === raw ? 'raw' : 'store']![k]!.push(Number(process.hrtime.bigint() - t0) / 1000);
        });
        void x.close();
      }
    }
    console.log(
      `${eng.name}, ${process.version}, fresh sessions, ${rounds} rounds, load ${load0} → ${load()}: µs (median) of the first read, the next ${parts[1]!.length}, the last ${parts[2]!.length}`,
    );
    for (const n of ['raw', 'store']) console.log(`  ${n.padEnd(6)} ${split[n]!.map((x) => median(x).toFixed(1)).join(', ')}`);
    console.log(`  store / raw, the last ${parts[2]!.length}: ${(median(split['store']![2]!) / median(split['raw']![2]!)).toFixed(3)}`);
    store.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
    return;
  }
  const before = load();
  const t = pairedBlocks(
    fresh || sessions
      ? {
          raw: session(raw),
          again: session(raw),
          store: session(legadoStore),
          connection: session(storeConnection),
          driver: session(driverConnection),
          ...(eng.name === 'node:sqlite' && { native: session(driverNative) }),
        }
      : blocks,
    rounds,
    29,
  );
  console.log(
    `${eng.name}, ${process.version}${fresh ? ', sessions opened every round' : ''}: ${rounds} rounds × ${reads} reads of a 10,000-chapter book, load ${before} → ${load()}`,
  );
  console.log(
    `  µs a read: ${Object.keys(t)
      .map((n) => `${n} ${(median(t[n]!) / reads).toFixed(3)}`)
      .join(', ')}`,
  );
  const steps: [string, string][] = [
    ['again', 'raw'],
    ['raw-text', 'raw'],
    ['adapter', 'raw-text'],
    ['builder', 'adapter'],
    ['finder', 'builder'],
    ['store', 'finder'],
    ['store', 'raw'],
    ['connection', 'raw'],
    ['store', 'connection'],
    ['driver', 'raw'],
    ['connection', 'driver'],
    ['native', 'raw'],
    ['driver', 'native'],
  ];
  for (const [a, b] of steps.filter(([a, b]) => t[a] && t[b])) console.log(`  ${`${a} / ${b}`.padEnd(22)} ${ratio(t, a, b)}`);
  store.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
}

/** The store's row builder of chapters (codec.fromRaw): a codec of the same table model, as the table's own. */
function builderOf(store: ReturnType<typeof openStore>): (r: unknown[]) => unknown {
  const codec = new Codec(store.schema.tables.find((t) => t.name === 'chapters')!, 62);
  return (r) => codec.fromRaw(r);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
