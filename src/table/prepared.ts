// Lookups and updates of some fields, prepared once per table (TableApi.finder, TableApi.updater),
// for the point reads and updates the domain makes often. Objects with a method rather than
// closures: the code V8 optimizes for their callers then calls one shared method, and holds no
// function of one store that is collected with the store, which would throw that code away (and
// compile it again) with every store a process opens and closes.
import type { Statement } from '../engine/driver.js';
import type { Column } from '../schema/index.js';
import { isPlain, plainKind, type SqlValue } from './codec.js';
import {
  CHECKED,
  compileFinder,
  compileUpdateSetter,
  FIND_ARGS,
  UPDATE_ARGS,
  type FindGetter,
  type FindTarget,
  type UpdateSetter,
  type UpdateTarget,
} from './compiled.js';
import type { TableCore } from './core.js';
import type { Query } from './query.js';
import { updateSql } from './sql.js';
import type { WriteHooks } from './write-hooks.js';

/** What a Finder asks of its table beyond the core: list's way, for IS NULL and missing values. */
interface Lister<R> {
  list(query?: Query<R>): R[];
}

/** A lookup by some fields, prepared once (TableApi.finder). */
export class Finder<R> implements FindTarget {
  readonly fields: readonly string[];
  readonly cols: readonly Column[];
  /** Each column's plainKind. */
  readonly plain: readonly number[];
  readonly orderBy: string | undefined;
  readonly sql: string;
  stmt: Statement | undefined = undefined;
  readonly #core: TableCore;
  readonly #table: Lister<R>;
  /** The generated lookup (compiled.ts) where every field is text or an integer; undefined otherwise and where code cannot be generated. */
  readonly #find: FindGetter | undefined;

  constructor(core: TableCore, table: Lister<R>, fields: readonly string[], cols: readonly Column[], orderBy: string | undefined, sql: string) {
    this.#core = core;
    this.#table = table;
    this.fields = fields;
    this.cols = cols;
    this.plain = cols.map(plainKind);
    this.orderBy = orderBy;
    this.sql = sql;
    this.#find = compileFinder(core.model, cols);
  }

  /** The first row with these values of the fields (in the finder's order), or undefined. */
  get(...values: unknown[]): R | undefined;
  // Up to four values as arguments, for the generated lookup: no rest array on the way.
  get(v0?: unknown, v1?: unknown, v2?: unknown, v3?: unknown): R | undefined {
    // biome-ignore lint/complexity/noArguments: how many values were given, without a rest array
    if (this.#find !== undefined && arguments.length <= FIND_ARGS) {
      const row = this.#find(this, v0, v1, v2, v3);
      if (row !== CHECKED) return row as R | undefined;
    }
    // biome-ignore lint/complexity/noArguments: every value given, as the general path takes them
    return findRow(this, this.#core, this.#table, Array.from(arguments));
  }

  /** The lookup's statement, prepared and kept (for the generated lookup and findRow). */
  prepare(): Statement {
    return (this.stmt = this.#core.reading(this.#core.hooks.prepare(this.sql)));
  }

  /** The generated lookup's re-read of a row the builder could not take exactly (TableCore.exactly). */
  exact(e: unknown, values: readonly unknown[]): R | undefined {
    return this.#core.exactly<R>(e, this.sql, values, true)[0];
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
  const s = f.stmt ?? f.prepare();
  const row = (n === 1 ? s.get(values[0]) : n === 2 ? s.get(values[0], values[1]) : s.get(...values.slice(0, n))) as unknown[] | undefined;
  if (row === undefined) return undefined;
  try {
    return t.codec.fromRaw<R>(row);
  } catch (e) {
    return t.exactly<R>(e, f.sql, values.slice(0, n), true)[0];
  }
}

/** An update of some fields, prepared once (TableApi.updater); an object for Finder's reason. */
export class Updater<K> implements UpdateTarget {
  readonly fields: readonly string[];
  readonly cols: readonly Column[];
  /** A statement per set of fields given, by its bit mask; prepared on first use. */
  readonly statements: (Statement | undefined)[] = [];
  readonly hooks: WriteHooks;
  readonly #core: TableCore;
  /**
   * The generated setter (compiled.ts) for up to UPDATE_ARGS fields by a one-column key, which
   * takes the values as arguments; undefined for the others and where code cannot be generated.
   */
  readonly #setter: UpdateSetter | undefined;

  constructor(core: TableCore, fields: readonly string[], cols: readonly Column[]) {
    this.#core = core;
    this.hooks = core.hooks;
    this.fields = fields;
    this.cols = cols;
    this.#setter = compileUpdateSetter(core.model, cols);
  }

  /** Sets the fields to `values` (in the updater's order; undefined: not set) in the row with `key`; false when there is none. */
  set(key: K, values: readonly unknown[]): boolean {
    return this.cols.length <= UPDATE_ARGS ? this.setArgs(key, values[0], values[1], values[2], values[3]) : setChecked(this, this.#core, key, values);
  }

  /**
   * set() with the values as arguments, for an updater of up to four fields (UPDATE_ARGS): no
   * array for a caller that has them apart (books.updateProgress).
   */
  setArgs(key: K, v0?: unknown, v1?: unknown, v2?: unknown, v3?: unknown): boolean {
    if (this.cols.length > UPDATE_ARGS)
      throw new RangeError(`setArgs: an updater of at most ${UPDATE_ARGS} fields (this one has ${this.cols.length}); use set`);
    const done = this.#setter?.(this, key, v0, v1, v2, v3);
    return done !== undefined ? done : setChecked(this, this.#core, key, [v0, v1, v2, v3]);
  }

  /** The UPDATE of the fields in `mask`, prepared and kept (for the generated setter and setChecked). */
  prepare(mask: number): Statement {
    return (this.statements[mask] = this.#core.hooks.prepare(
      updateSql(
        this.#core.model,
        this.cols.filter((_, i) => mask & (1 << i)),
      ),
    ));
  }

  /** The generated setter's error path: the typed error of a failed UPDATE, as runUpdate makes it. */
  failed(e: unknown, key: unknown, values: readonly unknown[]): unknown {
    return this.#core.updateError(e, key, values, this.fields);
  }
}

/**
 * Updater.set by the general path: every value through encodeValue (which raises the typed
 * errors), the key through keyValues, the write reported. The generated setter takes the same
 * values the same way, and leaves every other case here.
 */
function setChecked<K>(u: Updater<K>, t: TableCore, key: K, values: readonly unknown[]): boolean {
  const vals: SqlValue[] = [];
  let given = 0;
  for (let i = 0; i < u.cols.length; i++) {
    const v = values[i];
    if (v === undefined) continue;
    vals.push(t.codec.encodeValue(u.cols[i]!, v));
    given |= 1 << i;
  }
  if (given === 0) return t.has(key);
  // A one-column key is encoded in place, without keyValues' array.
  if (t.pk.length === 1 && key !== undefined && key !== null) vals.push(t.codec.encodeValue(t.pk[0]!, key));
  else for (const k of t.keyValues(key)) vals.push(k);
  return t.runUpdate(u.statements[given] ?? u.prepare(given), vals, key, values, u.fields);
}
