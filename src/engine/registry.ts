// Which engine a store opens on when the caller does not pass one. The core ships no engine: the
// entry points install the defaults of their host (src/index.ts: better-sqlite3, else
// node:sqlite, or bun:sqlite under Bun; legado-store/browser: SQLite WASM once it has loaded),
// and drivers registered by name (registerDriver) are found by `driver: '<name>'`.
import { DriverUnavailableError } from '../errors.js';
import type { Driver, DriverChoice } from './driver.js';

/** How a host finds its engines: by name (undefined when it has none of that name) and by default. */
export interface DriverChooser {
  /** The driver of that name, loaded; throws a DriverUnavailableError when it cannot run here. */
  named(name: string): Driver | undefined;
  /** The host's default driver; throws a DriverUnavailableError when none can run here. */
  default(): Driver;
}

const registered = new Map<string, Driver>();
let chooser: DriverChooser | undefined;

const NONE = 'no engine installed: import the store from legado-store (Node, Bun) or legado-store/browser, or pass options.driver';

/** Installs the host's engines (an entry point does this once). */
export function setDriverChooser(host: DriverChooser): void {
  chooser = host;
}

/** Makes a loaded driver one that its name (`driver: 'wasm'`, LEGADO_STORE_DRIVER=wasm) finds. */
export function registerDriver(driver: Driver): void {
  registered.set(driver.name, driver);
}

/** The driver of that name: a registered one, else the host's; a DriverUnavailableError naming it otherwise. */
export function driverNamed(name: string): Driver {
  const found = registered.get(name) ?? chooser?.named(name);
  if (found) return found;
  const known = [...registered.keys()];
  throw new DriverUnavailableError(name, chooser ? `not a driver for this runtime${known.length ? ` (registered: ${known.join(', ')})` : ''}` : NONE);
}

/** The host's default driver. */
export function defaultDriver(): Driver {
  if (!chooser) throw new DriverUnavailableError('(any)', NONE);
  return chooser.default();
}

/** The driver for an `options.driver`: a Driver as given, a name looked up, nothing the default. */
export function resolveDriver(choice: DriverChoice | undefined): Driver {
  if (choice === undefined) return defaultDriver();
  return typeof choice === 'string' ? driverNamed(choice) : choice;
}
