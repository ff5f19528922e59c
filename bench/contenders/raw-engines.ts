// The hand-written contenders' engine calls, one set per engine, each written with that
// engine's own API (no seam): better-sqlite3's Database, node:sqlite's DatabaseSync, Bun's
// Database, and SQLite WASM's oo1 API (@sqlite.org/sqlite-wasm, its own instance, loading and
// saving the image of the benchmark's memory storage). Statements are the engines' own objects
// (or the thinnest wrapper their API allows), so the contenders' SQL is shared and only these differ.
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import type { DriverName } from '../../src/index.js';
import { MMAP_SIZE } from '../../src/engine/connection.js';
import { benchEngine } from '../engine.js';
import { once } from './first-use.js';

export interface RawStatement {
  run(...params: unknown[]): { changes: number | bigint };
  /** The first row as an object, undefined when none. */
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

/** A statement whose rows are arrays of the column values, in the select list's order. */
export interface RawRows {
  get(...params: unknown[]): unknown[] | undefined;
  all(...params: unknown[]): unknown[][];
}

export interface RawDb {
  readonly engine: DriverName;
  prepare(sql: string): RawStatement;
  /** Prepared once, rows as arrays (better-sqlite3 `.raw()`, node:sqlite `setReturnArrays`, Bun `values()`, oo1 `get([])`). */
  rows(sql: string): RawRows;
  exec(sql: string): void;
  /** fn wrapped once: each call of the result runs in BEGIN … COMMIT (ROLLBACK on error); `immediate`: BEGIN IMMEDIATE, as the store's. */
  transaction<A extends unknown[], T>(fn: (...args: A) => T, immediate?: boolean): (...args: A) => T;
  /** All rows, INTEGER values as bigint. */
  allExact(sql: string): Record<string, unknown>[];
  userVersion(): unknown;
  close(): void;
}

/**
 * The store's pragmas (src/engine/connection.ts): WAL, synchronous NORMAL, temp_store MEMORY,
 * foreign keys on, and the memory map on files (the busy timeout is set apart). Without the map
 * the store's point reads came out 0.73-0.84x the hand-written ones: the map, not the code.
 */
export const PRAGMAS = ['journal_mode = WAL', 'synchronous = NORMAL', 'temp_store = MEMORY', 'foreign_keys = ON', `mmap_size = ${MMAP_SIZE}`];
/** WASM: no journal_mode change (memory storage) and no memory map, as the store. */
const WASM_PRAGMAS = PRAGMAS.filter((p) => !p.startsWith('journal_mode') && !p.startsWith('mmap_size'));

const require = createRequire(import.meta.url);

/** A better-sqlite3 connection with the store's pragmas, for the contenders built on it (Drizzle). */
export function connectBetterSqlite3(path: string): BetterSqlite3.Database {
  // Loaded on use: under Bun or another Node the binding may not load, and nothing else needs it.
  const Database = require('better-sqlite3') as typeof BetterSqlite3;
  const db = new Database(path, { fileMustExist: true, timeout: 5000 });
  for (const p of PRAGMAS) db.pragma(p);
  return db;
}

function betterSqlite3(path: string, given?: unknown): RawDb {
  // The store's connection is the Database itself, its prepare/exec/transaction replaced on the
  // object by the store's change tracker: raw's code calls the class's own methods on it.
  const db = given === undefined ? connectBetterSqlite3(path) : ownMethods(given as BetterSqlite3.Database);
  return {
    engine: 'better-sqlite3',
    prepare: (sql) => db.prepare(sql),
    rows: (sql) => db.prepare(sql).raw(true) as unknown as RawRows,
    exec: (sql) => void db.exec(sql),
    transaction: (fn, immediate) => (immediate ? db.transaction(fn).immediate : db.transaction(fn)),
    allExact: (sql) => db.prepare(sql).safeIntegers(true).all() as Record<string, unknown>[],
    userVersion: () => db.pragma('user_version', { simple: true }),
    close: () => void (given === undefined && db.close()),
  };
}

/** The Database's class methods bound to it, past any replaced on the object itself. */
function ownMethods(db: BetterSqlite3.Database): BetterSqlite3.Database {
  const proto = Object.getPrototypeOf(db) as BetterSqlite3.Database;
  const bound = (name: 'prepare' | 'exec' | 'transaction' | 'pragma' | 'close') => (proto[name] as (...a: unknown[]) => unknown).bind(db);
  return {
    prepare: bound('prepare'),
    exec: bound('exec'),
    transaction: bound('transaction'),
    pragma: bound('pragma'),
    close: bound('close'),
  } as unknown as BetterSqlite3.Database;
}

interface SqlStatement extends RawStatement {
  setReadBigInts(on: boolean): void;
  setReturnArrays?(on: boolean): void;
}
interface SqlDatabase {
  prepare(sql: string): SqlStatement;
  exec(sql: string): void;
  close(): void;
}

/** BEGIN … COMMIT around fn, for the engines without a transaction helper of their own. */
function begins<A extends unknown[], T>(begin: () => void, commit: () => void, rollback: () => void, fn: (...args: A) => T): (...args: A) => T {
  return (...args) => {
    begin();
    try {
      const r = fn(...args);
      commit();
      return r;
    } catch (e) {
      rollback();
      throw e;
    }
  };
}

function nodeSqlite(path: string, given?: unknown): RawDb {
  const { DatabaseSync } = require('node:sqlite') as { DatabaseSync: new (p: string, o?: object) => SqlDatabase };
  const db = (given as SqlDatabase | undefined) ?? new DatabaseSync(path, { timeout: 5000 });
  if (given === undefined) for (const p of PRAGMAS) db.exec(`PRAGMA ${p}`);
  // Prepared on first use, as the store's driver prepares them (and as raw.ts its statements).
  const fixed = (sql: string): (() => void) => {
    const s = once(() => db.prepare(sql));
    return () => void s().run();
  };
  const begin = fixed('BEGIN');
  const beginImmediate = fixed('BEGIN IMMEDIATE');
  const commit = fixed('COMMIT');
  const rollback = fixed('ROLLBACK');
  return {
    engine: 'node:sqlite',
    prepare: (sql) => db.prepare(sql),
    rows(sql) {
      const s = db.prepare(sql);
      if (s.setReturnArrays) {
        s.setReturnArrays(true);
        return s as unknown as RawRows;
      }
      // Node 22 before 22.16 has no array rows: the values of each row object, in column order.
      return {
        get: (...p) => {
          const r = s.get(...p) as Record<string, unknown> | undefined;
          return r && Object.values(r);
        },
        all: (...p) => (s.all(...p) as Record<string, unknown>[]).map((r) => Object.values(r)),
      };
    },
    exec: (sql) => db.exec(sql),
    transaction: (fn, immediate) => begins(immediate ? beginImmediate : begin, commit, rollback, fn),
    allExact: (sql) => {
      const s = db.prepare(sql);
      s.setReadBigInts(true);
      return s.all() as Record<string, unknown>[];
    },
    userVersion: () => (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version,
    close: () => void (given === undefined && db.close()),
  };
}

interface BunStatement extends RawStatement {
  values(...params: unknown[]): unknown[][];
  safeIntegers(on: boolean): BunStatement;
}

function bunSqlite(path: string, given?: unknown): RawDb {
  const { Database: BunDatabase } = require('bun:sqlite') as {
    Database: new (
      p: string,
      o?: object,
    ) => { prepare(sql: string): BunStatement; exec(sql: string): void; transaction<T>(fn: () => T): () => T; close(throwOnError?: boolean): void };
  };
  type BunDb = InstanceType<typeof BunDatabase>;
  const db = (given as BunDb | undefined) ?? new BunDatabase(path, { readwrite: true, create: false, strict: true });
  if (given === undefined) {
    db.exec('PRAGMA busy_timeout = 5000');
    for (const p of PRAGMAS) db.exec(`PRAGMA ${p}`);
  }
  return {
    engine: 'bun:sqlite',
    prepare: (sql) => {
      const s = db.prepare(sql);
      const get = s.get;
      // Bun's get() says null for no row; the contenders' results say undefined.
      return { run: s.run.bind(s), all: s.all.bind(s), get: (...p: unknown[]) => get.apply(s, p) ?? undefined };
    },
    rows: (sql) => {
      const s = db.prepare(sql);
      return { get: (...p) => s.values(...p)[0], all: (...p) => s.values(...p) };
    },
    exec: (sql) => db.exec(sql),
    transaction: (fn, immediate) => (immediate ? (db.transaction(fn) as unknown as { immediate: never }).immediate : (db.transaction(fn) as never)),
    allExact: (sql) => db.prepare(sql).safeIntegers(true).all() as Record<string, unknown>[],
    userVersion: () => (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version,
    close: () => void (given === undefined && db.close(true)),
  };
}

// SQLite WASM: oo1 to open and prepare; binding, stepping and reading through the module's
// exports (the C functions without capi's JavaScript glue), text encoded into one buffer that
// SQLite copies (SQLITE_TRANSIENT). That is the fastest hand-written form we know on WASM; oo1's
// bind() and get() cost about seven times as much per value.
interface Oo1Stmt {
  readonly pointer: number;
}
interface Oo1Db {
  readonly pointer: number;
  prepare(sql: string): Oo1Stmt;
  exec(sql: string): void;
  changes(total?: boolean): number;
  close(): void;
}
interface WasmExports {
  sqlite3_bind_null(p: number, i: number): number;
  sqlite3_bind_int(p: number, i: number, v: number): number;
  sqlite3_bind_int64(p: number, i: number, v: bigint): number;
  sqlite3_bind_double(p: number, i: number, v: number): number;
  sqlite3_bind_text(p: number, i: number, text: number, n: number, destructor: number): number;
  sqlite3_step(p: number): number;
  sqlite3_reset(p: number): number;
  sqlite3_clear_bindings(p: number): number;
  sqlite3_column_count(p: number): number;
  sqlite3_column_name(p: number, i: number): number;
  sqlite3_column_type(p: number, i: number): number;
  sqlite3_column_double(p: number, i: number): number;
  sqlite3_column_int64(p: number, i: number): bigint;
  sqlite3_column_bytes(p: number, i: number): number;
  sqlite3_column_blob(p: number, i: number): number;
}
interface WasmModule {
  oo1: { DB: new (name: string, flags: string) => Oo1Db };
  capi: {
    sqlite3_deserialize(db: number, schema: string, p: number, n: number, max: number, flags: number): number;
    sqlite3_js_db_export(db: number): Uint8Array;
    sqlite3_column_name(p: number, i: number): string;
    SQLITE_DESERIALIZE_FREEONCLOSE: number;
    SQLITE_DESERIALIZE_RESIZEABLE: number;
  };
  wasm: { allocFromTypedArray(bytes: Uint8Array): number; alloc(n: number): number; dealloc(p: number): void; heap8u(): Uint8Array; exports: WasmExports };
}

let wasmModule: WasmModule | undefined;

/** Loads the contenders' own SQLite WASM instance (asynchronous, so before the run). */
export async function loadRawEngine(name: DriverName): Promise<void> {
  if (name !== 'wasm' || wasmModule) return;
  const init = (await import('@sqlite.org/sqlite-wasm')).default as unknown as () => Promise<WasmModule>;
  wasmModule = await init();
}

/** Strings up to this long are encoded byte by byte (the store's WASM driver's figure). */
const SHORT_TEXT = 8;
const ROW = 100;
const DONE = 101;
const TEXT = 3;
const INTEGER = 1;
const BLOB = 4;
const NULL = 5;
const utf8In = new TextEncoder();
const utf8Out = new TextDecoder('utf-8', { ignoreBOM: true });

function wasm(path: string): RawDb {
  const sqlite3 = wasmModule;
  if (!sqlite3) throw new Error('loadRawEngine("wasm") first');
  const { wasm: w, capi } = sqlite3;
  const x = w.exports;
  const engine = benchEngine();
  const db = new sqlite3.oo1.DB(':memory:', 'c');
  const image = engine.read!(path);
  const p = w.allocFromTypedArray(image);
  const flags = capi.SQLITE_DESERIALIZE_FREEONCLOSE | capi.SQLITE_DESERIALIZE_RESIZEABLE;
  if (capi.sqlite3_deserialize(db.pointer, 'main', p, image.length, image.length, flags) !== 0) throw new Error(`${path}: cannot load`);
  for (const pragma of WASM_PRAGMAS) db.exec(`PRAGMA ${pragma}`);
  let scratch = 0;
  let scratchSize = 0;
  // Text is written into one scratch buffer and bound SQLITE_STATIC (0): SQLite reads it there
  // until `each` clears the bindings, with no copy; short text as UTF-8 byte by byte, the rest
  // with encodeInto (the store's WASM driver binds the same way, with the same SHORT_TEXT: up to
  // 64 characters byte by byte made this contender 2x the store on the bulk insert, in a process
  // where charCodeAt had seen strings of several kinds, src/engine/drivers/wasm/bind.ts).
  const bind = (s: number, params: readonly unknown[]): void => {
    let need = 1;
    for (const v of params) if (typeof v === 'string') need += v.length * 3 + 1;
    if (need > scratchSize) {
      if (scratch) w.dealloc(scratch);
      scratch = w.alloc((scratchSize = Math.max(need, 4096)));
    }
    const heap = w.heap8u();
    let at = scratch;
    for (let k = 0; k < params.length; k++) {
      const v = params[k];
      const i = k + 1;
      if (v === null || v === undefined) x.sqlite3_bind_null(s, i);
      else if (typeof v === 'string') {
        let n = -1;
        if (v.length <= SHORT_TEXT) {
          let o = at;
          let j = 0;
          for (; j < v.length; j++) {
            const c = v.charCodeAt(j);
            if (c < 0x80) heap[o++] = c;
            else if (c < 0x800) (heap[o++] = 0xc0 | (c >> 6)), (heap[o++] = 0x80 | (c & 0x3f));
            else if (c < 0xd800 || c > 0xdfff) (heap[o++] = 0xe0 | (c >> 12)), (heap[o++] = 0x80 | ((c >> 6) & 0x3f)), (heap[o++] = 0x80 | (c & 0x3f));
            else break;
          }
          if (j === v.length) n = o - at;
        }
        if (n < 0) n = utf8In.encodeInto(v, heap.subarray(at, scratch + scratchSize)).written;
        x.sqlite3_bind_text(s, i, at, n, 0);
        at += n;
      } else if (typeof v === 'bigint') x.sqlite3_bind_int64(s, i, v);
      else if (typeof v === 'boolean') x.sqlite3_bind_int(s, i, v ? 1 : 0);
      else if (Number.isInteger(v))
        (v as number) === ((v as number) | 0) ? x.sqlite3_bind_int(s, i, v as number) : x.sqlite3_bind_int64(s, i, BigInt(v as number));
      else x.sqlite3_bind_double(s, i, v as number);
    }
  };
  const value = (s: number, i: number, exact: boolean): unknown => {
    switch (x.sqlite3_column_type(s, i)) {
      case INTEGER:
        return exact ? x.sqlite3_column_int64(s, i) : x.sqlite3_column_double(s, i);
      case TEXT: {
        const at = x.sqlite3_column_blob(s, i);
        return utf8Out.decode(w.heap8u().subarray(at, at + x.sqlite3_column_bytes(s, i)));
      }
      case BLOB: {
        const at = x.sqlite3_column_blob(s, i);
        return w.heap8u().slice(at, at + x.sqlite3_column_bytes(s, i));
      }
      case NULL:
        return null;
      default:
        return x.sqlite3_column_double(s, i);
    }
  };
  const stmt = (sql: string, exact = false) => {
    const s = db.prepare(sql).pointer;
    const n = x.sqlite3_column_count(s);
    const names = Array.from({ length: n }, (_, i) => capi.sqlite3_column_name(s, i));
    const array = (): unknown[] => {
      const r = new Array<unknown>(n);
      for (let i = 0; i < n; i++) r[i] = value(s, i, exact);
      return r;
    };
    const object = (): Record<string, unknown> => {
      const r: Record<string, unknown> = {};
      for (let i = 0; i < n; i++) r[names[i]!] = value(s, i, exact);
      return r;
    };
    const each = <T>(params: readonly unknown[], row: () => T, limit: number): T[] => {
      const out: T[] = [];
      try {
        bind(s, params);
        while (out.length < limit && x.sqlite3_step(s) === ROW) out.push(row());
      } finally {
        x.sqlite3_clear_bindings(s);
        x.sqlite3_reset(s);
      }
      return out;
    };
    return { array, object, each };
  };
  // BEGIN, COMMIT and ROLLBACK prepared once, on first use as the store's, and stepped (db.exec
  // parsed them on every call: the store's transaction call came out 0.56x this contender's).
  const fixed = (sql: string): (() => void) => {
    const prepared = once(() => db.prepare(sql).pointer);
    return () => {
      const s = prepared();
      const rc = x.sqlite3_step(s);
      x.sqlite3_reset(s);
      if (rc !== DONE) throw new Error(`${sql}: SQLite result code ${rc}`);
    };
  };
  return {
    engine: 'wasm',
    prepare(sql) {
      const s = stmt(sql);
      return {
        run: (...params) => {
          const before = db.changes(true);
          s.each(params, s.array, Infinity);
          return { changes: db.changes(true) - before };
        },
        get: (...params) => s.each(params, s.object, 1)[0],
        all: (...params) => s.each(params, s.object, Infinity),
      };
    },
    rows(sql) {
      const s = stmt(sql);
      return { get: (...params) => s.each(params, s.array, 1)[0], all: (...params) => s.each(params, s.array, Infinity) };
    },
    exec: (sql) => db.exec(sql),
    transaction: (fn, immediate) => begins(fixed(immediate ? 'BEGIN IMMEDIATE' : 'BEGIN'), fixed('COMMIT'), fixed('ROLLBACK'), fn),
    allExact: (sql) => {
      const s = stmt(sql, true);
      return s.each([], s.object, Infinity);
    },
    userVersion: () => {
      const s = stmt('PRAGMA user_version');
      return s.each([], s.array, 1)[0]![0];
    },
    close: () => {
      // The memory storage keeps what a closed connection wrote, as the store's WASM driver does.
      if (db.changes(true) > 0) engine.write!(path, capi.sqlite3_js_db_export(db.pointer));
      if (scratch) w.dealloc(scratch);
      db.close();
    },
  };
}

/**
 * Per engine: raw's connection to the file at `path`, opened with the store's pragmas; or, given
 * the engine's own connection as a store's driver holds it (raw-on-store.ts), raw's code on that
 * one as it is (nothing set, and its close left to the store). WASM has no `given`: its raw
 * contender runs on a module of its own.
 */
export const RAW_ENGINES: Readonly<Record<DriverName, (path: string, given?: unknown) => RawDb>> = {
  'better-sqlite3': betterSqlite3,
  'node:sqlite': nodeSqlite,
  'bun:sqlite': bunSqlite,
  wasm,
};

/** A connection of the benchmark's engine, through its own API. */
export function rawConnect(path: string): RawDb {
  return RAW_ENGINES[benchEngine().name](path);
}
