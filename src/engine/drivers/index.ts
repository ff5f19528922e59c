// The engines of Node and Bun, installed by the entry points (src/index.ts, the CLI) as the
// default choice: an explicit choice wins; otherwise the best one this runtime can load.
import { DriverUnavailableError } from '../../errors.js';
import type { Driver, DriverName } from '../driver.js';
import { driverNamed, setDriverChooser, type DriverChooser } from '../registry.js';
import { betterSqlite3Driver, loadBetterSqlite3 } from './better-sqlite3.js';
import { bunSqliteDriver, loadBunSqlite } from './bun-sqlite.js';
import { loadNodeSqlite, nodeSqliteDriver } from './node-sqlite.js';

export { defaultDriver, driverNamed, registerDriver, resolveDriver } from '../registry.js';

interface Candidate {
  readonly driver: Driver;
  /** Loads the engine; throws why it cannot. */
  readonly load: () => unknown;
}

const candidates: Readonly<Partial<Record<string, Candidate>>> = {
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

/** The Node engine of that name, loaded; undefined for a name that is not one of them. */
function nodeDriverNamed(name: string): Driver | undefined {
  const c = candidates[name];
  if (!c) {
    if (name !== 'wasm') return undefined;
    throw new DriverUnavailableError(
      name,
      `not a driver for this runtime (drivers: ${Object.keys(candidates).join(', ')}): the WASM driver loads asynchronously (loadWasmDriver, or the legado-store/browser entry)`,
    );
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

/** LEGADO_STORE_DRIVER when set, else the first driver of the preference order that loads here. */
function nodeDefault(): Driver {
  const named = process.env[DRIVER_ENV] || undefined;
  if (named !== undefined) return driverNamed(named);
  if (best) return best;
  const failures: string[] = [];
  for (const name of PREFERENCE) {
    try {
      return (best = nodeDriverNamed(name)!);
    } catch (e) {
      failures.push(`${name}: ${e instanceof DriverUnavailableError ? e.detail : why(e)}`);
    }
  }
  throw new DriverUnavailableError('(any)', failures.join('; '));
}

/** Node's and Bun's engines, for the registry. */
export const nodeDrivers: DriverChooser = { named: nodeDriverNamed, default: nodeDefault };

/** Makes the Node and Bun engines the default choice (the entry points call it; calling it again changes nothing). */
export function useNodeDrivers(): void {
  setDriverChooser(nodeDrivers);
}
