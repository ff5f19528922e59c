// The SQLite WASM adapter: the official build (@sqlite.org/sqlite-wasm) behind the seam, for
// browsers (and any JavaScript runtime with WebAssembly). Two storages:
// - 'opfs': the opfs-sahpool VFS, persistent in the origin-private file system. It needs a
//   dedicated Worker (synchronous access handles exist only there) and no COOP/COEP headers.
// - 'memory': throwaway databases held as images in memory. A connection works on an
//   in-memory copy; closing a writable one stores its image back, so the store's usual
//   sequence (inspect, close, open for work) sees one "file" under one name.
// Statements are driven through the C API (sqlite3_step and the column readers) rather than
// oo1's step(), which logs every failed step to the console and returns integers its own way.
import sqlite3InitModule, {
  type Database as Oo1Database,
  type PreparedStatement,
  type SAHPoolUtil,
  type Sqlite3Static,
} from '@sqlite.org/sqlite-wasm';
import { DriverUnavailableError } from '../../errors.js';
import { refuseTail } from './emulation.js';
import { emulateTransaction, type TransactionHost } from './transaction.js';
import {
  ownReplaceable,
  type Connection,
  type Driver,
  type DriverOpenOptions,
  type PragmaOptions,
  type RunResult,
  type Statement,
  type TransactionFn,
} from '../driver.js';
import type { WasmStorage } from './wasm-storage.js';

export type { WasmStorage };

export interface WasmDriverOptions {
  /** Where databases live (default 'memory'). 'opfs' works only in a dedicated Worker. */
  readonly storage?: WasmStorage;
  /** OPFS directory of the pool (default '.legado-store'); stores in other directories are invisible. */
  readonly directory?: string | undefined;
  /** Files the pool keeps open at least (default 12: a database and its journal take two). */
  readonly capacity?: number;
}

/** The WASM engine with its storage: open connections, and read or write whole database files. */
export interface WasmDriver extends Driver {
  readonly storage: WasmStorage;
  /** SQLite's version inside the WASM build. */
  readonly sqliteVersion: string;
  exists(path: string): boolean;
  /** The database file's bytes (a closed or idle database; an open one through `serialize`). */
  readFile(path: string): Uint8Array;
  /** Replaces (or creates) a database file with these bytes, which must be an SQLite database. */
  writeFile(path: string, bytes: Uint8Array): void;
  /** Removes a database file; false when there was none. */
  remove(path: string): boolean;
  /** Names of the database files in this storage. */
  list(): string[];
}

/** An engine error: `code` is SQLite's extended result-code name, as on every other engine. */
export class SqliteError extends Error {
  override readonly name = 'SqliteError';
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

let loading: Promise<Sqlite3Static> | undefined;

/** Loads and instantiates the WASM module once per realm. */
export function loadSqliteWasm(): Promise<Sqlite3Static> {
  loading ??= sqlite3InitModule();
  return loading;
}

const engines = new Map<string, Promise<WasmDriver>>();

/**
 * Loads SQLite WASM and, for 'opfs', installs the sahpool VFS. One driver per storage (and OPFS
 * directory) per realm: every call for the same storage shares its files.
 */
export function loadWasmDriver(options: WasmDriverOptions = {}): Promise<WasmDriver> {
  const storage = options.storage ?? 'memory';
  const directory = options.directory ?? '.legado-store';
  const key = storage === 'memory' ? 'memory' : `opfs:${directory}`;
  let engine = engines.get(key);
  if (!engine) {
    engine = createEngine(storage, directory, options.capacity ?? 12);
    engines.set(key, engine);
    engine.catch(() => engines.delete(key));
  }
  return engine;
}

async function createEngine(storage: WasmStorage, directory: string, capacity: number): Promise<WasmDriver> {
  const sqlite3 = await loadSqliteWasm();
  if (storage === 'memory') return new WasmEngine(sqlite3, new MemoryFiles(sqlite3));
  let util: SAHPoolUtil;
  try {
    util = await sqlite3.installOpfsSAHPoolVfs({ directory, name: `opfs-sahpool-${directory.replace(/\W/g, '_')}` });
  } catch (e) {
    throw new DriverUnavailableError(
      'wasm (opfs)',
      `OPFS storage could not start (${(e as Error).message}): it works in a dedicated Worker of a browser with the origin-private file system, one page at a time per directory; elsewhere use driver 'memory'`,
      e,
    );
  }
  await util.reserveMinimumCapacity(capacity);
  return new WasmEngine(sqlite3, new OpfsFiles(sqlite3, util));
}

/** Where the database files of one storage are, and how one is opened. */
interface Files {
  readonly storage: WasmStorage;
  exists(path: string): boolean;
  size(path: string): number | undefined;
  open(path: string, readonly: boolean): Oo1Database;
  closing(path: string, db: Oo1Database, readonly: boolean): void;
  read(path: string): Uint8Array;
  write(path: string, bytes: Uint8Array): void;
  remove(path: string): boolean;
  list(): string[];
}

// SQLite's header says WAL at bytes 18-19 (2, 2); storages without WAL need 1, 1 (rollback journal).
/** A plain Uint8Array copy (never a view such as Node's Buffer.slice) with a rollback-journal header. */
function copyWithoutWal(bytes: Uint8Array): Uint8Array {
  const copy = new Uint8Array(bytes);
  if (copy.length >= 100 && (copy[18] === 2 || copy[19] === 2)) {
    copy[18] = 1;
    copy[19] = 1;
  }
  return copy;
}

function assertDatabaseBytes(bytes: Uint8Array, path: string): void {
  const magic = 'SQLite format 3\0';
  const ok = bytes.length >= 100 && [...magic].every((c, i) => bytes[i] === c.charCodeAt(0));
  if (!ok) throw new SqliteError(`${path}: file is not a database`, 'SQLITE_NOTADB');
}

class MemoryFiles implements Files {
  readonly storage = 'memory';
  private readonly images = new Map<string, Uint8Array>();
  constructor(private readonly sqlite3: Sqlite3Static) {}

  exists(path: string): boolean {
    return this.images.has(path);
  }
  size(path: string): number | undefined {
    return this.images.get(path)?.length;
  }
  open(path: string): Oo1Database {
    const db = new this.sqlite3.oo1.DB(':memory:', 'c');
    const image = this.images.get(path);
    if (image && image.length > 0) {
      try {
        deserialize(this.sqlite3, db, image);
      } catch (e) {
        db.close();
        throw e;
      }
    }
    return db;
  }
  closing(path: string, db: Oo1Database, readonly: boolean): void {
    if (!readonly && path !== ':memory:' && path !== '') {
      this.images.set(path, this.sqlite3.capi.sqlite3_js_db_export(db.pointer!));
    }
  }
  read(path: string): Uint8Array {
    const image = this.images.get(path);
    if (!image) throw new SqliteError(`${path}: no such database`, 'SQLITE_CANTOPEN');
    return image.slice();
  }
  write(path: string, bytes: Uint8Array): void {
    if (bytes.length > 0) assertDatabaseBytes(bytes, path);
    this.images.set(path, copyWithoutWal(bytes));
  }
  remove(path: string): boolean {
    return this.images.delete(path);
  }
  list(): string[] {
    return [...this.images.keys()];
  }
}

/** Loads an image into an open connection (sqlite3_deserialize, memory owned by SQLite). */
function deserialize(sqlite3: Sqlite3Static, db: Oo1Database, image: Uint8Array): void {
  const { capi, wasm } = sqlite3;
  const bytes = copyWithoutWal(image);
  const p = wasm.allocFromTypedArray(bytes);
  const rc = capi.sqlite3_deserialize(
    db.pointer!,
    'main',
    p,
    bytes.length,
    bytes.length,
    capi.SQLITE_DESERIALIZE_FREEONCLOSE | capi.SQLITE_DESERIALIZE_RESIZEABLE,
  );
  if (rc !== 0) throw new SqliteError(capi.sqlite3_errmsg(db.pointer!), capi.sqlite3_js_rc_str(rc) ?? 'SQLITE_ERROR');
}

class OpfsFiles implements Files {
  readonly storage = 'opfs';
  constructor(
    private readonly sqlite3: Sqlite3Static,
    private readonly pool: SAHPoolUtil,
  ) {}

  exists(path: string): boolean {
    return this.pool.getFileNames().includes(path);
  }
  /** The pool does not tell sizes; a database file's is its page count times its page size. */
  size(path: string): number | undefined {
    if (!this.exists(path)) return undefined;
    const db = this.open(path, true);
    try {
      return Number(db.selectValue('SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()') ?? 0);
    } finally {
      db.close();
    }
  }
  open(path: string, readonly: boolean): Oo1Database {
    return new this.sqlite3.oo1.DB({ filename: path, flags: readonly ? 'r' : 'c', vfs: this.pool.vfsName });
  }
  closing(): void {}
  read(path: string): Uint8Array {
    if (!this.exists(path)) throw new SqliteError(`${path}: no such database`, 'SQLITE_CANTOPEN');
    return this.pool.exportFile(path);
  }
  write(path: string, bytes: Uint8Array): void {
    if (bytes.length === 0) {
      this.pool.unlink(path);
      new this.sqlite3.oo1.DB({ filename: path, flags: 'c', vfs: this.pool.vfsName }).close();
      return;
    }
    assertDatabaseBytes(bytes, path);
    void this.pool.importDb(path, bytes);
  }
  remove(path: string): boolean {
    return this.pool.unlink(path);
  }
  list(): string[] {
    return this.pool.getFileNames();
  }
}

/** OPFS pool names are absolute paths; the store's names are plain ("library.db"). */
function normalisePath(storage: WasmStorage, path: string): string {
  if (storage === 'opfs' && !path.startsWith('/')) return `/${path}`;
  return path;
}

class WasmEngine implements WasmDriver {
  readonly name = 'wasm';
  readonly storage: WasmStorage;
  readonly sqliteVersion: string;
  constructor(
    private readonly sqlite3: Sqlite3Static,
    private readonly files: Files,
  ) {
    this.storage = files.storage;
    this.sqliteVersion = sqlite3.version.libVersion;
  }

  open(path: string, options: DriverOpenOptions = {}): Connection {
    const p = normalisePath(this.storage, path);
    const readonly = options.readonly ?? false;
    if ((options.fileMustExist || readonly) && p !== ':memory:' && !this.files.exists(p)) {
      throw new SqliteError(`unable to open database file: ${path}`, 'SQLITE_CANTOPEN');
    }
    let db: Oo1Database;
    try {
      db = this.files.open(p, readonly);
    } catch (e) {
      throw engineError(this.sqlite3, e);
    }
    const conn = new WasmConnection(this.sqlite3, db, readonly, () => this.files.closing(p, db, readonly));
    if (options.busyTimeout !== undefined) this.sqlite3.capi.sqlite3_busy_timeout(db.pointer!, options.busyTimeout);
    return conn;
  }
  exists(path: string): boolean {
    return this.files.exists(normalisePath(this.storage, path));
  }
  fileSize(path: string): number | undefined {
    return this.files.size(normalisePath(this.storage, path));
  }
  readFile(path: string): Uint8Array {
    return this.files.read(normalisePath(this.storage, path));
  }
  writeFile(path: string, bytes: Uint8Array): void {
    this.files.write(normalisePath(this.storage, path), bytes);
  }
  remove(path: string): boolean {
    return this.files.remove(normalisePath(this.storage, path));
  }
  list(): string[] {
    return this.files.list().map((p) => (this.storage === 'opfs' ? p.replace(/^\//, '') : p));
  }
}

/** An error from the WASM layer as an engine error with SQLite's result-code name. */
function engineError(sqlite3: Sqlite3Static, e: unknown): unknown {
  if (e instanceof sqlite3.SQLite3Error) {
    const code = sqlite3.capi.sqlite3_js_rc_str(e.resultCode) ?? 'SQLITE_ERROR';
    // oo1 prefixes "<code>: sqlite3 result code <n>: "; the engines' messages are SQLite's own.
    return new SqliteError(e.message.replace(/^SQLITE_\w+: sqlite3 result code \d+: /, ''), code);
  }
  return e;
}


/**
 * The C functions of the WASM module called as its own exports, without the JavaScript glue of
 * `capi` (argument conversion, checks): binding and reading a row that way costs a seventh of
 * it (a 6-column insert: 14 → 1.9 us per row). Pointers are numbers in the 32-bit build; a
 * build with 64-bit pointers, or without BigInt, takes the capi path instead.
 */
interface Exports {
  sqlite3_bind_null(stmt: number, i: number): number;
  sqlite3_bind_int(stmt: number, i: number, v: number): number;
  sqlite3_bind_int64(stmt: number, i: number, v: bigint): number;
  sqlite3_bind_double(stmt: number, i: number, v: number): number;
  sqlite3_bind_text(stmt: number, i: number, text: number, bytes: number, destructor: number): number;
  sqlite3_step(stmt: number): number;
  sqlite3_reset(stmt: number): number;
  sqlite3_clear_bindings(stmt: number): number;
  sqlite3_column_count(stmt: number): number;
  sqlite3_column_type(stmt: number, i: number): number;
  sqlite3_column_double(stmt: number, i: number): number;
  sqlite3_column_int64(stmt: number, i: number): bigint;
  sqlite3_column_bytes(stmt: number, i: number): number;
  sqlite3_column_blob(stmt: number, i: number): number;
  sqlite3_last_insert_rowid(db: number): bigint;
  sqlite3_changes64(db: number): bigint;
  sqlite3_get_autocommit(db: number): number;
  sqlite3_result_int(ctx: number, v: number): void;
}

/** SQLITE_TRANSIENT: SQLite copies bound text at once, so one scratch buffer serves every statement. */
const TRANSIENT = -1;
/**
 * SQLITE_STATIC: SQLite reads bound text where it is, until the bindings are cleared. For run,
 * get and all, which bind, step to the end and clear the bindings before anything else can use
 * the scratch buffer; iterate's bindings outlive the call and are copied (TRANSIENT).
 */
const STATIC = 0;
/**
 * Strings up to this long are written as UTF-8 byte by byte (surrogates aside), longer ones by
 * encodeInto. The byte loop saves a view and a native call, but its speed depends on what V8 has
 * seen: once a process has bound strings of several kinds (two-byte, sliced, concatenated: any
 * real store does), its charCodeAt is no longer specialised and costs about four times as much
 * per character, while encodeInto's cost stays put. 10,000 strings on Node 20 after that, ms:
 * 3 characters 0.64 byte by byte / 0.61 encodeInto, 6: 0.72 / 0.70, 10: 1.22 / 0.75, 30: 3.9 /
 * 0.63 (0.93 byte by byte before). A bulk insert of 10,000 chapters (30-character URLs) in a
 * process that has opened a store: 1.28x the C floor with every string up to 64 characters byte
 * by byte, 1.10-1.15x with those up to 8 or 16.
 */
const SHORT_TEXT = 8;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export class WasmConnection implements Connection {
  readonly driver = 'wasm';
  /** The module's exports where they can be called directly (see Exports), else undefined. */
  readonly fast: Exports | undefined;
  /** Where bound text is encoded before SQLite copies it: a pointer and its size in bytes. */
  private scratch = 0;
  private scratchSize = 0;
  private closed = false;
  private readonly finalizer: FinalizationRegistry<PreparedStatement>;
  private readonly control = new Map<string, WasmStatement>();
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
    this.fast = typeof db.pointer === 'number' && wasm.bigIntEnabled && typeof x.sqlite3_bind_text === 'function' && typeof x.sqlite3_changes64 === 'function' ? (x as Exports) : undefined;
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

  pragma(source: string, options: PragmaOptions = {}): unknown {
    const stmt = this.prepare(`PRAGMA ${source}`);
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
    run: (sql) => {
      let stmt = conn.control.get(sql);
      if (stmt === undefined) conn.control.set(sql, (stmt = conn.prepare(sql) as WasmStatement));
      stmt.run();
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

type Mode = 'object' | 'raw' | 'pluck';

/** UTF-8 as SQLite stores it, a leading U+FEFF kept (TextDecoder drops it unless told not to). */
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });
const UTF8_OUT = new TextEncoder();

/**
 * `v` written as UTF-8 at `heap[at]` (room for 3 bytes a character); its length in bytes, or -1
 * when it holds a surrogate (pairs and lone ones are left to encodeInto, which writes U+FFFD).
 */
function shortUtf8(v: string, heap: Uint8Array, at: number): number {
  let o = at;
  for (let k = 0; k < v.length; k++) {
    const c = v.charCodeAt(k);
    if (c < 0x80) heap[o++] = c;
    else if (c < 0x800) {
      heap[o++] = 0xc0 | (c >> 6);
      heap[o++] = 0x80 | (c & 0x3f);
    } else if (c < 0xd800 || c > 0xdfff) {
      heap[o++] = 0xe0 | (c >> 12);
      heap[o++] = 0x80 | ((c >> 6) & 0x3f);
      heap[o++] = 0x80 | (c & 0x3f);
    } else return -1;
  }
  return o - at;
}

// SQLite's result and type codes (stable C constants).
const SQLITE_ROW = 100;
const SQLITE_DONE = 101;
const SQLITE_INTEGER = 1;
const SQLITE_FLOAT = 2;
const SQLITE_TEXT = 3;
const SQLITE_BLOB = 4;

class WasmStatement implements Statement {
  private mode: Mode = 'object';
  private safe = false;
  private busy = false;
  /** Per parameter (1-based index - 1): its name without the prefix, or null for a positional one. */
  private readonly params: (string | null)[];
  /** True when every parameter is positional: such a statement binds through the exports (bindFast). */
  private readonly positionalOnly: boolean;
  private columnNames: string[] | undefined;

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
    this.start(params);
    try {
      while (this.step()) {
        /* a statement with rows run for its effect */
      }
    } finally {
      this.finish();
    }
    const db = this.conn.pointer;
    const x = this.conn.fast;
    const { capi } = this.conn.sqlite3;
    const rowid = x !== undefined ? x.sqlite3_last_insert_rowid(db) : capi.sqlite3_last_insert_rowid(db);
    return {
      changes: Number(x !== undefined ? x.sqlite3_changes64(db) : capi.sqlite3_changes64(db)),
      lastInsertRowid: this.safe ? BigInt(rowid) : Number(rowid),
    };
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
        bound = this.bindFast(fast, stmt.pointer, params, text);
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
        if (this.positionalOnly && this.bindFast(fast, stmt.pointer, positional, text, true)) {
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
        this.bindOne(i + 1, value);
      }
      if (next < positional.length) throw new RangeError('Too many parameter values were provided');
    } catch (e) {
      stmt.clearBindings();
      throw engineError(this.conn.sqlite3, e);
    }
    this.busy = true;
  }

  /**
   * start's binding through the exports: text encoded into the scratch buffer, kept there
   * (STATIC) or copied by SQLite. False, with nothing bound, when a value is an object (an array
   * to spread, named values, a blob) and `objects` is false: start's general path takes those.
   */
  private bindFast(x: Exports, p: number, values: readonly unknown[], keep: number, objects = false): boolean {
    let text = -1;
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (typeof v === 'string') text += v.length * 3 + 1; // UTF-8 bytes at most, 1 byte more each: '' needs an address too
      else if (v !== null && typeof v === 'object' && !objects) return false;
    }
    const base = text >= 0 ? this.conn.scratchOf(text + 1) : 0;
    const wasm = this.conn.sqlite3.wasm;
    let heap = wasm.heap8u();
    let at = base;
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      let rc: number;
      if (v === null || v === undefined) rc = x.sqlite3_bind_null(p, i + 1);
      else if (typeof v === 'string') {
        // SQLite's copy of a text before this one (TRANSIENT) may have grown the memory, which
        // leaves the older view empty: a new one is taken then.
        if (heap.length === 0) heap = wasm.heap8u();
        const len = v.length;
        let n = -1;
        if (len <= SHORT_TEXT) n = shortUtf8(v, heap, at);
        if (n < 0) n = UTF8_OUT.encodeInto(v, heap.subarray(at, base + text + 1)).written;
        rc = x.sqlite3_bind_text(p, i + 1, at, n, keep);
        at += n;
      } else if (typeof v === 'number') {
        if (Number.isInteger(v)) rc = v >= INT32_MIN && v <= INT32_MAX ? x.sqlite3_bind_int(p, i + 1, v) : Number.isSafeInteger(v) ? x.sqlite3_bind_int64(p, i + 1, BigInt(v)) : x.sqlite3_bind_double(p, i + 1, v);
        else rc = x.sqlite3_bind_double(p, i + 1, v);
      } else if (typeof v === 'bigint') {
        if (v < INT64_MIN || v > INT64_MAX) throw new RangeError(`BigInt value is too big to store without precision loss: ${v}`);
        rc = x.sqlite3_bind_int64(p, i + 1, v);
      } else if (typeof v === 'boolean') rc = x.sqlite3_bind_int(p, i + 1, v ? 1 : 0);
      else {
        this.bindOne(i + 1, v);
        rc = 0;
      }
      if (rc !== 0) throw this.conn.lastError(rc);
    }
    return true;
  }

  private bindOne(index: number, value: unknown): void {
    if (value === undefined || value === null) this.stmt.bind(index, null);
    else if (typeof value === 'boolean') this.stmt.bind(index, value ? 1 : 0);
    else if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
      const bytes = value instanceof ArrayBuffer ? new Uint8Array(value) : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
      this.stmt.bindAsBlob(index, bytes);
    } else if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'string') {
      this.stmt.bind(index, value);
    } else {
      throw new TypeError(`SQLite cannot bind a value of type ${typeof value} (parameter ${index})`);
    }
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

  private row(): unknown {
    const { capi } = this.conn.sqlite3;
    const p = this.stmt.pointer!;
    if (this.mode === 'pluck') return this.value(p, 0);
    const x = this.conn.fast;
    const n = x !== undefined ? x.sqlite3_column_count(p) : capi.sqlite3_column_count(p);
    if (this.mode === 'raw') {
      const out = new Array<unknown>(n);
      for (let i = 0; i < n; i++) out[i] = this.value(p, i);
      return out;
    }
    if (this.columnNames?.length !== n) {
      this.columnNames = [];
      for (let i = 0; i < n; i++) this.columnNames.push(capi.sqlite3_column_name(p, i)!);
    }
    const row: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) row[this.columnNames[i]!] = this.value(p, i);
    return row;
  }

  /** One column of the current row; INTEGER as number (bigint under safeIntegers), BLOB as Uint8Array. */
  private value(p: number, i: number): unknown {
    const x = this.conn.fast;
    if (x !== undefined) {
      switch (x.sqlite3_column_type(p, i)) {
        case SQLITE_INTEGER:
          return this.safe ? x.sqlite3_column_int64(p, i) : x.sqlite3_column_double(p, i);
        case SQLITE_FLOAT:
          return x.sqlite3_column_double(p, i);
        case SQLITE_TEXT: {
          const at = x.sqlite3_column_blob(p, i);
          const n = x.sqlite3_column_bytes(p, i);
          return n ? UTF8.decode(this.conn.sqlite3.wasm.heap8u().subarray(at, at + n)) : '';
        }
        case SQLITE_BLOB: {
          const at = x.sqlite3_column_blob(p, i);
          const n = x.sqlite3_column_bytes(p, i);
          return n ? this.conn.sqlite3.wasm.heap8u().slice(at, at + n) : new Uint8Array(0);
        }
        default:
          return null;
      }
    }
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
