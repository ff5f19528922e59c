// What the parts of a typed table share: its connection, model, codec and write hooks, the
// statements of its fixed operations (prepared once), and the steps of one row's write. TableApi
// (table.ts), its prepared lookups and updates (prepared.ts) and its bulk writes (bulk-write.ts)
// each hold the table's one TableCore.
import type { Connection as Database, RunResult, Statement } from '../engine/driver.js';
import { MissingFieldError, ValueTypeError } from '../errors.js';
import type { Column, Table } from '../schema/index.js';
import { Codec, type SqlValue } from './codec.js';
import { INEXACT } from './compiled.js';
import { tableSql, type TableSql } from './sql.js';
import { translateWriteError } from './violations.js';
import type { WriteHooks, WriteOp } from './write-hooks.js';

export type Fields = Readonly<Record<string, unknown>>;

/**
 * stmt.run(...params) without the spread for up to 6 parameters: a call with a spread array
 * costs the engine's native run about 2% more (bench/README.md, reading progress).
 */
export function runWith(stmt: Statement, p: readonly unknown[]): RunResult {
  switch (p.length) {
    case 1:
      return stmt.run(p[0]);
    case 2:
      return stmt.run(p[0], p[1]);
    case 3:
      return stmt.run(p[0], p[1], p[2]);
    case 4:
      return stmt.run(p[0], p[1], p[2], p[3]);
    case 5:
      return stmt.run(p[0], p[1], p[2], p[3], p[4]);
    case 6:
      return stmt.run(p[0], p[1], p[2], p[3], p[4], p[5]);
    default:
      return stmt.run(...p);
  }
}

export class TableCore {
  readonly name: string;
  readonly model: Table;
  readonly db: Database;
  readonly hooks: WriteHooks;
  readonly codec: Codec;
  /** Lists of rows are read as the engine's objects and fixed in place (Connection.objectRows), not as arrays. */
  readonly objectRows: boolean;
  readonly pk: readonly Column[];
  readonly pkIndex: readonly number[];
  /** SQL of the fixed operations, built once. */
  readonly sql: TableSql;
  /** Statements by their SQL; the map made on first use, as TableApi's caches. */
  private statements: Map<string, Statement> | undefined;
  /** Reads again with safeIntegers, by their SQL; made only when a row needs one. */
  private exactStatements: Map<string, Statement> | undefined;
  private getStmt: Statement | undefined;
  private insertStmt: Statement | undefined;
  private upsertStmt: Statement | undefined;

  constructor(db: Database, table: Table, version: number, hooks: WriteHooks) {
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
  get<R>(key: unknown): R | undefined {
    const params = this.keyValues(key);
    const row = (this.getStmt ??= this.reading(this.stmt(this.sql.get))).get(...params) as unknown[] | undefined;
    if (row === undefined) return undefined;
    try {
      return this.codec.fromRaw<R>(row);
    } catch (e) {
      return this.exactly<R>(e, this.sql.get, params, true)[0];
    }
  }

  /**
   * After a row builder threw INEXACT (a number column held an integer past ±(2^53-1), which
   * the engine read rounded): the rows of `sql` with `args` read again with safeIntegers, which
   * every engine reads exactly (the Durable Object driver too: durable-object.ts), such
   * integers as bigints. `one`: the first row only, as get() reads it. Any other error is
   * thrown on.
   */
  exactly<R>(e: unknown, sql: string, args: readonly unknown[], one: boolean): R[] {
    if (e !== INEXACT) throw e;
    const s = this.exactStatement(sql);
    const rows = (one ? [s.get(...args)].filter((r) => r !== undefined) : s.all(...args)) as unknown[][];
    return rows.map((r) => this.codec.fromExact<R>(r));
  }

  /** The statement of `sql` read with safeIntegers, as arrays. */
  exactStatement(sql: string): Statement {
    const exact = (this.exactStatements ??= new Map());
    let s = exact.get(sql);
    if (s === undefined) {
      s = this.hooks.prepare(sql).raw(true).safeIntegers(true);
      // A few distinct reads at most meet such rows; keep the newest 16.
      if (exact.size >= 16) exact.delete(exact.keys().next().value!);
      exact.set(sql, s);
    }
    return s;
  }

  has(key: unknown): boolean {
    return this.stmt(this.sql.has).get(...this.keyValues(key)) !== undefined;
  }

  /** A statement of this table, prepared once. */
  stmt(sql: string): Statement {
    const statements = (this.statements ??= new Map());
    let s = statements.get(sql);
    if (!s) {
      s = this.hooks.prepare(sql);
      statements.set(sql, s);
    }
    return s;
  }

  keyValues(key: unknown): SqlValue[] {
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

  /**
   * Makes `s` a statement that reads rows for the codec: as arrays (the codec builds the
   * objects).
   */
  reading(s: Statement): Statement {
    return s.raw(true);
  }

  /**
   * `reading` for a statement that reads lists of rows: where the engine makes row objects
   * faster than JavaScript does (objectRows), they are read as objects. Point reads stay
   * arrays: one row as an object, fixed in place, cost more than one array on Bun too.
   */
  readingMany(s: Statement): Statement {
    return this.objectRows ? s : this.reading(s);
  }

  /**
   * Runs one statement of a single typed write and reports what it changed. Its own table's
   * triggers keep quiet through it where the tracker can do that (hooks.quiet): the write then
   * reports itself.
   */
  reported(op: WriteOp, stmt: Statement, params: readonly unknown[]): RunResult {
    const quiet = this.hooks.active && this.hooks.quiet(this.name, op);
    let info: RunResult;
    try {
      info = runWith(stmt, params);
    } finally {
      if (quiet) this.hooks.endQuiet();
    }
    if (info.changes > 0 && this.hooks.active) this.hooks.wrote(this.name, op, info.changes, quiet);
    return info;
  }

  /**
   * Runs an UPDATE by key: a failure as a typed error (naming the row's fields as they would
   * have been), the change reported. `given`: the values asked for, by field (an update's
   * patch), or in the order of `fields` (an updater's).
   */
  runUpdate(stmt: Statement, vals: SqlValue[], key: unknown, given: Fields | readonly unknown[], fields?: readonly string[]): boolean {
    let changes: number;
    try {
      changes = this.reported('update', stmt, vals).changes;
    } catch (e) {
      throw this.updateError(e, key, given, fields);
    }
    return changes > 0;
  }

  /** The typed error of a failed UPDATE by key (runUpdate's): made only on failure, so no closure per call. */
  updateError(e: unknown, key: unknown, given: Fields | readonly unknown[], fields?: readonly string[]): unknown {
    const current = this.get<Fields>(key);
    const asked = fields ? (f: string) => (given as readonly unknown[])[fields.indexOf(f)] : (f: string) => (given as Fields)[f];
    return translateWriteError(this.db, this.model, 'update', e, (f) => {
      const v = asked(f);
      return v !== undefined ? v : current?.[f];
    });
  }

  rowStmt(kind: 'insert' | 'upsert'): Statement {
    return kind === 'insert' ? (this.insertStmt ??= this.stmt(this.sql.insert)) : (this.upsertStmt ??= this.stmt(this.sql.upsert));
  }

  rowError(kind: 'insert' | 'upsert', e: unknown, fields: Fields, vals: SqlValue[]): unknown {
    return translateWriteError(
      this.db,
      this.model,
      kind,
      e,
      (f) => fields[f],
      (f) => vals[this.model.columns.findIndex((c) => c.field === f)],
    );
  }

  /** One row's INSERT or upsert, its failure as a typed error; nothing reported. */
  runRow(kind: 'insert' | 'upsert', fields: Fields, vals: SqlValue[]): RunResult {
    try {
      return runWith(this.rowStmt(kind), vals);
    } catch (e) {
      throw this.rowError(kind, e, fields, vals);
    }
  }
}
