// A statement of the WASM driver: better-sqlite3's statement API, driven through the C API
// (sqlite3_step and the column readers) rather than oo1's step(), which logs every failed step
// to the console and returns integers its own way.
import type { PreparedStatement } from '@sqlite.org/sqlite-wasm';
import { ownReplaceable, type RunResult, type Statement } from '../../driver.js';
import { bindFast, bindOne, STATIC, TRANSIENT } from './bind.js';
import type { WasmConnection } from './connection.js';
import type { Exports } from './c-exports.js';
import { engineError } from './sqlite-error.js';

type Mode = 'object' | 'raw' | 'pluck';

/** UTF-8 as SQLite stores it, a leading U+FEFF kept (TextDecoder drops it unless told not to). */
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });

// SQLite's result and type codes (stable C constants).
const SQLITE_ROW = 100;
const SQLITE_DONE = 101;
const SQLITE_INTEGER = 1;
const SQLITE_FLOAT = 2;
const SQLITE_TEXT = 3;
const SQLITE_BLOB = 4;

export class WasmStatement implements Statement {
  private mode: Mode = 'object';
  private safe = false;
  private busy = false;
  /** Per parameter (1-based index - 1): its name without the prefix, or null for a positional one. */
  private readonly params: (string | null)[];
  /** True when every parameter is positional: such a statement binds through the exports (bindFast). */
  private readonly positionalOnly: boolean;
  private columnNames: string[] | undefined;
  /** The module's memory (heap8u: its bytes as the last call left them; a call may grow it). */
  private readonly wasm: { heap8u(): Uint8Array };

  constructor(
    private readonly conn: WasmConnection,
    private readonly stmt: PreparedStatement,
  ) {
    const { capi } = conn.sqlite3;
    const n = stmt.parameterCount;
    this.params = [];
    for (let i = 1; i <= n; i++) {
      const name = capi.sqlite3_bind_parameter_name(stmt.pointer!, i);
      this.params.push(name && name[0] !== '?' ? name.slice(1) : null);
    }
    this.positionalOnly = this.params.every((name) => name === null);
    this.wasm = conn.sqlite3.wasm;
    ownReplaceable(this);
  }

  get readonly(): boolean {
    return this.conn.sqlite3.capi.sqlite3_stmt_readonly(this.stmt.pointer!) !== 0;
  }

  pluck(on = true): this {
    this.mode = on ? 'pluck' : this.mode === 'pluck' ? 'object' : this.mode;
    return this;
  }
  raw(on = true): this {
    this.mode = on ? 'raw' : this.mode === 'raw' ? 'object' : this.mode;
    return this;
  }
  safeIntegers(on = true): this {
    this.safe = on;
    return this;
  }

  run(...params: unknown[]): RunResult {
    this.runBare(params);
    const db = this.conn.pointer;
    const x = this.conn.fast;
    const { capi } = this.conn.sqlite3;
    const rowid = x !== undefined ? x.sqlite3_last_insert_rowid(db) : capi.sqlite3_last_insert_rowid(db);
    return {
      changes: Number(x !== undefined ? x.sqlite3_changes64(db) : capi.sqlite3_changes64(db)),
      lastInsertRowid: this.safe ? BigInt(rowid) : Number(rowid),
    };
  }

  /**
   * run without its result: for the transaction emulation's BEGIN, COMMIT and savepoints, which
   * read neither changes nor rowid (two 64-bit values, each a BigInt out of the module).
   */
  runBare(params: unknown[] = []): void {
    this.start(params);
    try {
      while (this.step()) {
        /* a statement with rows run for its effect */
      }
    } finally {
      this.finish();
    }
  }

  get(...params: unknown[]): unknown {
    this.start(params);
    try {
      return this.step() ? this.row() : undefined;
    } finally {
      this.finish();
    }
  }

  all(...params: unknown[]): unknown[] {
    this.start(params);
    const rows: unknown[] = [];
    try {
      while (this.step()) rows.push(this.row());
    } finally {
      this.finish();
    }
    return rows;
  }

  iterate(...params: unknown[]): IterableIterator<unknown> {
    this.start(params, TRANSIENT);
    const self = this;
    function* rows(): Generator<unknown> {
      try {
        while (self.step()) yield self.row();
      } finally {
        self.finish();
      }
    }
    return rows();
  }

  /**
   * Binds the parameters the way better-sqlite3 does: values in order, arrays spread, one object
   * of named values. `text`: how SQLite keeps bound text (STATIC unless the bindings outlive the call).
   */
  private start(params: unknown[], text = STATIC): void {
    if (this.busy) throw new TypeError('This statement is busy executing a query');
    const stmt = this.stmt;
    if (stmt.pointer === undefined) throw new TypeError('The database connection is not open');
    // No reset here: a statement that is not busy was reset by finish, or never stepped.
    // Plain values (a multi-row insert's hundreds of them) are bound from the call's own array,
    // in one pass that also finds the objects (arrays, named values, blobs) the general path takes.
    const fast = this.conn.fast;
    if (fast !== undefined && this.positionalOnly && params.length === this.params.length) {
      let bound: boolean;
      try {
        bound = bindFast(this.conn, stmt, fast, stmt.pointer, params, text);
      } catch (e) {
        stmt.clearBindings();
        throw engineError(this.conn.sqlite3, e);
      }
      if (bound) {
        this.busy = true;
        return;
      }
    }
    let positional = params;
    let named: Record<string, unknown> | undefined;
    for (let i = 0; i < params.length; i++) {
      const p = params[i];
      if (p !== null && typeof p === 'object' && !ArrayBuffer.isView(p) && !(p instanceof ArrayBuffer)) {
        positional = [];
        for (const q of params) {
          if (Array.isArray(q)) positional.push(...(q as unknown[]));
          else if (q !== null && typeof q === 'object' && !ArrayBuffer.isView(q) && !(q instanceof ArrayBuffer)) {
            named = q as Record<string, unknown>;
          } else positional.push(q);
        }
        break;
      }
    }
    let next = 0;
    try {
      if (fast !== undefined && named === undefined) {
        if (positional.length < this.params.length) throw new RangeError('Too few parameter values were provided');
        if (positional.length > this.params.length) throw new RangeError('Too many parameter values were provided');
        if (this.positionalOnly && bindFast(this.conn, stmt, fast, stmt.pointer, positional, text, true)) {
          this.busy = true;
          return;
        }
      }
      for (let i = 0; i < this.params.length; i++) {
        const name = this.params[i] as string | null;
        let value: unknown;
        if (name === null) {
          if (next >= positional.length) throw new RangeError('Too few parameter values were provided');
          value = positional[next++];
        } else {
          if (!named || !(name in named)) throw new RangeError(`Missing named parameter "${name}"`);
          value = named[name];
        }
        bindOne(stmt, i + 1, value);
      }
      if (next < positional.length) throw new RangeError('Too many parameter values were provided');
    } catch (e) {
      stmt.clearBindings();
      throw engineError(this.conn.sqlite3, e);
    }
    this.busy = true;
  }

  private step(): boolean {
    const x = this.conn.fast;
    const rc = x !== undefined ? x.sqlite3_step(this.stmt.pointer!) : this.conn.sqlite3.capi.sqlite3_step(this.stmt.pointer!);
    if (rc === SQLITE_ROW) return true;
    if (rc === SQLITE_DONE) return false;
    const error = this.conn.lastError(rc);
    this.finish();
    throw error;
  }

  /** sqlite3_reset and clear_bindings (oo1's resetNoThrow(true), through the exports where they can be called). */
  private reset(): void {
    const x = this.conn.fast;
    if (x === undefined) {
      this.stmt.resetNoThrow(true);
      return;
    }
    const p = this.stmt.pointer!;
    x.sqlite3_clear_bindings(p);
    x.sqlite3_reset(p);
  }

  private finish(): void {
    if (!this.busy) return;
    this.busy = false;
    if (this.stmt.pointer !== undefined) this.reset();
  }

  /**
   * The current row. The exports are looked up once a row and passed to each column's read: a
   * lookup of this.conn.fast and this.conn.sqlite3.wasm per column cost point reads about 3%
   * (bench/README.md, WASM: chapter by index).
   */
  private row(): unknown {
    const p = this.stmt.pointer!;
    const x = this.conn.fast;
    if (x === undefined) return this.rowThroughCapi(p);
    if (this.mode === 'pluck') return this.valueFast(x, p, 0);
    const n = x.sqlite3_column_count(p);
    if (this.mode === 'raw') {
      const out = new Array<unknown>(n);
      for (let i = 0; i < n; i++) out[i] = this.valueFast(x, p, i);
      return out;
    }
    const names = this.namesOf(p, n);
    const row: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) row[names[i]!] = this.valueFast(x, p, i);
    return row;
  }

  private rowThroughCapi(p: number): unknown {
    if (this.mode === 'pluck') return this.value(p, 0);
    const n = this.conn.sqlite3.capi.sqlite3_column_count(p);
    if (this.mode === 'raw') {
      const out = new Array<unknown>(n);
      for (let i = 0; i < n; i++) out[i] = this.value(p, i);
      return out;
    }
    const names = this.namesOf(p, n);
    const row: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) row[names[i]!] = this.value(p, i);
    return row;
  }

  private namesOf(p: number, n: number): string[] {
    if (this.columnNames?.length !== n) {
      this.columnNames = [];
      for (let i = 0; i < n; i++) this.columnNames.push(this.conn.sqlite3.capi.sqlite3_column_name(p, i)!);
    }
    return this.columnNames;
  }

  /** One column of the current row through the exports; INTEGER as number (bigint under safeIntegers), BLOB as Uint8Array. */
  private valueFast(x: Exports, p: number, i: number): unknown {
    switch (x.sqlite3_column_type(p, i)) {
      case SQLITE_INTEGER:
        return this.safe ? x.sqlite3_column_int64(p, i) : x.sqlite3_column_double(p, i);
      case SQLITE_FLOAT:
        return x.sqlite3_column_double(p, i);
      case SQLITE_TEXT: {
        const at = x.sqlite3_column_blob(p, i);
        const n = x.sqlite3_column_bytes(p, i);
        return n ? UTF8.decode(this.wasm.heap8u().subarray(at, at + n)) : '';
      }
      case SQLITE_BLOB: {
        const at = x.sqlite3_column_blob(p, i);
        const n = x.sqlite3_column_bytes(p, i);
        return n ? this.wasm.heap8u().slice(at, at + n) : new Uint8Array(0);
      }
      default:
        return null;
    }
  }

  /** One column through capi, where the exports cannot be called (64-bit pointers, no BigInt). */
  private value(p: number, i: number): unknown {
    const { capi, wasm } = this.conn.sqlite3;
    switch (capi.sqlite3_column_type(p, i)) {
      case capi.SQLITE_INTEGER:
        return this.safe ? BigInt(capi.sqlite3_column_int64(p, i)) : capi.sqlite3_column_double(p, i);
      case capi.SQLITE_FLOAT:
        return capi.sqlite3_column_double(p, i);
      case capi.SQLITE_TEXT: {
        // Decoded here: the binding's own decoder drops a leading U+FEFF from every value.
        const n = capi.sqlite3_column_bytes(p, i);
        const at = Number(capi.sqlite3_column_blob(p, i));
        return n ? UTF8.decode(wasm.heap8u().subarray(at, at + n)) : '';
      }
      case capi.SQLITE_BLOB: {
        const n = capi.sqlite3_column_bytes(p, i);
        const at = Number(capi.sqlite3_column_blob(p, i));
        return n ? wasm.heap8u().slice(at, at + n) : new Uint8Array(0);
      }
      default:
        return null;
    }
  }
}
