// GET /api/database in a Durable Object: the host has no file to copy and no VACUUM INTO, so
// the file is built in the Worker on SQLite WASM, in memory: the object's schema statements
// as stored (tables, indexes, views, in creation order), its rows, `user_version`, then the
// image SQLite writes. The same file a store on disk would give (the tests compare its
// structure with the app's Room facts). Held in memory whole: a Durable Object has 128 MB,
// far above the largest real stores (docs/worker.md).
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import type { AnyStore } from '../store/store.js';
import { OURS } from './durable-store.js';

type Sqlite3 = Awaited<ReturnType<typeof sqlite3InitModule>>;

/** WebAssembly as workerd has it (the project's lib settings do not declare it). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => unknown;
  instantiate(module: unknown, imports: object): Promise<unknown>;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** SQLite's compiled module and the trampolines it makes at start-up, by their bytes in hex (worker/build.ts). */
export interface WasmModules {
  readonly sqlite: unknown;
  readonly trampolines: ReadonlyMap<string, unknown>;
}

let modules: WasmModules | undefined;

/** Called by the Worker's entry (dist/worker/entry.js) with the modules wrangler bundled. */
export function provideWasm(given: WasmModules): void {
  modules = given;
}

const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

let loading: Promise<Sqlite3> | undefined;

/**
 * SQLite WASM from the bundled modules. While it starts, `new WebAssembly.Module(bytes)` finds
 * the trampoline of those bytes instead of compiling (Workers refuse code generation).
 */
function sqlite(): Promise<Sqlite3> {
  const given = modules;
  if (!given) return Promise.reject(new Error('SQLite WASM was not bundled: run the Worker from dist/worker/entry.js (npm run worker:build)'));
  const init = sqlite3InitModule as unknown as (config: object) => Promise<Sqlite3>;
  const compile = wasm.Module;
  const precompiled = function Module(bytes: Uint8Array): unknown {
    return given.trampolines.get(hex(new Uint8Array(bytes))) ?? new compile(bytes);
  } as unknown as WasmApi['Module'];
  loading ??= (async () => {
    wasm.Module = precompiled;
    try {
      return await init({
        instantiateWasm(imports: object, done: (instance: unknown, module: unknown) => void) {
          void wasm.instantiate(given.sqlite, imports).then((instance) => done(instance, given.sqlite));
          return {};
        },
        print: () => {},
        printErr: () => {},
      });
    } finally {
      wasm.Module = compile;
    }
  })();
  return loading;
}

const q = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The store as the bytes of a SQLite file. */
export async function databaseBytes(store: AnyStore): Promise<Uint8Array> {
  const sqlite3 = await sqlite();
  const db = store.db;
  const out = new sqlite3.oo1.DB(':memory:', 'c');
  try {
    const objects = db.prepare(`SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND ${OURS} ORDER BY rowid`).all() as { type: string; name: string; sql: string }[];
    out.exec('BEGIN');
    // Tables first with their rows, then indexes, views and triggers (as a VACUUM INTO lays them out).
    for (const o of objects.filter((x) => x.type === 'table')) {
      out.exec(o.sql);
      const select = db.prepare(`SELECT * FROM ${q(o.name)}`).raw();
      let insert: ReturnType<typeof out.prepare> | undefined;
      for (const row of select.iterate() as IterableIterator<unknown[]>) {
        insert ??= out.prepare(`INSERT INTO ${q(o.name)} VALUES (${row.map(() => '?').join(', ')})`);
        insert.bind(row as never).stepReset();
      }
      insert?.finalize();
    }
    for (const o of objects.filter((x) => x.type !== 'table')) out.exec(o.sql);
    const hasSequence = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").get() !== undefined;
    if (hasSequence) {
      for (const [name, seq] of db.prepare('SELECT name, seq FROM sqlite_sequence').raw().all() as [string, number][]) {
        out.exec({ sql: 'INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)', bind: [name, seq] });
      }
    }
    out.exec('COMMIT');
    out.exec(`PRAGMA user_version = ${store.version}`);
    return sqlite3.capi.sqlite3_js_db_export(out.pointer!);
  } finally {
    out.close();
  }
}

export async function databaseResponse(store: AnyStore): Promise<Response> {
  const bytes = await databaseBytes(store);
  return new Response(bytes, {
    headers: { 'Content-Type': 'application/vnd.sqlite3', 'Content-Disposition': 'attachment; filename="legado.db"', 'Content-Length': String(bytes.byteLength) },
  });
}
