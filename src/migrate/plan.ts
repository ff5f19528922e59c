// What upgrading one schema version to another changes, derived from the two schema models
// alone, with the rule Room's AutoMigration uses (legado-data-layer.md 5.1): a new column on a
// table that is otherwise unchanged is an ALTER TABLE ADD COLUMN; any change to an existing
// column (type, NOT NULL, default, key), a removed column, or changed indices or foreign keys
// rebuilds the whole table, because SQLite cannot alter those in place.
import type { VersionedSchema } from '../schema/index.js';
import type { Column, Table } from '../schema/model.js';
import { DATA_STEPS, type DataStep } from './data-steps.js';

export interface AddedColumn {
  readonly table: Table;
  readonly column: Column;
}

export interface RebuiltTable {
  readonly from: Table;
  readonly to: Table;
  /** SQL names of the columns both versions have: the ones copied, by name. */
  readonly copied: readonly string[];
}

export interface UpgradePlan {
  readonly from: VersionedSchema;
  readonly to: VersionedSchema;
  /** New columns of tables that are not rebuilt, in the target's column order. */
  readonly addedColumns: readonly AddedColumn[];
  /** Tables whose existing columns, indices or keys changed; their new columns come with the rebuild. */
  readonly rebuiltTables: readonly RebuiltTable[];
  /** Tables the target has and the source does not. */
  readonly createdTables: readonly Table[];
  /** The app's data fixes that belong to a version between the two. */
  readonly dataSteps: readonly DataStep[];
}

export function planUpgrade(from: VersionedSchema, to: VersionedSchema): UpgradePlan {
  if (to.version <= from.version) throw new Error(`no upgrade from schema ${from.version} to ${to.version}`);
  const dropped = from.tables.filter((t) => !to.table(t.name)).map((t) => t.name);
  if (dropped.length) throw new Error(`upgrade ${from.version}->${to.version} would drop tables (${dropped.join(', ')}); not supported`);
  const addedColumns: AddedColumn[] = [];
  const rebuiltTables: RebuiltTable[] = [];
  const createdTables: Table[] = [];
  for (const t of to.tables) {
    const old = from.table(t.name);
    if (!old) {
      createdTables.push(t);
    } else if (needsRebuild(old, t)) {
      const copied = old.columns.map((c) => c.name).filter((n) => t.columns.some((c) => c.name === n));
      rebuiltTables.push({ from: old, to: t, copied });
    } else {
      for (const c of t.columns) {
        if (old.columns.some((o) => o.name === c.name)) continue;
        // SQLite refuses to ADD a NOT NULL column without a default, and so does Room.
        if (c.notNull && c.default === undefined) throw new Error(`${t.name}.${c.name}: a new NOT NULL column needs a default`);
        addedColumns.push({ table: t, column: c });
      }
    }
  }
  const dataSteps = DATA_STEPS.filter((s) => s.version > from.version && s.version <= to.version);
  return { from, to, addedColumns, rebuiltTables, createdTables, dataSteps };
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
