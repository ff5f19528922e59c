// A connection of the WASM driver: better-sqlite3's connection API over one oo1 database.
import type { Database as Oo1Database, PreparedStatement, Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import type { Connection, PragmaOptions, Statement, TransactionFn } from '../../driver.js';
import { refuseTail } from '../emulation.js';
import { emulateTransaction, type TransactionHost } from '../transaction.js';
import type { Exports } from './c-exports.js';
import { WASM_CAPABILITIES } from './capabilities.js';
import { engineError, SqliteError } from './sqlite-error.js';
import { WasmStatement } from './statement.js';

export class WasmConnection implements Connection {
  readonly driver = 'wasm';
  readonly capabilities = WASM_CAPABILITIES;
  /** The module's exports where they can be called directly (see Exports), else undefined. */
  readonly fast: Exports | undefined;
  /** Where bound text is encoded before SQLite copies it: a pointer and its size in bytes. */
  private scratch = 0;
  private scratchSize = 0;
  private closed = false;
  private readonly finalizer: FinalizationRegistry<PreparedStatement>;
  /** BEGIN, COMMIT, SAVEPOINT ...: each prepared once, run by its runner (the transaction emulation's). */
  private readonly control = new Map<string, () => void>();
  /** Entries of the module's function table made by defineFlag, removed at close. */
  private readonly flags: number[] = [];

  constructor(
    readonly sqlite3: Sqlite3Static,
    readonly db: Oo1Database,
    readonly readonly: boolean,
    private readonly beforeClose: () => void,
  ) {
    // Statements the caller dropped are finalized when collected; close finalizes the rest.
    this.finalizer = new FinalizationRegistry((stmt) => {
      if (stmt.pointer !== undefined) stmt.finalize();
    });
    const wasm = sqlite3.wasm as unknown as { bigIntEnabled: boolean; exports: Partial<Exports> };
    const x = wasm.exports;
    this.fast =
      typeof db.pointer === 'number' && wasm.bigIntEnabled && typeof x.sqlite3_bind_text === 'function' && typeof x.sqlite3_changes64 === 'function'
        ? (x as Exports)
        : undefined;
  }

  /** The scratch buffer, at least `bytes` long (its address; memory may have grown, so views are taken after). */
  scratchOf(bytes: number): number {
    if (bytes > this.scratchSize) {
      const { wasm } = this.sqlite3;
      if (this.scratch) wasm.dealloc(this.scratch);
      this.scratchSize = Math.max(bytes, 4096);
      this.scratch = Number(wasm.alloc(this.scratchSize));
    }
    return this.scratch;
  }

  get open(): boolean {
    return !this.closed;
  }
  get inTransaction(): boolean {
    if (this.closed) return false;
    return (this.fast !== undefined ? this.fast.sqlite3_get_autocommit(this.pointer) : this.sqlite3.capi.sqlite3_get_autocommit(this.pointer)) === 0;
  }
  get pointer(): number {
    if (this.closed) throw new TypeError('The database connection is not open');
    return this.db.pointer as number;
  }

  /**
   * Installed as a C function of the module, not through oo1's createFunction, which converts
   * arguments and results for any function: 1.7 µs a call against 0.4 µs here, as much as the
   * TEMP table write the flag is meant to spare.
   */
  defineFlag(name: string, read: () => boolean): void {
    const { capi, wasm } = this.sqlite3;
    const fast = this.fast;
    const result = fast !== undefined ? fast.sqlite3_result_int : (ctx: number, v: number) => capi.sqlite3_result_int(ctx, v);
    const fn = Number(wasm.installFunction('v(pip)', (ctx: number) => result(ctx, read() ? 1 : 0)));
    const rc = capi.sqlite3_create_function_v2(this.pointer, name, 0, capi.SQLITE_UTF8, 0, fn, 0, 0, 0);
    if (rc !== 0) {
      wasm.uninstallFunction(fn);
      throw this.lastError(rc);
    }
    this.flags.push(fn);
  }

  prepare(sql: string): Statement {
    return this.statement(sql);
  }

  /** prepare's work, which `pragma` calls directly: `prepare` may be replaced on this object by a change tracker (store/changes.ts). */
  private statement(sql: string): Statement {
    this.pointer;
    let stmt: PreparedStatement;
    refuseTail(sql);
    try {
      stmt = this.db.prepare(sql);
    } catch (e) {
      throw engineError(this.sqlite3, e);
    }
    if (stmt.pointer === undefined) {
      throw new RangeError('The supplied SQL string contains no statements');
    }
    const wrapper = new WasmStatement(this, stmt);
    this.finalizer.register(wrapper, stmt, wrapper);
    return wrapper;
  }

  exec(sql: string): void {
    const { capi } = this.sqlite3;
    const rc = capi.sqlite3_exec(this.pointer, sql, 0, 0, 0);
    if (rc !== 0) throw this.lastError(rc);
  }

  pragma(text: string, options: PragmaOptions = {}): unknown {
    // Not through the tracker's `prepare`, as better-sqlite3's native pragma is not: a PRAGMA changes no table's rows.
    const stmt = this.statement(`PRAGMA ${text}`);
    return options.simple ? stmt.pluck().get() : stmt.all();
  }

  transaction<A extends unknown[], R>(fn: (...args: A) => R): TransactionFn<A, R> {
    return emulateTransaction(this.host, this, fn);
  }

  /** What the shared transaction emulation runs on: BEGIN, COMMIT, savepoints, prepared once each. */
  private readonly host: TransactionHost = ((conn: WasmConnection): TransactionHost => ({
    get inTransaction(): boolean {
      return conn.inTransaction;
    },
    runner: (sql) => {
      let run = conn.control.get(sql);
      if (run === undefined) {
        const stmt = conn.statement(sql) as WasmStatement;
        conn.control.set(sql, (run = () => stmt.runBare()));
      }
      return run;
    },
  }))(this);

  /** The whole database as the bytes of a database file (sqlite3_serialize of main). */
  serialize(): Uint8Array {
    return this.sqlite3.capi.sqlite3_js_db_export(this.pointer);
  }

  close(): void {
    if (this.closed) return;
    try {
      this.beforeClose();
    } finally {
      this.closed = true;
      this.control.clear();
      this.db.close();
      for (const fn of this.flags.splice(0)) this.sqlite3.wasm.uninstallFunction(fn);
      if (this.scratch) this.sqlite3.wasm.dealloc(this.scratch);
      this.scratch = this.scratchSize = 0;
    }
  }

  lastError(rc: number): SqliteError {
    const { capi } = this.sqlite3;
    const code = capi.sqlite3_js_rc_str(capi.sqlite3_extended_errcode(this.pointer)) ?? capi.sqlite3_js_rc_str(rc);
    return new SqliteError(capi.sqlite3_errmsg(this.pointer), code ?? 'SQLITE_ERROR');
  }
}
