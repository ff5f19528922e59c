// SQLite WASM started from modules a host compiled ahead (a Worker: wrangler bundles .wasm
// files as compiled modules, and workerd refuses to compile WebAssembly at run time).
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';

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

/** Whether a host gave the modules (a Worker's entry did): SQLite WASM then starts from them. */
export const wasmModulesGiven = (): boolean => modules !== undefined;

const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

let loading: Promise<Sqlite3> | undefined;

/**
 * SQLite WASM from the bundled modules. While it starts, `new WebAssembly.Module(bytes)` finds
 * the trampoline of those bytes instead of compiling (Workers refuse code generation).
 */
export function sqliteFromModules(): Promise<Sqlite3> {
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

/** A row of sqlite_master: a table, index, view or trigger and the SQL that makes it. */
export interface DatabaseObject {
  readonly type: string;
  readonly name: string;
  readonly sql: string;
}

/**
 * What a database file is built from (no engine types: the host reads its own database). All
 * read after SQLite WASM has started, in one synchronous run, so no other request of the host
 * can write in between.
 */
export interface DatabaseImage {
  /** The schema, in creation order. */
  objects(): readonly DatabaseObject[];
  /** A table's rows, as arrays in column order. */
  rows(table: string): Iterable<unknown[]>;
  /** sqlite_sequence's rows (AUTOINCREMENT counters). */
  sequence(): readonly (readonly [string, number])[];
  readonly userVersion: number;
}

const q = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The bytes of a SQLite file holding `image`, built in memory on SQLite WASM. */
export async function databaseImage(image: DatabaseImage): Promise<Uint8Array> {
  const sqlite3 = await sqliteFromModules();
  const out = new sqlite3.oo1.DB(':memory:', 'c');
  try {
    const objects = image.objects();
    out.exec('BEGIN');
    // Tables first with their rows, then indexes, views and triggers (as a VACUUM INTO lays them out).
    for (const o of objects.filter((x) => x.type === 'table')) {
      out.exec(o.sql);
      let insert: ReturnType<typeof out.prepare> | undefined;
      for (const row of image.rows(o.name)) {
        insert ??= out.prepare(`INSERT INTO ${q(o.name)} VALUES (${row.map(() => '?').join(', ')})`);
        insert.bind(row as never).stepReset();
      }
      insert?.finalize();
    }
    for (const o of objects.filter((x) => x.type !== 'table')) out.exec(o.sql);
    for (const [name, seq] of image.sequence()) out.exec({ sql: 'INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)', bind: [name, seq] });
    out.exec('COMMIT');
    out.exec(`PRAGMA user_version = ${image.userVersion}`);
    return sqlite3.capi.sqlite3_js_db_export(out.pointer!);
  } finally {
    out.close();
  }
}
