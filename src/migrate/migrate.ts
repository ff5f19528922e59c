// migrate(): brings a store file to schema 62 as the app's own migrations 49->50 ... 61->62 would
// leave it. Whether a file is refused is decided through a read-only inspection, before the
// file is opened for writing, so a refused file is left byte-for-byte as it was; the upgrade
// itself is one transaction (upgrade.ts).
import { existsSync } from 'node:fs';
import { asOpenError, openForInspection, openForWork } from '../engine/connection.js';
import { inspectDatabase } from '../engine/inspect.js';
import { FileExistsError, FileNotFoundError, SchemaMismatchError, UnsupportedVersionError } from '../errors.js';
import { schemas } from '../schema/index.js';
import { tablesInTheWay } from './checks.js';
import { planUpgrade, type UpgradePlan } from './plan.js';
import { runUpgrade, type UpgradeSummary } from './upgrade.js';

export interface MigrateOptions {
  /** The target schema version. Only 62: there is no downgrade. */
  readonly to?: 62;
  /** Write a consistent copy of the original file here before upgrading; it must not exist yet. */
  readonly backup?: string;
  /** Milliseconds to wait for another connection's lock (default 5000). */
  readonly busyTimeout?: number;
  /**
   * Called with each step's name as it starts (`backup`, `begin`, `add <table>.<column>`,
   * `rebuild <table>`, `Migration_54_55`, `create <table>`, `identity hash`, `check`, `commit`).
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
  readonly to: 62;
  readonly backup: string | null;
  /**
   * What the upgrade did; null when it had nothing to do. (No row counts: counting would read
   * every chapter, which the upgrade itself never does; `inspectFile` gives them.)
   */
  readonly changes: UpgradeSummary | null;
  readonly durationMs: number;
}

/** The one upgrade there is, derived once from the two schema models. */
const UPGRADE: UpgradePlan = planUpgrade(schemas[49], schemas[62]);

export function migrate(path: string, options: MigrateOptions = {}): MigrateResult {
  const started = performance.now();
  const to = options.to ?? UPGRADE.to.version;
  if (to !== UPGRADE.to.version) {
    throw new UnsupportedVersionError(path, to, [UPGRADE.to.version], 'that is the target asked for: migrate upgrades to 62 only, there is no downgrade');
  }
  const base = { path, to: UPGRADE.to.version as 62 };
  if (preflight(path, UPGRADE) === 'current') {
    return { ...base, status: 'current', from: UPGRADE.to.version, backup: null, changes: null, durationMs: performance.now() - started };
  }
  if (options.backup !== undefined && existsSync(options.backup)) throw new FileExistsError(options.backup, 'a backup');
  const db = openForWork(path, { busyTimeout: options.busyTimeout });
  try {
    const changes = runUpgrade(db, UPGRADE, { path, backup: options.backup, onStep: options.onStep });
    return {
      ...base,
      status: 'upgraded',
      from: UPGRADE.from.version,
      backup: options.backup ?? null,
      changes,
      durationMs: performance.now() - started,
    };
  } finally {
    db.close();
  }
}

/** Read-only: throws for every file migrate refuses; otherwise says whether there is work to do. */
function preflight(path: string, plan: UpgradePlan): 'current' | 'upgrade' {
  if (!existsSync(path)) throw new FileNotFoundError(path);
  const db = openForInspection(path);
  try {
    const report = inspectDatabase(db);
    if (report.version === plan.to.version) {
      if (!report.ok) throw new SchemaMismatchError(path, report.version, report.differences);
      return 'current';
    }
    if (report.version !== plan.from.version) {
      throw new UnsupportedVersionError(path, report.version, [plan.from.version, plan.to.version], versionHint(report.version, plan));
    }
    const differences = [...report.differences, ...tablesInTheWay(db, plan)];
    if (differences.length) throw new SchemaMismatchError(path, report.version, differences);
    return 'upgrade';
  } catch (e) {
    throw asOpenError(path, e);
  } finally {
    db.close();
  }
}

function versionHint(version: number, plan: UpgradePlan): string {
  if (version === 0) return 'user_version is 0, so this is not a Legado store';
  if (version > plan.to.version) return `it is newer than ${plan.to.version}, and there is no downgrade`;
  return `migrate upgrades schema ${plan.from.version} files and leaves ${plan.to.version} files alone`;
}
