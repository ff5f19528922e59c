// A statement (and a connection) of the suite's engine that checks what it is given first: how a test
// driver refuses what a stricter engine would (too many values, too long a LIKE pattern).
import type { Connection, Statement } from '../../src/engine/driver.js';

export function checkedStatement(inner: Statement, check: (params: unknown[]) => void): Statement {
  const s: Statement = {
    run: (...p) => (check(p), inner.run(...p)),
    get: (...p) => (check(p), inner.get(...p)),
    all: (...p) => (check(p), inner.all(...p)),
    iterate: (...p) => (check(p), inner.iterate(...p)),
    pluck: (...on) => (inner.pluck(...on), s),
    raw: (...on) => (inner.raw(...on), s),
    safeIntegers: (...on) => (inner.safeIntegers(...on), s),
    get readonly() {
      return inner.readonly;
    },
    ...(inner.columns && { columns: () => inner.columns!() }),
  };
  return s;
}

/** `inner` with `changes` in its place (capabilities, prepare, exec, pragma...), the rest passed through. */
export function wrappedConnection(
  inner: Connection,
  changes: Partial<Pick<Connection, 'driver' | 'capabilities' | 'prepare' | 'exec' | 'pragma'>>,
): Connection {
  return {
    driver: changes.driver ?? inner.driver,
    capabilities: changes.capabilities ?? inner.capabilities,
    get open() {
      return inner.open;
    },
    get inTransaction() {
      return inner.inTransaction;
    },
    get readonly() {
      return inner.readonly;
    },
    prepare: changes.prepare ?? ((sql) => inner.prepare(sql)),
    exec: changes.exec ?? ((sql) => inner.exec(sql)),
    pragma: changes.pragma ?? ((source, options) => inner.pragma(source, options)),
    transaction: (fn) => inner.transaction(fn),
    close: () => inner.close(),
  };
}
