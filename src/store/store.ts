// A store: one connection to one file of a known schema version, with a typed API per table.
import { UnknownTableError } from '../errors.js';
import type { Db } from '../engine/connection.js';
import { inspectDatabase, type FileReport } from '../engine/inspect.js';
import { q } from '../schema/ddl.js';
import type { SchemaVersion, VersionedSchema } from '../schema/index.js';
import type { Key, NewRow, Patch, Row, TableName } from '../schema/row-types.js';
import { TableApi } from '../table/table.js';

export type TableOf<N extends TableName<V>, V extends SchemaVersion = 62> = TableApi<Row<N, V>, NewRow<N, V>, Patch<N, V>, Key<N, V>>;

export type Tables<V extends SchemaVersion = 62> = { readonly [N in TableName<V>]: TableOf<N, V> };

export class Store<V extends SchemaVersion = 62> {
  readonly path: string;
  readonly version: V;
  readonly schema: VersionedSchema;
  /** The better-sqlite3 connection, for SQL the typed API does not cover. */
  readonly db: Db;
  /** One typed table API per table of this version, keyed by the SQL table name. */
  readonly tables: Tables<V>;

  constructor(path: string, db: Db, schema: VersionedSchema) {
    this.path = path;
    this.db = db;
    this.schema = schema;
    this.version = schema.version as V;
    const tables: Record<string, TableApi<object, object, object, unknown>> = {};
    for (const t of schema.tables) tables[t.name] = new TableApi(db, t, schema.version);
    this.tables = Object.freeze(tables) as unknown as Tables<V>;
  }

  /** The table API for a name known only at run time. */
  table(name: string): TableApi<Record<string, unknown>, Record<string, unknown>, Record<string, unknown>, unknown> {
    const t = (this.tables as Record<string, unknown>)[name];
    if (!t) throw new UnknownTableError(name, this.version);
    return t as TableApi<Record<string, unknown>, Record<string, unknown>, Record<string, unknown>, unknown>;
  }

  /** Runs fn in one transaction: everything it writes is committed together, or nothing is. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  /** Version, identity hash and structure check of the open file. */
  inspect(): FileReport {
    return inspectDatabase(this.db);
  }

  /** Rows per table. */
  counts(): Record<string, number> {
    return rowCounts(this.db, this.schema);
  }

  get isOpen(): boolean {
    return this.db.open;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

export function rowCounts(db: Db, schema: VersionedSchema): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of schema.tables) {
    const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(t.name);
    if (exists) out[t.name] = db.prepare(`SELECT count(*) FROM ${q(t.name)}`).pluck().get() as number;
  }
  return out;
}
