// Loading SQLite WASM, once per realm, and one driver per storage.
import sqlite3InitModule, { type SAHPoolUtil, type Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import { DriverUnavailableError } from '../../../errors.js';
import { sqliteFromModules, wasmModulesGiven } from '../wasm-modules.js';
import type { WasmStorage } from '../wasm-storage.js';
import { WasmEngine, type WasmDriver } from './engine.js';
import { MemoryFiles } from './storage-memory.js';
import { OpfsFiles } from './storage-opfs.js';

export interface WasmDriverOptions {
  /** Where databases live (default 'memory'). 'opfs' works only in a dedicated Worker. */
  readonly storage?: WasmStorage;
  /** OPFS directory of the pool (default '.legado-store'); stores in other directories are invisible. */
  readonly directory?: string | undefined;
  /** Files the pool keeps open at least (default 12: a database and its journal take two). */
  readonly capacity?: number;
}

let loading: Promise<Sqlite3Static> | undefined;

/** Loads and instantiates the WASM module once per realm. */
export function loadSqliteWasm(): Promise<Sqlite3Static> {
  // In a Worker, from the modules its entry gave (workerd compiles no WebAssembly at run time).
  loading ??= wasmModulesGiven() ? sqliteFromModules() : sqlite3InitModule();
  return loading;
}

const engines = new Map<string, Promise<WasmDriver>>();

/**
 * Loads SQLite WASM and, for 'opfs', installs the sahpool VFS. One driver per storage (and OPFS
 * directory) per realm: every call for the same storage shares its files.
 */
export function loadWasmDriver(options: WasmDriverOptions = {}): Promise<WasmDriver> {
  const storage = options.storage ?? 'memory';
  const directory = options.directory ?? '.legado-store';
  const key = storage === 'memory' ? 'memory' : `opfs:${directory}`;
  let engine = engines.get(key);
  if (!engine) {
    engine = createEngine(storage, directory, options.capacity ?? 12);
    engines.set(key, engine);
    engine.catch(() => engines.delete(key));
  }
  return engine;
}

async function createEngine(storage: WasmStorage, directory: string, capacity: number): Promise<WasmDriver> {
  const sqlite3 = await loadSqliteWasm();
  if (storage === 'memory') return new WasmEngine(sqlite3, new MemoryFiles(sqlite3));
  let util: SAHPoolUtil;
  try {
    util = await sqlite3.installOpfsSAHPoolVfs({ directory, name: `opfs-sahpool-${directory.replace(/\W/g, '_')}` });
  } catch (e) {
    throw new DriverUnavailableError(
      'wasm (opfs)',
      `OPFS storage could not start (${(e as Error).message}): it works in a dedicated Worker of a browser with the origin-private file system, one page at a time per directory; elsewhere use driver 'memory'`,
      e,
    );
  }
  await util.reserveMinimumCapacity(capacity);
  return new WasmEngine(sqlite3, new OpfsFiles(sqlite3, util));
}
