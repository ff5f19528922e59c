// Runs an upgrade plan (every step of the chain) on an open read-write connection as ONE
// transaction, the way Android runs Room's migrations: foreign keys off (SQLite ignores that pragma inside a transaction, so it is
// set before BEGIN; with them on, dropping `books` would delete every chapter), BEGIN IMMEDIATE,
// every step, the new identity hash and user_version (both transactional), the checks, COMMIT.
// A failure anywhere, or a kill, leaves the file as it was. The transaction is the
// connection's own (transaction(fn)), never BEGIN as SQL: an engine may allow only that.
import type { Db } from '../engine/connection.js';
import type { Driver } from '../engine/driver.js';
import { inspectDatabase } from '../engine/inspect.js';
import { MigrationFailedError, type ForeignKeyViolation, type StructureDifference } from '../errors.js';
import { MASTER_TABLE_SQL, createIndexSql, createTableSql, createViewSql, masterRowSql, q } from '../schema/ddl.js';
import { dataVersion, writeBackup } from './backup.js';
import { foreignKeyViolations, tablesInTheWay } from './checks.js';
import type { UpgradePlan, UpgradeStep } from './plan.js';
import { addColumnSql, dropViewSql, rebuildSql } from './sql.js';

/** What one step (one AutoMigration) did. */
export interface StepSummary {
  readonly from: number;
  readonly to: number;
  /** `table.column`, in the order they were added. */
  readonly addedColumns: readonly string[];
  readonly createdTables: readonly string[];
  readonly rebuiltTables: readonly string[];
  readonly createdViews: readonly string[];
  /** The app's data fixes that ran, with the rows each statement changed, summed. */
  readonly dataSteps: readonly { readonly name: string; readonly rowsChanged: number }[];
}

export interface UpgradeSummary {
  /** Every step, in order. */
  readonly steps: readonly StepSummary[];
  /** Over all steps: `table.column` added by ALTER, in order. */
  readonly addedColumns: readonly string[];
  /** Over all steps, each table once, in the order first rebuilt. */
  readonly rebuiltTables: readonly string[];
  readonly createdTables: readonly string[];
  readonly dataSteps: readonly { readonly name: string; readonly rowsChanged: number }[];
}

export interface RunOptions {
  /** The file, for error messages. */
  readonly path: string;
  /** The engine the connection runs on (it writes the backup). */
  readonly driver: Driver;
  /** Write a consistent copy of the file here first. */
  readonly backup?: string | undefined;
  /** Replace an existing file at `backup` (default false). */
  readonly overwrite?: boolean | undefined;
  /** Called with each step's name as it starts; an error thrown from it aborts and rolls back. */
  readonly onStep?: ((step: string) => void) | undefined;
}

interface Found {
  differences?: readonly StructureDifference[];
  violations?: readonly ForeignKeyViolation[];
  cause?: unknown;
}

export function runUpgrade(db: Db, plan: UpgradePlan, options: RunOptions): UpgradeSummary {
  let step = 'start';
  const enter = (name: string): void => {
    step = name;
    options.onStep?.(name);
  };
  const fail = (detail: string, found: Found = {}) => new MigrationFailedError(options.path, step, detail, found);
  db.pragma('foreign_keys = OFF');
  try {
    // Ignored inside a transaction (a caller's, or a Durable Object's implicit one after a
    // write in the same request): rebuilding `books` with them on would delete every chapter.
    if (db.pragma('foreign_keys', { simple: true }) !== 0)
      throw fail('foreign keys cannot be turned off inside a transaction: upgrade before any write in it (nothing was changed)');
    let seen: number | undefined;
    if (options.backup !== undefined) {
      enter('backup');
      seen = writeBackup(db, options.driver, options.backup, options.overwrite ?? false);
    }
    enter('begin');
    return db.transaction(() => upgradeInTransaction(db, plan, seen, enter, fail)).immediate();
  } catch (e) {
    throw e instanceof MigrationFailedError ? e : fail(e instanceof Error ? e.message : String(e), { cause: e });
  } finally {
    if (db.open) db.pragma('foreign_keys = ON');
  }
}

/** Everything of the upgrade that runs in its one transaction; a throw rolls it all back. */
function upgradeInTransaction(
  db: Db,
  plan: UpgradePlan,
  seen: number | undefined,
  enter: (name: string) => void,
  fail: (detail: string, found?: Found) => MigrationFailedError,
): UpgradeSummary {
  if (seen !== undefined && dataVersion(db) !== seen) throw fail('the file changed while it was being backed up; run it again');
  // The file was inspected before it was opened for writing; look again now that we hold the lock.
  const before = inspectDatabase(db);
  const inTheWay = tablesInTheWay(db, plan);
  if (before.version !== plan.from.version || !before.ok || inTheWay.length) {
    throw fail(`the file is no longer a schema ${plan.from.version} file`, { differences: [...before.differences, ...inTheWay] });
  }

  const steps = plan.steps.map((s) => runStep(db, s, enter, fail));
  enter('identity hash');
  db.exec(MASTER_TABLE_SQL);
  db.exec(masterRowSql(plan.to.identityHash));
  db.pragma(`user_version = ${plan.to.version}`);

  enter('check');
  // The same check as `legado-store verify`: structure and identity hash of the target version.
  const after = inspectDatabase(db);
  if (!after.ok) throw fail(`the result does not match schema ${plan.to.version}`, { differences: after.differences });

  // The commit itself follows when this returns; a failing COMMIT still reports this step.
  enter('commit');
  const all = <K extends 'addedColumns' | 'rebuiltTables' | 'createdTables'>(k: K) => [...new Set(steps.flatMap((st) => st[k]))];
  return {
    steps,
    addedColumns: all('addedColumns'),
    rebuiltTables: all('rebuiltTables'),
    createdTables: all('createdTables'),
    dataSteps: steps.flatMap((st) => st.dataSteps),
  };
}

/**
 * One AutoMigration, in the order Room's generated code runs it: views dropped, columns added,
 * tables created, tables rebuilt (each checked for foreign keys after, as Room does), views
 * created, the spec's data fix. Step names carry the target version: `63: add book_groups.enableRefresh`.
 */
function runStep(db: Db, step: UpgradeStep, enter: (name: string) => void, fail: (detail: string, found?: Found) => MigrationFailedError): StepSummary {
  const v = step.to.version;
  for (const view of step.droppedViews) {
    enter(`${v}: drop view ${view.name}`);
    db.exec(dropViewSql(view));
  }
  for (const { table, column } of step.addedColumns) {
    enter(`${v}: add ${table.name}.${column.name}`);
    db.exec(addColumnSql(table, column));
  }
  for (const t of step.createdTables) {
    enter(`${v}: create ${t.name}`);
    for (const s of [createTableSql(t), ...createIndexSql(t)]) db.exec(s);
  }
  for (const r of step.rebuiltTables) {
    enter(`${v}: rebuild ${r.to.name}`);
    const sql = rebuildSql(r);
    const had = db
      .prepare(`SELECT count(*) FROM ${q(r.to.name)}`)
      .pluck()
      .get() as number;
    db.exec(sql.create);
    const copied = db.prepare(sql.copy).run().changes;
    // Every row, so every key the children (chapters -> books) point at, is carried over.
    if (copied !== had) throw fail(`${r.to.name}: copied ${copied} of ${had} rows`);
    for (const s of sql.replace) db.exec(s);
    const violations = foreignKeyViolations(db, [r.to]);
    if (violations.length) throw fail(`${violations.length} foreign-key violation(s)`, { violations });
  }
  for (const view of step.createdViews) {
    enter(`${v}: create view ${view.name}`);
    db.exec(createViewSql(view));
  }
  const dataSteps = step.dataSteps.map((d) => {
    enter(d.name);
    return { name: d.name, rowsChanged: d.sql.reduce((n, s) => n + db.prepare(s).run().changes, 0) };
  });
  return {
    from: step.from.version,
    to: v,
    addedColumns: step.addedColumns.map(({ table, column }) => `${table.name}.${column.name}`),
    createdTables: step.createdTables.map((t) => t.name),
    rebuiltTables: step.rebuiltTables.map((r) => r.to.name),
    createdViews: step.createdViews.map((w) => w.name),
    dataSteps,
  };
}
