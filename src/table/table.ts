// Typed operations on one table. Statements are prepared once per table (per query shape for
// update, list and count) and reused; every value is checked by the codec before it is bound.
// Values are passed to better-sqlite3 as arguments (`run(...vals)`), not as one array, which it
// binds more slowly (about 0.3 us more per 15-column insert). The parts: core.ts (what they
// share, one row's write), prepared.ts (finder, updater), bulk-write.ts (insertMany, upsertMany).
import type { Connection as Database, RunResult, Statement, TransactionFn } from '../engine/driver.js';
import { UnknownFieldError, ValueTypeError } from '../errors.js';
import { q } from '../schema/ddl.js';
import type { Column, Table } from '../schema/index.js';
import { checkOptions, isRowObject, ROW_OBJECT } from './args.js';
import { BulkWriter, QUIET_AFTER } from './bulk-write.js';
import type { SqlValue } from './codec.js';
import { INEXACT } from './compiled.js';
import { TableCore, type Fields } from './core.js';
import { Finder, Updater } from './prepared.js';
import { compileQuery, type Query, type Where } from './query.js';
import { updateSql } from './sql.js';
import { unobserved, type WriteHooks } from './write-hooks.js';

export { Finder, Updater } from './prepared.js';

/** Statements kept per query cache (list, select, count) of a table; LIMIT and OFFSET values are part of the SQL. */
const QUERY_STATEMENTS = 256;

/** TableApi's query caches: list, iterate and count by the SQL after the select list, select's by its tail, deleteWhere's statements and the counts that tell whether it silences the triggers, by tail. */
enum Cache {
  Lists,
  Selects,
  Counts,
  Deletes,
  DeleteCounts,
}

interface UpdateNode {
  readonly next: Map<string, UpdateNode>;
  stmt: Statement | undefined;
}

/** The key of a table's bulk writer (in-transaction.ts reaches it for the imports and the domain). */
export const BULK_WRITER: unique symbol = Symbol('bulk writer');

export class TableApi<R extends object, N extends object, P extends object, K> {
  readonly name: string;
  readonly model: Table;
  readonly #core: TableCore;
  /**
   * The query caches (Cache), each a map made on its first use: a store makes an API for each
   * of its twenty-odd tables at open, most never queried, and their empty maps were most of
   * what an open store kept alive (57 KB, now 20: bench/open-heap.ts).
   */
  readonly #caches: (Map<string, Statement> | undefined)[] = [];
  #runSilentDelete: TransactionFn<[Statement, readonly unknown[]], number> | undefined;
  /** update statements by the fields they set, in the order given: a tree with a level per field (made on first use). */
  #updates: UpdateNode | undefined;
  #updateStatements = 0;
  #bulk: BulkWriter | undefined;

  constructor(db: Database, table: Table, version: number, hooks: WriteHooks = unobserved(db)) {
    this.model = table;
    this.name = table.name;
    this.#core = new TableCore(db, table, version, hooks);
  }

  /** The row with this primary key, or undefined. */
  get(key: K): R | undefined {
    return this.#core.get<R>(key);
  }

  has(key: K): boolean {
    return this.#core.has(key);
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
    const keyVals = this.#core.keyValues(key);
    const p = patch as Fields;
    if (!isRowObject(p)) throw new ValueTypeError(this.name, '(patch)', p, ROW_OBJECT);
    const cols: Column[] = [];
    const vals: SqlValue[] = [];
    // The statement for this list of fields: found by walking the tree one field at a time.
    let node = (this.#updates ??= { next: new Map(), stmt: undefined });
    for (const field of Object.keys(p)) {
      const v = p[field];
      if (v === undefined) continue;
      const c = this.model.column(field);
      if (!c) this.#core.codec.checkFields(p);
      if (c!.pk > 0) throw new ValueTypeError(this.name, field, v, 'no primary-key field in an update (delete and insert to change a key)');
      cols.push(c!);
      vals.push(this.#core.codec.encodeValue(c!, v));
      node = node.next.get(field) ?? this.#updateChild(node, field);
    }
    if (cols.length === 0) return this.#core.has(key);
    let stmt = node.stmt;
    if (stmt === undefined) {
      if (this.#updateStatements >= QUERY_STATEMENTS) {
        this.#updates = { next: new Map(), stmt: undefined };
        this.#updateStatements = 0;
      }
      stmt = node.stmt = this.#core.hooks.prepare(updateSql(this.model, cols));
      this.#updateStatements++;
    }
    for (const k of keyVals) vals.push(k);
    return this.#core.runUpdate(stmt, vals, key, p);
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
      if (!c) throw new UnknownFieldError(this.name, f, this.#core.codec.version);
      if (c.pk > 0) throw new ValueTypeError(this.name, f, undefined, 'no primary-key field in an update (delete and insert to change a key)');
      return c;
    });
    if (cols.length > 30) throw new RangeError('updater: at most 30 fields');
    return new Updater<K>(this.#core, fields, cols);
  }

  /**
   * A lookup of the first row (in `orderBy` order) whose `fields` equal the values given,
   * prepared once, for the point reads the domain makes often: the same row as
   * `list({ where, orderBy, limit: 1 })[0]`, values checked the same way (null: IS NULL).
   */
  finder(fields: readonly (keyof R & string)[], orderBy?: keyof R & string): Finder<R> {
    const cols = fields.map((f) => {
      const c = this.model.column(f);
      if (!c) throw new UnknownFieldError(this.name, f, this.#core.codec.version);
      return c;
    });
    const tail = `WHERE ${cols.map((c) => `${q(c.name)} = ?`).join(' AND ')}${orderBy ? ` ORDER BY ${q(this.model.column(orderBy)?.name ?? orderBy)}` : ''} LIMIT 1`;
    return new Finder<R>(this.#core, this, fields, cols, orderBy, `${this.#core.sql.from} ${tail}`);
  }

  #updateChild(node: UpdateNode, field: string): UpdateNode {
    const child: UpdateNode = { next: new Map(), stmt: undefined };
    node.next.set(field, child);
    return child;
  }

  /** Deletes the row with this key (its dependent rows go with it where the schema cascades). */
  delete(key: K): boolean {
    return this.#core.reported('delete', this.#core.stmt(this.#core.sql.delete), this.#core.keyValues(key)).changes > 0;
  }

  /**
   * Deletes the rows chosen by `tail` (what follows `FROM <table>`, e.g. `WHERE bookUrl = ?`,
   * with `?` parameters) in one statement; returns how many. When a listener observes the table
   * and more than QUIET_AFTER rows go, its change triggers are silenced for the statement, as
   * in bulk writes. Each distinct tail is prepared once.
   */
  deleteWhere(tail: string, params: readonly unknown[] = []): number {
    const del = this.#query(Cache.Deletes, `DELETE FROM ${q(this.name)} `, tail, false);
    let changes: number;
    if (
      this.#core.hooks.active &&
      this.#core.hooks.observes(this.name) &&
      (this.#query(Cache.DeleteCounts, `SELECT count(*) FROM ${q(this.name)} `, tail, false)
        .pluck()
        .get(...params) as number) > QUIET_AFTER
    ) {
      this.#runSilentDelete ??= this.#core.hooks.transaction((s: Statement, p: readonly unknown[]) => {
        const silenced = this.#core.hooks.silence(this.name);
        const n = s.run(...p).changes;
        if (silenced) this.#core.hooks.unsilence(this.name, n > 0);
        return n;
      });
      changes = this.#runSilentDelete.immediate(del, params);
      if (changes > 0) this.#core.hooks.wrote(this.name, 'delete');
    } else {
      changes = this.#core.reported('delete', del, params).changes;
    }
    return changes;
  }

  list(query?: Query<R>): R[] {
    checkOptions(`${this.name}.list`, 'query', query);
    const { tail, params } = compileQuery(this.#core.codec, query as Query<unknown>, this.#core.db.capabilities);
    return this.#decodeAll(this.#query(Cache.Lists, this.#core.sql.from, tail, true).all(...params), this.#core.sql.from, tail, params);
  }

  /** Like list, one row at a time, for results too large to hold at once. */
  *iterate(query?: Query<R>): IterableIterator<R> {
    checkOptions(`${this.name}.iterate`, 'query', query);
    const { tail, params } = compileQuery(this.#core.codec, query as Query<unknown>, this.#core.db.capabilities);
    const rows = this.#query(Cache.Lists, this.#core.sql.from, tail, true).iterate(...params);
    let n = 0;
    try {
      for (let next = rows.next(); !next.done; next = rows.next()) {
        let row: R;
        try {
          row = this.#decode(next.value);
        } catch (e) {
          // A value past 2^53 (TableCore.exactly): the rest read exactly, from the same row on.
          // The first read stays open meanwhile, so both see the same snapshot of the file.
          if (e !== INEXACT) throw e;
          const exact = this.#core.exactStatement(this.#core.sql.from + tail);
          let skipped = 0;
          for (const r of exact.iterate(...params)) if (skipped++ >= n) yield this.#core.codec.fromExact<R>(r as unknown[]);
          return;
        }
        n++;
        yield row;
      }
    } finally {
      rows.return?.();
    }
  }

  /**
   * Rows chosen by SQL the typed filters cannot express (bit tests, LIKE with ESCAPE,
   * subqueries): `tail` is what follows `FROM <table>`, written with SQL column names and
   * `?` placeholders (params an array) or `@name` ones (params an object). Rows are decoded
   * like list's. Each distinct tail is prepared once.
   */
  select(tail: string, params: readonly unknown[] | Readonly<Record<string, unknown>> = []): R[] {
    const s = this.#query(Cache.Selects, `${this.#core.sql.from} `, tail, true);
    const args = Array.isArray(params) ? (params as unknown[]) : [params];
    return this.#decodeAll(s.all(...args), `${this.#core.sql.from} `, tail, args);
  }

  count(where?: Where<R>): number {
    checkOptions(`${this.name}.count`, 'where', where);
    const { tail, params } = compileQuery(this.#core.codec, { where } as Query<unknown>, this.#core.db.capabilities);
    return this.#query(Cache.Counts, `SELECT count(*) FROM ${q(this.name)}`, tail, false)
      .pluck()
      .get(...params) as number;
  }

  /** Inserts every row in one transaction: all of them, or none when one fails. Returns the count. */
  insertMany(rows: Iterable<N>): number {
    return this[BULK_WRITER]().insertMany(rows);
  }

  /** Upserts every row in one transaction: all of them, or none when one fails. Returns the count. */
  upsertMany(rows: Iterable<N>): number {
    return this[BULK_WRITER]().upsertMany(rows);
  }

  /** This table's bulk writes, made on first use. */
  [BULK_WRITER](): BulkWriter {
    return (this.#bulk ??= new BulkWriter(this.#core));
  }

  #write(kind: 'insert' | 'upsert', row: N): K {
    const fields = row as Fields;
    const vals = this.#core.codec.encodeRow(fields);
    const info = this.#runWrite(kind, fields, vals);
    if (this.#core.pk.length === 1) {
      const v = vals[this.#core.pkIndex[0]!];
      return (v === null ? info.lastInsertRowid : v) as K;
    }
    const key: Record<string, unknown> = {};
    for (const c of this.#core.pk) key[c.field] = fields[c.field];
    return key as K;
  }

  #runWrite(kind: 'insert' | 'upsert', fields: Fields, vals: SqlValue[]): RunResult {
    try {
      return this.#core.reported(kind === 'insert' ? 'insert' : 'update', this.#core.rowStmt(kind), vals);
    } catch (e) {
      throw this.#core.rowError(kind, e, fields, vals);
    }
  }

  /**
   * The statement `prefix + tail`, cached by `tail` (a short key, often a constant), at most
   * QUERY_STATEMENTS per cache: the oldest goes first. `rows`: it reads rows (see reading).
   */
  #query(kind: Cache, prefix: string, tail: string, rows: boolean): Statement {
    const cache = (this.#caches[kind] ??= new Map());
    let s = cache.get(tail);
    if (s === undefined) {
      s = this.#core.hooks.prepare(prefix + tail);
      if (rows) this.#core.readingMany(s);
      if (cache.size >= QUERY_STATEMENTS) cache.delete(cache.keys().next().value!);
      cache.set(tail, s);
    }
    return s;
  }

  /** The API rows of rows read as arrays, in the same array. */
  #decodeAll(rows: unknown[], prefix: string, tail: string, args: readonly unknown[]): R[] {
    try {
      if (this.#core.objectRows) for (let i = 0; i < rows.length; i++) rows[i] = this.#core.codec.fromObject(rows[i] as Record<string, unknown>);
      else for (let i = 0; i < rows.length; i++) rows[i] = this.#core.codec.fromRaw(rows[i] as unknown[]);
    } catch (e) {
      // The statement's SQL (prefix + tail, as #query made it), joined only here: rare.
      return this.#core.exactly<R>(e, prefix + tail, args, false);
    }
    return rows as R[];
  }

  /** The API row of a row read by a statement made by readingMany. */
  #decode(row: unknown): R {
    return this.#core.objectRows ? this.#core.codec.fromObject<R>(row as Record<string, unknown>) : this.#core.codec.fromRaw<R>(row as unknown[]);
  }
}
