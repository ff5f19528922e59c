// Opening a store file: create it when missing, otherwise check it the way Room does before
// trusting it. A file that is refused is looked at through a read-only connection, so it is
// left exactly as it was.
import { existsSync, statSync } from 'node:fs';
import {
  FileNotFoundError,
  SchemaMismatchError,
  UnsupportedVersionError,
  VersionMismatchError,
} from '../errors.js';
import { asOpenError, openForInspection, openForWork, type Db } from '../engine/connection.js';
import { createSchema, isEmptyDatabase } from '../engine/create.js';
import { inspectDatabase, type FileReport } from '../engine/inspect.js';
import { upgradeOnOpen } from '../migrate/on-open.js';
import { CURRENT_VERSION, SUPPORTED_VERSIONS, schemas, type SchemaVersion } from '../schema/index.js';
import { Store, rowCounts } from './store.js';

export interface OpenOptions {
  /**
   * The schema version: a missing file is created at it (default 62); an existing file must
   * be at it. Left out, an existing file opens at whichever supported version it has.
   */
  readonly schema?: SchemaVersion;
  /** Create the file when it does not exist (default true). */
  readonly create?: boolean;
  readonly readonly?: boolean;
  /** Milliseconds to wait for another connection's lock (default 5000). */
  readonly busyTimeout?: number;
  /**
   * Upgrade a schema-49 file to 62 before opening it, as `migrate` does (default false: a 49
   * file opens at 49). Ignored with `schema: 49`.
   */
  readonly upgrade?: boolean;
  /**
   * Insert the app's special book groups (全部, 本地, 音频, …) whose ids are missing, as the app
   * does on every open. Default: true for a file this call creates; false for an existing
   * file, which is only changed when asked.
   */
  readonly specialGroups?: boolean;
  /** Now, in epoch milliseconds, for the domain operations (default Date.now). */
  readonly clock?: () => number;
}

export function openStore(path: string, options?: OpenOptions & { readonly schema?: 62 }): Store<62>;
export function openStore(path: string, options: OpenOptions & { readonly schema: 49 }): Store<49>;
export function openStore(path: string, options?: OpenOptions): Store<SchemaVersion>;
export function openStore(path: string, options: OpenOptions = {}): Store<SchemaVersion> {
  const wanted = options.schema;
  const isNew = path === ':memory:' || !existsSync(path) || statSync(path).size === 0;
  if (isNew) {
    if (path !== ':memory:' && (options.create === false || options.readonly)) throw new FileNotFoundError(path);
    return createStore(path, wanted ?? CURRENT_VERSION, options);
  }
  if (options.upgrade && wanted !== 49) upgradeOnOpen(path, options);
  const report = checkFile(path, wanted);
  if (report === 'empty') return createStore(path, wanted ?? CURRENT_VERSION, options);
  const db = openForWork(path, options);
  return withSpecialGroups(new Store(path, db, schemas[report.version as SchemaVersion], options), options.specialGroups ?? false);
}

function createStore(path: string, version: SchemaVersion, options: OpenOptions): Store<SchemaVersion> {
  const db = openForWork(path, options);
  try {
    createSchema(db, schemas[version]);
  } catch (e) {
    db.close();
    throw e;
  }
  return withSpecialGroups(new Store(path, db, schemas[version], options), options.specialGroups ?? true);
}

function withSpecialGroups(store: Store<SchemaVersion>, insert: boolean): Store<SchemaVersion> {
  try {
    if (insert) store.bookGroups.ensureSpecial();
  } catch (e) {
    store.close();
    throw e;
  }
  return store;
}

/** Throws unless the file is a store of a supported (and, if given, the wanted) version. */
function checkFile(path: string, wanted: SchemaVersion | undefined): FileReport | 'empty' {
  const db = openForInspection(path);
  try {
    if (isEmptyDatabase(db)) return 'empty';
    const report = inspectDatabase(db);
    if (!report.supported) {
      const detail = report.version === 0 ? 'user_version is 0, so this is not a Legado store' : '';
      throw new UnsupportedVersionError(path, report.version, SUPPORTED_VERSIONS, detail);
    }
    if (wanted !== undefined && report.version !== wanted) {
      const hint =
        report.version < wanted ? 'upgrade it first (legado-store migrate)' : 'downgrading is not supported';
      throw new VersionMismatchError(path, report.version, wanted, hint);
    }
    if (!report.ok) throw new SchemaMismatchError(path, report.version, report.differences);
    return report;
  } catch (e) {
    throw asOpenError(path, e);
  } finally {
    db.close();
  }
}

export interface FileInspection extends FileReport {
  readonly path: string;
  /** Rows per table of the file's version (tables that exist). */
  readonly rows: Record<string, number>;
}

/** Reads what a file is without changing it: version, identity hash, structure, row counts. */
export function inspectFile(path: string): FileInspection {
  if (!existsSync(path)) throw new FileNotFoundError(path);
  const db: Db = openForInspection(path);
  try {
    const report = inspectDatabase(db);
    const rows = report.supported ? rowCounts(db, schemas[report.version as SchemaVersion]) : {};
    return { path, ...report, rows };
  } catch (e) {
    throw asOpenError(path, e);
  } finally {
    db.close();
  }
}
