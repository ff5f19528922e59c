// Opening a store file: create it when missing, otherwise check it the way Room does before
// trusting it. A file that is refused is looked at through a read-only connection, so it is
// left exactly as it was.
import {
  type Damage,
  type StructureDifference,
  FileNotFoundError,
  InvalidArgumentError,
  SchemaMismatchError,
  UnsupportedVersionError,
  VersionMismatchError,
} from '../errors.js';
import {
  asOpenError,
  closeWithoutCheckpoint,
  DEFAULT_BUSY_TIMEOUT,
  openForInspection,
  openForWork,
  setUpForWork,
  type Db,
  type DriverOptions,
} from '../engine/connection.js';
import type { Driver } from '../engine/driver.js';
import { openInPlaceForCheck } from '../engine/traceless-read.js';
import { resolveDriver } from '../engine/registry.js';
import { createSchema, isEmptyDatabase } from '../engine/create.js';
import { inspectDatabase, type FileReport } from '../engine/inspect.js';
import { foreignKeyCheck, integrityCheck, quickCheck, refuseDamaged, walState, type WalState } from '../engine/integrity.js';
import { checkWal, type WalVerdict } from '../engine/wal-check.js';
import { appInvariants, appNotes } from '../domain/invariants.js';
import { upgradeOnOpen } from '../migrate/on-open.js';
import { CURRENT_VERSION, NEWEST_VERSION, SUPPORTED_VERSIONS, isSupportedVersion, schemas, type Schema, type SchemaVersion } from '../schema/index.js';
import { describeSchema } from '../schema/lines.js';
import { Store, rowCounts, type AnyStore } from './store.js';
import { engineError } from '../engine/errors.js';
import { fsError } from '../io/fs-errors.js';
import { checkPathName } from '../io/store-path.js';

export interface OpenOptions extends DriverOptions {
  /**
   * The schema version: a missing file is created at it (default NEWEST_VERSION,
   * the newest of the app's main line); an existing file must
   * be at it. Left out, an existing file opens at whichever supported version it has.
   */
  readonly schema?: SchemaVersion;
  /** Create the file when it does not exist (default true). */
  readonly create?: boolean;
  readonly readonly?: boolean;
  /** Milliseconds to wait for another connection's lock (default 5000). */
  readonly busyTimeout?: number;
  /**
   * Upgrade a file of an older version to `schema` (62 when left out) before opening it, as
   * `migrate` does (default false: a file opens at its own version). A file already at or
   * above that version is left to the usual checks.
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

/**
 * With `schema: N` the store is typed for N. Without it an existing file opens at whatever
 * supported version it has, so the result is typed as any of them: narrow on `store.version`.
 */
export function openStore<V extends SchemaVersion>(path: string, options: OpenOptions & { readonly schema: V }): Store<V>;
export function openStore(path: string, options?: OpenOptions): AnyStore;
export function openStore(path: string, opened: OpenOptions = {}): AnyStore {
  // Arguments are checked before the file is touched: a refused call creates nothing.
  checkPathName(path);
  checkOpenOptions(path, opened);
  try {
    return open(path, opened);
  } catch (e) {
    throw fsError(path, engineError(path, e));
  }
}

function checkOpenOptions(path: string, options: OpenOptions): void {
  if (options === null || typeof options !== 'object') throw new InvalidArgumentError('openStore options', options, 'an object');
  const v: unknown = options.schema;
  if (v !== undefined && !(typeof v === 'number' && isSupportedVersion(v))) {
    throw new UnsupportedVersionError(
      path,
      typeof v === 'number' ? v : NaN,
      SUPPORTED_VERSIONS,
      `that is the schema asked for (${JSON.stringify(v) ?? String(v)})`,
    );
  }
  const t: unknown = options.busyTimeout;
  if (t !== undefined && !(typeof t === 'number' && Number.isInteger(t) && t >= 0 && t <= 2 ** 31 - 1)) {
    throw new InvalidArgumentError('openStore busyTimeout', t, 'milliseconds, an integer from 0 to 2147483647');
  }
}

function open(path: string, opened: OpenOptions): AnyStore {
  // The engine is chosen once; every connection below (and an upgrade) uses the same one.
  const driver = resolveDriver(opened.driver);
  const options: OpenOptions = { ...opened, driver };
  const wanted = options.schema;
  const isNew = path === ':memory:' || !driver.fileSize(path);
  if (isNew) {
    if (path !== ':memory:' && (options.create === false || options.readonly)) throw new FileNotFoundError(path);
    return createStore(path, wanted ?? NEWEST_VERSION, options);
  }
  if (options.upgrade) upgradeOnOpen(path, { ...options, to: wanted ?? CURRENT_VERSION });
  // A -wal beside the file is merged into it on the first checkpoint: check what it holds first.
  const wal = options.readonly ? 'none' : walState((p) => driver.fileSize(p), path);
  // Its pages checked from the files, at the cost of the -wal (wal-check.ts); 'unsure' leaves
  // it to SQLite's whole-file check on an inspection connection (refuseDamaged).
  const walChecked = wal !== 'none' && driver.capabilities.files ? checkWal(path, driver, wal === 'orphan') : undefined;
  const walSound = walChecked !== undefined && walChecked !== 'unsure' && walChecked.sound;
  // Nothing beside a file this process can write, or a sound -wal: one connection checks it, then works on it.
  const inPlace = (wal === 'none' || walSound) && !options.readonly ? inPlaceConnection(driver, path, options, walSound) : undefined;
  let report: FileReport | 'empty';
  if (inPlace) {
    try {
      report = checkOn(inPlace, path, wanted);
      inPlace.pragma('query_only = OFF');
      setUpForWork(inPlace, path, false);
    } catch (e) {
      // Refused: a -wal beside it stays as it was, not merged into the file by the close.
      if (wal !== 'none') closeWithoutCheckpoint(inPlace, path, driver);
      else inPlace.close();
      throw asOpenError(path, e);
    }
  } else {
    report = checkFile(path, wanted, options, wal, walChecked);
  }
  if (report === 'empty') return createStore(path, wanted ?? NEWEST_VERSION, options, inPlace);
  const db = inPlace ?? openForWork(path, options);
  return withSpecialGroups(
    new Store(path, db, schemas[report.version as SchemaVersion], { ...options, walAtOpen: wal !== 'none' }),
    options.specialGroups ?? false,
  );
}

function inPlaceConnection(driver: Driver, path: string, options: OpenOptions, walChecked: boolean): Db | undefined {
  try {
    return openInPlaceForCheck(driver, path, { busyTimeout: options.busyTimeout ?? DEFAULT_BUSY_TIMEOUT, walChecked });
  } catch (e) {
    throw asOpenError(path, e);
  }
}

function createStore(path: string, version: SchemaVersion, options: OpenOptions, opened?: Db): AnyStore {
  const db = opened ?? openForWork(path, options);
  try {
    createSchema(db, schemas[version]);
  } catch (e) {
    db.close();
    throw e;
  }
  return withSpecialGroups(new Store(path, db, schemas[version], { ...options, walAtOpen: false }), options.specialGroups ?? true);
}

function withSpecialGroups(store: Store<SchemaVersion>, insert: boolean): AnyStore {
  try {
    if (insert) store.bookGroups.ensureSpecial();
  } catch (e) {
    store.close();
    throw e;
  }
  return store as AnyStore;
}

/** Throws unless the file is a store of a supported (and, if given, the wanted) version. */
function checkFile(path: string, wanted: SchemaVersion | undefined, options: DriverOptions, wal: WalState, walChecked?: WalVerdict): FileReport | 'empty' {
  const db = openForInspection(path, options);
  try {
    if (wal !== 'none') refuseDamaged(db, path, wal, walChecked);
    return checkOn(db, path, wanted);
  } catch (e) {
    throw asOpenError(path, e);
  } finally {
    db.close();
  }
}

/** checkFile's checks on a connection that writes nothing (left open). */
function checkOn(db: Db, path: string, wanted: SchemaVersion | undefined): FileReport | 'empty' {
  try {
    if (isEmptyDatabase(db)) return 'empty';
    const report = inspectDatabase(db);
    if (!report.supported) {
      const detail = report.version === 0 && report.identityHash === null ? 'user_version is 0, so this is not a Legado store' : '';
      throw new UnsupportedVersionError(
        path,
        report.version,
        SUPPORTED_VERSIONS,
        detail,
        report.identityHash,
        describeSchema(report.version, report.identityHash),
      );
    }
    if (wanted !== undefined && report.version !== wanted) {
      const hint = report.version < wanted ? 'upgrade it first (legado-store migrate)' : 'downgrading is not supported';
      throw new VersionMismatchError(path, report.version, wanted, hint);
    }
    if (!report.ok) throw new SchemaMismatchError(path, report.version, report.differences);
    return report;
  } catch (e) {
    throw asOpenError(path, e);
  }
}

export interface FileInspection extends FileReport {
  readonly path: string;
  /** Rows per table of the file's version (tables that exist). */
  readonly rows: Record<string, number>;
  /** Which content checks ran (see InspectOptions.check). */
  readonly checked: IntegrityCheck;
  /** What those checks found damaged or broken, each with its table and key where known. */
  readonly damage: readonly Damage[];
  /**
   * What the deep check found that the app lives with (books with group bits no group has, as
   * after restoring a bookshelf without its groups): reported, not damage; `ok` ignores them.
   */
  readonly warnings: readonly Damage[];
}

/**
 * How far `inspectFile` looks into the content, beyond the structure:
 * - 'none': structure, identity hash and row counts only (what `info` shows);
 * - 'quick': also PRAGMA quick_check, pages and records (what `verify` runs);
 * - 'deep': PRAGMA integrity_check (indexes against their rows too), foreign_key_check, and the
 *   app's own invariants the schema cannot state (`verify --deep`).
 */
export type IntegrityCheck = 'none' | 'quick' | 'deep';

export interface InspectOptions extends DriverOptions {
  /** Default 'none'. */
  readonly check?: IntegrityCheck;
}

/** Reads what a file is without changing it: version, identity hash, structure, row counts, and the checks asked for. */
export function inspectFile(path: string, options: InspectOptions = {}): FileInspection {
  checkPathName(path);
  const check = options.check ?? 'none';
  if (check !== 'none' && check !== 'quick' && check !== 'deep') throw new InvalidArgumentError('inspectFile check', check, "'none', 'quick' or 'deep'");
  try {
    return inspect(path, options, check);
  } catch (e) {
    throw fsError(path, engineError(path, e));
  }
}

/**
 * The schema's tables the file has whole (no missing table or column): the deep checks read
 * only those, so a file labelled with the wrong version (a 59 called 60, without dictRules) is
 * reported by its structure differences instead of failing on "no such table".
 */
function whole(schema: Schema, differences: readonly StructureDifference[]): Schema {
  const broken = new Set(differences.filter((d) => d.kind === 'missing-table' || d.kind === 'missing-column').map((d) => d.table));
  if (broken.size === 0) return schema;
  const tables = schema.tables.filter((t) => !broken.has(t.name));
  return { ...schema, tables, table: (name) => (broken.has(name) ? undefined : schema.table(name)) };
}

function inspect(path: string, options: DriverOptions, check: IntegrityCheck): FileInspection {
  const driver = resolveDriver(options.driver);
  if (driver.fileSize(path) === undefined) throw new FileNotFoundError(path);
  // A -wal no connection has open gets the deeper page check, as before a write (see refuseDamaged).
  const orphanWal = check === 'quick' && walState((p) => driver.fileSize(p), path) === 'orphan';
  const db: Db = openForInspection(path, { driver });
  try {
    // Pages first: a damaged page can make the structure queries below fail.
    const pages = check === 'deep' || orphanWal ? integrityCheck(db) : check === 'quick' ? quickCheck(db) : [];
    const report = inspectDatabase(db);
    const schema = report.supported ? schemas[report.version as SchemaVersion] : undefined;
    const rows = schema && pages.length === 0 ? rowCounts(db, schema) : {};
    const damage = [...pages];
    const warnings: Damage[] = [];
    if (check === 'deep' && schema && pages.length === 0) {
      const present = whole(schema, report.differences);
      damage.push(...foreignKeyCheck(db, present), ...appInvariants(db, present));
      warnings.push(...appNotes(db, present));
    }
    return { path, ...report, ok: report.ok && damage.length === 0, rows, checked: check, damage, warnings };
  } catch (e) {
    throw asOpenError(path, e);
  } finally {
    db.close();
  }
}
