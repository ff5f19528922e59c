// Every failure the store reports is one of these classes, with a stable `code` and the
// table, field(s), index and value involved, so callers can branch on it and people can read it.

export type ErrorCode =
  | 'DUPLICATE_KEY'
  | 'UNIQUE_VIOLATION'
  | 'MISSING_FIELD'
  | 'FOREIGN_KEY_VIOLATION'
  | 'WRONG_TYPE'
  | 'UNKNOWN_FIELD'
  | 'UNKNOWN_TABLE'
  | 'SCHEMA_MISMATCH'
  | 'UNSUPPORTED_VERSION'
  | 'VERSION_MISMATCH'
  | 'NOT_A_DATABASE'
  | 'FILE_NOT_FOUND'
  | 'READ_ONLY'
  | 'INVALID_JSON'
  | 'UNSUPPORTED_INPUT'
  | 'IMPORT_REJECTED'
  | 'DECRYPT_FAILED'
  | 'IN_TRANSACTION'
  | 'LIMIT_REACHED'
  | 'MIGRATION_FAILED'
  | 'FILE_EXISTS';

export class LegadoStoreError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.code = code;
    this.name = new.target.name;
  }
}

/** Renders a value for a one-line message; the full value stays on the error object. */
export function show(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (value === undefined) return 'undefined';
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

const showFields = (fields: readonly string[], values: readonly unknown[]): string =>
  fields.length === 1
    ? `${fields[0]} = ${show(values[0])}`
    : `(${fields.join(', ')}) = (${values.map(show).join(', ')})`;

/** Base of the errors raised by a row that breaks a constraint of a table. */
export class ConstraintError extends LegadoStoreError {
  readonly table: string;
  readonly fields: readonly string[];
  readonly value: unknown;
  constructor(code: ErrorCode, table: string, fields: readonly string[], value: unknown, message: string) {
    super(code, message);
    this.table = table;
    this.fields = fields;
    this.value = value;
  }
}

export class UniqueViolationError extends ConstraintError {
  readonly index: string;
  constructor(table: string, index: string, fields: readonly string[], values: readonly unknown[], code: ErrorCode = 'UNIQUE_VIOLATION') {
    const what = code === 'DUPLICATE_KEY' ? 'duplicate primary key' : `duplicate in unique index ${index}`;
    super(code, table, fields, values.length === 1 ? values[0] : values, `${table}: ${what}: ${showFields(fields, values)}`);
    this.index = index;
  }
}

/** A second row with the same primary key. `index` names the unique index when one covers the key too. */
export class DuplicateKeyError extends UniqueViolationError {
  constructor(table: string, index: string, fields: readonly string[], values: readonly unknown[]) {
    super(table, index, fields, values, 'DUPLICATE_KEY');
  }
}

export class MissingFieldError extends ConstraintError {
  constructor(table: string, field: string, value: null | undefined) {
    super('MISSING_FIELD', table, [field], value, `${table}.${field}: required field is ${value === null ? 'null' : 'missing'}`);
  }
}

export class ForeignKeyError extends ConstraintError {
  readonly parent: string;
  readonly parentFields: readonly string[];
  constructor(table: string, fields: readonly string[], values: readonly unknown[], parent: string, parentFields: readonly string[]) {
    const value = values.length === 1 ? values[0] : values;
    super(
      'FOREIGN_KEY_VIOLATION',
      table,
      fields,
      value,
      `${table}: ${showFields(fields, values)} references a missing ${parent} row (${parentFields.join(', ')})`,
    );
    this.parent = parent;
    this.parentFields = parentFields;
  }
}

export class ValueTypeError extends ConstraintError {
  readonly expected: string;
  constructor(table: string, field: string, value: unknown, expected: string) {
    super('WRONG_TYPE', table, [field], value, `${table}.${field}: expected ${expected}, got ${describe(value)}`);
    this.expected = expected;
  }
}

export class UnknownFieldError extends ConstraintError {
  constructor(table: string, field: string, version: number) {
    super('UNKNOWN_FIELD', table, [field], undefined, `${table}: no field ${field} at schema ${version}`);
  }
}

export class UnknownTableError extends LegadoStoreError {
  readonly table: string;
  constructor(table: string, version: number) {
    super('UNKNOWN_TABLE', `no table ${table} at schema ${version}`);
    this.table = table;
  }
}

/** One way a file's structure differs from its schema version. */
export interface StructureDifference {
  readonly table: string;
  readonly kind:
    | 'missing-table'
    | 'missing-column'
    | 'extra-column'
    | 'column-type'
    | 'column-not-null'
    | 'column-default'
    | 'column-primary-key'
    | 'autoincrement'
    | 'missing-index'
    | 'extra-index'
    | 'index-definition'
    | 'missing-foreign-key'
    | 'extra-foreign-key'
    | 'identity-hash'
    /** A table an upgrade would create is already there (migrate refuses rather than reuse it). */
    | 'table-in-the-way';
  /** The column, index or foreign key concerned, when there is one. */
  readonly item?: string;
  readonly expected?: string;
  readonly found?: string;
  readonly message: string;
}

export class SchemaMismatchError extends LegadoStoreError {
  readonly path: string;
  readonly version: number;
  readonly differences: readonly StructureDifference[];
  constructor(path: string, version: number, differences: readonly StructureDifference[]) {
    super(
      'SCHEMA_MISMATCH',
      `${path}: structure does not match schema ${version} (${differences.length} difference${differences.length === 1 ? '' : 's'}): ` +
        differences.map((d) => d.message).join('; '),
    );
    this.path = path;
    this.version = version;
    this.differences = differences;
  }
}

export class UnsupportedVersionError extends LegadoStoreError {
  readonly path: string;
  readonly found: number;
  readonly supported: readonly number[];
  constructor(path: string, found: number, supported: readonly number[], detail = '') {
    super(
      'UNSUPPORTED_VERSION',
      `${path}: schema version ${found} is not supported (supported: ${supported.join(', ')})${detail ? `: ${detail}` : ''}`,
    );
    this.path = path;
    this.found = found;
    this.supported = supported;
  }
}

export class VersionMismatchError extends LegadoStoreError {
  readonly path: string;
  readonly found: number;
  readonly expected: number;
  constructor(path: string, found: number, expected: number, hint: string) {
    super('VERSION_MISMATCH', `${path}: file is at schema ${found}, expected ${expected}${hint ? `; ${hint}` : ''}`);
    this.path = path;
    this.found = found;
    this.expected = expected;
  }
}

export class NotADatabaseError extends LegadoStoreError {
  readonly path: string;
  constructor(path: string, detail: string) {
    super('NOT_A_DATABASE', `${path}: not a SQLite database (${detail})`);
    this.path = path;
  }
}

export class FileNotFoundError extends LegadoStoreError {
  readonly path: string;
  constructor(path: string) {
    super('FILE_NOT_FOUND', `${path}: no such file`);
    this.path = path;
  }
}

/** An operation that cannot run inside an open transaction (it would be undone with it). */
export class TransactionStateError extends LegadoStoreError {
  readonly operation: string;
  constructor(operation: string) {
    super('IN_TRANSACTION', `${operation} cannot run inside a transaction: commit or roll back first`);
    this.operation = operation;
  }
}

/** A table already holds as many rows of a kind as the app allows (64 user book groups). */
export class LimitError extends LegadoStoreError {
  readonly table: string;
  readonly limit: number;
  constructor(table: string, limit: number, what: string) {
    super('LIMIT_REACHED', `${table}: ${what} (at most ${limit})`);
    this.table = table;
    this.limit = limit;
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'number' && !Number.isInteger(value)) return `non-integer number ${value}`;
  if (typeof value === 'object') return Array.isArray(value) ? 'array' : 'object';
  return `${typeof value} ${show(value)}`;
}

/** One row `PRAGMA foreign_key_check` reported. */
export interface ForeignKeyViolation {
  readonly table: string;
  readonly rowid: number | null;
  readonly parent: string;
}

/** An upgrade stopped part-way and was rolled back: the file holds what it held before. */
export class MigrationFailedError extends LegadoStoreError {
  readonly path: string;
  /** The step that failed (as reported to `onStep`). */
  readonly step: string;
  /** Structure differences found by the check after the upgrade, if that is what failed. */
  readonly differences: readonly StructureDifference[];
  readonly violations: readonly ForeignKeyViolation[];
  override readonly cause: unknown;
  constructor(
    path: string,
    step: string,
    detail: string,
    found: { differences?: readonly StructureDifference[]; violations?: readonly ForeignKeyViolation[]; cause?: unknown } = {},
  ) {
    super('MIGRATION_FAILED', `${path}: upgrade failed at "${step}" and was rolled back, the file is unchanged: ${detail}`);
    this.path = path;
    this.step = step;
    this.differences = found.differences ?? [];
    this.violations = found.violations ?? [];
    this.cause = found.cause;
  }
}

export class FileExistsError extends LegadoStoreError {
  readonly path: string;
  constructor(path: string, purpose: string) {
    super('FILE_EXISTS', `${path}: already exists; ${purpose} is never written over an existing file`);
    this.path = path;
  }
}
