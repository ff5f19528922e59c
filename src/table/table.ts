// Typed operations on one table. Statements are prepared once per table (per query shape for
// update, list and count) and reused; every value is checked by the codec before it is bound.
// Values are passed to better-sqlite3 as arguments (`run(...vals)`), not as one array, which it
// binds more slowly (about 0.3 us more per 15-column insert).
import type { Connection as Database, RunResult, Statement, TransactionFn } from '../engine/driver.js';
import { LegadoStoreError, MissingFieldError, UnknownFieldError, ValueTypeError } from '../errors.js';
import { q } from '../schema/ddl.js';
import type { Column, Table } from '../schema/index.js';
import { unobserved, type WriteHooks, type WriteOp } from '../store/changes.js';
import { Codec, isPlain, plainKind, type SqlValue } from './codec.js';
import type { FastEncoder } from './compiled.js';
import { compileQuery, type Query, type Where } from './query.js';
import { batchRows } from './batch.js';
import { checkOptions, checkRows } from './args.js';
import { insertSharedSql, insertSql, tableSql, updateSql, upsertSharedSql, upsertSql, varyingColumns, type TableSql } from './sql.js';
import { translateWriteError } from './violations.js';

type Fields = Readonly<Record<string, unknown>>;

/** Statements kept per query cache (list, select, count) of a table; LIMIT and OFFSET values are part of the SQL. */
const QUERY_STATEMENTS = 256;

interface UpdateNode {
  readonly next: Map<string, UpdateNode>;
  stmt: Statement | undefined;
}

/** Set by TableApi (see its static block): insertMany inside the caller's transaction, for the domain operations. */
export let insertInTransaction: <N extends object>(t: TableApi<object, N, object, unknown>, rows: Iterable<N>) => number;

/** What upsertRowsInTransaction wrote: the first `written` rows; `failed` when the next one was refused. */
export interface RowsWritten {
  readonly written: number;
  readonly failed?: unknown;
}

/**
 * Set by TableApi (see its static block), for imports that merge record by record inside their
 * own transaction: upserts rows in order, a multi-row statement when they fill one (`bulkRows`),
 * and stops at the first row refused, with nothing of that row (or after it) written.
 */
export let upsertRowsInTransaction: <N extends object>(t: TableApi<object, N, object, unknown>, rows: readonly N[]) => RowsWritten;
/** Rows one multi-row statement of a bulk write takes in this table. */
export let bulkRows: <N extends object>(t: TableApi<object, N, object, unknown>) => number;

/** What a Finder keeps: its columns and its statement, prepared on first use. */
interface FinderState {
  readonly fields: readonly string[];
  readonly cols: readonly Column[];
  /** Each column's plainKind. */
  readonly plain: readonly number[];
  readonly orderBy: string | undefined;
  readonly sql: string;
  stmt: Statement | undefined;
}

/** What an Updater keeps: its columns and a statement per set of them given. */
interface UpdaterState {
  readonly fields: readonly string[];
  readonly cols: readonly Column[];
  readonly statements: (Statement | undefined)[];
}

let findWith: <R extends object>(t: TableApi<R, object, object, unknown>, f: FinderState, values: unknown[]) => R | undefined;
let updateWith: <K>(t: TableApi<object, object, object, K>, u: UpdaterState, key: K, values: readonly unknown[]) => boolean;

/**
 * A lookup by some fields, prepared once (TableApi.finder). An object with a method rather than
 * a closure: the code V8 optimizes for its callers then calls one shared function, and holds no
 * function of one store that is collected with the store, which would throw that code away
 * (and compile it again) with every store a process opens and closes.
 */
export class Finder<R> implements FinderState {
  readonly fields: readonly string[];
  readonly cols: readonly Column[];
  readonly plain: readonly number[];
  readonly orderBy: string | undefined;
  readonly sql: string;
  stmt: Statement | undefined = undefined;
  readonly #t: TableApi<object, object, object, unknown>;

  constructor(t: TableApi<object, object, object, unknown>, fields: readonly string[], cols: readonly Column[], orderBy: string | undefined, sql: string) {
    this.#t = t;
    this.fields = fields;
    this.cols = cols;
    this.plain = cols.map(plainKind);
    this.orderBy = orderBy;
    this.sql = sql;
  }

  /** The first row with these values of the fields (in the finder's order), or undefined. */
  get(...values: unknown[]): R | undefined {
    return findWith(this.#t, this, values) as R | undefined;
  }
}

/** An update of some fields, prepared once (TableApi.updater); an object for Finder's reason. */
export class Updater<K> implements UpdaterState {
  readonly fields: readonly string[];
  readonly cols: readonly Column[];
  readonly statements: (Statement | undefined)[] = [];
  readonly #t: TableApi<object, object, object, K>;

  constructor(t: TableApi<object, object, object, K>, fields: readonly string[], cols: readonly Column[]) {
    this.#t = t;
    this.fields = fields;
    this.cols = cols;
  }

  /** Sets the fields to `values` (in the updater's order; undefined: not set) in the row with `key`; false when there is none. */
  set(key: K, values: readonly unknown[]): boolean {
    return updateWith(this.#t, this, key, values);
  }
}

/** Fewest shared columns worth a statement of their own (insertSharedSql); a batch sharing fewer takes the plain one. */
const MIN_SHARED = 2;

/** Statements with shared columns kept per table. */
const SHARED_STATEMENTS = 8;

/** A multi-row statement whose `shared` columns are bound once, before each row's `varying` ones (insertSharedSql). */
interface SharedBatch {
  readonly stmt: Statement;
  readonly shared: readonly number[];
  readonly varying: readonly number[];
}

/** Rows a bulk write writes with its table's change triggers in place; beyond, it silences them (changes.ts). */
const QUIET_AFTER = 256;
/**
 * Until a table's upsertMany has been given this many rows (as arrays) in a store, it runs a
 * statement per row. Its multi-row statements (the batch, then its shared-columns form) cost
 * about 0.2 ms each to prepare: in a new store a statement per row was 2-12% faster up to 400
 * book sources, batches 5-7% faster from 600 on, and 1.2x faster for 100 sources once prepared.
 */
const UPSERT_BATCH_FROM = 512;

export class TableApi<R extends object, N extends object, P extends object, K> {
  readonly name: string;
  readonly model: Table;
  private readonly db: Database;
  private readonly hooks: WriteHooks;
  private readonly codec: Codec;
  /** Lists of rows are read as the engine's objects and fixed in place (Connection.objectRows), not as arrays. */
  private readonly objectRows: boolean;
  private readonly pk: readonly Column[];
  private readonly pkIndex: readonly number[];
  private readonly statements = new Map<string, Statement>();
  /** list, iterate and count statements by the SQL after the select list; select's by its tail. */
  private readonly lists = new Map<string, Statement>();
  private readonly selects = new Map<string, Statement>();
  private readonly counts = new Map<string, Statement>();
  /** deleteWhere's statements, and the counts that tell whether it silences the triggers, by tail. */
  private readonly deletes = new Map<string, Statement>();
  private readonly deleteCounts = new Map<string, Statement>();
  private runSilentDelete: TransactionFn<[Statement, readonly unknown[]], number> | undefined;
  /** update statements by the fields they set, in the order given: a tree with a level per field. */
  private updates: UpdateNode = { next: new Map(), stmt: undefined };
  private updateStatements = 0;
  private insertStmt: Statement | undefined;
  private getStmt: Statement | undefined;
  private upsertStmt: Statement | undefined;
  /** Bulk writes: rows per statement, and the multi-row statements of that size. */
  private batchSize: number | undefined;
  private insertBatch: Statement | undefined;
  private upsertBatch: Statement | undefined;
  /** Multi-row statements binding some columns once (#runBatch), by kind and those columns. */
  private readonly sharedBatches = new Map<string, SharedBatch>();
  /** SQL of the fixed operations, built once. */
  private readonly sql: TableSql;
  /** The bulk writes' transaction functions, made on first use. */
  private runInsertMany: TransactionFn<[Iterable<N>], number> | undefined;
  private runUpsertMany: TransactionFn<[Iterable<N>], number> | undefined;
  /** Rows given to upsertMany's arrays so far (UPSERT_BATCH_FROM). */
  private upsertedRows = 0;

  constructor(db: Database, table: Table, version: number, hooks: WriteHooks = unobserved(db)) {
    this.db = db;
    this.hooks = hooks;
    this.model = table;
    this.name = table.name;
    this.codec = new Codec(table, version);
    // Tables with 64-bit bitmasks read them as a number or as text (selectList) and make bigints
    // of them: that takes the array builder.
    this.objectRows = db.objectRows === true && !this.codec.bigintRows;
    this.pk = table.primaryKey;
    this.pkIndex = this.pk.map((c) => table.columns.indexOf(c));
    this.sql = tableSql(table);
  }

  /** The row with this primary key, or undefined. */
  get(key: K): R | undefined {
    const row = (this.getStmt ??= this.#reading(this.#stmt(this.sql.get))).get(...this.#keyValues(key)) as unknown[] | undefined;
    return row === undefined ? undefined : this.codec.fromRaw<R>(row);
  }

  has(key: K): boolean {
    return this.#stmt(this.sql.has).get(...this.#keyValues(key)) !== undefined;
  }

  /** Adds a row; a row with the same primary key already there is a DuplicateKeyError. Returns the key. */
  insert(row: N): K {
    return this.#write('insert', row);
  }

  /** Adds the row, or updates the existing row with its key in place (its dependent rows stay). */
  upsert(row: N): K {
    return this.#write('upsert', row);
  }

  /** Sets some fields of the row with this key; false when there is no such row. */
  update(key: K, patch: P): boolean {
    const keyVals = this.#keyValues(key);
    const p = patch as Fields;
    if (p === null || typeof p !== 'object') throw new ValueTypeError(this.name, '(patch)', p, 'an object');
    const cols: Column[] = [];
    const vals: SqlValue[] = [];
    // The statement for this list of fields: found by walking the tree one field at a time.
    let node = this.updates;
    for (const field of Object.keys(p)) {
      const v = p[field];
      if (v === undefined) continue;
      const c = this.model.column(field);
      if (!c) this.codec.checkFields(p);
      if (c!.pk > 0) throw new ValueTypeError(this.name, field, v, 'no primary-key field in an update (delete and insert to change a key)');
      cols.push(c!);
      vals.push(this.codec.encodeValue(c!, v));
      node = node.next.get(field) ?? this.#updateChild(node, field);
    }
    if (cols.length === 0) return this.has(key);
    let stmt = node.stmt;
    if (stmt === undefined) {
      if (this.updateStatements >= QUERY_STATEMENTS) {
        this.updates = { next: new Map(), stmt: undefined };
        this.updateStatements = 0;
      }
      stmt = node.stmt = this.hooks.prepare(updateSql(this.model, cols));
      this.updateStatements++;
    }
    for (const k of keyVals) vals.push(k);
    return this.#runUpdate(stmt, vals, key, (f) => p[f]);
  }

  /**
   * An update of these fields, prepared once, for the updates the domain makes often: its `set`
   * takes the key and the values in `fields` order, checked as update's are, and answers as
   * update does. A value left undefined is not set: each set of fields given has its
   * statement, prepared on first use.
   */
  updater(fields: readonly (keyof P & string)[]): Updater<K> {
    const cols = fields.map((f) => {
      const c = this.model.column(f);
      if (!c) throw new UnknownFieldError(this.name, f, this.codec.version);
      if (c.pk > 0) throw new ValueTypeError(this.name, f, undefined, 'no primary-key field in an update (delete and insert to change a key)');
      return c;
    });
    if (cols.length > 30) throw new RangeError('updater: at most 30 fields');
    return new Updater(this as unknown as TableApi<object, object, object, K>, fields, cols);
  }

  static {
    updateWith = <K>(t: TableApi<object, object, object, K>, u: UpdaterState, key: K, values: readonly unknown[]): boolean => {
      const vals: SqlValue[] = [];
      let given = 0;
      for (let i = 0; i < u.cols.length; i++) {
        const v = values[i];
        if (v === undefined) continue;
        vals.push(t.codec.encodeValue(u.cols[i]!, v));
        given |= 1 << i;
      }
      if (given === 0) return t.has(key);
      for (const k of t.#keyValues(key)) vals.push(k);
      const stmt = (u.statements[given] ??= t.hooks.prepare(updateSql(t.model, u.cols.filter((_, i) => given & (1 << i)))));
      return t.#runUpdate(stmt, vals, key, (f) => values[u.fields.indexOf(f)]);
    };
  }

  /** Runs an UPDATE by key: a failure as a typed error (naming the row's fields as they would have been), the change reported. */
  #runUpdate(stmt: Statement, vals: SqlValue[], key: K, given: (field: string) => unknown): boolean {
    let changes: number;
    try {
      changes = this.#reported('update', stmt, vals).changes;
    } catch (e) {
      const current = this.get(key) as Fields | undefined;
      throw translateWriteError(this.db, this.model, 'update', e, (f) => {
        const v = given(f);
        return v !== undefined ? v : current?.[f];
      });
    }
    return changes > 0;
  }

  /**
   * A lookup of the first row (in `orderBy` order) whose `fields` equal the values given,
   * prepared once, for the point reads the domain makes often: the same row as
   * `list({ where, orderBy, limit: 1 })[0]`, values checked the same way (null: IS NULL).
   */
  finder(fields: readonly (keyof R & string)[], orderBy?: keyof R & string): Finder<R> {
    const cols = fields.map((f) => {
      const c = this.model.column(f);
      if (!c) throw new UnknownFieldError(this.name, f, this.codec.version);
      return c;
    });
    const tail = `WHERE ${cols.map((c) => `${q(c.name)} = ?`).join(' AND ')}${orderBy ? ` ORDER BY ${q(this.model.column(orderBy)?.name ?? orderBy)}` : ''} LIMIT 1`;
    return new Finder(this as unknown as TableApi<R, object, object, unknown>, fields, cols, orderBy, `${this.sql.from} ${tail}`);
  }

  static {
    findWith = <R extends object>(t: TableApi<R, object, object, unknown>, f: FinderState, values: unknown[]): R | undefined => {
      const n = f.cols.length;
      // IS NULL and a missing value take list's way.
      for (let i = 0; i < n; i++) {
        if (values[i] === null || values[i] === undefined) {
          return t.list({ where: Object.fromEntries(f.fields.map((k, j) => [k, values[j]])), orderBy: f.orderBy, limit: 1 } as Query<R>)[0];
        }
      }
      // Encoded where they were given (Finder.get's own rest array), and bound without a spread
      // for the one- and two-field lookups the domain makes: as fast as hand-written code.
      for (let i = 0; i < n; i++) if (!isPlain(f.plain[i]!, values[i])) values[i] = t.codec.encodeValue(f.cols[i]!, values[i]);
      const s = (f.stmt ??= t.#reading(t.hooks.prepare(f.sql)));
      const row = (n === 1 ? s.get(values[0]) : n === 2 ? s.get(values[0], values[1]) : s.get(...values.slice(0, n))) as unknown[] | undefined;
      return row === undefined ? undefined : t.codec.fromRaw<R>(row);
    };
  }

  #updateChild(node: UpdateNode, field: string): UpdateNode {
    const child: UpdateNode = { next: new Map(), stmt: undefined };
    node.next.set(field, child);
    return child;
  }

  /** Deletes the row with this key (its dependent rows go with it where the schema cascades). */
  delete(key: K): boolean {
    return this.#reported('delete', this.#stmt(this.sql.delete), this.#keyValues(key)).changes > 0;
  }

  /**
   * Deletes the rows chosen by `tail` (what follows `FROM <table>`, e.g. `WHERE bookUrl = ?`,
   * with `?` parameters) in one statement; returns how many. When a listener observes the table
   * and more than QUIET_AFTER rows go, its change triggers are silenced for the statement, as
   * in bulk writes. Each distinct tail is prepared once.
   */
  deleteWhere(tail: string, params: readonly unknown[] = []): number {
    const del = this.#query(this.deletes, `DELETE FROM ${q(this.name)} `, tail, false);
    let changes: number;
    if (this.hooks.active && this.hooks.observes(this.name) && (this.#query(this.deleteCounts, `SELECT count(*) FROM ${q(this.name)} `, tail, false).pluck().get(...params) as number) > QUIET_AFTER) {
      this.runSilentDelete ??= this.hooks.transaction((s: Statement, p: readonly unknown[]) => {
        const silenced = this.hooks.silence(this.name);
        const n = s.run(...p).changes;
        if (silenced) this.hooks.unsilence(this.name, n > 0);
        return n;
      });
      changes = this.runSilentDelete.immediate(del, params);
      if (changes > 0) this.hooks.wrote(this.name, 'delete');
    } else {
      changes = this.#reported('delete', del, params).changes;
    }
    return changes;
  }

  list(query?: Query<R>): R[] {
    checkOptions(`${this.name}.list`, 'query', query);
    const { tail, params } = compileQuery(this.codec, query as Query<unknown>);
    return this.#decodeAll(this.#query(this.lists, this.sql.from, tail, true).all(...params));
  }

  /** Like list, one row at a time, for results too large to hold at once. */
  *iterate(query?: Query<R>): IterableIterator<R> {
    checkOptions(`${this.name}.iterate`, 'query', query);
    const { tail, params } = compileQuery(this.codec, query as Query<unknown>);
    for (const row of this.#query(this.lists, this.sql.from, tail, true).iterate(...params)) {
      yield this.#decode(row);
    }
  }

  /**
   * Rows chosen by SQL the typed filters cannot express (bit tests, LIKE with ESCAPE,
   * subqueries): `tail` is what follows `FROM <table>`, written with SQL column names and
   * `?` placeholders (params an array) or `@name` ones (params an object). Rows are decoded
   * like list's. Each distinct tail is prepared once.
   */
  select(tail: string, params: readonly unknown[] | Readonly<Record<string, unknown>> = []): R[] {
    const s = this.#query(this.selects, `${this.sql.from} `, tail, true);
    return this.#decodeAll(Array.isArray(params) ? s.all(...(params as unknown[])) : s.all(params));
  }

  count(where?: Where<R>): number {
    checkOptions(`${this.name}.count`, 'where', where);
    const { tail, params } = compileQuery(this.codec, { where } as Query<unknown>);
    return this.#query(this.counts, `SELECT count(*) FROM ${q(this.name)}`, tail, false).pluck().get(...params) as number;
  }

  /** Inserts every row in one transaction: all of them, or none when one fails. Returns the count. */
  insertMany(rows: Iterable<N>): number {
    checkRows(`${this.name}.insertMany`, rows);
    this.runInsertMany ??= this.hooks.transaction((all: Iterable<N>) => this.#each(all, 'insert'));
    const n = this.runInsertMany.immediate(rows);
    if (n > 0 && this.hooks.active) this.hooks.wrote(this.name, 'insert');
    return n;
  }

  /**
   * insertMany's work inside the caller's transaction, without a savepoint of its own: for a
   * domain operation that is one transaction already (replaceToc), where a savepoint would copy
   * every page the transaction touched before it (a TOC refresh deletes the rows whose pages the
   * inserts then reuse) for nothing. Outside a transaction it is insertMany.
   */
  static {
    insertInTransaction = <N extends object>(t: TableApi<object, N, object, unknown>, rows: Iterable<N>): number => {
      if (!t.db.inTransaction) return t.insertMany(rows);
      const n = t.#each(rows, 'insert');
      if (n > 0 && t.hooks.active) t.hooks.wrote(t.name, 'insert');
      return n;
    };
  }

  /**
   * upsertRowsInTransaction: a full batch in one statement (a constraint failure undoes only that
   * statement, and the rows are then tried one by one to find the refused one); fewer rows, or
   * outside a transaction, a statement per row.
   */
  static {
    bulkRows = (t) => (t.batchSize ??= batchRows(t.db, t.model.columns.length));
    upsertRowsInTransaction = <N extends object>(t: TableApi<object, N, object, unknown>, rows: readonly N[]): RowsWritten => {
      const width = t.model.columns.length;
      const n = rows.length;
      let changes = 0;
      let written = 0;
      let failed: unknown;
      if (n === bulkRows(t) && t.db.inTransaction) {
        const values = new Array<SqlValue>(n * width);
        let encoded = true;
        try {
          for (let j = 0; j < n; j++) t.codec.encodeInto(rows[j] as Fields, values, j * width);
        } catch {
          encoded = false;
        }
        if (encoded) {
          try {
            // No shared columns: they differ from batch to batch here, and each set is a statement.
            changes = t.#runBatch('upsert', values, [], 0, [], false);
            written = n;
          } catch (e) {
            if (!String((e as { code?: unknown }).code).startsWith('SQLITE_CONSTRAINT')) throw e;
          }
        }
      }
      for (; written < n; written++) {
        try {
          changes += t.#runRow('upsert', rows[written] as Fields, t.codec.encodeRow(rows[written] as Fields)).changes;
        } catch (e) {
          failed = e;
          break;
        }
      }
      if (changes > 0 && t.hooks.active) t.hooks.wrote(t.name, 'update', changes);
      return failed === undefined ? { written } : { written, failed };
    };
  }

  /** Upserts every row in one transaction: all of them, or none when one fails. Returns the count. */
  upsertMany(rows: Iterable<N>): number {
    checkRows(`${this.name}.upsertMany`, rows);
    this.runUpsertMany ??= this.hooks.transaction((all: Iterable<N>) => this.#each(all, 'upsert'));
    const n = this.runUpsertMany.immediate(rows);
    if (n > 0 && this.hooks.active) this.hooks.wrote(this.name, 'update');
    return n;
  }

  #write(kind: 'insert' | 'upsert', row: N): K {
    const fields = row as Fields;
    const vals = this.codec.encodeRow(fields);
    const info = this.#runWrite(kind, fields, vals);
    if (this.pk.length === 1) {
      const v = vals[this.pkIndex[0]!];
      return (v === null ? info.lastInsertRowid : v) as K;
    }
    const key: Record<string, unknown> = {};
    for (const c of this.pk) key[c.field] = fields[c.field];
    return key as K;
  }

  #runWrite(kind: 'insert' | 'upsert', fields: Fields, vals: SqlValue[]): RunResult {
    try {
      return this.#reported(kind === 'insert' ? 'insert' : 'update', this.#rowStmt(kind), vals);
    } catch (e) {
      throw this.#rowError(kind, e, fields, vals);
    }
  }

  /**
   * Runs one statement of a single typed write and reports what it changed. Its own table's
   * triggers keep quiet through it where the tracker can do that (hooks.quiet): the write then
   * reports itself.
   */
  #reported(op: WriteOp, stmt: Statement, params: readonly unknown[]): RunResult {
    const quiet = this.hooks.active && this.hooks.quiet(this.name, op);
    let info: RunResult;
    try {
      info = stmt.run(...params);
    } finally {
      if (quiet) this.hooks.endQuiet();
    }
    if (info.changes > 0 && this.hooks.active) this.hooks.wrote(this.name, op, info.changes, quiet);
    return info;
  }

  #rowStmt(kind: 'insert' | 'upsert'): Statement {
    return kind === 'insert' ? (this.insertStmt ??= this.#stmt(this.sql.insert)) : (this.upsertStmt ??= this.#stmt(this.sql.upsert));
  }

  #rowError(kind: 'insert' | 'upsert', e: unknown, fields: Fields, vals: SqlValue[]): unknown {
    return translateWriteError(this.db, this.model, kind, e, (f) => fields[f], (f) => vals[this.model.columns.findIndex((c) => c.field === f)]);
  }

  /** One row's INSERT or upsert, its failure as a typed error; nothing reported. */
  #runRow(kind: 'insert' | 'upsert', fields: Fields, vals: SqlValue[]): RunResult {
    try {
      return this.#rowStmt(kind).run(...vals);
    } catch (e) {
      throw this.#rowError(kind, e, fields, vals);
    }
  }

  /**
   * The rows of insertMany or upsertMany, in their transaction, a batch of rows per statement
   * (batch.ts). A failure is reported as the same row's failure a statement per row would
   * give: rows are encoded (and checked) in order, a batch that fails is written again row by
   * row to find the culprit, and the transaction rolls everything back. Past QUIET_AFTER rows
   * the table's change triggers are silenced and the table is counted once instead.
   */
  #each(rows: Iterable<N>, kind: 'insert' | 'upsert'): number {
    if (kind === 'upsert' && Array.isArray(rows) && (this.upsertedRows += rows.length) < UPSERT_BATCH_FROM) return this.#eachRow(rows, kind);
    const width = this.model.columns.length;
    const size = (this.batchSize ??= batchRows(this.db, width));
    const values = new Array<SqlValue>(size * width);
    const given = new Array<Fields>(size);
    let n = 0; // rows in the batch
    let i = 0; // rows seen
    let changes = 0;
    let silenced = false;
    // Columns with one value within every full batch so far (see #runBatch).
    let shared: number[] | undefined;
    // Once a batch has shown its shared columns, the next rows are encoded straight into the
    // parameters of that batch's statement, its shared values in front (split mode). A row the
    // split encoder refuses (another shared value, or one for the general path) sends the batch
    // back to `values`, where it goes on as before.
    let batch: SharedBatch | undefined;
    let encode: FastEncoder | undefined;
    let params: SqlValue[] | undefined;
    for (const row of rows) {
      if (i === QUIET_AFTER && this.hooks.active) silenced = this.hooks.silence(this.name);
      if (params !== undefined) {
        if (encode!(row as Fields, params, batch!.shared.length + n * batch!.varying.length)) {
          given[n++] = row as Fields;
          i++;
          if (n === size) {
            changes += this.#runSplit(kind, batch!, params, values, given, i - n);
            n = 0;
          }
          continue;
        }
        unbindShared(params, n, this.model.columns.length, batch!, values);
        params = undefined;
      }
      try {
        this.codec.encodeInto(row as Fields, values, n * width);
      } catch (e) {
        // The rows before it go first: one of them may fail before this one would.
        this.#runRows(kind, values, given, n, i - n);
        throw rowError(e, i);
      }
      given[n++] = row as Fields;
      i++;
      if (n === size) {
        shared = sameInEveryRow(values, size, width, shared);
        changes += this.#runBatch(kind, values, given, i - n, shared);
        n = 0;
        if (hasShared(shared, width) && (encode = this.codec.splitEncoder(shared)) !== undefined) {
          batch = this.#sharedBatch(kind, size, shared);
          // Reused from batch to batch: the engine is done with a statement's values once it has run.
          params = new Array<SqlValue>(shared.length + size * batch.varying.length);
          for (let j = 0; j < shared.length; j++) params[j] = values[shared[j]!]!;
        }
      }
    }
    if (params !== undefined) unbindShared(params, n, this.model.columns.length, batch!, values);
    changes += this.#runRows(kind, values, given, n, i - n);
    if (silenced) this.hooks.unsilence(this.name, changes > 0);
    return i;
  }

  /** #each with a statement per row (UPSERT_BATCH_FROM): the same checks, errors, row numbers and reports. */
  #eachRow(rows: readonly N[], kind: 'insert' | 'upsert'): number {
    let changes = 0;
    let silenced = false;
    for (let i = 0; i < rows.length; i++) {
      if (i === QUIET_AFTER && this.hooks.active) silenced = this.hooks.silence(this.name);
      const fields = rows[i] as Fields;
      try {
        changes += this.#runRow(kind, fields, this.codec.encodeRow(fields)).changes;
      } catch (e) {
        throw rowError(e, i);
      }
    }
    if (silenced) this.hooks.unsilence(this.name, changes > 0);
    return rows.length;
  }

  /**
   * A full batch in one statement; when a constraint fails, row by row, which raises that row's
   * typed error. Columns `shared` by every row (a TOC's bookUrl, columns left null) are bound
   * once for the batch (insertSharedSql): at 15 columns of which 9 are shared, a chapter costs 6
   * bindings instead of 15. Within one bulk write the shared set only shrinks, so it prepares a
   * few statements at most; those are kept per table, SHARED_STATEMENTS at most.
   */
  #runBatch(kind: 'insert' | 'upsert', values: SqlValue[], given: Fields[], first: number, shared: readonly number[], findCulprit = true): number {
    const width = this.model.columns.length;
    const rows = values.length / width;
    let stmt: Statement;
    let params = values;
    if (!hasShared(shared, width)) {
      stmt = kind === 'insert' ? (this.insertBatch ??= this.#stmt(insertSql(this.model, rows))) : (this.upsertBatch ??= this.#stmt(upsertSql(this.model, rows)));
    } else {
      const batch = this.#sharedBatch(kind, rows, shared);
      stmt = batch.stmt;
      params = bindShared(values, rows, width, shared, batch.varying);
    }
    try {
      return stmt.run(...params).changes;
    } catch (e) {
      throw this.#batchFailed(e, kind, values, given, rows, first, findCulprit);
    }
  }

  /** A full batch of split mode (#each): its statement run with the parameters as encoded. */
  #runSplit(kind: 'insert' | 'upsert', batch: SharedBatch, params: SqlValue[], values: SqlValue[], given: Fields[], first: number): number {
    try {
      return batch.stmt.run(...params).changes;
    } catch (e) {
      unbindShared(params, given.length, this.model.columns.length, batch, values);
      throw this.#batchFailed(e, kind, values, given, given.length, first, true);
    }
  }

  /**
   * The error of a batch whose statement failed. A constraint failure undoes only its statement:
   * the transaction is there to go on in, and the rows are written one by one to raise the
   * failing row's own typed error.
   */
  #batchFailed(e: unknown, kind: 'insert' | 'upsert', values: SqlValue[], given: Fields[], rows: number, first: number, findCulprit: boolean): unknown {
    if (findCulprit && String((e as { code?: unknown }).code).startsWith('SQLITE_CONSTRAINT') && this.db.inTransaction) this.#runRows(kind, values, given, rows, first);
    return e;
  }

  /** The statement of `rows` rows binding the `shared` columns once, prepared on first use. */
  #sharedBatch(kind: 'insert' | 'upsert', rows: number, shared: readonly number[]): SharedBatch {
    const key = `${kind} ${shared.join(',')}`;
    let found = this.sharedBatches.get(key);
    if (found === undefined) {
      if (this.sharedBatches.size >= SHARED_STATEMENTS) this.sharedBatches.delete(this.sharedBatches.keys().next().value!);
      const sql = kind === 'insert' ? insertSharedSql(this.model, rows, shared) : upsertSharedSql(this.model, rows, shared);
      found = { stmt: this.hooks.prepare(sql), shared, varying: varyingColumns(this.model, shared) };
      this.sharedBatches.set(key, found);
    }
    return found;
  }

  /** The first n rows of a batch, a statement each; a failure names its row (`first` is the batch's first row). */
  #runRows(kind: 'insert' | 'upsert', values: SqlValue[], given: Fields[], n: number, first: number): number {
    const width = this.model.columns.length;
    let changes = 0;
    for (let j = 0; j < n; j++) {
      try {
        changes += this.#runRow(kind, given[j]!, values.slice(j * width, (j + 1) * width)).changes;
      } catch (e) {
        throw rowError(e, first + j);
      }
    }
    return changes;
  }

  #keyValues(key: K): SqlValue[] {
    if (this.pk.length === 1) {
      const c = this.pk[0]!;
      if (key === undefined || key === null) throw new MissingFieldError(this.name, c.field, key as null | undefined);
      return [this.codec.encodeValue(c, key)];
    }
    if (key === null || typeof key !== 'object') {
      throw new ValueTypeError(this.name, '(key)', key, `an object with ${this.pk.map((c) => c.field).join(', ')}`);
    }
    const k = key as Fields;
    return this.pk.map((c) => {
      const v = k[c.field];
      if (v === undefined || v === null) throw new MissingFieldError(this.name, c.field, v as null | undefined);
      return this.codec.encodeValue(c, v);
    });
  }

  #stmt(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.hooks.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  /**
   * The statement `prefix + tail`, cached by `tail` (a short key, often a constant), at most
   * QUERY_STATEMENTS per cache: the oldest goes first. `rows`: it reads rows (see reading).
   */
  #query(cache: Map<string, Statement>, prefix: string, tail: string, rows: boolean): Statement {
    let s = cache.get(tail);
    if (s === undefined) {
      s = this.hooks.prepare(prefix + tail);
      if (rows) this.#readingMany(s);
      if (cache.size >= QUERY_STATEMENTS) cache.delete(cache.keys().next().value!);
      cache.set(tail, s);
    }
    return s;
  }

  /** The API rows of rows read as arrays, in the same array. */
  #decodeAll(rows: unknown[]): R[] {
    if (this.objectRows) for (let i = 0; i < rows.length; i++) rows[i] = this.codec.fromObject(rows[i] as Record<string, unknown>);
    else for (let i = 0; i < rows.length; i++) rows[i] = this.codec.fromRaw(rows[i] as unknown[]);
    return rows as R[];
  }

  /** The API row of a row read by a statement made by #readingMany. */
  #decode(row: unknown): R {
    return this.objectRows ? this.codec.fromObject<R>(row as Record<string, unknown>) : this.codec.fromRaw<R>(row as unknown[]);
  }

  /**
   * Makes `s` a statement that reads rows for the codec: as arrays (the codec builds the
   * objects).
   */
  #reading(s: Statement): Statement {
    return s.raw(true);
  }

  /**
   * #reading for a statement that reads lists of rows: where the engine makes row objects
   * faster than JavaScript does (objectRows), they are read as objects. Point reads stay
   * arrays: one row as an object, fixed in place, cost more than one array on Bun too.
   */
  #readingMany(s: Statement): Statement {
    return this.objectRows ? s : this.#reading(s);
  }
}

/** Whether a batch binds its shared columns once: enough of them, and not all (rows that are all alike go as they are). */
const hasShared = (shared: readonly number[], width: number): boolean => shared.length >= MIN_SHARED && shared.length < width;

/**
 * The columns (of `candidates`, every column when undefined) whose value is the same in all
 * `rows` rows of a batch laid out row after row, `width` values each.
 */
function sameInEveryRow(values: readonly SqlValue[], rows: number, width: number, candidates: readonly number[] | undefined): number[] {
  const out: number[] = [];
  const check = (c: number): void => {
    const v = values[c];
    for (let k = c + width, end = rows * width; k < end; k += width) if (values[k] !== v) return;
    out.push(c);
  };
  if (candidates === undefined) for (let c = 0; c < width; c++) check(c);
  else for (const c of candidates) check(c);
  return out;
}

/** insertSharedSql's parameters: the shared columns' values once, then each row's other columns. */
function bindShared(values: readonly SqlValue[], rows: number, width: number, shared: readonly number[], varying: readonly number[]): SqlValue[] {
  const out = new Array<SqlValue>(shared.length + rows * varying.length);
  let k = 0;
  for (const c of shared) out[k++] = values[c]!;
  for (let r = 0, base = 0; r < rows; r++, base += width) for (const c of varying) out[k++] = values[base + c]!;
  return out;
}

/**
 * bindShared undone: the first `rows` rows of a split batch's parameters back into `values`, row
 * after row, `width` values each. They are taken as they were encoded, not encoded again from
 * the rows given, which a caller may have changed since (a generator handing out one object).
 */
function unbindShared(params: readonly SqlValue[], rows: number, width: number, batch: SharedBatch, values: SqlValue[]): void {
  const { shared, varying } = batch;
  for (let r = 0, base = 0, k = shared.length; r < rows; r++, base += width) {
    for (let j = 0; j < shared.length; j++) values[base + shared[j]!] = params[j]!;
    for (const c of varying) values[base + c] = params[k++]!;
  }
}

/** A bulk write's error, its message naming the row (counted from 0) when it is one of the store's. */
function rowError(e: unknown, row: number): unknown {
  if (e instanceof LegadoStoreError && !e.message.startsWith('row ')) e.message = `row ${row}: ${e.message}`;
  return e;
}
