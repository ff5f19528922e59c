// node:sqlite (DatabaseSync, Node 22.13+): its API differs from the seam's in small ways, made
// up for here. Rows come back as plain objects (Node makes null-prototype ones), raw and pluck
// read arrays (setReturnArrays where the Node version has it), safeIntegers is setReadBigInts,
// transactions are emulated as better-sqlite3 runs them, an integer beyond 2^53 reads as the
// nearest number (Node refuses it), and errors get the SQLite result code name in `code` (Node
// puts the number in `errcode`).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { bindable, explained, READ_ONLY_SQL, readonlyFromProgram, refuseTail, RowMode, WRITE_SQL } from './emulation.js';
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
import { resultCodeName } from './result-codes.js';
import { emulateTransaction, type TransactionHost } from './transaction.js';

// The part of node:sqlite used here (@types/node of the Node 20 toolchain does not declare it).
interface NodeStatementSync {
  run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
  setReadBigInts(on: boolean): void;
  setAllowUnknownNamedParameters?: (on: boolean) => void;
  /** Node 22.16 / 24 and newer. */
  setReturnArrays?: (on: boolean) => void;
  /** Node 22.16 / 24 and newer. */
  columns?: () => { name: string; table: string | null; column: string | null }[];
}
interface NodeDatabaseSync {
  prepare(sql: string): NodeStatementSync;
  exec(sql: string): void;
  close(): void;
  /** Node 22.16 / 24 and newer. */
  readonly isTransaction?: boolean;
  /** Node 22.13 / 23.5 and newer. */
  function?(name: string, options: { deterministic: boolean }, fn: () => number): void;
}
interface NodeSqlite {
  DatabaseSync: new (path: string, options?: Record<string, unknown>) => NodeDatabaseSync;
}

let engine: NodeSqlite | undefined;

/**
 * Loads node:sqlite synchronously (openStore is synchronous); throws where the runtime has none.
 * Node 22 warns on load that SQLite is experimental: that one warning is held back, so the CLI
 * and the user's program do not print it on every run.
 */
export function loadNodeSqlite(): NodeSqlite {
  if (engine) return engine;
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    if (!String((warning as Error)?.message ?? warning).startsWith('SQLite is an experimental feature')) {
      (emitWarning as (...a: unknown[]) => void).call(process, warning, ...rest);
    }
  } as typeof process.emitWarning;
  try {
    return (engine = createRequire(import.meta.url)('node:sqlite') as NodeSqlite);
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** The error with `code` set to SQLite's name for its `errcode`, as better-sqlite3 reports it. */
export function withSqliteCode(e: unknown): unknown {
  const errcode = (e as { errcode?: unknown } | null)?.errcode;
  if (typeof errcode === 'number') {
    const name = resultCodeName(errcode);
    if (name) Object.defineProperty(e, 'code', { value: name, writable: true, configurable: true, enumerable: true });
  }
  return e;
}

/** A value bound as it is: not an array to spread, a named-parameter object nor a blob. */
function isScalar(v: unknown): boolean {
  return v === null || typeof v !== 'object';
}

/** A row read with bigints, its integers as numbers (beyond 2^53 the nearest one, as better-sqlite3 reads them). */
function narrowRow(row: unknown): unknown {
  if (typeof row !== 'object' || row === null) return row;
  const r = row as Record<string, unknown>;
  for (const k in r) if (typeof r[k] === 'bigint') r[k] = Number(r[k]);
  return row;
}

class NodeSqliteStatement implements Statement {
  readonly text: string;
  private readonly db: NodeDatabaseSync;
  private isReadonly: boolean | undefined;
  private readonly stmt: NodeStatementSync;
  private mode = RowMode.Objects;
  /** safeIntegers is on. */
  private bigints = false;
  /** The text holds RETURNING: it may write and return rows. */
  private readonly returning: boolean;
  /** Where Node cannot ignore unknown named values (before 22.16): the names the SQL uses. */
  private readonly names: ReadonlySet<string> | undefined;
  /** True when the engine itself returns arrays (setReturnArrays). */
  private readonly arrays: boolean;

  constructor(db: NodeDatabaseSync, stmt: NodeStatementSync, sql: string) {
    this.db = db;
    this.stmt = stmt;
    this.text = sql;
    this.arrays = typeof stmt.setReturnArrays === 'function';
    this.returning = /\breturning\b/i.test(sql);
    // better-sqlite3 ignores named values the SQL does not use; callers pass shared objects.
    if (stmt.setAllowUnknownNamedParameters) stmt.setAllowUnknownNamedParameters(true);
    else this.names = new Set(Array.from(sql.matchAll(/[:@$]([A-Za-z_]\w*)/g), (m) => m[1]!));
    ownReplaceable(this);
  }

  /** node:sqlite does not tell (sqlite3_stmt_readonly): read from the statement's program, once. */
  get readonly(): boolean {
    if (this.isReadonly === undefined) {
      // As SQLite answers: an EXPLAIN as the statement it explains; a SELECT or VALUES cannot
      // write, an INSERT, UPDATE or DELETE always does; anything else is read from its program
      // (which a write's would cost for nothing: a 34-row upsert's has thousands of steps, ~1 ms).
      const sql = explained(this.text);
      this.isReadonly =
        READ_ONLY_SQL.test(sql) || (!WRITE_SQL.test(sql) && readonlyFromProgram(this.db.prepare(`EXPLAIN ${sql}`).all() as { opcode: string; p2: number }[]));
    }
    return this.isReadonly;
  }

  /** True when the statement returns rows (Node 22.16 / 24 and newer tell by its columns). */
  get reader(): boolean | undefined {
    return this.stmt.columns ? this.stmt.columns().length > 0 : undefined;
  }

  /** The result columns with their origins (Node 22.16 / 24 and newer). */
  get columns(): (() => ColumnInfo[]) | undefined {
    const columns = this.stmt.columns?.bind(this.stmt);
    return columns && (() => columns().map((c) => ({ name: c.name, table: c.table ?? null, column: c.column ?? null })));
  }

  /** The parameters as node:sqlite takes them: arrays spread, unused named values dropped. */
  private params(params: unknown[]): unknown[] {
    const p = bindable(params);
    const named = p[0];
    if (this.names === undefined || named === null || typeof named !== 'object' || ArrayBuffer.isView(named)) return p;
    const kept = Object.fromEntries(Object.entries(named).filter(([k]) => this.names!.has(k)));
    return [kept, ...p.slice(1)];
  }

  run(...params: unknown[]): RunResult {
    // Up to four plain values (a progress update, a key) passed to the engine as arguments:
    // params() and a spread cost a one-row update ~1% (bench/README.md). A rest array still: taking
    // the values as arguments made a 34-row upsert's 2,000 slower to gather.
    const n = params.length;
    let r: { changes: number | bigint; lastInsertRowid: number | bigint };
    try {
      const a = params[0];
      const b = params[1];
      const c = params[2];
      const d = params[3];
      if (n <= 4 && isScalar(a) && isScalar(b) && isScalar(c) && isScalar(d)) {
        r =
          n === 4 ? this.stmt.run(a, b, c, d) : n === 3 ? this.stmt.run(a, b, c) : n === 2 ? this.stmt.run(a, b) : n === 1 ? this.stmt.run(a) : this.stmt.run();
      } else r = this.stmt.run(...this.params(params));
    } catch (e) {
      throw withSqliteCode(e);
    }
    return { changes: Number(r.changes), lastInsertRowid: r.lastInsertRowid };
  }

  get(...params: unknown[]): unknown {
    // A point read by key: one or two plain values on a statement read as arrays, passed on
    // without params() and a spread. With a new statement per store, the general path cost a
    // chapter read 1.6% over the engine's own call (bench/point-read.ts --fresh).
    const n = params.length;
    if (n <= 2 && this.mode === RowMode.Raw && this.arrays && !this.returning) {
      const a = params[0];
      const b = params[1];
      if (isScalar(a) && isScalar(b)) {
        try {
          return n === 2 ? this.stmt.get(a, b) : n === 1 ? this.stmt.get(a) : this.stmt.get();
        } catch (e) {
          return this.again(e, () => narrowRow(this.stmt.get(...params)));
        }
      }
    }
    const p = this.params(params);
    let row: unknown;
    try {
      row = this.widen() ? this.wide(() => narrowRow(this.stmt.get(...p))) : this.stmt.get(...p);
    } catch (e) {
      row = this.again(e, () => narrowRow(this.stmt.get(...p)));
    }
    return row === undefined ? undefined : this.shape(row);
  }

  all(...params: unknown[]): unknown[] {
    const p = this.params(params);
    let rows: unknown[];
    try {
      rows = this.widen() ? this.wide(() => this.stmt.all(...p).map(narrowRow)) : this.stmt.all(...p);
    } catch (e) {
      rows = this.again(e, () => this.stmt.all(...p).map(narrowRow));
    }
    if (this.mode === RowMode.Raw && this.arrays) return rows;
    for (let i = 0; i < rows.length; i++) rows[i] = this.shape(rows[i]);
    return rows;
  }

  *iterate(...params: unknown[]): IterableIterator<unknown> {
    const p = this.params(params);
    let wide = this.widen();
    if (wide) this.stmt.setReadBigInts(true);
    try {
      let it: IterableIterator<unknown>;
      try {
        it = this.stmt.iterate(...p);
      } catch (e) {
        throw withSqliteCode(e);
      }
      let given = 0;
      for (;;) {
        let next: IteratorResult<unknown>;
        try {
          next = it.next();
        } catch (e) {
          if (wide || !this.canReadAgain(e)) throw withSqliteCode(e);
          // From the start again with bigints, past the rows already given (a read-only
          // statement gives them again, in the same order).
          this.stmt.setReadBigInts(true);
          wide = true;
          try {
            it = this.stmt.iterate(...p);
            for (let k = 0; k < given; k++) it.next();
          } catch (e2) {
            throw withSqliteCode(e2);
          }
          continue;
        }
        if (next.done) return;
        given++;
        yield this.shape(wide ? narrowRow(next.value) : next.value);
      }
    } finally {
      if (wide) this.stmt.setReadBigInts(false);
    }
  }

  // node:sqlite refuses to read an integer beyond 2^53 as a number (RangeError
  // ERR_OUT_OF_RANGE), where better-sqlite3, whose behaviour the seam follows, Bun and WASM give
  // the nearest number. A read-only statement that meets one is read again with bigints, narrowed
  // to numbers; a writing one (RETURNING) is always read that way, as it cannot run twice.

  /** A writing statement (its text says RETURNING: no EXPLAIN for the others) read without safeIntegers. */
  private widen(): boolean {
    return this.returning && !this.bigints && !this.readonly;
  }

  private wide<T>(read: () => T): T {
    this.stmt.setReadBigInts(true);
    try {
      return read();
    } finally {
      this.stmt.setReadBigInts(false);
    }
  }

  /** The read again with bigints after an ERR_OUT_OF_RANGE, or the error with its SQLite code. */
  private again<T>(e: unknown, read: () => T): T {
    if (!this.canReadAgain(e)) throw withSqliteCode(e);
    try {
      return this.wide(read);
    } catch (e2) {
      throw withSqliteCode(e2);
    }
  }

  private canReadAgain(e: unknown): boolean {
    return (e as { code?: unknown } | null)?.code === 'ERR_OUT_OF_RANGE' && !this.bigints && this.readonly;
  }

  pluck(on = true): this {
    return this.setMode(on ? RowMode.Pluck : this.mode === RowMode.Pluck ? RowMode.Objects : this.mode);
  }

  raw(on = true): this {
    return this.setMode(on ? RowMode.Raw : this.mode === RowMode.Raw ? RowMode.Objects : this.mode);
  }

  safeIntegers(on = true): this {
    this.stmt.setReadBigInts(on);
    this.bigints = on;
    return this;
  }

  private setMode(mode: RowMode): this {
    this.mode = mode;
    this.stmt.setReturnArrays?.(mode !== RowMode.Objects);
    return this;
  }

  /** A row as the mode wants it, from what the engine returned. */
  private shape(row: unknown): unknown {
    switch (this.mode) {
      case RowMode.Objects:
        return { ...(row as object) };
      case RowMode.Raw:
        return this.arrays ? row : Object.values(row as object);
      case RowMode.Pluck:
        return this.arrays ? (row as unknown[])[0] : Object.values(row as object)[0];
    }
  }
}

class NodeSqliteConnection implements Connection {
  readonly driver = 'node:sqlite';
  readonly capabilities = NATIVE_CAPABILITIES;
  readonly readonly: boolean;
  private readonly db: NodeDatabaseSync;
  private isOpen = true;
  private readonly host: TransactionHost;
  /** BEGIN, COMMIT, SAVEPOINT ...: each prepared once per connection, run by its runner. */
  private readonly fixed = new Map<string, () => void>();

  /** Connection.defineFlag, where this Node defines SQL functions (better-sqlite3's driver says what it spares). */
  readonly defineFlag?: (name: string, read: () => boolean) => void;

  constructor(db: NodeDatabaseSync, readonly: boolean) {
    this.db = db;
    this.readonly = readonly;
    if (typeof db.function === 'function') this.defineFlag = (name, read) => db.function!(name, { deterministic: false }, () => (read() ? 1 : 0));
    const self = this;
    this.host = {
      get inTransaction() {
        return self.inTransaction;
      },
      runner: (sql) => this.runner(sql),
    };
  }

  get open(): boolean {
    return this.isOpen;
  }

  get inTransaction(): boolean {
    return this.isOpen && (this.db.isTransaction ?? this.probeTransaction());
  }

  /**
   * Node before 22.16 has no isTransaction (sqlite3_get_autocommit): BEGIN fails inside a
   * transaction, and outside one BEGIN DEFERRED + COMMIT takes no lock and changes nothing.
   */
  private probeTransaction(): boolean {
    try {
      this.runner('BEGIN')();
    } catch {
      return true;
    }
    this.runner('COMMIT')();
    return false;
  }

  prepare(sql: string): Statement {
    return this.statement(sql);
  }

  /** prepare's work, which `pragma` calls directly: `prepare` may be replaced on this object by a change tracker (store/changes.ts). */
  private statement(sql: string): Statement {
    try {
      refuseTail(sql);
      return new NodeSqliteStatement(this.db, this.db.prepare(sql), sql);
    } catch (e) {
      throw withSqliteCode(e);
    }
  }

  exec(sql: string): void {
    try {
      this.db.exec(sql);
    } catch (e) {
      throw withSqliteCode(e);
    }
  }

  pragma(text: string, options: PragmaOptions = {}): unknown {
    // Not through the tracker's `prepare`, as better-sqlite3's native pragma is not: a PRAGMA
    // changes no table's rows, and watching one asks whether it writes, which node:sqlite
    // answers only from its EXPLAIN program (quick_check's on a store: 2,360 steps read in
    // 2.7 ms, against 0.15 ms for the check itself; an import runs one).
    const stmt = this.statement(`PRAGMA ${text}`);
    return options.simple ? stmt.pluck().get() : stmt.all();
  }

  transaction<A extends unknown[], R>(fn: (...args: A) => R): TransactionFn<A, R> {
    return emulateTransaction(this.host, this, fn);
  }

  close(): void {
    if (!this.isOpen) return;
    this.db.close();
    this.isOpen = false;
  }

  /** Runs a statement without results and parameters (BEGIN, COMMIT, SAVEPOINT ...), prepared on first use. */
  private runner(sql: string): () => void {
    let run = this.fixed.get(sql);
    if (run === undefined) {
      let stmt: NodeStatementSync;
      try {
        stmt = this.db.prepare(sql);
      } catch (e) {
        throw withSqliteCode(e);
      }
      run = () => {
        try {
          stmt.run();
        } catch (e) {
          throw withSqliteCode(e);
        }
      };
      this.fixed.set(sql, run);
    }
    return run;
  }
}

/** An error shaped as SQLite's own for a file that must exist and does not. */
function cannotOpen(path: string): Error {
  return Object.assign(new Error(`unable to open database file: ${path}`), { code: 'SQLITE_CANTOPEN', errcode: 14 });
}

export const nodeSqliteDriver: Driver = {
  name: 'node:sqlite',
  capabilities: NATIVE_CAPABILITIES,
  open(path: string, options: DriverOpenOptions = {}): Connection {
    const { DatabaseSync } = loadNodeSqlite();
    const readonly = options.readonly ?? false;
    const memory = path === ':memory:' || path === '';
    if (options.fileMustExist && !memory && !existsSync(path)) throw cannotOpen(path);
    let db: NodeDatabaseSync;
    try {
      // Foreign keys on from the start (Node's default), as better-sqlite3 builds SQLite.
      db = new DatabaseSync(path, { readOnly: readonly });
    } catch (e) {
      throw withSqliteCode(e);
    }
    const conn = new NodeSqliteConnection(db, readonly);
    try {
      // The `timeout` open option is Node 22.16+; the pragma works on every version.
      conn.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeout ?? 5000))}`);
    } catch (e) {
      conn.close();
      throw e;
    }
    return conn;
  },
  fileSize: nodeFileSize,
  files: nodeFiles,
};
