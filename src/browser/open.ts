// Opening stores in the browser: the same openStore as on Node, on the WASM driver with its
// storage ('opfs' persistent, 'memory' throwaway), plus the whole-file operations a page needs
// (a database file the user picked, the database file to download).
import { hasSqliteHeader } from '../engine/traceless-read.js';
import { loadWasmDriver, WasmConnection, type WasmDriver } from '../engine/drivers/wasm.js';
import type { WasmStorage } from '../engine/drivers/wasm-storage.js';
import { DriverUnavailableError, FileExistsError, NotADatabaseError, TransactionStateError } from '../errors.js';
import type { SchemaVersion } from '../schema/index.js';
import { setDriverChooser } from '../engine/registry.js';
import { openStore as openOnDriver, type OpenOptions } from '../store/open.js';
import type { AnyStore, Store } from '../store/store.js';

export type BrowserStorage = WasmStorage;

const HOW = 'in a browser, open stores through legado-store/browser (openStore, openStoreFromBytes), which loads SQLite WASM first';

/** The registry's answer in a browser: no engine by default or by name (the WASM one loads asynchronously). */
export function installBrowserDrivers(): void {
  setDriverChooser({
    named: (name) => {
      throw new DriverUnavailableError(name, HOW);
    },
    default: () => {
      throw new DriverUnavailableError('(any)', HOW);
    },
  });
}

export interface BrowserOpenOptions extends Omit<OpenOptions, 'driver' | 'busyTimeout'> {
  /**
   * 'opfs' (default): kept in the origin-private file system across reloads; works only in a
   * dedicated Worker. 'memory': gone with the page; works anywhere.
   */
  readonly driver?: BrowserStorage;
  /** The OPFS directory of the stores (default '.legado-store'). */
  readonly directory?: string;
}

export interface BytesOpenOptions extends BrowserOpenOptions {
  /** The store's name in its storage (default: 'imported.db' in OPFS, a fresh name in memory). */
  readonly name?: string;
  /** Replace a store of that name (default false: a FileExistsError instead). */
  readonly overwrite?: boolean;
}

function driverFor(options: BrowserOpenOptions): Promise<WasmDriver> {
  return loadWasmDriver({ storage: options.driver ?? 'opfs', directory: options.directory });
}

const onDriver = (options: BrowserOpenOptions, driver: WasmDriver): OpenOptions => {
  const { driver: _storage, directory: _directory, ...rest } = options;
  return { ...rest, driver };
};

/**
 * Opens (creating it when missing) the store of that name: the same Store API as on Node, typed
 * the same way (for N with `schema: N`, else any supported version: narrow on `store.version`).
 */
export async function openStore<V extends SchemaVersion>(name: string, options: BrowserOpenOptions & { readonly schema: V }): Promise<Store<V>>;
export async function openStore(name: string, options?: BrowserOpenOptions): Promise<AnyStore>;
export async function openStore(name: string, options: BrowserOpenOptions = {}): Promise<AnyStore> {
  const driver = await driverFor(options);
  return openOnDriver(name, onDriver(options, driver));
}

let unnamed = 0;
/**
 * Opens a database file given as bytes (one the user picked: any supported schema version,
 * checked like a file on Node; `upgrade: true` brings an older file to `schema`, 62 when left
 * out). The bytes are copied into the storage under `name`; if the store cannot be opened, the
 * storage is left as it was.
 */
export async function openStoreFromBytes(bytes: Uint8Array, options: BytesOpenOptions = {}): Promise<AnyStore> {
  const driver = await driverFor(options);
  const name = options.name ?? (driver.storage === 'memory' ? `bytes-${++unnamed}.db` : 'imported.db');
  if (bytes.length < 100 || !hasSqliteHeader(bytes)) {
    throw new NotADatabaseError(name, 'the bytes do not start with the SQLite header');
  }
  const before = driver.exists(name) ? driver.readFile(name) : undefined;
  if (before !== undefined && !options.overwrite) throw new FileExistsError(name, 'a store opened from bytes');
  driver.writeFile(name, bytes);
  try {
    return openOnDriver(name, { ...onDriver(options, driver), create: false, specialGroups: options.specialGroups ?? false });
  } catch (e) {
    if (before !== undefined) driver.writeFile(name, before);
    else driver.remove(name);
    throw e;
  }
}

/**
 * The store's database as the bytes of one SQLite file (what the app restores from, what
 * `inspectFile` on Node reads): a consistent copy through the store's own connection.
 */
export function exportDatabase(store: Store<SchemaVersion>): Uint8Array {
  const db = store.db;
  if (!(db instanceof WasmConnection)) {
    throw new DriverUnavailableError(db.driver, 'exportDatabase copies stores opened through legado-store/browser; on Node the store is a file already');
  }
  if (db.inTransaction) throw new TransactionStateError('exportDatabase');
  return db.serialize();
}

/** Names of the stores kept in that storage. */
export async function listStores(options: Pick<BrowserOpenOptions, 'driver' | 'directory'> = {}): Promise<string[]> {
  return (await driverFor(options)).list();
}

/** Removes a store (close it first); false when there was none. */
export async function deleteStore(name: string, options: Pick<BrowserOpenOptions, 'driver' | 'directory'> = {}): Promise<boolean> {
  const driver = await driverFor(options);
  let removed = driver.remove(name);
  for (const companion of ['-journal', '-wal', '-shm']) removed = driver.remove(name + companion) || removed;
  return removed;
}
