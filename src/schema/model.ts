// The normalised run-time model every other layer reads: tables with their columns in order,
// SQL names resolved, index names derived the way Room names them.
import type { Affinity, ForeignKeyAction, JsKind, SchemaSpec } from './column.js';

export interface Column {
  /** Field name in the API and in the app's JSON. */
  readonly field: string;
  /** SQL column name. */
  readonly name: string;
  readonly affinity: Affinity;
  readonly js: JsKind;
  readonly notNull: boolean;
  readonly default: string | undefined;
  /** The app's field is a Kotlin Int (32 bits); other number columns are Longs. */
  readonly int32: boolean;
  /** ColumnSpec.min: the smallest value the app's code gives the field. */
  readonly min?: number | undefined;
  /** ColumnSpec.entityDefault: what an omitted field becomes when it differs from the DDL default. */
  readonly entityDefault?: string | undefined;
  /** 1-based position in the primary key, 0 when not part of it (as PRAGMA table_info reports). */
  readonly pk: number;
}

export interface Index {
  readonly name: string;
  readonly columns: readonly string[];
  readonly unique: boolean;
}

export interface ForeignKey {
  readonly columns: readonly string[];
  readonly parent: string;
  readonly parentColumns: readonly string[];
  readonly onDelete: ForeignKeyAction;
  readonly onUpdate: ForeignKeyAction;
}

export interface Table {
  readonly name: string;
  readonly columns: readonly Column[];
  readonly primaryKey: readonly Column[];
  readonly autoGenerate: boolean;
  readonly indices: readonly Index[];
  readonly foreignKeys: readonly ForeignKey[];
  column(field: string): Column | undefined;
}

/** A view: Room checks it by comparing its stored SQL text with `CREATE VIEW `name` AS <query>`. */
export interface View {
  readonly name: string;
  /** The query exactly as the app declares it (its text is part of the identity hash). */
  readonly query: string;
}

export interface Schema {
  readonly version: number;
  readonly tables: readonly Table[];
  readonly views: readonly View[];
  table(name: string): Table | undefined;
}

export function buildSchema(version: number, spec: SchemaSpec, views: Readonly<Record<string, string>> = {}): Schema {
  const tables: Table[] = [];
  for (const [name, t] of Object.entries(spec)) {
    const byField = new Map<string, Column>();
    const columns = Object.entries(t.columns).map(([field, c]): Column => {
      const pkAt = t.primaryKey.indexOf(field);
      const col: Column = {
        field,
        name: c.column ?? field,
        affinity: c.affinity,
        js: c.js,
        notNull: c.notNull,
        default: c.default,
        int32: c.int32 ?? false,
        ...(c.min !== undefined ? { min: c.min } : {}),
        ...(c.entityDefault !== undefined ? { entityDefault: c.entityDefault } : {}),
        pk: pkAt + 1,
      };
      byField.set(field, col);
      return col;
    });
    const sqlName = (field: string, table = name): string => {
      const col = table === name ? byField.get(field) : spec[table]?.columns[field];
      if (!col) throw new Error(`schema ${version}: unknown field ${table}.${field}`);
      return 'name' in col ? col.name : (col.column ?? field);
    };
    const primaryKey = t.primaryKey.map((f) => byField.get(f) ?? fail(`${name}: unknown key field ${f}`));
    const indices = (t.indices ?? []).map((ix): Index => {
      const cols = ix.fields.map((f) => sqlName(f));
      return { name: `index_${name}_${cols.join('_')}`, columns: cols, unique: ix.unique };
    });
    const foreignKeys = (t.foreignKeys ?? []).map(
      (fk): ForeignKey => ({
        columns: fk.fields.map((f) => sqlName(f)),
        parent: fk.parent,
        parentColumns: fk.parentFields.map((f) => sqlName(f, fk.parent)),
        onDelete: fk.onDelete,
        onUpdate: fk.onUpdate,
      }),
    );
    tables.push({
      name,
      columns,
      primaryKey,
      autoGenerate: t.autoGenerate ?? false,
      indices,
      foreignKeys,
      column: (field) => byField.get(field),
    });
  }
  const byName = new Map(tables.map((t) => [t.name, t]));
  const viewList = Object.entries(views).map(([name, query]): View => ({ name, query }));
  return { version, tables, views: viewList, table: (n) => byName.get(n) };
}

function fail(message: string): never {
  throw new Error(message);
}
