// The seam between the store and a SQLite engine. Everything above src/engine/ talks to SQLite
// through these two interfaces only; one adapter per engine (better-sqlite3, node:sqlite,
// bun:sqlite, SQLite WASM) implements them. The shape is the subset of better-sqlite3's API the
// store uses, so that adapter hands out the engine's own objects (no wrapper on the hot path)
// and the others emulate it.
//
// Errors: an adapter lets an engine error out as an Error whose `code` is SQLite's (extended)
// result code name, as better-sqlite3 does ('SQLITE_BUSY', 'SQLITE_CONSTRAINT_PRIMARYKEY',
// 'SQLITE_NOTADB', ...); the layers above map those names to the store's typed errors.

/** The engines the package ships adapters for; a Driver of your own may carry any other name. */
export type DriverName = 'better-sqlite3' | 'node:sqlite' | 'bun:sqlite' | 'wasm';

/**
 * What an engine can and cannot do. Shared code asks these, never an engine's name, so an
 * engine the package does not ship (a Driver of your own, a Durable Object's storage) says
 * what it allows and the store works within it.
 */
export interface DriverCapabilities {
  /**
   * Paths name files of a file system that other programs share: a -wal, -shm or -journal may
   * lie beside a file, and a file can be read without traces by copying it first. False where
   * the engine keeps its own storage (SQLite WASM's OPFS pool or memory, a Durable Object).
   */
  readonly files: boolean;
  /** `PRAGMA journal_mode = WAL` is available. */
  readonly wal: boolean;
  /** `PRAGMA mmap_size` has an effect (a memory map of the file). */
  readonly mmap: boolean;
  /**
   * 'statements': BEGIN, COMMIT and SAVEPOINT may be run as SQL. 'callback': only
   * `Connection.transaction(fn)` makes a transaction (a Durable Object refuses BEGIN).
   */
  readonly transactions: 'statements' | 'callback';
  /** The most bound parameters one statement may take (SQLite's default limit: 32766). */
  readonly maxParameters: number;
  /** `PRAGMA user_version` may be written (a Durable Object refuses it). */
  readonly userVersion: boolean;
  /** The longest LIKE or GLOB pattern, in bytes (SQLite's default: 50000; a Durable Object: 50). */
  readonly maxLikePatternBytes: number;
  /**
   * TEMP tables and triggers may be created: change listeners (`store.onChange`) are TEMP
   * triggers, as Room's InvalidationTracker's are. Left out: true. A Durable Object refuses them,
   * and `onChange` there is an UnsupportedError.
   */
  readonly tempTriggers?: boolean | undefined;
  /**
   * `PRAGMA integrity_check(table)` may be run: a write about to change a table checks its indexes
   * against its rows first. Left out: true. A Durable Object refuses it ("not authorized"), and
   * its storage is the host's, not a file another program can damage: there only quick_check runs.
   */
  readonly indexCheck?: boolean | undefined;
}

/** The capabilities of SQLite as a native library on a file system (better-sqlite3, node:sqlite, bun:sqlite). */
export const NATIVE_CAPABILITIES: DriverCapabilities = Object.freeze({
  files: true,
  wal: true,
  mmap: true,
  transactions: 'statements',
  maxParameters: 32766,
  userVersion: true,
  maxLikePatternBytes: 50000,
});

export interface RunResult {
  /** Rows changed by the statement (not counting those changed by triggers or cascades). */
  readonly changes: number;
  readonly lastInsertRowid: number | bigint;
}

/** A prepared statement. Parameters are positional values or one object of named values. */
export interface Statement {
  run(...params: unknown[]): RunResult;
  /** First row, or undefined. */
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
  /** Rows as their first column's value (get/all/iterate). */
  pluck(on?: boolean): this;
  /** Rows as arrays of column values in select order, instead of objects. */
  raw(on?: boolean): this;
  /** INTEGER values read as bigint (exact beyond 2^53) instead of number. */
  safeIntegers(on?: boolean): this;
  /** True when running the statement cannot write (SQLite's sqlite3_stmt_readonly). */
  readonly readonly: boolean;
  /** True when the statement returns rows (better-sqlite3's `reader`); left out where an engine cannot tell. */
  readonly reader?: boolean | undefined;
  /** The result columns and where each comes from, where an engine tells (SQLite's column metadata). */
  readonly columns?: (() => ColumnInfo[]) | undefined;
}

/** A result column: its name, and the table and column it is read from (null for an expression). */
export interface ColumnInfo {
  readonly name: string;
  readonly table: string | null;
  readonly column: string | null;
}

/**
 * The statement methods a layer above the seam may replace on one statement object: the change
 * tracker does, on the statements it watches (store/changes.ts). A statement class written in
 * JavaScript makes them own properties of every statement (ownReplaceable), so that a statement
 * with replaced methods keeps the hidden class all the others have. Otherwise the watched ones
 * have a class of their own, which a garbage collection removes with them, and V8 drops the
 * optimized code that had seen it: on SQLite WASM, whose binding is JavaScript, a bulk insert
 * after every collection ran unoptimized again.
 */
export const REPLACEABLE = ['run', 'get', 'all', 'iterate'] as const;

/** Makes a statement's REPLACEABLE methods its own properties (call it last in the constructor). */
export function ownReplaceable(stmt: Statement): void {
  const s = stmt as unknown as Record<(typeof REPLACEABLE)[number], unknown>;
  // biome-ignore lint/correctness/noSelfAssign: reads the prototype's method, writes it as the object's own property
  for (const m of REPLACEABLE) s[m] = s[m];
}

/** A function run in a transaction; nested calls run in a savepoint. */
export interface TransactionFn<A extends unknown[], R> {
  (...args: A): R;
  /** BEGIN DEFERRED at the outermost level. */
  deferred(...args: A): R;
  /** BEGIN IMMEDIATE at the outermost level: takes the write lock first, honouring busyTimeout. */
  immediate(...args: A): R;
}

export interface PragmaOptions {
  /** Return the first column of the first row instead of the rows. */
  readonly simple?: boolean;
}

/** One open connection. */
export interface Connection {
  /** Which engine this connection runs on (its Driver's name: for messages, never for decisions). */
  readonly driver: string;
  /** What the engine allows (its Driver's capabilities). */
  readonly capabilities: DriverCapabilities;
  readonly open: boolean;
  readonly inTransaction: boolean;
  readonly readonly: boolean;
  /**
   * Lists of rows read as objects (the statement's default mode) cost less on this engine than
   * rows read as arrays and made into objects in JavaScript: the store then reads its lists
   * that way where it can. bun:sqlite says so; on better-sqlite3 and node:sqlite the arrays and
   * the generated builder (table/compiled.ts) are the faster way, and they leave this out.
   */
  readonly objectRows?: boolean;
  /**
   * Defines `name()`, an SQL function of no arguments that returns `read()` as 1 or 0, on this
   * connection for its life. Offered where calling it costs much less than writing a row of a
   * TEMP table, which is what it spares: the change triggers test it first (store/changes.ts).
   * SQLite WASM offers it (a trigger's TEMP table update: 1.7 µs a row; this call: 0.4 µs), and
   * so do better-sqlite3 and node:sqlite (22.13+): a progress save with a quiet trigger is +5%
   * over no trigger against +11% counting, and the call adds 1-2% where the trigger counts (in a
   * transaction, raw SQL). bun:sqlite defines no SQL functions.
   */
  defineFlag?(name: string, read: () => boolean): void;
  prepare(sql: string): Statement;
  /** Runs one or more statements without results. */
  exec(sql: string): void;
  /** `PRAGMA <text>`; the rows, or with `simple` the first value. */
  pragma(text: string, options?: PragmaOptions): unknown;
  /** Wraps fn so that each call runs in one transaction (a savepoint when nested). */
  transaction<A extends unknown[], R>(fn: (...args: A) => R): TransactionFn<A, R>;
  close(): void;
}

export interface DriverOpenOptions {
  readonly readonly?: boolean;
  /** The file must exist (an error instead of creating it). */
  readonly fileMustExist?: boolean;
  /** Milliseconds to wait for another connection's lock. */
  readonly busyTimeout?: number;
}

/** An engine: how to open a connection on it. */
export interface Driver {
  /** A name for messages and for choosing by name (`driver: 'wasm'`); decisions use `capabilities`. */
  readonly name: string;
  readonly capabilities: DriverCapabilities;
  open(path: string, options?: DriverOpenOptions): Connection;
  /**
   * Size in bytes of the file at `path` (0 for an empty one), or undefined when there is none.
   * The store asks the driver, not the file system, so a driver whose files live elsewhere
   * (WASM's OPFS pool or memory) answers for its own storage and no Node built-in is needed.
   */
  fileSize(path: string): number | undefined;
  /**
   * The file system the paths name, for the reads that must leave no trace (a -wal's pages
   * checked from the bytes, a copy read instead of the file): required where
   * `capabilities.files` is true, left out otherwise.
   */
  readonly files?: DriverFiles | undefined;
}

/** A file opened for reading bytes at given positions. */
export interface FileReader {
  /** The file's size in bytes when it was opened. */
  readonly size: number;
  /** Reads into `into` from byte `position` of the file; returns how many bytes were read (fewer at its end). */
  read(into: Uint8Array, position: number): number;
  close(): void;
}

/** A private copy of a file (see DriverFiles.privateCopy). */
export interface PrivateCopy {
  /** The copy of the file (its companions beside it, with the same suffixes). */
  readonly file: string;
  /** Removes the copy and its folder; safe to call twice. */
  remove(): void;
}

/**
 * What the store needs of a file system besides SQLite itself: reading bytes, asking whether a
 * file may be written, copying a file where only its owner can read it, and undoing such things
 * if the process ends first. The Node engines share one implementation (drivers/node-files.ts).
 */
export interface DriverFiles {
  /** Opens the file for reading; throws as the file system does (code 'ENOENT', 'EISDIR', ...). */
  openRead(path: string): FileReader;
  /** Whether this process may write the file and create files beside it (SQLite's -wal, -shm). */
  writable(path: string): boolean;
  /** The path with links and `..` resolved (to tell whether two paths name one file); throws when there is none. */
  realPath(path: string): string;
  /**
   * Copies `path` and the companions given (suffixes: '-wal', '-journal') into a new folder only
   * this user can open, removed by `remove()`, or when the process ends first.
   */
  privateCopy(path: string, companions: readonly string[], prefix?: string): PrivateCopy;
  /** Runs `undo` when the process ends (exit or signal) unless the returned function is called first. */
  undoOnExit(undo: () => void): () => void;
  /**
   * Writes `path` through `write(tempPath)` (the engine writes the temporary file: VACUUM INTO):
   * an existing file, or one of its `companions` (suffixes), is refused with a FileExistsError
   * naming `purpose` unless `overwrite`; the temporary file is renamed into place only once
   * complete, and removed if anything fails.
   */
  writeThrough(
    path: string,
    write: (tempPath: string) => void,
    options: { readonly overwrite: boolean; readonly purpose: string; readonly companions: readonly string[] },
  ): void;
}

/**
 * How callers pick an engine (`openStore(path, { driver })`): a Driver object, or the name of
 * one the package ships or one registered (engine/registry.ts).
 */
export type DriverChoice = DriverName | (string & {}) | Driver;
