// A table's bulk writes: insertMany and upsertMany in their own transaction, and the same work
// inside a caller's transaction (in-transaction.ts). Rows go a batch per multi-row statement
// (batch.ts), the columns they all share bound once (shared-columns.ts). Past QUIET_AFTER rows
// the table's change triggers are silenced and the table is counted once instead.
import type { Connection as Database, Statement, TransactionFn } from '../engine/driver.js';
import { LegadoStoreError } from '../errors.js';
import type { Table } from '../schema/index.js';
import { checkRows } from './args.js';
import { batchRows } from './batch.js';
import type { Codec, SqlValue } from './codec.js';
import { compileSameFields, type FastEncoder } from './compiled.js';
import { runWith, type Fields, type TableCore } from './core.js';
import { bindShared, hasShared, sameInEveryRow, unbindShared, type SharedBatch } from './shared-columns.js';
import { insertSharedSql, insertSql, upsertSharedSql, upsertSql, varyingColumns } from './sql.js';
import type { WriteHooks } from './write-hooks.js';

/** Rows a bulk write writes with its table's change triggers in place; beyond, it silences them (store/changes.ts). */
export const QUIET_AFTER = 256;

/**
 * Until a table's upsertMany has been given this many rows (as arrays) in a store, it runs a
 * statement per row. Its multi-row statements (the batch, then its shared-columns form) cost
 * about 0.2 ms each to prepare: in a new store a statement per row was 2-12% faster up to 400
 * book sources, batches 5-7% faster from 600 on, and 1.2x faster for 100 sources once prepared.
 */
const UPSERT_BATCH_FROM = 512;

/**
 * Rows an array's shared columns are first guessed from (compileSameFields): ~60 batches of book
 * sources. The guess costs ~0.03 ms per 1,000 rows; each multi-row statement it spares, ~0.2 ms.
 */
const LOOKAHEAD = 2048;

/** Statements with shared columns kept per table. */
const SHARED_STATEMENTS = 8;

/**
 * `from` copied into `out` at `at`: a function of its own, whose optimized code knows no
 * store's objects and so outlives a collection that takes the last store's away.
 */
function copyInto(out: SqlValue[], at: number, from: readonly SqlValue[]): void {
  for (let k = 0; k < from.length; k++) out[at + k] = from[k]!;
}

/**
 * A row for upsertRows: its column values as encodeRow gives them (undefined: encode `row`
 * instead), and the row itself, which may be made only when asked for.
 */
export interface EncodedRow {
  readonly encoded: readonly SqlValue[] | undefined;
  readonly row: object;
}

/** What upsertRows wrote: the first `written` rows; `failed` when the next one was refused. */
export interface RowsWritten {
  readonly written: number;
  readonly failed?: unknown;
}

/** The bulk writes of one table, made on its first one. */
export class BulkWriter {
  private readonly core: TableCore;
  private readonly name: string;
  private readonly model: Table;
  private readonly db: Database;
  private readonly hooks: WriteHooks;
  private readonly codec: Codec;
  /** Rows per statement, and the multi-row statements of that size. */
  private batchSize: number | undefined;
  private insertBatch: Statement | undefined;
  private upsertBatch: Statement | undefined;
  /** upsertRows' multi-row statement (INSERT OR FAIL). */
  private freshBatch: Statement | undefined;
  /** Multi-row statements binding some columns once (#runBatch), by kind and those columns. */
  private readonly sharedBatches = new Map<string, SharedBatch>();
  /** The bulk writes' transaction functions, made on first use. */
  private runInsertMany: TransactionFn<[Iterable<object>], number> | undefined;
  private runUpsertMany: TransactionFn<[Iterable<object>], number> | undefined;
  /** Rows given to upsertMany's arrays so far (UPSERT_BATCH_FROM). */
  private upsertedRows = 0;

  constructor(core: TableCore) {
    this.core = core;
    this.name = core.name;
    this.model = core.model;
    this.db = core.db;
    this.hooks = core.hooks;
    this.codec = core.codec;
  }

  /** Rows one multi-row statement of a bulk write takes in this table. */
  rows(): number {
    return (this.batchSize ??= batchRows(this.db, this.model.columns.length));
  }

  /** Inserts every row in one transaction: all of them, or none when one fails. Returns the count. */
  insertMany(rows: Iterable<object>): number {
    checkRows(`${this.name}.insertMany`, rows);
    this.runInsertMany ??= this.hooks.transaction((all: Iterable<object>) => this.#each(all, 'insert'));
    const n = this.runInsertMany.immediate(rows);
    if (n > 0 && this.hooks.active) this.hooks.wrote(this.name, 'insert');
    return n;
  }

  /** Upserts every row in one transaction: all of them, or none when one fails. Returns the count. */
  upsertMany(rows: Iterable<object>): number {
    checkRows(`${this.name}.upsertMany`, rows);
    this.runUpsertMany ??= this.hooks.transaction((all: Iterable<object>) => this.#each(all, 'upsert'));
    const n = this.runUpsertMany.immediate(rows);
    if (n > 0 && this.hooks.active) this.hooks.wrote(this.name, 'update');
    return n;
  }

  /**
   * insertMany's work inside the caller's transaction, without a savepoint of its own: for a
   * domain operation that is one transaction already (replaceToc), where a savepoint would copy
   * every page the transaction touched before it (a TOC refresh deletes the rows whose pages the
   * inserts then reuse) for nothing. Outside a transaction it is insertMany.
   */
  insertInTransaction(rows: Iterable<object>): number {
    if (!this.db.inTransaction) return this.insertMany(rows);
    const n = this.#each(rows, 'insert');
    if (n > 0 && this.hooks.active) this.hooks.wrote(this.name, 'insert');
    return n;
  }

  /**
   * For imports that merge record by record inside their own transaction: upserts rows in
   * order, a full batch (`rows()`) in one statement; fewer rows, or outside a transaction, a
   * statement per row. Stops at the first row refused, with nothing of that row (or after it)
   * written. A row's encoded values are bound as they are; its row object is asked for only
   * where it has none (it is encoded and checked) or is refused (the typed error names its
   * fields).
   *
   * A full batch is an `INSERT OR FAIL`, not an upsert: SQLite keeps a statement journal (a copy
   * of every page the statement touches, to undo it alone) for a multi-row statement that may
   * abort, and an upsert's DO UPDATE may always abort; OR FAIL never undoes what the statement
   * wrote before a failure. 34-row upserts of book sources were 1.04-1.11x one-row upserts on
   * the native engines, 34-row INSERT OR FAIL 0.92-0.98x (10,000 sources, raw code). So a batch
   * is fast where its keys are new (the import's, merge.ts); when one of them is in the table,
   * repeated in the batch, or a row is refused, the statement fails with the rows before that
   * one written, and the batch is upserted row by row from its first: those rows are written
   * again with the same values, and the outcome is an upsert's all the same.
   */
  upsertRows(rows: readonly EncodedRow[]): RowsWritten {
    const width = this.model.columns.length;
    const n = rows.length;
    let changes = 0;
    let written = 0;
    let failed: unknown;
    if (n === this.rows() && this.db.inTransaction) {
      const values = new Array<SqlValue>(n * width);
      let encoded = true;
      try {
        for (let j = 0; j < n; j++) {
          const e = rows[j]!.encoded;
          if (e === undefined) this.codec.encodeInto(rows[j]!.row as Fields, values, j * width);
          else copyInto(values, j * width, e);
        }
      } catch {
        encoded = false;
      }
      if (encoded) {
        try {
          // No shared columns: they differ from batch to batch here, and each set is a statement.
          changes = (this.freshBatch ??= this.core.stmt(insertSql(this.model, n, 'INSERT OR FAIL'))).run(...values).changes;
          written = n;
        } catch (e) {
          if (!String((e as { code?: unknown }).code).startsWith('SQLITE_CONSTRAINT')) throw e;
        }
      }
    }
    for (; written < n; written++) {
      const item = rows[written]!;
      const e = item.encoded;
      try {
        if (e === undefined) {
          const row = item.row as Fields;
          changes += this.core.runRow('upsert', row, this.codec.encodeRow(row)).changes;
        } else {
          changes += this.#runEncoded(item, e as SqlValue[]);
        }
      } catch (err) {
        failed = err;
        break;
      }
    }
    if (changes > 0 && this.hooks.active) this.hooks.wrote(this.name, 'update', changes);
    return failed === undefined ? { written } : { written, failed };
  }

  /** One encoded row's upsert; its row object is made only for the typed error of a refusal. */
  #runEncoded(item: EncodedRow, vals: SqlValue[]): number {
    try {
      return runWith(this.core.rowStmt('upsert'), vals).changes;
    } catch (e) {
      throw this.core.rowError('upsert', e, item.row as Fields, vals);
    }
  }

  /**
   * The rows of insertMany or upsertMany, in their transaction, a batch of rows per statement
   * (batch.ts). A failure is reported as the same row's failure a statement per row would
   * give: rows are encoded (and checked) in order, a batch that fails is written again row by
   * row to find the culprit, and the transaction rolls everything back. Past QUIET_AFTER rows
   * the table's change triggers are silenced and the table is counted once instead.
   */
  #each(rows: Iterable<object>, kind: 'insert' | 'upsert'): number {
    if (kind === 'upsert' && Array.isArray(rows) && (this.upsertedRows += rows.length) < UPSERT_BATCH_FROM) return this.#eachRow(rows, kind);
    const width = this.model.columns.length;
    const size = (this.batchSize ??= batchRows(this.db, width));
    const values = new Array<SqlValue>(size * width);
    const given = new Array<Fields>(size);
    let n = 0; // rows in the batch
    let i = 0; // rows seen
    let changes = 0;
    let silenced = false;
    // Columns with one value within every full batch so far (see #runBatch); to begin with, those
    // whose field is the same in the first LOOKAHEAD rows given (compileSameFields).
    let shared = Array.isArray(rows) && rows.length > size ? compileSameFields(this.model)?.(rows, Math.min(rows.length, LOOKAHEAD)) : undefined;
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

  /**
   * A full batch in one statement; when a constraint fails, row by row, which raises that row's
   * typed error. Columns `shared` by every row (a TOC's bookUrl, columns left null) are bound
   * once for the batch (insertSharedSql): at 15 columns of which 9 are shared, a chapter costs 6
   * bindings instead of 15. Within one bulk write the shared set only shrinks, so it prepares a
   * few statements at most; those are kept per table, SHARED_STATEMENTS at most.
   */
  #runBatch(kind: 'insert' | 'upsert', values: SqlValue[], given: Fields[], first: number, shared: readonly number[]): number {
    const width = this.model.columns.length;
    const rows = values.length / width;
    let stmt: Statement;
    let params = values;
    if (!hasShared(shared, width)) {
      stmt =
        kind === 'insert'
          ? (this.insertBatch ??= this.core.stmt(insertSql(this.model, rows)))
          : (this.upsertBatch ??= this.core.stmt(upsertSql(this.model, rows)));
    } else {
      const batch = this.#sharedBatch(kind, rows, shared);
      stmt = batch.stmt;
      params = bindShared(values, rows, width, shared, batch.varying);
    }
    try {
      return stmt.run(...params).changes;
    } catch (e) {
      throw this.#batchFailed(e, kind, values, given, rows, first);
    }
  }

  /** #each with a statement per row (UPSERT_BATCH_FROM): the same checks, errors, row numbers and reports. */
  #eachRow(rows: readonly object[], kind: 'insert' | 'upsert'): number {
    let changes = 0;
    let silenced = false;
    for (let i = 0; i < rows.length; i++) {
      if (i === QUIET_AFTER && this.hooks.active) silenced = this.hooks.silence(this.name);
      const fields = rows[i] as Fields;
      try {
        changes += this.core.runRow(kind, fields, this.codec.encodeRow(fields)).changes;
      } catch (e) {
        throw rowError(e, i);
      }
    }
    if (silenced) this.hooks.unsilence(this.name, changes > 0);
    return rows.length;
  }

  /** A full batch of split mode (#each): its statement run with the parameters as encoded. */
  #runSplit(kind: 'insert' | 'upsert', batch: SharedBatch, params: SqlValue[], values: SqlValue[], given: Fields[], first: number): number {
    try {
      return batch.stmt.run(...params).changes;
    } catch (e) {
      unbindShared(params, given.length, this.model.columns.length, batch, values);
      throw this.#batchFailed(e, kind, values, given, given.length, first);
    }
  }

  /**
   * The error of a batch whose statement failed. A constraint failure undoes only its statement:
   * the transaction is there to go on in, and the rows are written one by one to raise the
   * failing row's own typed error.
   */
  #batchFailed(e: unknown, kind: 'insert' | 'upsert', values: SqlValue[], given: Fields[], rows: number, first: number): unknown {
    if (String((e as { code?: unknown }).code).startsWith('SQLITE_CONSTRAINT') && this.db.inTransaction) this.#runRows(kind, values, given, rows, first);
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
        changes += this.core.runRow(kind, given[j]!, values.slice(j * width, (j + 1) * width)).changes;
      } catch (e) {
        throw rowError(e, first + j);
      }
    }
    return changes;
  }
}

/** A bulk write's error, its message naming the row (counted from 0) when it is one of the store's. */
function rowError(e: unknown, row: number): unknown {
  if (e instanceof LegadoStoreError && !e.message.startsWith('row ')) e.message = `row ${row}: ${e.message}`;
  return e;
}
