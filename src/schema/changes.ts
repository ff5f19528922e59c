// Derives one schema version from another by a list of differences: tables that are absent,
// columns that are dropped, defaults that differ. Works on values and, in parallel, on types.
import type { ColumnSpec, SchemaSpec, TableSpec } from './column.js';

export interface TableChanges {
  readonly drop?: readonly string[];
  /** New default literal per field; null means "no default". */
  readonly defaults?: Readonly<Record<string, string | null>>;
}

export type SchemaChanges = Readonly<Record<string, TableChanges | 'absent'>>;

type AbsentTables<C> = { [K in keyof C]: C[K] extends 'absent' ? K : never }[keyof C];
type Dropped<C> = C extends { readonly drop: readonly (infer F)[] } ? F : never;
type NewDefaults<C> = C extends { readonly defaults: infer D } ? D : {};

type WithDefault<Col, D> = Omit<Col, 'default'> & { readonly default: D extends string ? D : undefined };

type ApplyTable<T extends TableSpec, C> = Omit<T, 'columns'> & {
  readonly columns: {
    readonly [F in Exclude<keyof T['columns'], Dropped<C>>]: F extends keyof NewDefaults<C>
      ? WithDefault<T['columns'][F], NewDefaults<C>[F]>
      : T['columns'][F];
  };
};

export type Applied<S extends SchemaSpec, C extends SchemaChanges> = {
  readonly [K in Exclude<keyof S, AbsentTables<C>>]: K extends keyof C ? ApplyTable<S[K], C[K]> : S[K];
};

export function applyChanges<S extends SchemaSpec, C extends SchemaChanges>(base: S, changes: C): Applied<S, C> {
  for (const name of Object.keys(changes)) {
    if (!(name in base)) throw new Error(`schema changes name unknown table ${name}`);
  }
  const out: Record<string, TableSpec> = {};
  for (const [name, table] of Object.entries(base)) {
    const change = changes[name];
    if (change === 'absent') continue;
    if (change === undefined) {
      out[name] = table;
      continue;
    }
    const columns: Record<string, ColumnSpec> = {};
    for (const [field, col] of Object.entries(table.columns)) {
      if (change.drop?.includes(field)) continue;
      const dflt = change.defaults?.[field];
      if (dflt === undefined) {
        columns[field] = col;
      } else {
        const { default: _old, ...rest } = col;
        columns[field] = dflt === null ? rest : { ...rest, default: dflt };
      }
    }
    for (const field of [...(change.drop ?? []), ...Object.keys(change.defaults ?? {})]) {
      if (!(field in table.columns)) throw new Error(`schema changes name unknown field ${name}.${field}`);
    }
    out[name] = { ...table, columns };
  }
  return out as Applied<S, C>;
}
