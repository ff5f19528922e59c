// TypeScript row types derived from the declarations: nothing here names a table or a field.
import type { SchemaSpec, TableSpec } from './column.js';
import type { SchemaVersion, SpecOf } from './index.js';

type JsOf<K> = K extends 'string' ? string : K extends 'number' ? number : K extends 'boolean' ? boolean : K extends 'bigint' ? bigint : never;
/** Bitmask fields are read as bigint; numbers that fit are accepted when writing. */
type JsIn<K> = K extends 'bigint' ? bigint | number : JsOf<K>;

type Cols<T extends TableSpec> = T['columns'];
type Nullable<C> = C extends { readonly notNull: true } ? never : null;
type HasDefault<C> = C extends { readonly default: string } ? true : false;

/** Fields a caller may leave out: nullable ones, ones with a column default, an auto-generated key. */
type OptionalField<T extends TableSpec, F extends keyof Cols<T>> = F extends unknown
  ? Cols<T>[F] extends { readonly notNull: false }
    ? F
    : HasDefault<Cols<T>[F]> extends true
      ? F
      : T extends { readonly autoGenerate: true }
        ? F extends T['primaryKey'][number]
          ? F
          : never
        : never
  : never;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** A row as the store returns it. */
export type RowOf<T extends TableSpec> = Simplify<{
  -readonly [F in keyof Cols<T>]: JsOf<Cols<T>[F]['js']> | Nullable<Cols<T>[F]>;
}>;

/** A row as insert and upsert take it: omitted fields take the column default. */
export type NewRowOf<T extends TableSpec> = Simplify<
  {
    -readonly [F in Exclude<keyof Cols<T>, OptionalField<T, keyof Cols<T>>>]: JsIn<Cols<T>[F]['js']>;
  } & {
    -readonly [F in OptionalField<T, keyof Cols<T>>]?: JsIn<Cols<T>[F]['js']> | Nullable<Cols<T>[F]>;
  }
>;

/** Fields update may change: any but the primary key. */
export type PatchOf<T extends TableSpec> = Simplify<{
  -readonly [F in Exclude<keyof Cols<T>, T['primaryKey'][number]>]?: JsIn<Cols<T>[F]['js']> | Nullable<Cols<T>[F]>;
}>;

/** A primary key: the value itself for a one-field key, an object for a composite key. */
export type KeyOf<T extends TableSpec> = T['primaryKey'] extends readonly [infer F extends keyof Cols<T>]
  ? JsIn<Cols<T>[F]['js']>
  : Simplify<{ -readonly [F in T['primaryKey'][number] & keyof Cols<T>]: JsIn<Cols<T>[F]['js']> }>;

export type { SpecOf };
export type TableName<V extends SchemaVersion = 62> = keyof SpecOf<V> & string;
type TableSpecOf<V extends SchemaVersion, N extends TableName<V>> = SpecOf<V>[N] extends TableSpec ? SpecOf<V>[N] : never;

export type Row<N extends TableName<V>, V extends SchemaVersion = 62> = RowOf<TableSpecOf<V, N>>;
export type NewRow<N extends TableName<V>, V extends SchemaVersion = 62> = NewRowOf<TableSpecOf<V, N>>;
export type Patch<N extends TableName<V>, V extends SchemaVersion = 62> = PatchOf<TableSpecOf<V, N>>;
export type Key<N extends TableName<V>, V extends SchemaVersion = 62> = KeyOf<TableSpecOf<V, N>>;

export type { SchemaSpec };
