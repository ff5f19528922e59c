// The vocabulary the schema is declared in. A column is plain data; the helpers only keep
// the declarations short and keep their literal types so row types can be derived from them.

/** SQLite storage affinity as Room declares it. The app only uses these two. */
export type Affinity = 'TEXT' | 'INTEGER';

/** How a column's value looks in JavaScript. */
export type JsKind = 'string' | 'number' | 'boolean' | 'bigint';

export interface ColumnSpec {
  readonly affinity: Affinity;
  readonly js: JsKind;
  readonly notNull: boolean;
  /** The default as Room exports it and writes it into the DDL (`''`, `'loc_book'`, `0`, `-1`). */
  readonly default?: string | undefined;
  /** The SQL column when it differs from the field name (replace_rules.order -> sortOrder). */
  readonly column?: string | undefined;
  /**
   * The app's field is a Kotlin Int (32 bits): a value outside -2^31..2^31-1 cannot be read by
   * it. Other number columns are Kotlin Long: 64 bits, read as a number within ±(2^53-1) and
   * as a bigint past that (src/table/codec.ts, docs/integer-ranges.md).
   */
  readonly int32?: boolean | undefined;
  /**
   * The smallest value the app's code gives the field, where the column's type allows less:
   * books.type from 55 on, a bitmask in which every book has a kind bit (8 and up). A smaller
   * value written is refused.
   */
  readonly min?: number | undefined;
  /**
   * What the app's entity sets when a field is not given, where it differs from Room's DDL
   * default (which the app never relies on, since Room writes every column): books.type's DDL
   * default is 0, the entity's BookType.text (8). An omitted field takes this.
   */
  readonly entityDefault?: string | undefined;
}

type Col<J extends JsKind, N extends boolean, D extends string | undefined> = {
  readonly affinity: J extends 'string' ? 'TEXT' : 'INTEGER';
  readonly js: J;
  readonly notNull: N;
  readonly default: D;
  readonly int32?: boolean;
};

function make<J extends JsKind, N extends boolean, const D extends string | undefined>(js: J, notNull: N, dflt: D, int32 = false): Col<J, N, D> {
  const affinity = (js === 'string' ? 'TEXT' : 'INTEGER') as Col<J, N, D>['affinity'];
  const col = (dflt === undefined ? { affinity, js, notNull } : { affinity, js, notNull, default: dflt }) as Col<J, N, D>;
  return int32 ? { ...col, int32 } : col;
}

/** Required (NOT NULL) columns, with an optional DDL default literal. `int` is a Kotlin Int, `long` a Kotlin Long. */
export const req = {
  text: <const D extends string | undefined = undefined>(dflt?: D) => make('string', true, dflt as D),
  int: <const D extends string | undefined = undefined>(dflt?: D) => make('number', true, dflt as D, true),
  long: <const D extends string | undefined = undefined>(dflt?: D) => make('number', true, dflt as D),
  bool: <const D extends string | undefined = undefined>(dflt?: D) => make('boolean', true, dflt as D),
  /** 64-bit bitmasks (books.group, book_groups.groupId) that a JS number cannot hold. */
  bigint: <const D extends string | undefined = undefined>(dflt?: D) => make('bigint', true, dflt as D),
};

/** Nullable columns. */
export const opt = {
  text: <const D extends string | undefined = undefined>(dflt?: D) => make('string', false, dflt as D),
  int: <const D extends string | undefined = undefined>(dflt?: D) => make('number', false, dflt as D, true),
  long: <const D extends string | undefined = undefined>(dflt?: D) => make('number', false, dflt as D),
  bool: <const D extends string | undefined = undefined>(dflt?: D) => make('boolean', false, dflt as D),
};

/** Stores a field under another column name. */
export function renamed<C extends ColumnSpec, const S extends string>(spec: C, column: S): C & { readonly column: S } {
  return { ...spec, column };
}

export type ForeignKeyAction = 'NO ACTION' | 'CASCADE' | 'SET NULL' | 'SET DEFAULT' | 'RESTRICT';

export interface IndexSpec {
  /** Field names, in index order. The index name is derived: index_<table>_<columns>. */
  readonly fields: readonly string[];
  readonly unique: boolean;
}

export interface ForeignKeySpec {
  readonly fields: readonly string[];
  readonly parent: string;
  readonly parentFields: readonly string[];
  readonly onDelete: ForeignKeyAction;
  readonly onUpdate: ForeignKeyAction;
}

export interface TableSpec {
  readonly columns: Readonly<Record<string, ColumnSpec>>;
  /** Primary-key fields in declared order. */
  readonly primaryKey: readonly string[];
  /** Room's autoGenerate: the key is written inline as INTEGER PRIMARY KEY AUTOINCREMENT. */
  readonly autoGenerate?: boolean | undefined;
  readonly indices?: readonly IndexSpec[] | undefined;
  readonly foreignKeys?: readonly ForeignKeySpec[] | undefined;
}

export type SchemaSpec = Readonly<Record<string, TableSpec>>;
