// Lookups and updates of some fields, prepared once per table (TableApi.finder, TableApi.updater),
// for the point reads and updates the domain makes often. Objects with a method rather than
// closures: the code V8 optimizes for their callers then calls one shared method, and holds no
// function of one store that is collected with the store, which would throw that code away (and
// compile it again) with every store a process opens and closes.
import type { Statement } from '../engine/driver.js';
import type { Column } from '../schema/index.js';
import { isPlain, plainKind, type SqlValue } from './codec.js';
import type { TableCore } from './core.js';
import type { Query } from './query.js';
import { updateSql } from './sql.js';

/** What a Finder asks of its table beyond the core: list's way, for IS NULL and missing values. */
interface Lister<R> {
  list(query?: Query<R>): R[];
}

/** A lookup by some fields, prepared once (TableApi.finder). */
export class Finder<R> {
  readonly fields: readonly string[];
  readonly cols: readonly Column[];
  /** Each column's plainKind. */
  readonly plain: readonly number[];
  readonly orderBy: string | undefined;
  readonly sql: string;
  stmt: Statement | undefined = undefined;
  readonly #core: TableCore;
  readonly #table: Lister<R>;

  constructor(core: TableCore, table: Lister<R>, fields: readonly string[], cols: readonly Column[], orderBy: string | undefined, sql: string) {
    this.#core = core;
    this.#table = table;
    this.fields = fields;
    this.cols = cols;
    this.plain = cols.map(plainKind);
    this.orderBy = orderBy;
    this.sql = sql;
  }

  /** The first row with these values of the fields (in the finder's order), or undefined. */
  get(...values: unknown[]): R | undefined {
    return findRow(this, this.#core, this.#table, values);
  }
}

/** Finder.get: one function for every finder, as the code V8 optimizes for its callers calls. */
function findRow<R>(f: Finder<R>, t: TableCore, table: Lister<R>, values: unknown[]): R | undefined {
  const n = f.cols.length;
  // IS NULL and a missing value take list's way.
  for (let i = 0; i < n; i++) {
    if (values[i] === null || values[i] === undefined) {
      return table.list({ where: Object.fromEntries(f.fields.map((k, j) => [k, values[j]])), orderBy: f.orderBy, limit: 1 } as Query<R>)[0];
    }
  }
  // Encoded where they were given (get's own rest array), and bound without a spread for the
  // one- and two-field lookups the domain makes: as fast as hand-written code.
  for (let i = 0; i < n; i++) if (!isPlain(f.plain[i]!, values[i])) values[i] = t.codec.encodeValue(f.cols[i]!, values[i]);
  const s = (f.stmt ??= t.reading(t.hooks.prepare(f.sql)));
  const row = (n === 1 ? s.get(values[0]) : n === 2 ? s.get(values[0], values[1]) : s.get(...values.slice(0, n))) as unknown[] | undefined;
  if (row === undefined) return undefined;
  try {
    return t.codec.fromRaw<R>(row);
  } catch (e) {
    return t.exactly<R>(e, f.sql, values.slice(0, n), true)[0];
  }
}

/** An update of some fields, prepared once (TableApi.updater); an object for Finder's reason. */
export class Updater<K> {
  readonly fields: readonly string[];
  readonly cols: readonly Column[];
  /** A statement per set of fields given, by its bit mask; prepared on first use. */
  readonly statements: (Statement | undefined)[] = [];
  readonly #core: TableCore;

  constructor(core: TableCore, fields: readonly string[], cols: readonly Column[]) {
    this.#core = core;
    this.fields = fields;
    this.cols = cols;
  }

  /** Sets the fields to `values` (in the updater's order; undefined: not set) in the row with `key`; false when there is none. */
  set(key: K, values: readonly unknown[]): boolean {
    const t = this.#core;
    const vals: SqlValue[] = [];
    let given = 0;
    for (let i = 0; i < this.cols.length; i++) {
      const v = values[i];
      if (v === undefined) continue;
      vals.push(t.codec.encodeValue(this.cols[i]!, v));
      given |= 1 << i;
    }
    if (given === 0) return t.has(key);
    // A one-column key is encoded in place, without keyValues' array.
    if (t.pk.length === 1 && key !== undefined && key !== null) vals.push(t.codec.encodeValue(t.pk[0]!, key));
    else for (const k of t.keyValues(key)) vals.push(k);
    const stmt = (this.statements[given] ??= t.hooks.prepare(
      updateSql(
        t.model,
        this.cols.filter((_, i) => given & (1 << i)),
      ),
    ));
    return t.runUpdate(stmt, vals, key, (f) => values[this.fields.indexOf(f)]);
  }
}
