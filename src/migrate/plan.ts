// What upgrading a file from one schema version to a later one does: the app's chain of Room
// AutoMigrations, one step per pair of neighbouring versions, each derived from the two schema
// models alone with the rules Room's generated code follows (legado-data-layer.md 5.1):
// - a new column on a table that is otherwise unchanged is an ALTER TABLE ADD COLUMN;
// - any change to an existing column (type, NOT NULL, default, key), a deleted column, or
//   changed indices or foreign keys rebuilds the whole table (SQLite cannot alter those);
// - a new table is created with its indices; every view is dropped first and the new
//   version's views are created last;
// - the app's specs add what a model cannot say: the data step of 54->55 and the
//   @DeleteColumn of 64->65 (specs.ts).
import { SUPPORTED_VERSIONS, schemas, type VersionedSchema } from '../schema/index.js';
import type { Column, Table, View } from '../schema/model.js';
import { DATA_STEPS, DELETED_COLUMNS, type DataStep } from './specs.js';

export interface AddedColumn {
  readonly table: Table;
  readonly column: Column;
}

export interface RebuiltTable {
  readonly from: Table;
  readonly to: Table;
  /** SQL names of the columns both versions have, in the new table's order: the ones copied. */
  readonly copied: readonly string[];
}

/** One AutoMigration: from a version to the next one the store knows. */
export interface UpgradeStep {
  readonly from: VersionedSchema;
  readonly to: VersionedSchema;
  /** Views of the old version, dropped first. */
  readonly droppedViews: readonly View[];
  /** New columns of tables that are not rebuilt, in the target's column order. */
  readonly addedColumns: readonly AddedColumn[];
  /** Tables the target has and the source does not. */
  readonly createdTables: readonly Table[];
  /** Tables whose existing columns, indices or keys changed; their new columns come with the rebuild. */
  readonly rebuiltTables: readonly RebuiltTable[];
  /** Views of the new version, created last. */
  readonly createdViews: readonly View[];
  /** The app's data fix run after the schema changes (its spec's onPostMigrate). */
  readonly dataSteps: readonly DataStep[];
}

export interface UpgradePlan {
  readonly from: VersionedSchema;
  readonly to: VersionedSchema;
  /** One step per pair of neighbouring versions, in order. */
  readonly steps: readonly UpgradeStep[];
}

/** The chain from one version to a later one, through every version the store knows between them. */
export function planUpgrade(from: VersionedSchema, to: VersionedSchema): UpgradePlan {
  if (to.version <= from.version) throw new Error(`no upgrade from schema ${from.version} to ${to.version}`);
  const chain = SUPPORTED_VERSIONS.filter((v) => v >= from.version && v <= to.version).sort((a, b) => a - b);
  const steps: UpgradeStep[] = [];
  for (let i = 1; i < chain.length; i++) steps.push(planStep(schemas[chain[i - 1]!], schemas[chain[i]!]));
  return { from, to, steps };
}

/** One AutoMigration, derived from the two models and the app's specs for it. */
export function planStep(from: VersionedSchema, to: VersionedSchema): UpgradeStep {
  const dropped = from.tables.filter((t) => !to.table(t.name)).map((t) => t.name);
  if (dropped.length) throw new Error(`upgrade ${from.version}->${to.version} would drop tables (${dropped.join(', ')}); not supported`);
  const deletable = DELETED_COLUMNS.filter((d) => d.version > from.version && d.version <= to.version);
  const addedColumns: AddedColumn[] = [];
  const rebuiltTables: RebuiltTable[] = [];
  const createdTables: Table[] = [];
  for (const t of to.tables) {
    const old = from.table(t.name);
    if (!old) {
      createdTables.push(t);
      continue;
    }
    // Room deletes a column only where the app's spec says so (@DeleteColumn); anything else is a model error.
    for (const c of old.columns) {
      if (t.columns.some((n) => n.name === c.name)) continue;
      if (!deletable.some((d) => d.table === t.name && d.column === c.name)) {
        throw new Error(`upgrade ${from.version}->${to.version} would delete ${t.name}.${c.name}, which no spec of the app deletes`);
      }
    }
    if (needsRebuild(old, t)) {
      const copied = t.columns.map((c) => c.name).filter((n) => old.columns.some((c) => c.name === n));
      rebuiltTables.push({ from: old, to: t, copied });
      continue;
    }
    for (const c of t.columns) {
      if (old.columns.some((o) => o.name === c.name)) continue;
      // SQLite refuses to ADD a NOT NULL column without a default, and so does Room.
      if (c.notNull && c.default === undefined) throw new Error(`${t.name}.${c.name}: a new NOT NULL column needs a default`);
      addedColumns.push({ table: t, column: c });
    }
  }
  const dataSteps = DATA_STEPS.filter((s) => s.version > from.version && s.version <= to.version);
  return { from, to, droppedViews: from.views, addedColumns, createdTables, rebuiltTables, createdViews: to.views, dataSteps };
}

/** True when the table cannot reach its new form by ALTER TABLE ADD COLUMN alone. */
export function needsRebuild(from: Table, to: Table): boolean {
  const toByName = new Map(to.columns.map((c) => [c.name, c]));
  for (const c of from.columns) {
    const n = toByName.get(c.name);
    if (!n) return true;
    if (n.affinity !== c.affinity || n.notNull !== c.notNull || n.default !== c.default || n.pk !== c.pk) return true;
  }
  // A new key column cannot be added by ALTER either.
  if (to.columns.some((c) => c.pk > 0 && !from.columns.some((o) => o.name === c.name))) return true;
  return from.autoGenerate !== to.autoGenerate || keyText(from) !== keyText(to);
}

/** Indices and foreign keys as one comparable text, independent of declaration order. */
function keyText(t: Table): string {
  const ix = t.indices.map((i) => `${i.unique ? 'U' : ''}${i.name}(${i.columns.join(',')})`).sort();
  const fk = t.foreignKeys.map((f) => `${f.columns.join(',')}>${f.parent}(${f.parentColumns.join(',')})${f.onDelete}/${f.onUpdate}`).sort();
  return JSON.stringify([ix, fk]);
}

/** Every table the plan creates, under its own name or as `_new_<table>`, and every view: what must not exist yet. */
export function namesCreated(plan: UpgradePlan): { tables: string[]; views: string[] } {
  const tables = new Set<string>();
  const views = new Set<string>();
  const existing = new Set(plan.from.tables.map((t) => t.name));
  const before = new Set(plan.from.views.map((v) => v.name));
  for (const s of plan.steps) {
    for (const t of s.createdTables) if (!existing.has(t.name)) tables.add(t.name);
    for (const r of s.rebuiltTables) tables.add(`_new_${r.to.name}`);
    for (const v of s.createdViews) if (!before.has(v.name)) views.add(v.name);
  }
  return { tables: [...tables], views: [...views] };
}
