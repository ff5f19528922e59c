// The engine a benchmark run is on, and where its database files live: files on disk for the
// native engines (better-sqlite3, node:sqlite, bun:sqlite), images in SQLite WASM's memory
// storage for 'wasm' (the browser build, run under Node or Bun). Every store the harness opens,
// every template it copies and every result it checks goes through this, so one run is on one
// engine throughout.
import { copyFileSync, rmSync } from 'node:fs';
import type { Driver } from '../src/engine/driver.js';
import { DRIVER_ENV, defaultDriver, driverNamed } from '../src/engine/drivers/index.js';
import type { DriverName } from '../src/index.js';

/** What the benchmarks accept for --driver: the store's engine names ('wasm' included). */
export type BenchEngineName = DriverName;

export interface BenchEngine {
  readonly name: BenchEngineName;
  /** The store's driver for this engine (passed to every openStore of the run). */
  readonly driver: Driver;
  /** Copies a database file (a template) to a new path. */
  copy(from: string, to: string): void;
  /** Removes a database file and what SQLite keeps beside it. */
  remove(path: string): void;
  /** The bytes of a database file, for the WASM contenders that load images themselves. */
  read?(path: string): Uint8Array;
  write?(path: string, bytes: Uint8Array): void;
}

let current: BenchEngine | undefined;

/** The engine of this process's run (the store's default until `useEngine`). */
export function benchEngine(): BenchEngine {
  return (current ??= nativeEngine(defaultDriver()));
}

function nativeEngine(driver: Driver): BenchEngine {
  return {
    name: driver.name as DriverName,
    driver,
    copy: (from, to) => copyFileSync(from, to),
    remove: (path) => {
      for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(path + suffix, { force: true });
    },
  };
}

/** Chooses the engine for the rest of the process (WASM needs an asynchronous load first). */
export async function useEngine(name: BenchEngineName | undefined): Promise<BenchEngine> {
  if (name === undefined) return benchEngine();
  if (name !== 'wasm') {
    // Store, tests helpers and the raw contenders all follow the environment variable.
    process.env[DRIVER_ENV] = name;
    return (current = nativeEngine(driverNamed(name)));
  }
  const { loadWasmDriver } = await import('../src/engine/drivers/wasm.js');
  const driver = await loadWasmDriver({ storage: 'memory' });
  return (current = {
    name: 'wasm',
    driver,
    copy: (from, to) => driver.writeFile(to, driver.readFile(from)),
    remove: (path) => void driver.remove(path),
    read: (path) => driver.readFile(path),
    write: (path, bytes) => driver.writeFile(path, bytes),
  });
}
