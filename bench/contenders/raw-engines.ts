// The hand-written contender's engine calls, one set per engine, each written with that
// engine's own API (no seam): better-sqlite3's Database, node:sqlite's DatabaseSync, Bun's
// Database. Statements are the engines' own objects; they all have run/get/all with
// positional parameters, so the contender's statements are shared and only these differ.
import { createRequire } from 'node:module';
import Database from 'better-sqlite3';
import type { DriverName } from '../../src/index.js';

export interface RawStatement {
  run(...params: unknown[]): { changes: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

export interface RawDb {
  prepare(sql: string): RawStatement;
  /** Runs fn in BEGIN ... COMMIT (ROLLBACK on error). */
  transaction<T>(fn: () => T): T;
  /** A getter of the first column of the first row. */
  pluck(stmt: RawStatement): (...params: unknown[]) => unknown;
  /** All rows, INTEGER values as bigint. */
  allExact(sql: string): Record<string, unknown>[];
  userVersion(): unknown;
  close(): void;
}

/** The store's pragmas: WAL, synchronous NORMAL, temp_store MEMORY, foreign keys on, 5 s busy timeout. */
const PRAGMAS = ['journal_mode = WAL', 'synchronous = NORMAL', 'temp_store = MEMORY', 'foreign_keys = ON'];

const require = createRequire(import.meta.url);

function betterSqlite3(path: string): RawDb {
  const db = new Database(path, { fileMustExist: true, timeout: 5000 });
  for (const p of PRAGMAS) db.pragma(p);
  return {
    prepare: (sql) => db.prepare(sql),
    transaction: (fn) => db.transaction(fn)(),
    pluck: (stmt) => {
      const s = (stmt as Database.Statement).pluck();
      return (...params) => s.get(...params);
    },
    allExact: (sql) => db.prepare(sql).safeIntegers(true).all() as Record<string, unknown>[],
    userVersion: () => db.pragma('user_version', { simple: true }),
    close: () => db.close(),
  };
}

interface SqlStatement extends RawStatement {
  setReadBigInts(on: boolean): void;
  setReturnArrays(on: boolean): void;
}

function nodeSqlite(path: string): RawDb {
  const { DatabaseSync } = require('node:sqlite') as { DatabaseSync: new (p: string, o?: object) => { prepare(sql: string): SqlStatement; exec(sql: string): void; close(): void } };
  const db = new DatabaseSync(path, { timeout: 5000 });
  for (const p of PRAGMAS) db.exec(`PRAGMA ${p}`);
  return {
    prepare: (sql) => db.prepare(sql),
    transaction(fn) {
      db.exec('BEGIN');
      try {
        const r = fn();
        db.exec('COMMIT');
        return r;
      } catch (e) {
        db.exec('ROLLBACK');
        throw e;
      }
    },
    pluck: (stmt) => {
      const s = stmt as SqlStatement;
      s.setReturnArrays(true);
      return (...params) => (s.get(...params) as unknown[] | undefined)?.[0];
    },
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
    prepare: (sql) => {
      const s = db.prepare(sql);
      const get = s.get;
      // Bun's get() says null for no row; the contenders' results say undefined.
      return { run: s.run.bind(s), all: s.all.bind(s), get: (...p: unknown[]) => get.apply(s, p) ?? undefined };
    },
    transaction: (fn) => db.transaction(fn)(),
    pluck: (stmt) => {
      const s = stmt as unknown as { get: (...p: unknown[]) => Record<string, unknown> | undefined };
      return (...params) => {
        const row = s.get(...params);
        return row === undefined ? undefined : Object.values(row)[0];
      };
    },
    allExact: (sql) => db.prepare(sql).safeIntegers(true).all() as Record<string, unknown>[],
    userVersion: () => (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version,
    close: () => db.close(true),
  };
}

export const RAW_ENGINES: Readonly<Partial<Record<DriverName, (path: string) => RawDb>>> = {
  'better-sqlite3': betterSqlite3,
  'node:sqlite': nodeSqlite,
  'bun:sqlite': bunSqlite,
};
