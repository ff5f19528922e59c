// Raw connections for the tests, through the seam, on the engine under test: the one named by
// LEGADO_STORE_DRIVER (as the store's own default honours it), else the best one available.
// Tests look at files with these, so the whole suite runs on whichever engine is chosen.
import type { Connection, Driver, DriverOpenOptions } from '../../src/engine/driver.js';
import { defaultDriver, useNodeDrivers } from '../../src/engine/drivers/index.js';
import { recordingOn } from './recording.js';

// The suites import the core's modules directly, not through an entry point: install Node's
// engines as src/index.ts does.
useNodeDrivers();

export type { Connection };

/** The engine the suite runs on. */
export const testDriver = defaultDriver();

/** Opens a file (or ':memory:') without the store's settings: a plain connection, as a tool would. */
export function openDb(path: string, options: DriverOpenOptions = {}): Connection {
  return testDriver.open(path, options);
}

/**
 * `base` (default: the suite's engine) with each connection's `method` recorded (its SQL): the
 * seam where the store meets SQLite, for tests that count prepares or pragmas.
 */
export function recording(method: 'prepare' | 'pragma', base: Driver = testDriver): { driver: Driver; calls: string[] } {
  return recordingOn(method, base);
}
