// Every failure the store reports is one of these classes, with a stable `code` and the
// table, field(s), index and value involved, so callers can branch on it and people can read it.

export type ErrorCode =
  | 'DUPLICATE_KEY'
  | 'UNIQUE_VIOLATION'
  | 'MISSING_FIELD'
  | 'FOREIGN_KEY_VIOLATION'
  | 'CONSTRAINT_FAILED'
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
  | 'FILE_EXISTS'
  | 'PORT_IN_USE'
  | 'DRIVER_UNAVAILABLE'
  | 'BAD_ARCHIVE'
  | 'ARCHIVE_LIMIT'
  | 'BAD_EPUB'
  | 'DISK_FULL'
  | 'WRITE_FAILED'
  | 'WEBDAV_CONFIG'
  | 'WEBDAV_AUTH'
  | 'WEBDAV_NOT_FOUND'
  | 'WEBDAV_UNAVAILABLE'
  | 'WEBDAV_CONNECTION'
  | 'WEBDAV_HTTP'
  | 'WEBDAV_TOO_LARGE'
  | 'WRITE_REFUSED'
  | 'INVALID_QUERY'
  | 'SECRET_REFUSED'
  | 'QUERY_TIMEOUT'
  | 'UNKNOWN_GROUP'
  | 'UNKNOWN_SOURCE'
  | 'INVALID_ARGUMENT'
  | 'UNSUPPORTED'
  | 'STORE_CLOSED'
  | 'BUSY'
  | 'CANNOT_OPEN'
  | 'CORRUPT'
  | 'IO_ERROR'
  | 'BAD_BOOK_FILE'
  | 'UNKNOWN_BOOK'
  | 'RULE_TIMEOUT'
  | 'RULE_THREAD_FAILED'
  | 'BAD_RULE'
  | 'JS_UNAVAILABLE'
  | 'BAD_URL_RULE'
  | 'ADDRESS_REFUSED'
  | 'TOO_MANY_REDIRECTS'
  | 'BODY_TOO_LARGE'
  | 'FETCH_TIMEOUT'
  | 'FETCH_FAILED'
  | 'SCRIPT_TIMEOUT'
  | 'SCRIPT_MEMORY'
  | 'HELPER_FAILED'
  | 'HELPER_UNSUPPORTED'
  | 'SCRIPT_ERROR'
  | 'TOC_EMPTY'
  | 'CONTENT_EMPTY'
  | 'SOURCE_INCOMPLETE'
  | 'SOURCE_FAILED'
  | 'CHECK_TIMEOUT';

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
  fields.length === 1 ? `${fields[0]} = ${show(values[0])}` : `(${fields.join(', ')}) = (${values.map(show).join(', ')})`;

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

/**
 * A write refused by a constraint the store has no typed error for: a rule of the file's own (a
 * trigger that raises, a CHECK someone added), or any constraint of raw SQL run inside
 * store.transaction. `reason` is SQLite's text; `table` is '' where the write was not one
 * table's (a delete, raw SQL), and the message names the file.
 */
export class ConstraintFailedError extends ConstraintError {
  readonly reason: string;
  constructor(table: string, reason: string, path?: string) {
    super('CONSTRAINT_FAILED', table, [], undefined, `${table || path || '(store)'}: the file refused the write: ${reason}`);
    this.reason = reason;
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
  /** The tables there are at that version. */
  readonly known: readonly string[];
  constructor(table: string, version: number, known: readonly string[] = []) {
    super('UNKNOWN_TABLE', `no table ${table} at schema ${version}${known.length ? ` (tables: ${[...known].sort().join(', ')})` : ''}`);
    this.table = table;
    this.known = known;
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
    /** A view of the version is missing, or its stored SQL text is not the app's (Room compares the text). */
    | 'missing-view'
    | 'view-definition'
    /** A table an upgrade would create is already there (migrate refuses rather than reuse it). */
    | 'table-in-the-way';
  /** The column, index or foreign key concerned, when there is one. */
  readonly item?: string | undefined;
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
  /** room_master_table's hash, when the file has one. */
  readonly identityHash: string | null;
  /** What the file is, in words: version, line (where the hash is known), releases. */
  readonly description: string;
  constructor(path: string, found: number, supported: readonly number[], detail = '', identityHash: string | null = null, description = '') {
    super(
      'UNSUPPORTED_VERSION',
      `${path}: ${description || `schema version ${found}`} is not supported as a store (supported: ${versionRange(supported)})` +
        `${detail ? `: ${detail}` : ''}` +
        // A file with a version or a Room hash is a Legado database of another line or age.
        (found > 0 || identityHash !== null ? `; its data can be imported into a store with \`legado-store import <store> ${path}\`` : ''),
    );
    this.path = path;
    this.found = found;
    this.supported = supported;
    this.identityHash = identityHash;
    this.description = description;
  }
}

/** 49..75 as "49 to 75"; a list with gaps as the list. */
function versionRange(versions: readonly number[]): string {
  const s = [...versions].sort((a, b) => a - b);
  const contiguous = s.every((v, i) => i === 0 || v === s[i - 1]! + 1);
  return contiguous && s.length > 2 ? `${s[0]} to ${s[s.length - 1]}` : s.join(', ');
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

/** `serve` cannot listen: another program holds the HTTP port, or port + 1 the WebSockets need. */
export class PortInUseError extends LegadoStoreError {
  readonly host: string;
  readonly port: number;
  /** Which of the two ports is taken. */
  readonly use: 'HTTP' | 'WebSocket';
  constructor(host: string, httpPort: number, use: 'HTTP' | 'WebSocket') {
    const port = use === 'HTTP' ? httpPort : httpPort + 1;
    const why =
      use === 'HTTP'
        ? `the HTTP port is taken (the server also needs port ${httpPort + 1}, port + 1, for its WebSockets)`
        : `the server's WebSockets listen on the HTTP port + 1 (${httpPort} + 1), and that one is taken`;
    super('PORT_IN_USE', `${host}:${port} is in use by another program: ${why}; choose another port, with ${httpPort + 1} free beside it too`);
    this.host = host;
    this.port = port;
    this.use = use;
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

/** Something the store's engine cannot do (its DriverCapabilities say so): change listeners on a Durable Object. */
export class UnsupportedError extends LegadoStoreError {
  readonly feature: string;
  readonly driver: string;
  constructor(feature: string, driver: string, why: string) {
    super('UNSUPPORTED', `${feature} is not available on the ${driver} engine: ${why}`);
    this.feature = feature;
    this.driver = driver;
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
  if (value === undefined) return 'undefined';
  if (typeof value === 'number' && !Number.isInteger(value)) return `non-integer number ${value}`;
  if (typeof value === 'object') {
    if (Array.isArray(value)) return 'array';
    // A Map, a Date, a class instance: named, since "object" is what was expected.
    const proto = Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null;
    if (proto === null || Object.getPrototypeOf(proto) === null) return 'object';
    return `${proto.constructor?.name || 'non-plain'} object`;
  }
  if (typeof value === 'function') return `${value.constructor.name === 'AsyncFunction' ? 'an async function' : 'a function'} ${value.name || '(anonymous)'}`;
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

/**
 * A file that would be written over. The message names the API's way to allow it; the command
 * line says --force instead (`cliMessage`).
 */
export class FileExistsError extends LegadoStoreError {
  readonly path: string;
  /** What would have been written ("a new store", "a backup"). */
  readonly purpose: string;
  constructor(path: string, purpose: string) {
    super('FILE_EXISTS', `${path}: already exists; ${purpose} is not written over it without overwrite: true`);
    this.path = path;
    this.purpose = purpose;
  }

  get cliMessage(): string {
    return `${this.path}: already exists; ${this.purpose} is not written over it without --force`;
  }
}

/** How to get each engine that can be missing. */
const DRIVER_FIXES: Readonly<Record<string, string>> = {
  'better-sqlite3': 'install it (npm install better-sqlite3; npm 11 runs its build script only where allowScripts lets it)',
  'node:sqlite': 'run Node 22.13 or later, where it needs no flag',
  'bun:sqlite': "it is Bun's own engine: run under Bun",
  '(any)': 'install better-sqlite3 (npm install better-sqlite3), or run Node 22.13 or later for its node:sqlite',
};

/** The SQLite engine asked for (or every engine tried) cannot run here; the message says how to get one. */
export class DriverUnavailableError extends LegadoStoreError {
  readonly driver: string;
  /** Why, in the engine's own words (for '(any)': each engine tried, with its reason). */
  readonly detail: string;
  override readonly cause: unknown;
  constructor(driver: string, detail: string, cause?: unknown) {
    const fix = DRIVER_FIXES[driver];
    super(
      'DRIVER_UNAVAILABLE',
      `${driver === '(any)' ? 'no SQLite driver is available here' : `SQLite driver ${driver} is not available here`}: ${detail}${fix ? `; ${fix}` : ''}`,
    );
    this.driver = driver;
    this.detail = detail;
    this.cause = cause;
  }
}

/** `query` was given SQL that would write (or attach, or change a setting): it only reads. */
export class WriteRefusedError extends LegadoStoreError {
  readonly sql: string;
  constructor(sql: string, why: string) {
    super('WRITE_REFUSED', `refused ${show(sql)}: ${why}; query only reads (use the typed commands or the API to change a store)`);
    this.sql = sql;
  }
}

/** SQL that SQLite cannot prepare or run (a syntax error, an unknown table or column). */
export class InvalidQueryError extends LegadoStoreError {
  readonly sql: string;
  constructor(sql: string, detail: string) {
    super('INVALID_QUERY', `${show(sql)}: ${detail}`);
    this.sql = sql;
  }
}

/** A query that reads a secret column (a cookie, a server config) without showSecrets / --show-secrets. */
export class SecretRefusedError extends LegadoStoreError {
  readonly sql: string;
  /** The secret columns the statement reads, as `table.column`. */
  readonly columns: readonly string[];
  constructor(sql: string, columns: readonly string[]) {
    super(
      'SECRET_REFUSED',
      `refused ${show(sql)}: it reads ${columns.join(', ')}, which ${columns.length === 1 ? 'is' : 'are'} secret; leave ${columns.length === 1 ? 'it' : 'them'} out, or ask for secrets (--show-secrets, showSecrets: true)`,
    );
    this.sql = sql;
    this.columns = columns;
  }
}

/** A query still running when its time limit ran out (a runaway recursive CTE, say); it was stopped. */
export class QueryTimeoutError extends LegadoStoreError {
  readonly sql: string;
  readonly timeoutMs: number;
  constructor(sql: string, timeoutMs: number) {
    super('QUERY_TIMEOUT', `${show(sql)}: stopped after ${timeoutMs / 1000} s (the time limit; --timeout <seconds> to change it)`);
    this.sql = sql;
    this.timeoutMs = timeoutMs;
  }
}

/** A group named by a user that the store does not have (a book group, or a source group no source is in). */
export class UnknownGroupError extends LegadoStoreError {
  readonly group: string;
  readonly known: readonly string[];
  constructor(group: string, known: readonly string[], what = 'book group') {
    super('UNKNOWN_GROUP', `no ${what} named ${show(group)} (${what}s: ${known.join(', ') || 'none'})`);
    this.group = group;
    this.known = known;
  }
}

/** Source URLs given by a user that are not in the store. */
export class UnknownSourceError extends LegadoStoreError {
  readonly table: string;
  readonly urls: readonly string[];
  constructor(table: string, urls: readonly string[]) {
    super('UNKNOWN_SOURCE', `${table}: no source with url ${urls.map(show).join(', ')}; nothing was changed`);
    this.table = table;
    this.urls = urls;
  }
}

/**
 * Base of the failures of the file itself, not of what was written to it: closed, locked,
 * read-only, cannot be opened or written, full, damaged. An import never skips a record for
 * one of these: it stops, since every other record would fail the same way.
 */
export class FileAccessError extends LegadoStoreError {
  readonly path: string;
  constructor(code: ErrorCode, path: string, message: string) {
    super(code, message);
    this.path = path;
  }
}

/** The store was closed; nothing more can be read or written through it. */
export class StoreClosedError extends FileAccessError {
  constructor(path: string) {
    super('STORE_CLOSED', path, `${path}: the store is closed`);
  }
}

/** Another connection or process held the lock for longer than the busy timeout. */
export class BusyError extends FileAccessError {
  constructor(path: string, detail: string) {
    super('BUSY', path, `${path}: locked by another connection or process (${detail}); try again when it is done, or raise busyTimeout`);
  }
}

/** A write to a store or file that is read-only (opened readonly, or a read-only file or medium). */
export class ReadOnlyError extends FileAccessError {
  constructor(path: string, detail: string) {
    super('READ_ONLY', path, `${path}: ${detail}`);
  }
}

/** A path that cannot be opened or created: a directory, a missing parent folder, no permission, a NUL byte. */
export class CannotOpenError extends FileAccessError {
  constructor(path: string, detail: string) {
    super('CANNOT_OPEN', path, `${showPath(path)}: cannot open: ${detail}`);
  }
}

/** A file that cannot be written (no permission, a read-only medium, an I/O error). */
export class CannotWriteError extends FileAccessError {
  constructor(path: string, detail: string) {
    super('WRITE_FAILED', path, `${path}: cannot write: ${detail}`);
  }
}

/** The disk (or the file size limit) is full; what was being written was not kept. */
export class DiskFullError extends FileAccessError {
  constructor(path: string, detail: string) {
    super('DISK_FULL', path, `${path}: no space left (${detail}); nothing of this write was kept`);
  }
}

/** The operating system failed to read or write the file (a failing disk, a vanished network share). */
export class IoError extends FileAccessError {
  constructor(path: string, detail: string) {
    super('IO_ERROR', path, `${path}: input/output error (${detail})`);
  }
}

/** One problem an integrity check or an invariant check found. */
export interface Damage {
  /** The table concerned, when known. */
  readonly table?: string;
  /** The row's key (or rowid) concerned, when known. */
  readonly key?: string;
  readonly message: string;
}

/** A damaged file: pages, indexes or rows SQLite (or the store's checks) found broken. */
export class CorruptError extends FileAccessError {
  readonly damage: readonly Damage[];
  constructor(path: string, damage: readonly Damage[], what = 'the file is damaged') {
    const shown = damage.slice(0, 5).map((d) => d.message);
    super(
      'CORRUPT',
      path,
      `${path}: ${what}` + (shown.length ? `: ${shown.join('; ')}${damage.length > shown.length ? `; ... ${damage.length - shown.length} more` : ''}` : ''),
    );
    this.damage = damage;
  }
}

/**
 * An argument that means nothing here: a CLI field=value for an unknown field, a negative limit,
 * an async transaction function. `new InvalidArgumentError(argument, detail)` or
 * `new InvalidArgumentError(argument, value, expected)`.
 */
export class InvalidArgumentError extends LegadoStoreError {
  readonly argument: string;
  readonly value: unknown;
  constructor(argument: string, valueOrDetail: unknown, expected?: string) {
    super(
      'INVALID_ARGUMENT',
      expected === undefined ? `${argument}: ${String(valueOrDetail)}` : `${argument}: expected ${expected}, got ${describe(valueOrDetail)}`,
    );
    this.argument = argument;
    this.value = expected === undefined ? undefined : valueOrDetail;
  }
}

/** A path for a message: control characters (a NUL byte, say) shown escaped. */
export function showPath(path: string): string {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f]/.test(path) ? JSON.stringify(path) : path;
}
