// A store: one connection to one file of a known schema version, with a typed API per table.
import { InvalidArgumentError, UnknownTableError, UnsupportedError } from '../errors.js';
import { closeWithoutCheckpoint, type Db } from '../engine/connection.js';
import { resolveDriver } from '../engine/registry.js';
import type { DriverChoice, Statement, TransactionFn } from '../engine/driver.js';
import { inspectDatabase, type FileReport } from '../engine/inspect.js';
import { isReadOnly } from '../engine/traceless-read.js';
import { q } from '../schema/ddl.js';
import type { SchemaVersion, VersionedSchema } from '../schema/index.js';
import type { TableName } from '../schema/row-types.js';
import { TableApi } from '../table/table.js';
import {
  BookGroups,
  BookSources,
  Bookmarks,
  Books,
  Cache,
  Chapters,
  Cookies,
  DictRules,
  HttpTts,
  KeyboardAssists,
  ReadRecords,
  ReplaceRules,
  Rss,
  RssSources,
  RuleSubs,
  SearchKeywords,
  Servers,
  TxtTocRules,
  DOMAIN_AREAS,
} from '../domain/index.js';
import { ChangeTracker, type ChangeListener, type ChangeOptions } from './changes.js';
import { guardMethods, ownedBy, type Owner } from './guard.js';

import type { Tables } from '../table/typed.js';
import type { DomainContext } from '../domain/context.js';

export type { TableOf, Tables } from '../table/typed.js';

/** A store of any supported version, as a union that narrows on `store.version`. */
export type AnyStore = { [V in SchemaVersion]: Store<V> }[SchemaVersion];

export interface StoreOptions {
  /** Milliseconds since the epoch, for cache expiry, reading times and stars (default Date.now). */
  readonly clock?: () => number;
  /** The engine the connection is on (to close a damaged store without a checkpoint). */
  readonly driver?: DriverChoice | undefined;
  /**
   * A -wal was beside the file before this store opened it (default true). Only such a -wal is
   * kept apart from a damaged file at close; one this store's connection made is its own,
   * closed as usual (checkpointed, removed with its -shm), so a refused write leaves nothing.
   */
  readonly walAtOpen?: boolean | undefined;
}

export class Store<V extends SchemaVersion = 62> implements DomainContext {
  readonly path: string;
  readonly version: V;
  readonly schema: VersionedSchema;
  /**
   * The connection, for SQL the typed API does not cover: better-sqlite3's API (the subset in
   * src/engine/driver.ts) on whichever engine the store runs on (`db.driver` names it).
   */
  readonly db: Db;
  /** One typed table API per table of this version, keyed by the SQL table name. */
  readonly tables: Tables<V>;
  /** Now, in epoch milliseconds, as the domain operations see it. */
  readonly clock: () => number;
  private readonly changes: ChangeTracker;
  /** False for a store opened read-only (its transactions then take no write lock). */
  private readonly writable: boolean;
  private readonly areas = new Map<unknown, unknown>();
  // Each area once found, in a field of its own: a getter in a hot loop (store.books.updateProgress)
  // then reads a field, not the map (a lookup by class that was 0.8% of a progress save in memory).
  #books: Books<V> | undefined;
  #bookGroups: BookGroups<V> | undefined;
  #chapters: Chapters | undefined;
  #bookSources: BookSources<V> | undefined;
  #rssSources: RssSources<V> | undefined;
  #replaceRules: ReplaceRules | undefined;
  #searchKeywords: SearchKeywords | undefined;
  #cache: Cache | undefined;
  #cookies: Cookies | undefined;
  #readRecords: ReadRecords<V> | undefined;
  #rss: Rss | undefined;
  #bookmarks: Bookmarks | undefined;
  #txtTocRules: TxtTocRules<V> | undefined;
  #httpTts: HttpTts | undefined;
  #dictRules: DictRules | undefined;
  #keyboardAssists: KeyboardAssists | undefined;
  #servers: Servers | undefined;
  #ruleSubs: RuleSubs | undefined;
  /** counts()'s statements, prepared on its first call: a program may call it in a loop. */
  private readonly countStatements = new Map<string, Statement>();
  /** The file, and whether SQLite reported it damaged (set by the guard on a CORRUPT error). */
  private readonly owner: Owner;
  private readonly driver: DriverChoice | undefined;
  private readonly walAtOpen: boolean;
  /** One transaction function for every store.transaction / store.read call: it runs the function it is given. */
  private readonly runInTransaction: TransactionFn<[() => unknown], unknown>;

  constructor(path: string, db: Db, schema: VersionedSchema, options: StoreOptions = {}) {
    this.path = path;
    this.owner = { path, damaged: false };
    this.driver = options.driver;
    this.walAtOpen = options.walAtOpen ?? true;
    this.db = db;
    this.schema = schema;
    this.version = schema.version as V;
    this.clock = options.clock ?? Date.now;
    this.changes = new ChangeTracker(db, schema.tables);
    this.runInTransaction = this.changes.transaction((fn: () => unknown) => fn());
    this.writable = !isReadOnly(db);
    const tables: Record<string, TableApi<object, object, object, unknown>> = {};
    for (const t of schema.tables) tables[t.name] = ownedBy(new TableApi(db, t, schema.version, this.changes), this.owner);
    ownedBy(this, this.owner);
    this.tables = Object.freeze(tables) as unknown as Tables<V>;
    // Every area now (each holds two empty maps and prepares nothing yet), not on first use: an
    // area made after a garbage collection has a hidden class the collection just took away
    // with the last store's areas, and with it the code V8 had optimized for them. An area
    // whose table this version lacks is left for its first use to report.
    for (const Kind of DOMAIN_AREAS) {
      try {
        this.area(Kind as new (store: DomainContext) => object);
      } catch (e) {
        if (!(e instanceof UnknownTableError)) throw e;
      }
    }
  }

  /**
   * Calls `listener` after each committed transaction that changed any of `tables`, once per
   * transaction, with the ones it changed. Writes through the typed tables, the domain
   * operations and raw SQL on `store.db` are seen; writes by another connection or process
   * are not. Rolled-back transactions are never reported. Returns the unsubscribe function.
   */
  onChange(tables: TableName<V> | readonly TableName<V>[], listener: ChangeListener<TableName<V>>, options?: ChangeOptions): () => void {
    const names: readonly string[] = typeof tables === 'string' ? [tables] : tables;
    for (const n of names) this.table(n);
    if (this.db.capabilities.tempTriggers === false) {
      throw new UnsupportedError('store.onChange', this.db.driver, "change listeners are TEMP triggers (as Room's are), which this engine refuses");
    }
    return this.changes.subscribe(names, listener as ChangeListener, options);
  }

  /**
   * Reports committed changes now. Every write path of this store already does this; it is
   * only needed after writing through a statement prepared some other way on this connection.
   */
  flushChanges(): void {
    this.changes.flush(true);
  }

  /** Books: save, lookups, bookshelf tabs and orderings, search, progress, refresh list. */
  get books(): Books<V> {
    return (this.#books ??= this.area<Books<V>>(Books));
  }
  /** Book groups: create (next free bit), rename, reorder, delete, visible tabs, special groups. */
  get bookGroups(): BookGroups<V> {
    return (this.#bookGroups ??= this.area<BookGroups<V>>(BookGroups));
  }
  /** Chapters: replace a table of contents, list, range, lookups, search, count. */
  get chapters(): Chapters {
    return (this.#chapters ??= this.area<Chapters>(Chapters));
  }
  /** Book sources: enabled/disabled lists, search, groups, explore, login, order, enable many. */
  get bookSources(): BookSources<V> {
    return (this.#bookSources ??= this.area<BookSources<V>>(BookSources));
  }
  /** RSS sources: the same operations as book sources. */
  get rssSources(): RssSources<V> {
    return (this.#rssSources ??= this.area<RssSources<V>>(RssSources));
  }
  /** Replace rules: the rules that apply to a title or content, enable all, next order. */
  get replaceRules(): ReplaceRules {
    return (this.#replaceRules ??= this.area<ReplaceRules>(ReplaceRules));
  }
  /** Search history: record a use, by usage, by time, search. */
  get searchKeywords(): SearchKeywords {
    return (this.#searchKeywords ??= this.area<SearchKeywords>(SearchKeywords));
  }
  /** The expiring key/value cache. */
  get cache(): Cache {
    return (this.#cache ??= this.area<Cache>(Cache));
  }
  /** Cookies per site, merged on set. */
  get cookies(): Cookies {
    return (this.#cookies ??= this.area<Cookies>(Cookies));
  }
  /** Reading time per device and book, and its totals. */
  get readRecords(): ReadRecords<V> {
    return (this.#readRecords ??= this.area<ReadRecords<V>>(ReadRecords));
  }
  /** RSS articles with read marks, stars, clearing old articles. */
  get rss(): Rss {
    return (this.#rss ??= this.area<Rss>(Rss));
  }
  /** Bookmarks of a book, in chapter order. */
  get bookmarks(): Bookmarks {
    return (this.#bookmarks ??= this.area<Bookmarks>(Bookmarks));
  }
  /** TXT table-of-contents rules, by serialNumber. */
  get txtTocRules(): TxtTocRules<V> {
    return (this.#txtTocRules ??= this.area<TxtTocRules<V>>(TxtTocRules));
  }
  /** HTTP TTS engines, by name. */
  get httpTts(): HttpTts {
    return (this.#httpTts ??= this.area<HttpTts>(HttpTts));
  }
  /** Dictionary rules, by sortNumber. Schema 62 only: UnknownTableError at 49. */
  get dictRules(): DictRules {
    return (this.#dictRules ??= this.area<DictRules>(DictRules));
  }
  /** Keyboard assists, by serialNo. */
  get keyboardAssists(): KeyboardAssists {
    return (this.#keyboardAssists ??= this.area<KeyboardAssists>(KeyboardAssists));
  }
  /** Servers (WebDAV), by sortNumber. Schema 62 only: UnknownTableError at 49. */
  get servers(): Servers {
    return (this.#servers ??= this.area<Servers>(Servers));
  }
  /** Rule subscriptions, by customOrder. */
  get ruleSubs(): RuleSubs {
    return (this.#ruleSubs ??= this.area<RuleSubs>(RuleSubs));
  }

  /** The table API for a name known only at run time. */
  table(name: string): TableApi<Record<string, unknown>, Record<string, unknown>, Record<string, unknown>, unknown> {
    // Own properties only: 'constructor' or 'toString' name no table.
    const t = Object.hasOwn(this.tables, name) ? (this.tables as Record<string, unknown>)[name] : undefined;
    if (!t)
      throw new UnknownTableError(
        String(name),
        this.version,
        this.schema.tables.map((t) => t.name),
      );
    return t as TableApi<Record<string, unknown>, Record<string, unknown>, Record<string, unknown>, unknown>;
  }

  /**
   * Runs fn in one transaction: everything it writes is committed together, or nothing is.
   * The transaction takes the write lock first (BEGIN IMMEDIATE), waiting up to busyTimeout for
   * another connection or process to finish, so a read-then-write never fails half-way because
   * another writer got in between (SQLite cannot wait there). Nested calls are savepoints.
   * fn must be synchronous: an async function (or one returning a promise) is refused with
   * INVALID_ARGUMENT and rolled back, since what it wrote after an `await` would be outside
   * the transaction.
   */
  transaction<T>(fn: () => T): T {
    return runIn(this.runInTransaction, this.changes, 'store.transaction(fn)', fn, this.writable);
  }

  /**
   * Runs fn in one read transaction: every read in it sees the same snapshot of the file, and
   * other connections can go on writing meanwhile (WAL). Writes in it are not expected: they
   * would need the write lock part-way, which SQLite cannot wait for (BUSY).
   */
  read<T>(fn: () => T): T {
    return runIn(this.runInTransaction, this.changes, 'store.read(fn)', fn, false);
  }

  /** Version, identity hash and structure check of the open file. */
  inspect(): FileReport {
    return inspectDatabase(this.db);
  }

  /** Rows per table. */
  counts(): Record<string, number> {
    return rowCounts(this.db, this.schema, this.countStatements);
  }

  get isOpen(): boolean {
    return this.db.open;
  }

  /**
   * Closes the connection. After SQLite reported the file damaged, the -wal is left as it is
   * rather than merged into the file by the closing checkpoint (it may be what is damaged: a
   * stale or foreign -wal), so the file and the -wal can still be looked at apart.
   */
  close(): void {
    this.changes.dispose();
    if (!this.db.open) return;
    // A damaged file is not checkpointed into; a read-only store wrote nothing to its -wal (an
    // empty one its query_only connection made), so its close removes what it made beside it.
    if (this.owner.damaged && this.walAtOpen && this.path !== ':memory:' && !isReadOnly(this.db))
      closeWithoutCheckpoint(this.db, this.path, resolveDriver(this.driver));
    else this.db.close();
    lastClosed = this;
  }

  /** A domain area, one per store (so its statements are prepared once per store). */
  private area<T>(Kind: new (store: DomainContext) => T): T {
    let a = this.areas.get(Kind) as T | undefined;
    if (a === undefined) {
      a = ownedBy(new Kind(this as unknown as Store<SchemaVersion>) as object, this.owner) as T;
      this.areas.set(Kind, a);
    }
    return a;
  }
}

/**
 * store.transaction and store.read: fn in one transaction, then its changes reported. A function
 * rather than a method, so it is not guarded a second time (guardMethods wraps every method,
 * and its wrapper's cost is a measurable part of a one-update transaction).
 */
function runIn<T>(tx: TransactionFn<[() => unknown], unknown>, changes: ChangeTracker, what: string, fn: () => T, immediate: boolean): T {
  // A plain function's constructor is Function: the names (read through a getter, twice) only for the others.
  if (
    typeof fn !== 'function' ||
    (fn.constructor !== Function && (fn.constructor.name === 'AsyncFunction' || fn.constructor.name === 'AsyncGeneratorFunction'))
  ) {
    throw new InvalidArgumentError(what, fn, 'a synchronous function (an async one would commit what it writes after an await outside the transaction)');
  }
  let result: T;
  // Nested: its savepoint may be rolled back alone, so what the quiet writes did before it is counted first.
  if (changes.active) changes.settle();
  try {
    result = (immediate ? tx.immediate(fn) : tx.deferred(fn)) as T;
  } catch (e) {
    if (changes.active) changes.rolledBack();
    changes.flushQuietly();
    // better-sqlite3 has rolled back what fn wrote before it returned the promise.
    if (e instanceof TypeError && /cannot return a promise/.test(e.message)) {
      throw new InvalidArgumentError(what, fn, 'a function that does not return a promise; what it wrote was rolled back');
    }
    throw e;
  }
  // Inactive (no listener), the tracker has nothing to report: no call.
  if (changes.active) changes.flush();
  return result;
}

/** Rows per table of the schema that the file has; statements kept in `prepared` across calls. */
export function rowCounts(db: Db, schema: VersionedSchema, prepared = new Map<string, Statement>()): Record<string, number> {
  const stmt = (sql: string): Statement => {
    let s = prepared.get(sql);
    if (s === undefined) prepared.set(sql, (s = db.prepare(sql).pluck()));
    return s;
  };
  const present = new Set(stmt("SELECT name FROM sqlite_master WHERE type = 'table'").all() as string[]);
  const out: Record<string, number> = {};
  for (const t of schema.tables) if (present.has(t.name)) out[t.name] = stmt(`SELECT count(*) FROM ${q(t.name)}`).get() as number;
  return out;
}

/**
 * The store closed last, kept (its connection closed, its listeners dropped) until the next
 * one closes. V8 keeps a hidden class only while some object has it, and throws away the code
 * it optimized for objects of that class once the class is gone. A program that opens a store
 * per task has none open, at times, when the garbage is collected: without this, every class
 * of the store (its areas, tables, codecs, finders) went then, and the next store compiled its
 * hot paths again (+10-25% CPU on 1,000 progress saves).
 */
// biome-ignore lint/correctness/noUnusedVariables: written and never read on purpose: holding the last closed store is the point (above).
let lastClosed: Store<SchemaVersion> | undefined;

// Failures of every public method come out as typed errors naming the file (guard.ts).
guardMethods(Store, TableApi, ...DOMAIN_AREAS);
