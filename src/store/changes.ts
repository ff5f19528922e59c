// Change notifications, done the way Room's InvalidationTracker does them: TEMP triggers on
// each observed table record the table's name in a TEMP table. Those writes belong to the
// transaction that caused them, so a rolled-back transaction leaves nothing to report. After a
// commit the log is read and cleared in one statement and each listener is called once with
// the observed tables that changed.
//
// When is "after a commit"? The tracker wraps the store's own connection: the typed tables
// call `flush` after each write, and `exec`, `prepare` (the statements it returns) and
// `transaction` of `store.db` are replaced by thin wrappers that flush once the call returns
// outside a transaction. Writes by another connection or another process are not seen: their
// changes never pass through this connection's triggers.
import type { Statement } from '../engine/driver.js';
import { TransactionStateError } from '../errors.js';
import type { Db } from '../engine/connection.js';

/** Called once per committed transaction with the observed tables it changed. */
export type ChangeListener<T extends string = string> = (changed: ReadonlySet<T>) => void;

export interface ChangeOptions {
  /**
   * Receives what the listener throws. Without it the error is rethrown on the next tick
   * (as Node's EventTarget does), so it is neither lost nor able to break the store.
   */
  readonly onError?: (error: unknown) => void;
}

/** What the typed tables need from the tracker: one flag to test, and their unwrapped prepare. */
export interface WriteHooks {
  /** True while anything is observed; when false a write pays nothing more. */
  readonly active: boolean;
  /** Reports committed changes (does nothing inside a transaction). */
  flush(): void;
  prepare(sql: string): Statement;
}

interface Subscription {
  readonly tables: ReadonlySet<string>;
  readonly listener: ChangeListener;
  readonly onError: ((error: unknown) => void) | undefined;
  live: boolean;
}

const LOG = 'legado_store_changed_tables';
const OPERATIONS = ['INSERT', 'UPDATE', 'DELETE'] as const;
const triggerName = (table: string, op: string): string => `legado_store_change_${table}_${op}`;
const sqlText = (s: string): string => `'${s.replace(/'/g, "''")}'`;

type AnyFn = (...args: unknown[]) => unknown;

export class ChangeTracker implements WriteHooks {
  active = false;
  private readonly db: Db;
  private readonly rawPrepare: (sql: string) => Statement;
  private readonly rawExec: (sql: string) => unknown;
  private readonly subs: Subscription[] = [];
  /** Tables whose triggers exist on the connection. */
  private readonly installed = new Set<string>();
  private drainLog: Statement | undefined;
  private cannotWrite: boolean | undefined;
  /** Trigger changes asked for inside a transaction, made at the next flush outside one. */
  private syncPending = false;
  private flushing = false;
  private again = false;
  /** Set while `prepare` asks the wrapped connection for an unwrapped statement. */
  private unwrapped = false;

  constructor(db: Db) {
    this.db = db;
    this.rawPrepare = db.prepare.bind(db) as (sql: string) => Statement;
    this.rawExec = db.exec.bind(db);
    this.wrapConnection(db);
  }

  /**
   * Prepares through the connection's `prepare` (so whoever watches that method sees it) but
   * without the reporting wrapper: for the typed tables, which flush themselves.
   */
  prepare(sql: string): Statement {
    this.unwrapped = true;
    try {
      return this.db.prepare(sql);
    } finally {
      this.unwrapped = false;
    }
  }

  /** Calls `listener` after each committed transaction that changed one of `tables`. */
  subscribe(tables: readonly string[], listener: ChangeListener, options: ChangeOptions = {}): () => void {
    if (typeof listener !== 'function') throw new TypeError('onChange: the listener must be a function');
    // A trigger created inside a transaction would vanish with a rollback.
    if (this.db.inTransaction) throw new TransactionStateError('onChange');
    const sub: Subscription = { tables: new Set(tables), listener, onError: options.onError, live: true };
    this.subs.push(sub);
    this.sync();
    return () => {
      if (!sub.live) return;
      sub.live = false;
      this.subs.splice(this.subs.indexOf(sub), 1);
      if (!this.db.open) return;
      if (this.db.inTransaction) this.syncPending = true;
      else this.sync();
    };
  }

  /** Reports what committed since the last report; inside a transaction it waits for the commit. */
  flush(): void {
    if (!this.active || !this.db.open || this.db.inTransaction) return;
    if (this.flushing) {
      // A listener wrote: report that after the current round.
      this.again = true;
      return;
    }
    this.flushing = true;
    try {
      do {
        this.again = false;
        const changed = this.drainLog ? new Set(this.drainLog.all() as string[]) : new Set<string>();
        if (this.syncPending) this.sync();
        if (changed.size > 0) this.notify(changed);
      } while (this.again && this.db.open && !this.db.inTransaction);
    } finally {
      this.flushing = false;
    }
  }

  /** Forgets every listener (the TEMP triggers go with the connection). */
  dispose(): void {
    for (const s of this.subs) s.live = false;
    this.subs.length = 0;
    this.installed.clear();
    this.active = false;
  }

  private notify(changed: ReadonlySet<string>): void {
    for (const sub of [...this.subs]) {
      if (!sub.live) continue;
      const mine = new Set<string>();
      for (const t of changed) if (sub.tables.has(t)) mine.add(t);
      if (mine.size === 0) continue;
      try {
        sub.listener(mine);
      } catch (e) {
        report(sub, e);
      }
    }
  }

  /** Makes the installed triggers match the observed tables. */
  private sync(): void {
    // A read-only store's connection may be query_only (engine/read-only.ts), which forbids
    // temp tables and triggers too; they are this connection's own, so it is lifted for them.
    const queryOnly = this.db.pragma('query_only', { simple: true }) === 1;
    if (queryOnly) this.rawExec('PRAGMA query_only = OFF');
    try {
      this.syncTriggers();
    } finally {
      if (queryOnly) this.rawExec('PRAGMA query_only = ON');
    }
  }

  private syncTriggers(): void {
    this.syncPending = false;
    // A connection that cannot write (read-only, or query_only as openStore's read-only opens
    // are) commits nothing to report, and query_only refuses even TEMP triggers: none needed.
    if ((this.cannotWrite ??= this.db.readonly || this.db.pragma('query_only', { simple: true }) === 1)) return;
    const wanted = new Set<string>();
    for (const s of this.subs) for (const t of s.tables) wanted.add(t);
    if (wanted.size > 0 && !this.drainLog) {
      this.rawExec(`CREATE TEMP TABLE IF NOT EXISTS ${LOG} (tbl TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID`);
      this.drainLog = this.rawPrepare(`DELETE FROM temp.${LOG} RETURNING tbl`).pluck();
    }
    for (const t of wanted) {
      if (this.installed.has(t)) continue;
      for (const op of OPERATIONS) {
        this.rawExec(
          `CREATE TEMP TRIGGER IF NOT EXISTS \`${triggerName(t, op)}\` AFTER ${op} ON \`${t}\` ` +
            `BEGIN INSERT OR IGNORE INTO ${LOG} (tbl) VALUES (${sqlText(t)}); END`,
        );
      }
      this.installed.add(t);
    }
    for (const t of [...this.installed]) {
      if (wanted.has(t)) continue;
      for (const op of OPERATIONS) this.rawExec(`DROP TRIGGER IF EXISTS temp.\`${triggerName(t, op)}\``);
      this.installed.delete(t);
    }
    // While triggers remain, flushes must keep draining the log.
    this.active = this.subs.length > 0 || this.installed.size > 0;
  }

  /**
   * `fn` as a function that reports what it committed once it returns (or throws). `self` is
   * the receiver; left out, the caller's `this` is passed on (transaction functions use it).
   */
  private reporting(fn: AnyFn, self?: unknown): AnyFn {
    const tracker = this;
    return function (this: unknown, ...args: unknown[]) {
      let result: unknown;
      try {
        result = fn.apply(self ?? this, args);
      } catch (e) {
        if (tracker.active) tracker.flushQuietly();
        throw e;
      }
      if (tracker.active) tracker.flush();
      return result;
    };
  }

  /** After a failed call: report what did commit, without hiding the original error. */
  private flushQuietly(): void {
    try {
      this.flush();
    } catch {
      // The next flush reports it.
    }
  }

  /** Replaces exec, prepare and transaction of this connection object by reporting wrappers. */
  private wrapConnection(db: Db): void {
    const conn = db as unknown as Record<'exec' | 'prepare' | 'transaction', AnyFn>;
    const exec = this.reporting(this.rawExec as AnyFn);
    conn.exec = (sql: unknown) => {
      exec(sql);
      return db;
    };
    conn.prepare = (sql: unknown) => {
      const stmt = this.rawPrepare(sql as string);
      return this.unwrapped ? stmt : this.watch(stmt);
    };
    const rawTransaction = db.transaction.bind(db);
    conn.transaction = (fn: unknown) => {
      const raw = rawTransaction(fn as AnyFn) as unknown as Record<'deferred' | 'immediate' | 'exclusive', AnyFn> & AnyFn;
      const variants: Record<string, AnyFn> = { default: this.reporting(raw) };
      // exclusive is better-sqlite3's own, beyond the seam: wrapped where the engine has it.
      for (const k of ['deferred', 'immediate', 'exclusive'] as const) if (raw[k]) variants[k] = this.reporting(raw[k]);
      const props: PropertyDescriptorMap = { database: { value: db, enumerable: true } };
      for (const [k, v] of Object.entries(variants)) props[k] = { value: v };
      for (const v of Object.values(variants)) Object.defineProperties(v, props);
      return variants['default'];
    };
  }

  /**
   * Makes a statement report after it runs. `run` is wrapped for every statement (COMMIT and
   * BEGIN count as read-only to SQLite); get/all/iterate only for writing statements (RETURNING).
   */
  private watch(stmt: Statement): Statement {
    const s = stmt as unknown as Record<'run' | 'get' | 'all' | 'iterate', AnyFn>;
    s.run = this.reporting(s.run, stmt);
    if (!stmt.readonly) {
      s.get = this.reporting(s.get, stmt);
      s.all = this.reporting(s.all, stmt);
      const iterate = s.iterate;
      const tracker = this;
      s.iterate = function* (...args: unknown[]) {
        try {
          yield* iterate.apply(stmt, args) as Iterable<unknown>;
        } finally {
          if (tracker.active) tracker.flushQuietly();
        }
      };
    }
    return stmt;
  }
}

function report(sub: Subscription, error: unknown): void {
  if (sub.onError) {
    try {
      sub.onError(error);
      return;
    } catch (e) {
      error = e;
    }
  }
  process.nextTick(() => {
    throw error;
  });
}
