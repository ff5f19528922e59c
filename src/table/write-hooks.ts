// The hooks a typed table calls around its writes. They are declared here, below the store:
// the store's change tracker (store/changes.ts) implements them, and a table outside a store
// takes `unobserved`.
import type { Statement, TransactionFn } from '../engine/driver.js';
import type { Db } from '../engine/connection.js';

/** What a typed write did to its table, as far as triggers and cascades go. */
export type WriteOp = 'insert' | 'update' | 'delete';

/** What the typed tables need from the tracker: one flag to test, and unwrapped connection methods. */
export interface WriteHooks {
  /** True while anything is observed; when false a write pays nothing more. */
  readonly active: boolean;
  /**
   * A typed write of `table` changed rows: reported now, or at the commit of the open
   * transaction. `rows`: the rows one statement changed (each fired the table's trigger once);
   * left out when not known (bulk writes), which makes the report read the counters.
   * `quieted`: the statement ran between quiet (which said true) and endQuiet.
   */
  wrote(table: string, op: WriteOp, rows?: number, quieted?: boolean): void;
  /**
   * Before a one-statement typed write of `table`: true when the table's triggers keep quiet
   * through it (the engine tests a flag in them, no transaction is open, and the write cannot
   * cascade into another observed table). Then endQuiet must follow once the statement has run
   * or failed, and wrote is told `quieted`.
   */
  quiet(table: string, op: WriteOp): boolean;
  endQuiet(): void;
  /**
   * Inside a bulk write's transaction: drops the table's triggers, if it has any, and says
   * whether it did. `unsilence` then counts the table as changed (when it is) and restores them.
   */
  silence(table: string): boolean;
  /** Whether the table has change triggers now (a listener observes it). */
  observes(table: string): boolean;
  unsilence(table: string, changed: boolean): void;
  prepare(sql: string): Statement;
  /** A transaction function that does not report by itself (the caller reports). */
  transaction<A extends unknown[], R>(fn: (...args: A) => R): TransactionFn<A, R>;
}

/** Hooks for a table outside a store: nothing observes its writes. */
export const unobserved = (db: Db): WriteHooks => ({
  active: false,
  wrote() {},
  quiet: () => false,
  endQuiet() {},
  silence: () => false,
  observes: () => false,
  unsilence() {},
  prepare: (sql) => db.prepare(sql),
  transaction: (fn) => db.transaction(fn),
});
