// WASM's gap to native on the bulk insert, like for like: the same chapters table in `:memory:`
// on better-sqlite3 and on SQLite WASM (@sqlite.org/sqlite-wasm, through its exports as the raw
// contender binds), the C floor (a CTE, no value from JavaScript) and 128-row statements on each,
// CPU time per round, rounds interleaved; the WASM statements' time split into binding the
// values (JS -> WASM calls) and sqlite3_step.
//
//   node dist/bench/wasm-split.js [--count 10000] [--rounds 30]
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { openStore } from '../src/index.js';
import { chapterInsert, pushChapter } from './contenders/sql.js';
import { BULK_CHAPTERS_SQL, chapters } from './data.js';
import './engine.js'; // the Node engines registered, as for every benchmark
import { flag, load, pairedBlocks, ratio } from './paired.js';
import { median } from './stats.js';
import { benchFiles } from './files.js';

interface Exports {
  sqlite3_bind_null(s: number, i: number): number;
  sqlite3_bind_int(s: number, i: number, v: number): number;
  sqlite3_bind_text(s: number, i: number, at: number, n: number, destructor: number): number;
  sqlite3_step(s: number): number;
  sqlite3_reset(s: number): number;
  sqlite3_clear_bindings(s: number): number;
}
interface Wasm {
  oo1: { DB: new (name: string, flags: string) => { exec(sql: string): void; prepare(sql: string): { pointer: number }; selectValue(sql: string): unknown } };
  wasm: { exports: Exports; alloc(n: number): number; heap8u(): Uint8Array };
  version: { libVersion: string };
}

const require = createRequire(import.meta.url);
const N = Number(flag('count', '10000'));
const rounds = Number(flag('rounds', '30'));
// Foreign keys off: only the chapters table is made (better-sqlite3 turns them on by default).
const PRAGMAS = ['synchronous = NORMAL', 'temp_store = MEMORY', 'foreign_keys = OFF'];

async function main(): Promise<void> {
  // The chapters table and its indexes as the store creates them.
  const dir = mkdtempSync(join(benchFiles(), 'wasm-split-'));
  const template = join(dir, 't.db');
  openStore(template, { schema: 62 }).close();
  const Database = require('better-sqlite3') as typeof BetterSqlite3;
  const made = new Database(template);
  const ddl = made.prepare("SELECT sql FROM sqlite_master WHERE tbl_name = 'chapters' AND sql IS NOT NULL").pluck().all() as string[];
  made.close();
  rmSync(dir, { recursive: true, force: true });
  const batches: unknown[][] = [];
  const rows = chapters('u', N);
  for (let i = 0; i < N; i += 128) {
    const p: unknown[] = [];
    for (const c of rows.slice(i, i + 128)) pushChapter(p, c, 'u');
    batches.push(p);
  }
  const COLUMNS = 15;

  const nd = new Database(':memory:');
  for (const p of PRAGMAS) nd.pragma(p);
  for (const s of ddl) nd.exec(s);
  const nStatements = new Map<number, BetterSqlite3.Statement>();
  const nInsert = (n: number) => nStatements.get(n) ?? nStatements.set(n, nd.prepare(chapterInsert(n))).get(n)!;
  const nFloor = nd.prepare(BULK_CHAPTERS_SQL);

  const sqlite3 = (await ((await import('@sqlite.org/sqlite-wasm')).default as unknown as () => Promise<Wasm>)()) as Wasm;
  const x = sqlite3.wasm.exports;
  const w = sqlite3.wasm;
  const wd = new sqlite3.oo1.DB(':memory:', 'c');
  for (const p of PRAGMAS) wd.exec(`PRAGMA ${p}`);
  for (const s of ddl) wd.exec(s);
  const wStatements = new Map<number, number>();
  const wInsert = (n: number) => wStatements.get(n) ?? wStatements.set(n, wd.prepare(chapterInsert(n)).pointer).get(n)!;
  const wFloor = wd.prepare(BULK_CHAPTERS_SQL).pointer;
  const SCRATCH = 1 << 20;
  const scratch = w.alloc(SCRATCH);
  const utf8 = new TextEncoder();
  // The heap's view is taken once a statement (the memory does not grow while values are bound).
  let heap = w.heap8u();
  const text = (s: number, i: number, v: string, at: number): number => {
    const n = utf8.encodeInto(v, heap.subarray(at, scratch + SCRATCH)).written;
    x.sqlite3_bind_text(s, i, at, n, 0);
    return at + n;
  };
  let bindNs = 0n;
  let stepNs = 0n;
  const step = (s: number) => {
    x.sqlite3_step(s);
    x.sqlite3_clear_bindings(s);
    x.sqlite3_reset(s);
  };

  const cpu = (f: () => void) => () => {
    const c0 = process.cpuUsage();
    f();
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1000;
  };
  const blocks = {
    'native floor': cpu(() => nd.transaction(() => nFloor.run(N - 1, 'u', 'uindex.html', 'u'))()),
    'native 128-row': cpu(() => nd.transaction(() => batches.forEach((p) => nInsert(p.length / COLUMNS).run(...p)))()),
    'wasm floor': cpu(() => {
      wd.exec('BEGIN');
      heap = w.heap8u();
      x.sqlite3_bind_int(wFloor, 1, N - 1);
      let at = text(wFloor, 2, 'u', scratch);
      at = text(wFloor, 3, 'uindex.html', at);
      text(wFloor, 4, 'u', at);
      step(wFloor);
      wd.exec('COMMIT');
    }),
    'wasm 128-row': cpu(() => {
      wd.exec('BEGIN');
      for (const p of batches) {
        const s = wInsert(p.length / COLUMNS);
        const t0 = process.hrtime.bigint();
        heap = w.heap8u();
        let at = scratch;
        for (let k = 0; k < p.length; k++) {
          const v = p[k];
          if (v === null || v === undefined) x.sqlite3_bind_null(s, k + 1);
          else if (typeof v === 'string') at = text(s, k + 1, v, at);
          else x.sqlite3_bind_int(s, k + 1, v as number);
        }
        const t1 = process.hrtime.bigint();
        step(s);
        bindNs += t1 - t0;
        stepNs += process.hrtime.bigint() - t1;
      }
      wd.exec('COMMIT');
    }),
  };
  // Each round starts from an empty table; every contender must have inserted N rows.
  const checked = Object.fromEntries(
    Object.entries(blocks).map(([name, f]) => [
      name,
      () => {
        const native = name.startsWith('native');
        if (native) nd.exec('DELETE FROM chapters');
        else wd.exec('DELETE FROM chapters');
        const ms = f();
        const n = native ? nd.prepare('SELECT count(*) FROM chapters').pluck().get() : wd.selectValue('SELECT count(*) FROM chapters');
        if (n !== N) throw new Error(`${name}: ${String(n)} rows, not ${N}`);
        return ms;
      },
    ]),
  );
  const before = load();
  const t = pairedBlocks(checked, rounds, 9, 2);
  const version = nd.prepare('SELECT sqlite_version()').pluck().get() as string;
  console.log(
    `bulk insert of ${N} chapters into :memory:, CPU ms, ${rounds} rounds, load ${before} → ${load()}; SQLite ${version} native, ${sqlite3.version.libVersion} WASM`,
  );
  for (const name of Object.keys(blocks))
    console.log(`  ${name.padEnd(15)} ${median(t[name]!).toFixed(2)} ms (${((median(t[name]!) * 1000) / N).toFixed(2)} µs a row)`);
  console.log(`  native 128-row / floor ${ratio(t, 'native 128-row', 'native floor')}; wasm 128-row / floor ${ratio(t, 'wasm 128-row', 'wasm floor')}`);
  console.log(`  wasm / native: floor ${ratio(t, 'wasm floor', 'native floor')}, 128-row ${ratio(t, 'wasm 128-row', 'native 128-row')}`);
  const rowsBound = (rounds + 2) * N * COLUMNS;
  console.log(
    `  wasm 128-row, wall time over all rounds: binding ${(Number(bindNs) / rowsBound).toFixed(0)} ns a value, sqlite3_step ${((100 * Number(stepNs)) / Number(bindNs + stepNs)).toFixed(0)}% of the statements' time`,
  );
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
