// A Cloudflare Durable Object's SQLite storage (`ctx.storage.sql`) behind the seam. The host
// gives no prepared statements, no BEGIN/SAVEPOINT and no `PRAGMA user_version`, so:
// - a Statement keeps its SQL and runs `sql.exec` per call (workerd caches the compiled
//   statement by its text);
// - transactions go through `ctx.storage.transactionSync`, which nests (workerd runs a nested
//   call in a savepoint of its own);
// - the schema version is kept in the object's synchronous KV storage, written in the same
//   transaction as the SQL, and read from there, or, for a store written before, from the
//   identity hash in room_master_table (versions.ts);
// - errors become Errors whose `code` is SQLite's result code name, from the message.
// Types of the host are written out here (the structural subset used), so the core needs no
// Cloudflare package.
import type { Connection, Driver, DriverCapabilities, PragmaOptions, RunResult, Statement, TransactionFn } from '../driver.js';
import { ownReplaceable } from '../driver.js';
import { bindable, READ_ONLY_SQL, refuseTail, RowMode } from './emulation.js';
import { namedToPositional } from './named-parameters.js';

/** What a Durable Object's SQL cursor offers (SqlStorageCursor). */
export interface SqlCursor extends Iterable<Record<string, unknown>> {
  toArray(): Record<string, unknown>[];
  raw(): IterableIterator<unknown[]>;
  readonly columnNames: string[];
  readonly rowsRead: number;
  readonly rowsWritten: number;
}

/** `ctx.storage.sql` (SqlStorage). */
export interface SqlStorageLike {
  exec(query: string, ...bindings: unknown[]): SqlCursor;
  readonly databaseSize: number;
}

/** `ctx.storage.kv` (the synchronous KV API of SQLite-backed objects). */
export interface SyncKvLike {
  get(key: string): unknown;
  put(key: string, value: unknown): void;
}

/** The part of `ctx.storage` the driver uses. */
export interface DurableStorageLike {
  readonly sql: SqlStorageLike;
  readonly kv: SyncKvLike;
  transactionSync<T>(fn: () => T): T;
}

export const DURABLE_OBJECT_CAPABILITIES: DriverCapabilities = Object.freeze({
  files: false,
  wal: false,
  mmap: false,
  transactions: 'callback',
  maxParameters: 100,
  userVersion: false,
  maxLikePatternBytes: 50,
  tempTriggers: false,
  indexCheck: false,
});

/** The KV key that holds the store's schema version (PRAGMA user_version's stand-in). */
export const VERSION_KEY = 'legado-store:user_version';

/** Reads the version a store written without the KV entry has: its identity hash, named by the caller. */
export type VersionFromHash = (identityHash: string) => number | undefined;

/** `PRAGMA user_version` and `PRAGMA user_version = N`, which the host refuses as SQL. */
const USER_VERSION = /^\s*user_version\s*(?:=\s*(-?\d+)\s*)?;?\s*$/i;
/**
 * `PRAGMA query_only`, which the host refuses too: kept by the connection, which then refuses
 * what could write (a store checks an existing object's database query_only before it works on it).
 */
const QUERY_ONLY = /^\s*query_only\s*(?:=\s*(\w+)\s*)?;?\s*$/i;

/**
 * Settings the host owns and refuses to change (SQLITE_AUTH): how durably it writes, where
 * temporary data goes, how long to wait for a lock (an object's database has one connection).
 * Room's runtime settings (engine/connection.ts) set them on every store; here they are left
 * to the host, as the `journal_mode` it keeps is (capabilities.wal is false).
 */
const HOST_SETTING = /^\s*(?:synchronous|temp_store|busy_timeout)\s*=\s*\w+\s*;?\s*$/i;

/** Statements query_only lets through: reads, and pragmas (settings of the connection, not the database). */
const QUERY_ONLY_ALLOWS = /^\s*(?:SELECT|VALUES|EXPLAIN|PRAGMA)\b/i;

/** workerd's suffix: "...: SQLITE_CONSTRAINT (extended: SQLITE_CONSTRAINT_UNIQUE)". */
const CODE_SUFFIX = /:\s*(SQLITE_[A-Z_]+)(?:\s*\(extended:\s*(SQLITE_[A-Z_]+)\))?\s*$/;

/** The host's error as one with SQLite's (extended) result code name in `code`, message without the suffix. */
export function durableObjectError(e: unknown): unknown {
  if (!(e instanceof Error) || typeof (e as { code?: unknown }).code === 'string') return e;
  const m = CODE_SUFFIX.exec(e.message);
  if (!m) return e;
  const out = new Error(e.message.slice(0, m.index), { cause: e }) as Error & { code: string };
  out.code = m[2] ?? m[1]!;
  return out;
}

/** Values as the host binds them: booleans as 0/1, bigints as numbers where exact, else as text SQLite converts back. */
function hostValue(v: unknown): unknown {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'bigint') return v >= -(2n ** 53n) && v <= 2n ** 53n ? Number(v) : v.toString();
  if (v === undefined) return null;
  if (ArrayBuffer.isView(v) && !(v instanceof Uint8Array)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  return v;
}

/** A value the host returned, as the other engines return it: blobs as Uint8Array, integers as bigint when asked. */
function storeValue(v: unknown, safe: boolean): unknown {
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  if (safe && typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  return v;
}

const isPlainObject = (v: unknown): boolean => v !== null && typeof v === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(v));

class DurableObjectStatement implements Statement {
  private mode = RowMode.Objects;
  private safe = false;
  private readonly sql: string;
  private readonly names: readonly string[] | undefined;

  constructor(
    private readonly conn: DurableObjectConnection,
    source: string,
  ) {
    refuseTail(source);
    const converted = namedToPositional(source);
    this.sql = converted.sql;
    this.names = converted.names;
    ownReplaceable(this);
  }

  get readonly(): boolean {
    return READ_ONLY_SQL.test(this.sql);
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
    this.safe = on;
    return this;
  }

  private bindings(params: unknown[]): unknown[] {
    if (this.names !== undefined) {
      const first = params[0];
      if (params.length !== 1 || first === null || typeof first !== 'object') throw new TypeError('Missing named parameters: pass one object of values');
      const values = first as Record<string, unknown>;
      return this.names.map((n) => {
        if (!(n in values)) throw new RangeError(`Missing named parameter "${n}"`);
        return hostValue(values[n]);
      });
    }
    // Named values for a statement that names none bind nothing, as on the other engines (a
    // domain query whose clause leaves out a name it was given: the shelf's "all" tab).
    if (params.length === 1 && isPlainObject(params[0])) return [];
    return bindable(params).map(hostValue);
  }

  private cursor(params: unknown[]): SqlCursor {
    return this.conn.execute(this.sql, this.bindings(params));
  }

  run(...params: unknown[]): RunResult {
    const cursor = this.cursor(params);
    for (const _ of cursor.raw()) {
      /* rows of a statement run for its effect */
    }
    const [changes, rowid] = this.conn.execute('SELECT changes(), last_insert_rowid()', []).raw().next().value as [number, number];
    return { changes, lastInsertRowid: this.safe ? BigInt(rowid) : rowid };
  }

  get(...params: unknown[]): unknown {
    const rows = this.iterate(...params);
    const first = rows.next();
    rows.return?.();
    return first.done ? undefined : first.value;
  }

  all(...params: unknown[]): unknown[] {
    return [...this.iterate(...params)];
  }

  iterate(...params: unknown[]): IterableIterator<unknown> {
    const bindings = this.bindings(params);
    const cursor = this.conn.execute(this.sql, bindings);
    const names = cursor.columnNames;
    const safe = this.safe;
    const mode = this.mode;
    const raw = cursor.raw();
    const shape = (values: unknown[]): unknown => {
      if (mode === RowMode.Pluck) return values[0];
      if (mode === RowMode.Raw) return values;
      const o: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i++) o[names[i]!] = values[i];
      return o;
    };
    // Under safeIntegers a value the host gave as a double past 2^53 may be a rounded INTEGER:
    // a read is run again with every integer also given as its decimal text (exactRows).
    const again = safe && SELECTS.test(this.sql) ? () => this.conn.execute(exactSql(this.sql, names.length), bindings).raw() : undefined;
    function* rows(): Generator<unknown> {
      let n = 0;
      for (const row of raw) {
        if (again !== undefined && row.some(maybeRounded)) {
          let skipped = 0;
          for (const exact of again()) if (skipped++ >= n) yield shape(exactRow(exact, names.length));
          return;
        }
        n++;
        yield shape(row.map((v) => storeValue(v, safe)));
      }
    }
    return rows();
  }
}

/** Reads a CTE can hold (a statement that writes is never run twice). */
const SELECTS = /^\s*(?:SELECT|VALUES|WITH)\b/i;

/** A value the host may have rounded: a whole double past ±(2^53-1) (a REAL that large is checked too). */
const maybeRounded = (v: unknown): boolean => typeof v === 'number' && (v > Number.MAX_SAFE_INTEGER || v < -Number.MAX_SAFE_INTEGER) && Number.isInteger(v);

/** `sql` (n result columns) with each column followed, at n + i, by its decimal text where it is an INTEGER. */
function exactSql(sql: string, n: number): string {
  const cols = Array.from({ length: n }, (_, i) => `c${i}`);
  const text = cols.map((c) => `CASE WHEN typeof(${c}) = 'integer' THEN CAST(${c} AS TEXT) END`);
  return `WITH q(${cols.join(', ')}) AS (${sql.replace(/;\s*$/, '')}) SELECT ${[...cols, ...text].join(', ')} FROM q`;
}

/** A row of exactSql: integers as exact bigints; the rest as stored (a REAL stays a number, whole or not). */
function exactRow(row: unknown[], n: number): unknown[] {
  const out = new Array<unknown>(n);
  for (let i = 0; i < n; i++) {
    const text = row[n + i];
    out[i] = typeof text === 'string' ? BigInt(text) : storeValue(row[i], false);
  }
  return out;
}

export class DurableObjectConnection implements Connection {
  readonly driver = 'durable-object';
  readonly capabilities = DURABLE_OBJECT_CAPABILITIES;
  readonly readonly = false;
  private depth = 0;
  private closed = false;
  private queryOnly = false;

  constructor(
    readonly storage: DurableStorageLike,
    private readonly versionFromHash: VersionFromHash,
  ) {}

  get open(): boolean {
    return !this.closed;
  }
  get inTransaction(): boolean {
    return this.depth > 0;
  }

  /** One statement on the host, its error given SQLite's code name. */
  execute(sql: string, bindings: unknown[]): SqlCursor {
    if (this.closed) throw new TypeError('The database connection is not open');
    if (this.queryOnly && !QUERY_ONLY_ALLOWS.test(sql)) throw Object.assign(new Error('attempt to write a readonly database'), { code: 'SQLITE_READONLY' });
    try {
      return this.storage.sql.exec(sql, ...bindings);
    } catch (e) {
      throw durableObjectError(e);
    }
  }

  prepare(sql: string): Statement {
    if (this.closed) throw new TypeError('The database connection is not open');
    return new DurableObjectStatement(this, sql);
  }

  exec(sql: string): void {
    const cursor = this.execute(sql, []);
    for (const _ of cursor.raw()) {
      /* drained: the host runs each statement as its cursor is read */
    }
  }

  /** The stored version: the KV entry, else the one the identity hash names, else 0 (an empty store). */
  userVersion(): number {
    const kept = this.storage.kv.get(VERSION_KEY);
    if (typeof kept === 'number') return kept;
    const hasMaster = this.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'room_master_table'", []).toArray().length > 0;
    if (!hasMaster) return 0;
    const row = this.execute('SELECT identity_hash FROM room_master_table WHERE id = 42', []).toArray()[0];
    const hash = row?.identity_hash;
    return typeof hash === 'string' ? (this.versionFromHash(hash) ?? 0) : 0;
  }

  pragma(source: string, options: PragmaOptions = {}): unknown {
    const v = USER_VERSION.exec(source);
    if (v) {
      if (v[1] !== undefined) {
        this.storage.kv.put(VERSION_KEY, Number(v[1]));
        return [];
      }
      const version = this.userVersion();
      return options.simple ? version : [{ user_version: version }];
    }
    const q = QUERY_ONLY.exec(source);
    if (q) {
      const on = this.queryOnly ? 1 : 0;
      if (q[1] === undefined) return options.simple ? on : [{ query_only: on }];
      this.queryOnly = /^(1|on|true|yes)$/i.test(q[1]);
      return [];
    }
    if (HOST_SETTING.test(source)) return [];
    const stmt = this.prepare(`PRAGMA ${source}`);
    return options.simple ? stmt.pluck().get() : stmt.all();
  }

  transaction<A extends unknown[], R>(fn: (...args: A) => R): TransactionFn<A, R> {
    if (typeof fn !== 'function') throw new TypeError('Expected first argument to be a function');
    const conn = this;
    const run = function durableTransaction(this: unknown, ...args: A): R {
      conn.depth++;
      try {
        return conn.storage.transactionSync(() => {
          const result = fn.apply(this, args);
          if (result && typeof (result as { then?: unknown }).then === 'function') throw new TypeError('Transaction function cannot return a promise');
          return result;
        });
      } catch (e) {
        throw durableObjectError(e);
      } finally {
        conn.depth--;
      }
    };
    // The host has one kind of transaction: deferred and immediate are the same call.
    Object.defineProperties(run, { deferred: { value: run }, immediate: { value: run }, exclusive: { value: run }, database: { value: this } });
    return run as TransactionFn<A, R>;
  }

  close(): void {
    this.closed = true;
  }
}

/** sqlite_master rows of ours: not SQLite's own, the host's (`_cf_…`) nor miniflare's (`__miniflare…`). */
export const OURS = "name NOT LIKE 'sqlite!_%' ESCAPE '!' AND name NOT LIKE '!_cf!_%' ESCAPE '!' AND name NOT LIKE '!_!_miniflare%' ESCAPE '!'";

/** Whether the object's database holds none of our tables yet. */
export function holdsNothing(storage: DurableStorageLike): boolean {
  const rows = storage.sql.exec(`SELECT count(*) AS n FROM sqlite_master WHERE ${OURS}`).toArray();
  return rows[0]?.n === 0;
}

/** A database's companions on a file system; an object has none. */
const COMPANION = /-(?:wal|shm|journal)$/;

/**
 * A Driver for one Durable Object's storage. `open` ignores the path (an object has one
 * database) and hands out connections on it. Its size is 0 while it holds nothing of ours (a
 * new store: the host keeps tables of its own there), and it has no -wal, -shm or -journal.
 */
export function durableObjectDriver(storage: DurableStorageLike, versionFromHash: VersionFromHash): Driver {
  return {
    name: 'durable-object',
    capabilities: DURABLE_OBJECT_CAPABILITIES,
    open: () => new DurableObjectConnection(storage, versionFromHash),
    fileSize: (path) => (COMPANION.test(path) ? undefined : holdsNothing(storage) ? 0 : storage.sql.databaseSize),
  };
}
