// Raw connections for the tests, through the seam, on the engine under test: the one named by
// LEGADO_STORE_DRIVER (as the store's own default honours it), else the best one available.
// Tests look at files with these, so the whole suite runs on whichever engine is chosen.
import type { Connection, DriverOpenOptions } from '../../src/engine/driver.js';
import { defaultDriver } from '../../src/engine/drivers/index.js';

export type { Connection };

/** The engine the suite runs on. */
export const testDriver = defaultDriver();

/** Opens a file (or ':memory:') without the store's settings: a plain connection, as a tool would. */
export function openDb(path: string, options: DriverOpenOptions = {}): Connection {
  return testDriver.open(path, options);
}
