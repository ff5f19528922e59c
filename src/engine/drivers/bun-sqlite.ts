// bun:sqlite (Bun only). Its Database already has better-sqlite3's transaction functions and
// error codes; what differs is made up for here: get() gives null for no row, arrays come from
// values(), pluck is emulated, named parameters are bare (strict mode), and a missing file
// with fileMustExist is refused by opening without the create flag.
import { createRequire } from 'node:module';
import { bindable, READ_ONLY_SQL, refuseTail, RowMode } from './emulation.js';
import { nodeFiles, nodeFileSize } from './node-files.js';
import {
  NATIVE_CAPABILITIES,
  ownReplaceable,
  type ColumnInfo,
  type Connection,
  type Driver,
  type DriverOpenOptions,
  type PragmaOptions,
  type RunResult,
  type Statement,
  type TransactionFn,
} from '../driver.js';

// The part of bun:sqlite used here (no Bun types in this toolchain).
interface BunStatement {
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  values(...params: unknown[]): unknown[][];
  iterate(...params: unknown[]): IterableIterator<unknown>;
  safeIntegers(on: boolean): BunStatement;
  readonly readonly?: boolean;
  readonly reader?: boolean;
  readonly columnNames: string[];
}
interface BunDatabase {
  prepare(sql: string): BunStatement;
  exec(sql: string): void;
  close(throwOnError?: boolean): void;
  transaction<A extends unknown[], R>(fn: (...args: A) => R): TransactionFn<A, R>;
  readonly inTransaction: boolean;
}
interface BunSqlite {
  Database: new (path: string, options?: Record<string, unknown>) => BunDatabase;
}

let engine: BunSqlite | undefined;

/** Loads bun:sqlite; throws outside Bun. */
export function loadBunSqlite(): BunSqlite {
  if (!(globalThis as { Bun?: unknown }).Bun) throw new Error('bun:sqlite exists only under Bun');
  return (engine ??= createRequire(import.meta.url)('bun:sqlite') as BunSqlite);
}

class BunSqliteStatement implements Statement {
  readonly readonly: boolean;
  private readonly stmt: BunStatement;
  private mode = RowMode.Objects;

  constructor(stmt: BunStatement, sql: string) {
    this.stmt = stmt;
    this.readonly = stmt.readonly ?? READ_ONLY_SQL.test(sql);
    ownReplaceable(this);
  }

  get reader(): boolean | undefined {
    return this.stmt.reader;
  }

  /** The result columns by name (bun:sqlite does not tell where a column comes from). */
  columns(): ColumnInfo[] {
    return this.stmt.columnNames.map((name) => ({ name, table: null, column: null }));
  }

  run(...params: unknown[]): RunResult {
    return this.stmt.run(...bindable(params));
  }

  get(...params: unknown[]): unknown {
    if (this.mode === RowMode.Objects) return this.stmt.get(...bindable(params)) ?? undefined;
    // values() has no single-row form: the first row of all of them is what get() means. One or
    // two plain parameters (a point read by key) are passed on without bindable and a spread.
    const n = params.length;
    const a = params[0];
    const b = params[1];
    const rows =
      n === 1 && !Array.isArray(a)
        ? this.stmt.values(a)
        : n === 2 && !Array.isArray(a) && !Array.isArray(b)
          ? this.stmt.values(a, b)
          : this.stmt.values(...bindable(params));
    const row = rows[0];
    return row === undefined ? undefined : this.mode === RowMode.Pluck ? row[0] : row;
  }

  all(...params: unknown[]): unknown[] {
    if (this.mode === RowMode.Objects) return this.stmt.all(...bindable(params));
    const rows = this.stmt.values(...bindable(params));
    return this.mode === RowMode.Raw ? rows : rows.map((r) => r[0]);
  }

  *iterate(...params: unknown[]): IterableIterator<unknown> {
    // Rows as objects lose a repeated column name: then arrays, all at once, from values().
    if (this.mode !== RowMode.Objects && new Set(this.stmt.columnNames).size < this.stmt.columnNames.length) {
      yield* this.all(...params);
      return;
    }
    for (const row of this.stmt.iterate(...bindable(params))) {
      if (this.mode === RowMode.Objects) yield row;
      else {
        const values = Object.values(row as object);
        yield this.mode === RowMode.Raw ? values : values[0];
      }
    }
  }

  pluck(on = true): this {
    this.mode = on ? RowMode.Pluck : this.mode === RowMode.Pluck ? RowMode.Objects : this.mode;
    return this;
  }

  raw(on = true): this {
    this.mode = on ? RowMode.Raw : this.mode === RowMode.Raw ? RowMode.Objects : this.mode;
    return this;
  }

  safeIntegers(on = true): this {
    this.stmt.safeIntegers(on);
    return this;
  }
}

class BunSqliteConnection implements Connection {
  readonly driver = 'bun:sqlite';
  readonly capabilities = NATIVE_CAPABILITIES;
  readonly readonly: boolean;
  // Bun builds row objects in native code, with one structure per statement: a 200,000-row
  // chapter list read as objects (booleans set in place) took 0.64x the time of values()
  // arrays made into objects in JavaScript (284 -> 183 ms; bench/README.md).
  readonly objectRows = true;
  private readonly db: BunDatabase;
  private isOpen = true;

  constructor(db: BunDatabase, readonly: boolean) {
    this.db = db;
    this.readonly = readonly;
  }

  get open(): boolean {
    return this.isOpen;
  }

  get inTransaction(): boolean {
    return this.isOpen && this.db.inTransaction;
  }

  prepare(sql: string): Statement {
    return this.statement(sql);
  }

  /** prepare's work, which `pragma` calls directly: `prepare` may be replaced on this object by a change tracker (store/changes.ts). */
  private statement(sql: string): Statement {
    refuseTail(sql);
    return new BunSqliteStatement(this.db.prepare(sql), sql);
  }

  exec(sql: string): void {
    this.db.exec(sql);
  }

  pragma(text: string, options: PragmaOptions = {}): unknown {
    // Not through the tracker's `prepare`, as better-sqlite3's native pragma is not: a PRAGMA changes no table's rows.
    const stmt = this.statement(`PRAGMA ${text}`);
    return options.simple ? stmt.pluck().get() : stmt.all();
  }

  transaction<A extends unknown[], R>(fn: (...args: A) => R): TransactionFn<A, R> {
    // As better-sqlite3: a function returning a promise is an error (rolled back), since what
    // it writes after an await would land outside the transaction.
    return this.db.transaction(function (this: unknown, ...args: A): R {
      const result = fn.apply(this, args);
      if (result && typeof (result as { then?: unknown }).then === 'function') {
        throw new TypeError('Transaction function cannot return a promise');
      }
      return result;
    });
  }

  close(): void {
    if (!this.isOpen) return;
    // close(true) finalizes the statements and really closes, as better-sqlite3's close does;
    // plain close() leaves the connection open while any statement lives, so the WAL is not
    // checkpointed and removed until they are collected.
    this.db.close(true);
    this.isOpen = false;
  }
}

export const bunSqliteDriver: Driver = {
  name: 'bun:sqlite',
  capabilities: NATIVE_CAPABILITIES,
  open(path: string, options: DriverOpenOptions = {}): Connection {
    const { Database } = loadBunSqlite();
    const readonly = options.readonly ?? false;
    const flags = readonly ? { readonly: true } : { readwrite: true, create: !options.fileMustExist };
    const conn = new BunSqliteConnection(new Database(path, { ...flags, strict: true }), readonly);
    try {
      conn.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeout ?? 5000))}`);
      // Foreign keys on from the start, as better-sqlite3 builds SQLite (SQLITE_DEFAULT_FOREIGN_KEYS=1).
      conn.pragma('foreign_keys = ON');
    } catch (e) {
      conn.close();
      throw e;
    }
    return conn;
  },
  fileSize: nodeFileSize,
  files: nodeFiles,
};
