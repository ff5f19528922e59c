// better-sqlite3's transaction functions, for engines that lack them (node:sqlite, WASM): the
// outermost call runs BEGIN [DEFERRED|IMMEDIATE] ... COMMIT, a nested call a savepoint; an
// error rolls back what the call did and is rethrown. Same statements, same order as
// better-sqlite3 (lib/methods/transaction.js), so files and locking behave alike; inside a
// transaction begun by raw SQL a BEGIN that SQLite refuses (and that changes nothing) comes
// before the savepoint (Control says why).
import type { TransactionFn } from '../driver.js';

/** What the emulation needs of a connection. */
export interface TransactionHost {
  readonly inTransaction: boolean;
  /** A function that runs this statement without results, prepared once per connection. */
  runner(sql: string): () => void;
}

const SAVEPOINT = '`\t_bs3.\t`';
const SAVE = `SAVEPOINT ${SAVEPOINT}`;
const RELEASE = `RELEASE ${SAVEPOINT}`;

type Mode = 'BEGIN' | 'BEGIN DEFERRED' | 'BEGIN IMMEDIATE' | 'BEGIN EXCLUSIVE';

/**
 * Per connection: its host, and whether a transaction the emulation began may still be open.
 * Only then is a call asked whether it is nested (a native call on node:sqlite, ~1% of a
 * one-update transaction): otherwise it runs BEGIN at once, which SQLite refuses inside a
 * transaction (raw SQL's BEGIN), and only that refusal asks.
 */
interface Control {
  readonly host: TransactionHost;
  began: boolean;
}
const controls = new WeakMap<TransactionHost, Control>();

function wrap<A extends unknown[], R>(c: Control, fn: (...args: A) => R, mode: Mode): (...args: A) => R {
  // Each statement's runner made on first use: a variant never called prepares nothing.
  let begin: (() => void) | undefined;
  let commit: (() => void) | undefined;
  let save: (() => void) | undefined;
  let release: (() => void) | undefined;
  return function sqliteTransaction(this: unknown): R {
    const host = c.host;
    let nested = c.began && host.inTransaction;
    if (!nested) {
      try {
        (begin ??= host.runner(mode))();
      } catch (e) {
        if (!host.inTransaction) throw e;
        nested = true;
      }
    }
    if (nested) (save ??= host.runner(SAVE))();
    else c.began = true;
    try {
      // biome-ignore lint/complexity/noArguments: passed on as given, without a rest array per call
      const result = fn.apply(this, arguments as unknown as A);
      if (result && typeof (result as { then?: unknown }).then === 'function') {
        throw new TypeError('Transaction function cannot return a promise');
      }
      if (nested) (release ??= host.runner(RELEASE))();
      else {
        (commit ??= host.runner('COMMIT'))();
        c.began = false;
      }
      return result;
    } catch (e) {
      if (host.inTransaction) {
        host.runner(nested ? `ROLLBACK TO ${SAVEPOINT}` : 'ROLLBACK')();
        if (nested) host.runner(RELEASE)();
      }
      if (!nested) c.began = false;
      throw e;
    }
  };
}

export function emulateTransaction<A extends unknown[], R>(host: TransactionHost, owner: object, fn: (...args: A) => R): TransactionFn<A, R> {
  if (typeof fn !== 'function') throw new TypeError('Expected first argument to be a function');
  let c = controls.get(host);
  if (c === undefined) controls.set(host, (c = { host, began: false }));
  const variants = {
    default: wrap(c, fn, 'BEGIN'),
    deferred: wrap(c, fn, 'BEGIN DEFERRED'),
    immediate: wrap(c, fn, 'BEGIN IMMEDIATE'),
    exclusive: wrap(c, fn, 'BEGIN EXCLUSIVE'),
  };
  const props: PropertyDescriptorMap = { database: { value: owner, enumerable: true } };
  for (const [k, v] of Object.entries(variants)) props[k] = { value: v };
  for (const v of Object.values(variants)) Object.defineProperties(v, props);
  return variants.default as TransactionFn<A, R>;
}
