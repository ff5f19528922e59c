// migrate(): brings a store file to a later schema version as the app's own chain of migrations
// (49->50 ... 74->75) would leave it. Whether a file is refused is decided through a read-only
// inspection, before the file is opened for writing, so a refused file is left byte-for-byte as
// it was; the upgrade itself is one transaction (upgrade.ts).
import { asOpenError, openForInspection, openForWork, type DriverOptions } from '../engine/connection.js';
import { refuseDamaged, walState } from '../engine/integrity.js';
import { resolveDriver } from '../engine/registry.js';
import { inspectDatabase } from '../engine/inspect.js';
import { FileExistsError, FileNotFoundError, SchemaMismatchError, UnsupportedVersionError, VersionMismatchError } from '../errors.js';
import { NEWEST_VERSION, SUPPORTED_VERSIONS, isSupportedVersion, schemas, type SchemaVersion } from '../schema/index.js';
import { describeSchema } from '../schema/lines.js';
import { fsError } from '../io/fs-errors.js';
import { checkPathName } from '../io/store-path.js';
import { engineError } from '../engine/errors.js';
import { tablesInTheWay } from './checks.js';
import { planUpgrade, type UpgradePlan } from './plan.js';
import { runUpgrade, type UpgradeSummary } from './upgrade.js';

export interface MigrateOptions extends DriverOptions {
  /**
   * The target version: any the store knows above the file's, up to the newest (NEWEST_VERSION); there is
   * no downgrade. Default: NEWEST_VERSION (75), as the app upgrades its own file to its version.
   */
  readonly to?: SchemaVersion;
  /** Write a consistent copy of the original file here before upgrading; it must not exist yet (unless `overwrite`). */
  readonly backup?: string;
  /** Replace an existing file at `backup` (written to a temporary file, then renamed over it). Default false. */
  readonly overwrite?: boolean;
  /** Milliseconds to wait for another connection's lock (default 5000). */
  readonly busyTimeout?: number | undefined;
  /**
   * Called with each step's name as it starts: `backup`, `begin`, then per version N of the
   * chain `N: drop view <v>`, `N: add <table>.<column>`, `N: create <table>`, `N: rebuild <table>`,
   * `N: create view <v>`, `Migration_54_55`; then `identity hash`, `check`, `commit`.
   * An error thrown from it aborts the upgrade and rolls it back.
   */
  readonly onStep?: (step: string) => void;
}

export interface MigrateResult {
  readonly path: string;
  /** `current`: the file was already at the target version and was left alone. */
  readonly status: 'upgraded' | 'current';
  /** The version the file had. */
  readonly from: number;
  readonly to: SchemaVersion;
  readonly backup: string | null;
  /**
   * What the upgrade did, step by step; null when it had nothing to do. (No row counts:
   * counting would read every chapter, which the upgrade itself never does; `inspectFile` gives them.)
   */
  readonly changes: UpgradeSummary | null;
  readonly durationMs: number;
}

export function migrate(path: string, options: MigrateOptions = {}): MigrateResult {
  checkPathName(path);
  try {
    return run(path, options);
  } catch (e) {
    throw fsError(path, engineError(path, e));
  }
}

function run(path: string, options: MigrateOptions): MigrateResult {
  const started = performance.now();
  const asked = options.to;
  if (asked !== undefined && !isSupportedVersion(asked)) {
    throw new UnsupportedVersionError(path, asked, SUPPORTED_VERSIONS, 'that is the target asked for; migrate upgrades to these versions only');
  }
  const found = preflight(path, asked, options);
  const done = (status: 'upgraded' | 'current', changes: UpgradeSummary | null, backup: string | null): MigrateResult => ({
    path,
    status,
    from: found.from,
    to: found.to,
    backup,
    changes,
    durationMs: performance.now() - started,
  });
  if (!found.plan) return done('current', null, null);
  // The backup is written through the engine (VACUUM INTO), so the driver says whether it exists.
  if (options.backup !== undefined && !options.overwrite && resolveDriver(options.driver).fileSize(options.backup) !== undefined) {
    throw new FileExistsError(options.backup, 'a backup');
  }
  const driver = resolveDriver(options.driver);
  const db = openForWork(path, { busyTimeout: options.busyTimeout, driver });
  try {
    return done(
      'upgraded',
      runUpgrade(db, found.plan, { path, driver, backup: options.backup, overwrite: options.overwrite, onStep: options.onStep }),
      options.backup ?? null,
    );
  } finally {
    db.close();
  }
}

interface Preflight {
  readonly from: number;
  readonly to: SchemaVersion;
  /** Undefined when the file is already at the target. */
  readonly plan?: UpgradePlan;
}

/** Read-only: throws for every file migrate refuses; otherwise the plan, if there is work to do. */
function preflight(path: string, asked: SchemaVersion | undefined, options: DriverOptions): Preflight {
  const driver = resolveDriver(options.driver);
  if (driver.fileSize(path) === undefined) throw new FileNotFoundError(path);
  const wal = walState((p) => driver.fileSize(p), path);
  const db = openForInspection(path, { driver });
  try {
    // A migration rewrites tables: a damaged file (or a foreign -wal beside it) is refused first.
    refuseDamaged(db, path, wal);
    const report = inspectDatabase(db);
    const from = report.version;
    if (!isSupportedVersion(from)) {
      throw new UnsupportedVersionError(
        path,
        from,
        SUPPORTED_VERSIONS,
        versionHint(from, report.identityHash),
        report.identityHash,
        describeSchema(from, report.identityHash),
      );
    }
    const to = asked ?? NEWEST_VERSION;
    if (from > to) throw new VersionMismatchError(path, from, to, 'there is no downgrade');
    if (from === to) {
      if (!report.ok) throw new SchemaMismatchError(path, from, report.differences);
      return { from, to };
    }
    const plan = planUpgrade(schemas[from], schemas[to]);
    const differences = [...report.differences, ...tablesInTheWay(db, plan)];
    if (differences.length) throw new SchemaMismatchError(path, from, differences);
    return { from, to, plan };
  } catch (e) {
    throw asOpenError(path, e);
  } finally {
    db.close();
  }
}

function versionHint(version: number, hash: string | null): string {
  if (version === 0 && hash === null) return 'user_version is 0, so this is not a Legado store';
  if (version > Math.max(...SUPPORTED_VERSIONS))
    return `migrate cannot take it anywhere: it is newer than ${Math.max(...SUPPORTED_VERSIONS)}, and there is no downgrade`;
  return '';
}
