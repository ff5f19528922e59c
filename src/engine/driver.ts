// The seam between the store and a SQLite engine. Everything above src/engine/ talks to SQLite
// through these two interfaces only; one adapter per engine (better-sqlite3, node:sqlite,
// bun:sqlite, SQLite WASM) implements them. The shape is the subset of better-sqlite3's API the
// store uses, so that adapter hands out the engine's own objects (no wrapper on the hot path)
// and the others emulate it.
//
// Errors: an adapter lets an engine error out as an Error whose `code` is SQLite's (extended)
// result code name, as better-sqlite3 does ('SQLITE_BUSY', 'SQLITE_CONSTRAINT_PRIMARYKEY',
// 'SQLITE_NOTADB', ...); the layers above map those names to the store's typed errors.

/** The engines the store can run on. */
export type DriverName = 'better-sqlite3' | 'node:sqlite' | 'bun:sqlite' | 'wasm';

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
  /** Which engine this connection runs on. */
  readonly driver: DriverName;
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
   * SQLite WASM offers it (a trigger's TEMP table update: 1.7 µs a row; this call: 0.4 µs);
   * on the native engines the two cost the same (within 0.3 µs) and they leave it out.
   */
  defineFlag?(name: string, read: () => boolean): void;
  prepare(sql: string): Statement;
  /** Runs one or more statements without results. */
  exec(sql: string): void;
  /** `PRAGMA <source>`; the rows, or with `simple` the first value. */
  pragma(source: string, options?: PragmaOptions): unknown;
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
  readonly name: DriverName;
  open(path: string, options?: DriverOpenOptions): Connection;
  /**
   * Size in bytes of the file at `path` (0 for an empty one), or undefined when there is none.
   * The store asks the driver, not the file system, so a driver whose files live elsewhere
   * (WASM's OPFS pool or memory) answers for its own storage and no Node built-in is needed.
   */
  fileSize(path: string): number | undefined;
}

/** How callers pick an engine (`openStore(path, { driver })`): by name, or a Driver object. */
export type DriverChoice = DriverName | Driver;
