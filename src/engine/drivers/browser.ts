// Choosing the engine in the browser build: the bundler (web/build.ts) puts this file in place
// of index.ts, so the Node-only engines and their Node built-ins are not in the bundle. SQLite
// WASM is the one engine, and it loads asynchronously: legado-store/browser's openStore and
// openStoreFromBytes load it first and hand the store its Driver object.
import { DriverUnavailableError } from '../../errors.js';
import type { Driver, DriverChoice, DriverName } from '../driver.js';

const HOW = 'in a browser, open stores through legado-store/browser (openStore, openStoreFromBytes), which loads SQLite WASM first';

export const DRIVER_ENV = 'LEGADO_STORE_DRIVER';

export function driverNamed(name: DriverName): Driver {
  throw new DriverUnavailableError(String(name), HOW);
}

export function defaultDriver(): Driver {
  throw new DriverUnavailableError('(any)', HOW);
}

export function resolveDriver(choice: DriverChoice | undefined): Driver {
  if (choice !== undefined && typeof choice !== 'string') return choice;
  return choice === undefined ? defaultDriver() : driverNamed(choice);
}
