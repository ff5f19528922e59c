// better-sqlite3's transaction functions, for engines that lack them (node:sqlite, WASM): the
// outermost call runs BEGIN [DEFERRED|IMMEDIATE] ... COMMIT, a nested call a savepoint; an
// error rolls back what the call did and is rethrown. Same statements, same order as
// better-sqlite3 (lib/methods/transaction.js), so files and locking behave alike.
import type { TransactionFn } from '../driver.js';

/** What the emulation needs of a connection. */
export interface TransactionHost {
  readonly inTransaction: boolean;
  /** Runs one statement without results. */
  run(sql: string): void;
}

const SAVEPOINT = '`\t_bs3.\t`';

type Mode = 'BEGIN' | 'BEGIN DEFERRED' | 'BEGIN IMMEDIATE' | 'BEGIN EXCLUSIVE';

function wrap<A extends unknown[], R>(host: TransactionHost, fn: (...args: A) => R, begin: Mode): (...args: A) => R {
  return function sqliteTransaction(this: unknown, ...args: A): R {
    const nested = host.inTransaction;
    host.run(nested ? `SAVEPOINT ${SAVEPOINT}` : begin);
    try {
      const result = fn.apply(this, args);
      if (result && typeof (result as { then?: unknown }).then === 'function') {
        throw new TypeError('Transaction function cannot return a promise');
      }
      host.run(nested ? `RELEASE ${SAVEPOINT}` : 'COMMIT');
      return result;
    } catch (e) {
      if (host.inTransaction) {
        host.run(nested ? `ROLLBACK TO ${SAVEPOINT}` : 'ROLLBACK');
        if (nested) host.run(`RELEASE ${SAVEPOINT}`);
      }
      throw e;
    }
  };
}

export function emulateTransaction<A extends unknown[], R>(host: TransactionHost, owner: object, fn: (...args: A) => R): TransactionFn<A, R> {
  if (typeof fn !== 'function') throw new TypeError('Expected first argument to be a function');
  const variants = {
    default: wrap(host, fn, 'BEGIN'),
    deferred: wrap(host, fn, 'BEGIN DEFERRED'),
    immediate: wrap(host, fn, 'BEGIN IMMEDIATE'),
    exclusive: wrap(host, fn, 'BEGIN EXCLUSIVE'),
  };
  const props: PropertyDescriptorMap = { database: { value: owner, enumerable: true } };
  for (const [k, v] of Object.entries(variants)) props[k] = { value: v };
  for (const v of Object.values(variants)) Object.defineProperties(v, props);
  return variants.default as TransactionFn<A, R>;
}
