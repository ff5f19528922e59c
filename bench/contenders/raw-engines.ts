// The hand-written contenders' engine calls, one set per engine, each written with that
// engine's own API (no seam): better-sqlite3's Database, node:sqlite's DatabaseSync, Bun's
// Database, and SQLite WASM's oo1 API (@sqlite.org/sqlite-wasm, its own instance, loading and
// saving the image of the benchmark's memory storage). Statements are the engines' own objects
// (or the thinnest wrapper their API allows), so the contenders' SQL is shared and only these differ.
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import type { DriverName } from '../../src/index.js';
import { benchEngine } from '../engine.js';

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
  /** fn wrapped once: each call of the result runs in BEGIN … COMMIT (ROLLBACK on error). */
  transaction<A extends unknown[], T>(fn: (...args: A) => T): (...args: A) => T;
  /** All rows, INTEGER values as bigint. */
  allExact(sql: string): Record<string, unknown>[];
  userVersion(): unknown;
  close(): void;
}

/** The store's pragmas: WAL, synchronous NORMAL, temp_store MEMORY, foreign keys on, 5 s busy timeout. */
export const PRAGMAS = ['journal_mode = WAL', 'synchronous = NORMAL', 'temp_store = MEMORY', 'foreign_keys = ON'];

const require = createRequire(import.meta.url);

/** A better-sqlite3 connection with the store's pragmas, for the contenders built on it (Drizzle). */
export function connectBetterSqlite3(path: string): BetterSqlite3.Database {
  // Loaded on use: under Bun or another Node the binding may not load, and nothing else needs it.
  const Database = require('better-sqlite3') as typeof BetterSqlite3;
  const db = new Database(path, { fileMustExist: true, timeout: 5000 });
  for (const p of PRAGMAS) db.pragma(p);
  return db;
}

function betterSqlite3(path: string): RawDb {
  const db = connectBetterSqlite3(path);
  return {
    engine: 'better-sqlite3',
    prepare: (sql) => db.prepare(sql),
    rows: (sql) => db.prepare(sql).raw(true) as unknown as RawRows,
    exec: (sql) => void db.exec(sql),
    transaction: (fn) => db.transaction(fn),
    allExact: (sql) => db.prepare(sql).safeIntegers(true).all() as Record<string, unknown>[],
    userVersion: () => db.pragma('user_version', { simple: true }),
    close: () => void db.close(),
  };
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

function nodeSqlite(path: string): RawDb {
  const { DatabaseSync } = require('node:sqlite') as { DatabaseSync: new (p: string, o?: object) => SqlDatabase };
  const db = new DatabaseSync(path, { timeout: 5000 });
  for (const p of PRAGMAS) db.exec(`PRAGMA ${p}`);
  const begin = db.prepare('BEGIN');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
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
    transaction: (fn) => begins(() => begin.run(), () => commit.run(), () => rollback.run(), fn),
    allExact: (sql) => {
      const s = db.prepare(sql);
      s.setReadBigInts(true);
      return s.all() as Record<string, unknown>[];
    },
    userVersion: () => (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version,
    close: () => db.close(),
  };
}

interface BunStatement extends RawStatement {
  values(...params: unknown[]): unknown[][];
  safeIntegers(on: boolean): BunStatement;
}

function bunSqlite(path: string): RawDb {
  const { Database: BunDatabase } = require('bun:sqlite') as {
    Database: new (p: string, o?: object) => { prepare(sql: string): BunStatement; exec(sql: string): void; transaction<T>(fn: () => T): () => T; close(throwOnError?: boolean): void };
  };
  const db = new BunDatabase(path, { readwrite: true, create: false, strict: true });
  db.exec('PRAGMA busy_timeout = 5000');
  for (const p of PRAGMAS) db.exec(`PRAGMA ${p}`);
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
    transaction: (fn) => db.transaction(fn) as never,
    allExact: (sql) => db.prepare(sql).safeIntegers(true).all() as Record<string, unknown>[],
    userVersion: () => (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version,
    close: () => db.close(true),
  };
}

// SQLite WASM's oo1 API, the subset used here.
interface Oo1Stmt {
  bind(values: unknown[]): Oo1Stmt;
  step(): boolean;
  get(target: unknown[] | Record<string, unknown>): unknown;
  reset(clearBindings?: boolean): Oo1Stmt;
}
interface Oo1Db {
  readonly pointer: number;
  prepare(sql: string): Oo1Stmt;
  exec(sql: string): void;
  changes(total?: boolean): number;
  close(): void;
}
interface WasmModule {
  oo1: { DB: new (name: string, flags: string) => Oo1Db };
  capi: {
    sqlite3_deserialize(db: number, schema: string, p: number, n: number, max: number, flags: number): number;
    sqlite3_js_db_export(db: number): Uint8Array;
    SQLITE_DESERIALIZE_FREEONCLOSE: number;
    SQLITE_DESERIALIZE_RESIZEABLE: number;
  };
  wasm: { allocFromTypedArray(bytes: Uint8Array): number };
}

let wasmModule: WasmModule | undefined;

/** Loads the contenders' own SQLite WASM instance (asynchronous, so before the run). */
export async function loadRawEngine(name: DriverName): Promise<void> {
  if (name !== 'wasm' || wasmModule) return;
  const init = (await import('@sqlite.org/sqlite-wasm')).default as unknown as () => Promise<WasmModule>;
  wasmModule = await init();
}

function wasm(path: string): RawDb {
  const sqlite3 = wasmModule;
  if (!sqlite3) throw new Error('loadRawEngine("wasm") first');
  const engine = benchEngine();
  const db = new sqlite3.oo1.DB(':memory:', 'c');
  const image = engine.read!(path);
  const p = sqlite3.wasm.allocFromTypedArray(image);
  const flags = sqlite3.capi.SQLITE_DESERIALIZE_FREEONCLOSE | sqlite3.capi.SQLITE_DESERIALIZE_RESIZEABLE;
  if (sqlite3.capi.sqlite3_deserialize(db.pointer, 'main', p, image.length, image.length, flags) !== 0) throw new Error(`${path}: cannot load`);
  for (const pragma of PRAGMAS.slice(1)) db.exec(`PRAGMA ${pragma}`);
  const stmt = (sql: string) => {
    const s = db.prepare(sql);
    const start = (params: unknown[]) => (params.length ? s.bind(params) : s);
    return {
      all(params: unknown[], row: () => unknown[] | Record<string, unknown>): unknown[] {
        const out: unknown[] = [];
        try {
          const b = start(params);
          while (b.step()) out.push(s.get(row()));
        } finally {
          s.reset(true);
        }
        return out;
      },
      get(params: unknown[], row: () => unknown[] | Record<string, unknown>): unknown {
        try {
          return start(params).step() ? s.get(row()) : undefined;
        } finally {
          s.reset(true);
        }
      },
    };
  };
  const array = () => [];
  const object = () => ({});
  return {
    engine: 'wasm',
    prepare(sql) {
      const s = stmt(sql);
      return {
        run: (...params) => {
          const before = db.changes(true);
          s.get(params, array);
          return { changes: db.changes(true) - before };
        },
        get: (...params) => s.get(params, object),
        all: (...params) => s.all(params, object),
      };
    },
    rows(sql) {
      const s = stmt(sql);
      return { get: (...params) => s.get(params, array) as unknown[] | undefined, all: (...params) => s.all(params, array) as unknown[][] };
    },
    exec: (sql) => db.exec(sql),
    transaction: (fn) => begins(() => db.exec('BEGIN'), () => db.exec('COMMIT'), () => db.exec('ROLLBACK'), fn),
    allExact: (sql) => stmt(sql).all([], object) as Record<string, unknown>[],
    userVersion: () => (stmt('PRAGMA user_version').get([], array) as unknown[])[0],
    close: () => {
      // The memory storage keeps what a closed connection wrote, as the store's WASM driver does.
      if (db.changes(true) > 0) engine.write!(path, sqlite3.capi.sqlite3_js_db_export(db.pointer));
      db.close();
    },
  };
}

export const RAW_ENGINES: Readonly<Record<DriverName, (path: string) => RawDb>> = {
  'better-sqlite3': betterSqlite3,
  'node:sqlite': nodeSqlite,
  'bun:sqlite': bunSqlite,
  wasm,
};

/** A connection of the benchmark's engine, through its own API. */
export function rawConnect(path: string): RawDb {
  return RAW_ENGINES[benchEngine().name](path);
}
