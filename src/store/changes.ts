// Change notifications, done the way Room's InvalidationTracker does them: TEMP triggers on
// each observed table count its changed rows in a TEMP table, one counter per table. Those
// writes belong to the transaction that caused them, so a rolled-back transaction leaves the
// counters as they were. After a commit the counters are read (a read: nothing is cleared) and
// each listener is called once with the observed tables whose counter moved since the last read.
//
// When is "after a commit"? The tracker wraps the store's own connection: `exec`, `prepare`
// (the statements it returns) and `transaction` of `store.db` are replaced by thin wrappers that
// report once the call returns outside a transaction. The typed tables know what they wrote and
// tell the tracker (`wrote`): a write to a table nobody observes (nor any observed table its
// cascades reach) costs nothing; a one-statement write outside a transaction moved its table's
// counter by exactly the rows it changed, so it is reported without reading anything. A bulk
// write silences its table's triggers (one per row costs more than the rows) and moves the
// counter itself, in its transaction, so a rollback still takes it back.
// Where the engine can define a cheap SQL function (Connection.defineFlag: SQLite WASM, where
// the TEMP table update is most of a single-row write's cost), each table's triggers first ask
// one, and a one-statement typed write keeps its own table's triggers quiet while it runs
// (quiet / endQuiet): it reports itself. Outside a transaction it has committed; inside one it
// is kept in JavaScript (txQuiet) the way SQLite keeps the counters: dropped when the transaction,
// or the savepoint of a nested transaction function, fails. What the tracker cannot follow (raw
// SQL run in the transaction, which may roll back to a savepoint of its own or end it) first
// finds that account written into the counters (settle), where SQLite takes it back with a
// rollback. Raw SQL and writes that cascade into another observed table are counted by the
// triggers as before.
// Writes by another connection or another process are not seen: their changes never pass
// through this connection's triggers.
import type { REPLACEABLE, Statement, TransactionFn } from '../engine/driver.js';
import { TransactionStateError } from '../errors.js';
import type { Db } from '../engine/connection.js';
import type { Table } from '../schema/index.js';
import type { WriteHooks, WriteOp } from '../table/write-hooks.js';
import { Cascades } from './cascades.js';

/** Called once per committed transaction with the observed tables it changed. */
export type ChangeListener<T extends string = string> = (changed: ReadonlySet<T>) => void;

export interface ChangeOptions {
  /**
   * Receives what the listener throws. Without it the error is rethrown on the next tick
   * (as Node's EventTarget does), so it is neither lost nor able to break the store.
   */
  readonly onError?: (error: unknown) => void;
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
  private readonly rawTransaction: Db['transaction'];
  /** Replaced, never changed in place: a report goes through the list as it was when it began. */
  private subs: readonly Subscription[] = [];
  /** Tables whose triggers exist on the connection. */
  private readonly installed = new Set<string>();
  private readonly cascades: Cascades;
  /** Per table, for deletes and updates: whether it can move another installed table's counter (through cascades). */
  private readonly reachesOthers = { delete: new Map<string, boolean>(), update: new Map<string, boolean>() };
  /** Each installed table's counter as last reported. */
  private readonly seen = new Map<string, number>();
  /** Tables changed by typed writes outside a transaction, not reported yet. */
  private known = new Set<string>();
  /**
   * Rows typed one-statement writes changed per table in the open transaction (each also moved
   * its table's counter by one): at the commit, unless something else may have moved a counter
   * (pending), these are the counters' moves and nothing needs reading. A failure anywhere in
   * the transaction (rolledBack) drops them and reads the counters instead.
   */
  private readonly txRows = new Map<string, number>();
  /**
   * Tables typed one-statement writes changed in the open transaction with their triggers quiet
   * (the counters did not move), since it began or since the last settle; empty outside one.
   */
  private readonly txQuiet = new Set<string>();
  /** The counters may have moved without being read: set by every write that could have fired a trigger. */
  private pending = false;
  private readCounters: Statement | undefined;
  private bump: Statement | undefined;
  private cannotWrite: boolean | undefined;
  /** Trigger changes asked for inside a transaction, made at the next flush outside one. */
  private syncPending = false;
  private flushing = false;
  private again = false;
  /** Set while `prepare` asks the wrapped connection for an unwrapped statement. */
  private unwrapped = false;
  /** The table of the typed write running now whose triggers keep quiet (quiet). */
  private quietTable: string | undefined;
  /** Per table, the flag function its triggers test (Connection.defineFlag), once defined. */
  private readonly flags = new Map<string, string>();

  constructor(db: Db, tables: readonly Table[] = []) {
    this.db = db;
    this.rawPrepare = db.prepare.bind(db) as (sql: string) => Statement;
    this.rawExec = db.exec.bind(db);
    this.rawTransaction = db.transaction.bind(db) as Db['transaction'];
    this.cascades = new Cascades(tables);
    this.wrapConnection(db);
  }

  transaction<A extends unknown[], R>(fn: (...args: A) => R): TransactionFn<A, R> {
    return this.rawTransaction(fn);
  }

  wrote(table: string, op: WriteOp, rows?: number, quieted = false): void {
    if (!this.active) return;
    if (quieted) {
      // No trigger counted it: kept until the transaction ends, or (none was open) committed and reported now.
      if (this.db.inTransaction) this.txQuiet.add(table);
      else {
        this.known.add(table);
        this.flush();
      }
      return;
    }
    const mine = this.installed.has(table);
    const others = op !== 'insert' && this.reaches(table, op);
    if (!mine && !others) return;
    const inTransaction = this.db.inTransaction;
    if (inTransaction && !others && rows !== undefined) {
      this.txRows.set(table, (this.txRows.get(table) ?? 0) + rows);
      return;
    }
    if (inTransaction || others || rows === undefined) {
      // Counted by the triggers (or unsilence); read at the report after the commit.
      this.pending = true;
    } else {
      // Committed already, and its trigger moved the counter by exactly `rows`.
      this.seen.set(table, (this.seen.get(table) ?? 0) + rows);
      this.known.add(table);
    }
    if (!inTransaction) this.flush();
  }

  observes(table: string): boolean {
    return this.installed.has(table);
  }

  quiet(table: string, op: WriteOp): boolean {
    if (!this.flags.has(table) || !this.installed.has(table)) return false;
    if (op !== 'insert' && this.reaches(table, op)) return false;
    this.quietTable = table;
    return true;
  }

  endQuiet(): void {
    this.quietTable = undefined;
  }

  silence(table: string): boolean {
    if (!this.installed.has(table) || !this.db.inTransaction) return false;
    try {
      this.dropTriggers(table);
    } catch {
      // Left as they were: the triggers go on counting each row.
      this.createTriggers(table);
      return false;
    }
    return true;
  }

  unsilence(table: string, changed: boolean): void {
    if (changed) this.count(table);
    this.createTriggers(table);
  }

  /** Moves the table's counter by one, in the open transaction (as its trigger would). */
  private count(table: string): void {
    (this.bump ??= this.rawPrepare(`UPDATE temp.${LOG} SET n = n + 1 WHERE tbl = ?`)).run(table);
    this.pending = true;
  }

  /**
   * Before something runs in the open transaction that may roll back only part of it (a nested
   * transaction function, raw SQL): the quiet writes so far are counted in the counters, so that
   * a rollback to before them takes them back and one to after them keeps them.
   */
  settle(): void {
    if (this.txQuiet.size === 0) return;
    for (const t of this.txQuiet) this.count(t);
    this.txQuiet.clear();
  }

  /** Whether a write of this kind to `table` can change rows of another observed table, through foreign-key actions. */
  private reaches(table: string, op: 'update' | 'delete'): boolean {
    const cache = this.reachesOthers[op];
    let r = cache.get(table);
    if (r === undefined) {
      r = [...this.cascades.reached(table, op)].some((t) => this.installed.has(t));
      cache.set(table, r);
    }
    return r;
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
    this.subs = [...this.subs, sub];
    this.sync();
    return () => {
      if (!sub.live) return;
      sub.live = false;
      this.subs = this.subs.filter((s) => s !== sub);
      if (!this.db.open) return;
      if (this.db.inTransaction) this.syncPending = true;
      else this.sync();
    };
  }

  /**
   * Reports what committed since the last report; inside a transaction it waits for the commit.
   * The counters are read only when a write may have moved them unseen, or when `all`
   * (flushChanges) asks.
   */
  flush(all = false): void {
    if (!this.active || !this.db.open || this.db.inTransaction) return;
    if (!this.pending && !all && this.known.size === 0 && this.txRows.size === 0 && this.txQuiet.size === 0) return;
    if (this.flushing) {
      // A listener wrote: report that after the current round.
      this.again = true;
      return;
    }
    this.flushing = true;
    try {
      do {
        this.again = false;
        let changed = this.known;
        if (this.pending || all) {
          changed = this.moved();
          for (const t of this.known) changed.add(t);
        } else {
          for (const [t, n] of this.txRows) {
            if (n === 0) continue;
            this.seen.set(t, (this.seen.get(t) ?? 0) + n);
            changed.add(t);
          }
        }
        this.txRows.clear();
        for (const t of this.txQuiet) changed.add(t);
        this.txQuiet.clear();
        if (this.known.size > 0) this.known = new Set();
        this.pending = all = false;
        if (this.syncPending) this.sync();
        if (changed.size > 0) this.notify(changed);
      } while (this.again && this.db.open && !this.db.inTransaction);
    } finally {
      this.flushing = false;
    }
  }

  /** The tables whose counter moved since it was last seen. */
  private moved(): Set<string> {
    const changed = new Set<string>();
    if (!this.readCounters) return changed;
    for (const [t, n] of this.readCounters.all() as [string, number][]) {
      if (this.seen.get(t) === n) continue;
      this.seen.set(t, n);
      changed.add(t);
    }
    return changed;
  }

  /** Forgets every listener (the TEMP triggers go with the connection). */
  dispose(): void {
    for (const s of this.subs) s.live = false;
    this.subs = [];
    this.installed.clear();
    this.known.clear();
    this.txRows.clear();
    this.txQuiet.clear();
    this.active = false;
  }

  private notify(changed: ReadonlySet<string>): void {
    const subs = this.subs;
    for (const sub of subs) {
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
    // A read-only store's connection may be query_only (engine/traceless-read.ts), which forbids
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
    if (wanted.size > 0 && !this.readCounters) {
      this.rawExec(`CREATE TEMP TABLE IF NOT EXISTS ${LOG} (tbl TEXT PRIMARY KEY NOT NULL, n INTEGER NOT NULL) WITHOUT ROWID`);
      this.readCounters = this.rawPrepare(`SELECT tbl, n FROM temp.${LOG}`).raw();
    }
    for (const t of wanted) {
      if (this.installed.has(t)) continue;
      this.rawExec(`INSERT OR IGNORE INTO temp.${LOG} (tbl, n) VALUES (${sqlText(t)}, 0)`);
      this.createTriggers(t);
      this.installed.add(t);
    }
    for (const t of [...this.installed]) {
      if (wanted.has(t)) continue;
      this.dropTriggers(t);
      this.installed.delete(t);
    }
    // Counters of tables observed now start from what they hold (a table observed again keeps its row).
    if (this.readCounters) for (const [t, n] of this.readCounters.all() as [string, number][]) if (!this.seen.has(t)) this.seen.set(t, n);
    this.reachesOthers.delete.clear();
    this.reachesOthers.update.clear();
    // While triggers remain, flushes must keep reading the counters.
    this.active = this.subs.length > 0 || this.installed.size > 0;
  }

  private createTriggers(table: string): void {
    const flag = this.flagOf(table);
    for (const op of OPERATIONS) {
      this.rawExec(
        `CREATE TEMP TRIGGER IF NOT EXISTS \`${triggerName(table, op)}\` AFTER ${op} ON \`${table}\` ` +
          `${flag ? `WHEN ${flag}() ` : ''}BEGIN UPDATE ${LOG} SET n = n + 1 WHERE tbl = ${sqlText(table)}; END`,
      );
    }
  }

  /** The flag function `table`'s triggers test (defined on first use), where the engine has them. */
  private flagOf(table: string): string | undefined {
    let name = this.flags.get(table);
    if (name === undefined && this.db.defineFlag) {
      name = `legado_store_counts_${this.flags.size}`;
      this.db.defineFlag(name, () => this.quietTable !== table);
      this.flags.set(table, name);
    }
    return name;
  }

  private dropTriggers(table: string): void {
    for (const op of OPERATIONS) this.rawExec(`DROP TRIGGER IF EXISTS temp.\`${triggerName(table, op)}\``);
  }

  /**
   * `fn` as a function that reports what it committed once it returns (or throws). `self` is
   * the receiver; left out, the caller's `this` is passed on (transaction functions use it).
   */
  private reporting(fn: AnyFn, self?: unknown): AnyFn {
    const tracker = this;
    return function (this: unknown, ...args: unknown[]) {
      let result: unknown;
      tracker.settle();
      try {
        result = fn.apply(self ?? this, args);
      } catch (e) {
        // A transaction function's savepoint (or the whole transaction) was rolled back: its quiet writes with it.
        tracker.txQuiet.clear();
        tracker.pending = true;
        if (tracker.active) tracker.flushQuietly();
        throw e;
      }
      tracker.pending = true;
      if (tracker.active) tracker.flush();
      return result;
    };
  }

  /**
   * A transaction (or a savepoint in one) failed: what its typed writes counted may be undone, so
   * the counters are read; its quiet writes are dropped (those before the savepoint were settled
   * when it began).
   */
  rolledBack(): void {
    this.txRows.clear();
    this.txQuiet.clear();
    this.pending = true;
  }

  /** After a failed call: report what did commit, without hiding the original error. */
  flushQuietly(): void {
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
   * Only driver.ts's REPLACEABLE methods are replaced: the adapters keep those as own properties,
   * so the statement's hidden class stays that of every other.
   */
  private watch(stmt: Statement): Statement {
    const s = stmt as unknown as Record<(typeof REPLACEABLE)[number], AnyFn>;
    s.run = this.reporting(s.run, stmt);
    if (!stmt.readonly) {
      s.get = this.reporting(s.get, stmt);
      s.all = this.reporting(s.all, stmt);
      const iterate = s.iterate;
      const tracker = this;
      s.iterate = function* (...args: unknown[]) {
        tracker.settle();
        try {
          yield* iterate.apply(stmt, args) as Iterable<unknown>;
        } finally {
          tracker.pending = true;
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
  // Thrown where nothing can catch it, as an event emitter's listener error is (queueMicrotask,
  // not process.nextTick: the core runs where there is no `process`).
  queueMicrotask(() => {
    throw error;
  });
}
