// better-sqlite3: the seam is its own API, so a connection is the engine's Database object
// itself (no wrapper on the hot path), tagged with the driver name. The package is an optional
// dependency, loaded on first use, so the store still loads where it is not installed (or not
// built for this runtime's ABI).
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { NATIVE_CAPABILITIES, type Connection, type Driver, type DriverOpenOptions } from '../driver.js';
import { nodeFiles, nodeFileSize } from './node-files.js';

type Engine = typeof BetterSqlite3;

let engine: Engine | undefined;

/**
 * Loads the package and its native binding; throws what loading threw (package missing, built
 * for another runtime's ABI, Bun). The binding loads on the first `new Database`, so one
 * in-memory database is opened and closed here to find out.
 */
function load(): Engine {
  if (engine) return engine;
  const Database = createRequire(import.meta.url)('better-sqlite3') as Engine;
  new Database(':memory:').close();
  return (engine = Database);
}

/** Loads it (see load), typed without better-sqlite3's types: the published declarations must not need them. */
export const loadBetterSqlite3: () => unknown = load;

export const betterSqlite3Driver: Driver = {
  name: 'better-sqlite3',
  capabilities: NATIVE_CAPABILITIES,
  open(path: string, options: DriverOpenOptions = {}): Connection {
    const Database = load();
    const db = new Database(path, {
      readonly: options.readonly ?? false,
      fileMustExist: options.fileMustExist ?? false,
      ...(options.busyTimeout !== undefined && { timeout: options.busyTimeout }),
    });
    Object.defineProperties(db, {
      driver: { value: 'better-sqlite3', enumerable: false },
      capabilities: { value: NATIVE_CAPABILITIES, enumerable: false },
      defineFlag: { value: defineFlag, enumerable: false },
    });
    return db as unknown as Connection;
  },
  fileSize: nodeFileSize,
  files: nodeFiles,
};

/**
 * Connection.defineFlag: a change trigger that tests it and finds it false costs half what its
 * TEMP table update costs (a progress save: +5.8% over no trigger, against +11.6%; bench/README.md).
 */
function defineFlag(this: BetterSqlite3.Database, name: string, read: () => boolean): void {
  this.function(name, { deterministic: false, varargs: false }, () => (read() ? 1 : 0));
}
