// Derives one schema version from its neighbour by a short list of changes, at run time and,
// in parallel, in the types: tables created or absent, columns added (at their place in the
// app's entity, which is the order Room writes them in) or dropped, defaults and NOT NULL
// changed, primary keys and indices replaced, views created or removed.
import type { ColumnSpec, IndexSpec, SchemaSpec, TableSpec } from './column.js';

export interface TableChanges {
  /** Columns added, keyed by the field they follow ('' puts them first), in their order. */
  readonly addAfter?: Readonly<Record<string, Readonly<Record<string, ColumnSpec>>>> | undefined;
  readonly drop?: readonly string[] | undefined;
  /** New default literal per field; null means "no default". */
  readonly defaults?: Readonly<Record<string, string | null>> | undefined;
  readonly notNull?: Readonly<Record<string, boolean>> | undefined;
  /** The app's rules on a field's values (ColumnSpec.min, entityDefault) changed; null removes one. */
  readonly appRules?: Readonly<Record<string, { readonly min?: number | null; readonly entityDefault?: string | null }>> | undefined;
  /** A new primary key (field names, in order). */
  readonly primaryKey?: readonly string[] | undefined;
  /** The table's indices, replaced as a whole. */
  readonly indices?: readonly IndexSpec[] | undefined;
}

/** A table that the neighbour lacks, and where it stands among the tables. */
export interface CreateTable {
  readonly create: TableSpec;
  /** The table it follows in the app's entity list (Room's order of CREATE statements); last when left out. */
  readonly after?: string | undefined;
}

export type TableChange = TableChanges | CreateTable | 'absent';
export type SchemaChanges = Readonly<Record<string, TableChange>>;

/** Views by name: the query text as the app's @DatabaseView declares it; null removes the view. */
export type ViewChanges = Readonly<Record<string, string | null>>;
export type ViewSpec = Readonly<Record<string, string>>;

// ---- types ----------------------------------------------------------------------------------

type AbsentTables<C> = { [K in keyof C]: C[K] extends 'absent' ? K : never }[keyof C];
type CreatedTables<C> = { [K in keyof C]: C[K] extends { readonly create: TableSpec } ? K : never }[keyof C];
type Dropped<C> = C extends { readonly drop: readonly (infer F)[] } ? F : never;
type Field<C, P extends string> = C extends { readonly [K in P]: infer D } ? D : Record<never, never>;

/** The added columns of a change, flattened out of their anchors. */
type AddedKeys<A> = { [K in keyof A]: keyof A[K] }[keyof A];
type AddedColumn<A, F> = { [K in keyof A]: F extends keyof A[K] ? A[K][F] : never }[keyof A];
type Added<C> = C extends { readonly addAfter: infer A } ? { [F in AddedKeys<A>]: AddedColumn<A, F> } : Record<never, never>;

type WithDefault<Col, D> = Omit<Col, 'default'> & { readonly default: D extends string ? D : undefined };
type WithNotNull<Col, N> = Omit<Col, 'notNull'> & { readonly notNull: N };
type AlterColumn<Col, F, C> = F extends keyof Field<C, 'notNull'> ? WithNotNull<AlterDefault<Col, F, C>, Field<C, 'notNull'>[F]> : AlterDefault<Col, F, C>;
type AlterDefault<Col, F, C> = F extends keyof Field<C, 'defaults'> ? WithDefault<Col, Field<C, 'defaults'>[F]> : Col;

type ApplyColumns<Cols, C> = {
  readonly [F in Exclude<keyof Cols, Dropped<C>> | keyof Added<C>]: F extends keyof Added<C>
    ? Added<C>[F]
    : F extends keyof Cols
      ? AlterColumn<Cols[F], F, C>
      : never;
};

type Replaced<T, C, P extends string> = C extends { readonly [K in P]: infer V } ? { readonly [K in P]: V } : Pick<T, P & keyof T>;

type ApplyTable<T extends TableSpec, C> = Omit<T, 'columns' | 'primaryKey' | 'indices'> & {
  readonly columns: ApplyColumns<T['columns'], C>;
} & Replaced<T, C, 'primaryKey'> &
  Replaced<T, C, 'indices'>;

/** The schema `changes` make of `base`, as a type. */
export type Applied<S extends SchemaSpec, C extends SchemaChanges> = {
  readonly [K in Exclude<keyof S, AbsentTables<C>> | CreatedTables<C>]: K extends CreatedTables<C>
    ? C[K] extends { readonly create: infer T }
      ? T
      : never
    : K extends keyof S
      ? K extends keyof C
        ? ApplyTable<S[K], C[K]>
        : S[K]
      : never;
};

// ---- values ---------------------------------------------------------------------------------

const fail = (message: string): never => {
  throw new Error(`schema changes: ${message}`);
};

function applyTable(name: string, table: TableSpec, change: TableChanges): TableSpec {
  const known = (field: string): void => {
    if (!(field in table.columns)) fail(`unknown field ${name}.${field}`);
  };
  for (const f of [...(change.drop ?? []), ...Object.keys(change.defaults ?? {}), ...Object.keys(change.notNull ?? {}), ...Object.keys(change.appRules ?? {})])
    known(f);
  const anchors = change.addAfter ?? {};
  for (const a of Object.keys(anchors)) if (a !== '') known(a);
  const columns: Record<string, ColumnSpec> = {};
  const add = (cols: Readonly<Record<string, ColumnSpec>> | undefined): void => {
    for (const [f, c] of Object.entries(cols ?? {})) {
      if (f in table.columns) fail(`${name}.${f} is added but exists`);
      columns[f] = c;
    }
  };
  add(anchors['']);
  for (const [field, col] of Object.entries(table.columns)) {
    if (!change.drop?.includes(field)) {
      let c: ColumnSpec = col;
      const dflt = change.defaults?.[field];
      if (dflt !== undefined) {
        const { default: _old, ...rest } = c;
        c = dflt === null ? rest : { ...rest, default: dflt };
      }
      const notNull = change.notNull?.[field];
      if (notNull !== undefined) c = { ...c, notNull };
      const rules = change.appRules?.[field];
      if (rules) {
        const { min: _min, entityDefault: _entity, ...rest } = c;
        const min = rules.min === undefined ? c.min : (rules.min ?? undefined);
        const entityDefault = rules.entityDefault === undefined ? c.entityDefault : (rules.entityDefault ?? undefined);
        c = { ...rest, ...(min !== undefined ? { min } : {}), ...(entityDefault !== undefined ? { entityDefault } : {}) };
      }
      columns[field] = c;
    }
    add(anchors[field]);
  }
  const out: { -readonly [K in keyof TableSpec]: TableSpec[K] } = { ...table, columns };
  if (change.primaryKey) out.primaryKey = change.primaryKey;
  if (change.indices) out.indices = change.indices;
  for (const f of out.primaryKey) if (!(f in columns)) fail(`${name}: key field ${f} is not a column`);
  return out;
}

export function applyChanges<S extends SchemaSpec, const C extends SchemaChanges>(base: S, changes: C): Applied<S, C> {
  const out: Record<string, TableSpec> = {};
  const created = Object.entries(changes).filter((e): e is [string, CreateTable] => typeof e[1] === 'object' && 'create' in e[1]);
  for (const [name, change] of Object.entries(changes)) {
    const isCreate = typeof change === 'object' && 'create' in change;
    if (isCreate && name in base) fail(`table ${name} is created but exists`);
    if (!isCreate && !(name in base)) fail(`unknown table ${name}`);
  }
  const place = (after: string): void => {
    for (const [name, c] of created) if ((c.after ?? '') === after) out[name] = c.create;
  };
  for (const [name, table] of Object.entries(base)) {
    const change = changes[name];
    if (change === undefined) out[name] = table;
    else if (change !== 'absent') out[name] = applyTable(name, table, change as TableChanges);
    place(name);
  }
  for (const [name, c] of created) {
    if (c.after !== undefined && !(c.after in base)) fail(`table ${name} follows unknown table ${c.after}`);
    if (c.after === undefined) out[name] = c.create;
  }
  return out as Applied<S, C>;
}

export function applyViewChanges(base: ViewSpec, changes: ViewChanges | undefined): ViewSpec {
  const out: Record<string, string> = { ...base };
  for (const [name, query] of Object.entries(changes ?? {})) {
    if (query === null) {
      if (!(name in out)) fail(`unknown view ${name}`);
      delete out[name];
    } else out[name] = query;
  }
  return out;
}
