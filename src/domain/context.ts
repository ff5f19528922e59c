// What a domain area needs from its store, declared here so that the domain depends on this
// small interface and not on the store: the store (store/store.ts) implements it.
import type { Db } from '../engine/connection.js';
import type { SchemaVersion, VersionedSchema } from '../schema/index.js';
import type { TableApi } from '../table/table.js';
import type { BookGroups } from './book-groups.js';
import type { Cache } from './cache.js';
import type { Rss } from './rss.js';

type AnyTable = TableApi<Record<string, unknown>, Record<string, unknown>, Record<string, unknown>, unknown>;

export interface DomainContext {
  readonly db: Db;
  readonly version: SchemaVersion;
  readonly schema: VersionedSchema;
  /** Now, in epoch milliseconds. */
  readonly clock: () => number;
  /** The typed table of that name; UnknownTableError when the version has none. */
  table(name: string): AnyTable;
  /** Runs fn in one write transaction (nested: a savepoint). */
  transaction<T>(fn: () => T): T;
  /** The other areas an area's operations reach into (deleting a source clears its cache and articles). */
  readonly bookGroups: BookGroups<SchemaVersion>;
  readonly cache: Cache;
  readonly rss: Rss;
}
