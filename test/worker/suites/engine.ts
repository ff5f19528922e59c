// test/helpers/engine.js inside workerd (build.ts puts this module in its place): the engine
// under test is the Durable Object driver on the storage of the object running the current
// unit, installed as the default engine; `openDb(path)`, the tests' raw oracle handle, is a
// plain connection on that same SQL database. An object has one database, so the first path a
// unit opens names it, and another path is refused with a clear error (such tests are on the
// exclusion list, with their reason). openDb(':memory:') is the one exception: see openDb.
import type { Connection, Driver, DriverOpenOptions } from '../../../src/engine/driver.js';
import { durableObjectDriver, holdsNothing, type DurableStorageLike } from '../../../src/engine/drivers/durable-object.js';
import { setDriverChooser } from '../../../src/engine/registry.js';
import { versionOfHash } from '../../../src/worker/durable-store.js';
import { recordingOn } from '../../helpers/recording.js';

export type { Connection };

interface Current {
  readonly driver: Driver;
  /** The path this unit's object stands for, once one was opened. */
  path?: string;
}

let current: Current | undefined;

const here = (): Current => {
  if (!current) throw new Error('no Durable Object is running a unit: the suites Worker sets one (enterObject)');
  return current;
};

/** The path names the object's database: the first one the unit opens. */
function claim(path: string): Current {
  const c = here();
  // ':memory:' is a new database at every open: only the first one can be the object's.
  const other = c.path !== undefined && (c.path !== path || path === ':memory:');
  c.path ??= path;
  if (other) {
    const e = new Error(`one database per Durable Object: this unit opened ${c.path} and now ${path}`) as Error & { code: string };
    e.code = 'ONE_DATABASE_PER_OBJECT';
    throw e;
  }
  return c;
}

/** Runs a unit's code on `storage` (one object's); the engine suites' default engine is the driver on it. */
export function enterObject(storage: DurableStorageLike): void {
  const base = durableObjectDriver(storage, versionOfHash);
  current = {
    driver: {
      name: base.name,
      capabilities: base.capabilities,
      open(path: string, options: DriverOpenOptions = {}): Connection {
        const c = claim(path);
        if (options.fileMustExist && holdsNothing(storage)) {
          const e = new Error(`unable to open database file: ${path}`) as Error & { code: string };
          e.code = 'SQLITE_CANTOPEN';
          throw e;
        }
        return base.open(c.path!, options);
      },
      // No file until something of ours is stored; another path than the object's has none.
      fileSize: (path) => {
        const at = here().path;
        const file = path.replace(/-(?:wal|shm|journal)$/, '');
        return (at !== undefined && file !== at) || holdsNothing(storage) ? undefined : base.fileSize(path);
      },
    },
  };
  setDriverChooser({ named: (name) => (name === base.name ? current?.driver : undefined), default: () => here().driver });
}

/** The engine the suite runs on (the object's driver, whichever object runs the unit). */
export const testDriver: Driver = {
  name: 'durable-object',
  get capabilities() {
    return here().driver.capabilities;
  },
  open: (path, options) => here().driver.open(path, options),
  fileSize: (path) => here().driver.fileSize(path),
};

let scratch: Driver | undefined;

/** The engine of the tests' own in-memory databases (the worker gives SQLite WASM, in memory). */
export function useScratch(driver: Driver): void {
  scratch = driver;
}

/**
 * A plain connection on the object's database, without the store's settings, as a tool would.
 * ':memory:' is a scratch database of the test's own (an oracle beside the store, as
 * tables.test.js makes): a new in-memory SQLite on SQLite WASM, not the object's.
 */
export function openDb(path: string, options: DriverOpenOptions = {}): Connection {
  if (path === ':memory:') {
    if (!scratch) throw new Error('no scratch engine: the suites Worker gives one (useScratch)');
    return scratch.open(path, options);
  }
  return testDriver.open(path, options);
}

/** As test/helpers/engine.ts: `base` with each connection's `method` recorded. */
export function recording(method: 'prepare' | 'pragma', base: Driver = testDriver): { driver: Driver; calls: string[] } {
  return recordingOn(method, base);
}
