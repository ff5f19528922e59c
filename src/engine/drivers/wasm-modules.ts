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

/** A SQLite file image in SQLite WASM's memory, read out in pieces; `close` frees it. */
export interface DatabaseFileImage {
  /** The file's length in bytes. */
  readonly size: number;
  /** A copy of `length` bytes of the file from `offset`. */
  read(offset: number, length: number): Uint8Array;
  /** Frees the image (once; later calls do nothing). */
  close(): void;
}

/** A SQLite file holding `image`, built on SQLite WASM started from the bundled modules. */
export async function databaseImage(image: DatabaseImage): Promise<DatabaseFileImage> {
  return buildDatabaseImage(await sqliteFromModules(), image);
}

/**
 * A SQLite file holding `image`, built in a memory database on `sqlite3` and read out through
 * sqlite_dbpage, a page range at a time: the file exists once, as the database's own pages in
 * the WASM heap, until `close`, and leaves it only in the pieces `read` copies. (Copying it out
 * whole, sqlite3_serialize, would hold it twice in the heap and a third time in JS; a memdb
 * buffer, which serialize can hand out without a copy, grows by doubling reallocations and
 * peaks higher still: bench/database-memory.ts.)
 */
export function buildDatabaseImage(sqlite3: Sqlite3, image: DatabaseImage): DatabaseFileImage {
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
    const pageSize = out.selectValue('PRAGMA page_size') as number;
    const size = pageSize * (out.selectValue('PRAGMA page_count') as number);
    const pages = out.prepare('SELECT data FROM sqlite_dbpage WHERE pgno BETWEEN ? AND ? ORDER BY pgno');
    let open = true;
    return {
      size,
      read(offset, length) {
        const end = Math.min(offset + length, size);
        const first = Math.floor(offset / pageSize);
        const piece = new Uint8Array(end - offset);
        pages.bind([first + 1, Math.ceil(end / pageSize)]);
        try {
          for (let at = first * pageSize; pages.step(); at += pageSize) {
            const page = pages.get(0) as Uint8Array;
            const from = Math.max(offset - at, 0);
            piece.set(page.subarray(from, Math.min(pageSize, end - at)), at + from - offset);
          }
        } finally {
          pages.reset(true);
        }
        return piece;
      },
      close() {
        if (!open) return;
        open = false;
        pages.finalize();
        out.close();
      },
    };
  } catch (e) {
    out.close();
    throw e;
  }
}
