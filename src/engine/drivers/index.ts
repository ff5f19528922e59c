// Choosing the engine: an explicit choice wins; otherwise the best one this runtime can load.
import { DriverUnavailableError } from '../../errors.js';
import type { Driver, DriverChoice, DriverName } from '../driver.js';
import { betterSqlite3Driver, loadBetterSqlite3 } from './better-sqlite3.js';
import { bunSqliteDriver, loadBunSqlite } from './bun-sqlite.js';
import { loadNodeSqlite, nodeSqliteDriver } from './node-sqlite.js';

interface Candidate {
  readonly driver: Driver;
  /** Loads the engine; throws why it cannot. */
  readonly load: () => unknown;
}

const candidates: Readonly<Partial<Record<DriverName, Candidate>>> = {
  'better-sqlite3': { driver: betterSqlite3Driver, load: loadBetterSqlite3 },
  'node:sqlite': { driver: nodeSqliteDriver, load: loadNodeSqlite },
  'bun:sqlite': { driver: bunSqliteDriver, load: loadBunSqlite },
};

/**
 * In order of preference for the automatic choice: the native addon where it loads (the
 * fastest), else the runtime's own engine. Bun also has a node:sqlite, but bun:sqlite is its
 * own engine, so under Bun that comes first.
 */
const PREFERENCE: readonly DriverName[] = (globalThis as { Bun?: unknown }).Bun
  ? ['better-sqlite3', 'bun:sqlite', 'node:sqlite']
  : ['better-sqlite3', 'node:sqlite'];

const why = (e: unknown): string => (e instanceof Error ? e.message.split('\n')[0]! : String(e));

/** Drivers loaded elsewhere (the WASM one loads asynchronously), found by name as the built-in ones are. */
const registered = new Map<string, Driver>();

/** Makes a loaded driver one that a name (`driver: 'wasm'`, LEGADO_STORE_DRIVER=wasm) finds. */
export function registerDriver(driver: Driver): void {
  registered.set(driver.name, driver);
}

/** The driver of that name, loaded; a DriverUnavailableError naming it when it cannot run here. */
export function driverNamed(name: DriverName): Driver {
  const loaded = registered.get(name);
  if (loaded) return loaded;
  const c = candidates[name];
  if (!c) {
    const hint = name === 'wasm' ? ': the WASM driver loads asynchronously (loadWasmDriver, or the legado-store/browser entry)' : '';
    throw new DriverUnavailableError(String(name), `not a driver for this runtime (drivers: ${Object.keys(candidates).join(', ')})${hint}`);
  }
  try {
    c.load();
  } catch (e) {
    throw new DriverUnavailableError(name, why(e), e);
  }
  return c.driver;
}

let best: Driver | undefined;

/** The environment variable that overrides the automatic choice (tools, CI, test suites). */
export const DRIVER_ENV = 'LEGADO_STORE_DRIVER';

const fromEnvironment = (): string | undefined =>
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[DRIVER_ENV] || undefined;

/** LEGADO_STORE_DRIVER when set, else the first driver of the preference order that loads here. */
export function defaultDriver(): Driver {
  const named = fromEnvironment();
  if (named !== undefined) return driverNamed(named as DriverName);
  if (best) return best;
  const failures: string[] = [];
  for (const name of PREFERENCE) {
    try {
      return (best = driverNamed(name));
    } catch (e) {
      failures.push(`${name}: ${e instanceof DriverUnavailableError ? e.detail : why(e)}`);
    }
  }
  throw new DriverUnavailableError('(any)', failures.join('; '));
}

/** The driver for an `options.driver`: a Driver as given, a name loaded, nothing the default. */
export function resolveDriver(choice: DriverChoice | undefined): Driver {
  if (choice === undefined) return defaultDriver();
  return typeof choice === 'string' ? driverNamed(choice) : choice;
}
