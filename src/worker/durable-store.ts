// A reader's store on a Durable Object's storage: created at the newest schema when the object
// is new, otherwise checked as openStore checks a file (version, identity hash, structure).
import { SchemaMismatchError, UnsupportedVersionError } from '../errors.js';
import { createSchema } from '../engine/create.js';
import { durableObjectDriver, holdsNothing, type DurableStorageLike } from '../engine/drivers/durable-object.js';
import { inspectDatabase } from '../engine/inspect.js';
import { planUpgrade } from '../migrate/plan.js';
import { runUpgrade, type UpgradeSummary } from '../migrate/upgrade.js';
import { NEWEST_VERSION, SUPPORTED_VERSIONS, schemas, type SchemaVersion } from '../schema/index.js';
import { Store, type AnyStore } from '../store/store.js';

export { OURS } from '../engine/drivers/durable-object.js';

/**
 * The version an identity hash names. Two pairs of versions share a hash (55/56 and 68/69: the
 * later one changed no structure); a store this package wrote keeps its number in the object's
 * KV storage, so this is asked only of a store without it, and answers the later one of a pair,
 * which opens the earlier one's data unchanged (same tables, same columns).
 */
export function versionOfHash(identityHash: string): SchemaVersion | undefined {
  let found: SchemaVersion | undefined;
  for (const v of SUPPORTED_VERSIONS) if (schemas[v].identityHash === identityHash) found = v;
  return found;
}

export interface DurableStoreOptions {
  /** Shown in messages as the store's path (e.g. `durable-object:<reader>`). */
  readonly name?: string;
  /** The version a new store is created at (default: the newest). */
  readonly schema?: SchemaVersion;
  readonly clock?: () => number;
}

export function openDurableStore(storage: DurableStorageLike, options: DurableStoreOptions = {}): AnyStore {
  const path = options.name ?? 'durable-object';
  const driver = durableObjectDriver(storage, versionOfHash);
  const db = driver.open(path);
  // On from the object's start; an upgrade turns them off for its request (upgradeDurableStore).
  db.pragma('foreign_keys = ON');
  const storeOptions = { driver, ...(options.clock ? { clock: options.clock } : {}) };
  if (holdsNothing(storage)) {
    const schema = schemas[options.schema ?? NEWEST_VERSION];
    createSchema(db, schema);
    const store = new Store(path, db, schema, storeOptions);
    store.bookGroups.ensureSpecial();
    return store as AnyStore;
  }
  const report = inspectDatabase(db);
  if (!report.supported)
    throw new UnsupportedVersionError(path, report.version, SUPPORTED_VERSIONS, 'the object holds tables but no store version', report.identityHash);
  if (!report.ok) throw new SchemaMismatchError(path, report.version, report.differences);
  return new Store(path, db, schemas[report.version as SchemaVersion], storeOptions) as AnyStore;
}

/**
 * Upgrades the object's store to `to` through the app's chain (every AutoMigration and data
 * step), in one transaction as on a file; a failure leaves the store as it was. Foreign keys
 * must be off while tables are rebuilt, and SQLite ignores that inside a transaction, which a
 * Durable Object opens implicitly at a request's first write: so run it in a request of its
 * own before any write (else it is refused, nothing changed), and open the store in a later
 * request (which turns foreign keys on again).
 */
export function upgradeDurableStore(storage: DurableStorageLike, to: SchemaVersion, options: DurableStoreOptions = {}): UpgradeSummary | undefined {
  const path = options.name ?? 'durable-object';
  const driver = durableObjectDriver(storage, versionOfHash);
  const db = driver.open(path);
  const report = inspectDatabase(db);
  if (!report.supported)
    throw new UnsupportedVersionError(path, report.version, SUPPORTED_VERSIONS, 'the object holds no store to upgrade', report.identityHash);
  if (report.version >= to) return undefined;
  return runUpgrade(db, planUpgrade(schemas[report.version as SchemaVersion], schemas[to]), { path, driver });
}
