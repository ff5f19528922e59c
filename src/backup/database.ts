// Importing another Legado database file (any version, any fork, a structure the store has never
// seen) into a store: table by table and column by column, matched by name, every row merged by
// the same rules as a backup import (merge.ts), in ONE store transaction. Whatever has no place
// in the store (a table, a column) is reported with how many rows or values it held, never
// silently lost. The source is read without changing anything on disk (engine/traceless-read.ts).
import { asOpenError, type Db, type DriverOptions } from '../engine/connection.js';
import { quickCheck } from '../engine/integrity.js';
import type { Driver } from '../engine/driver.js';
import { resolveDriver } from '../engine/registry.js';
import { afterImportNotes, refuseDamagedStore } from './store-check.js';
import { CorruptError, type Damage } from '../errors.js';
import { readIdentityHash } from '../engine/inspect.js';
import { openForeignDatabase } from '../engine/traceless-read.js';
import { q } from '../schema/ddl.js';
import { isColumnAtAnyVersion, type Column, type SchemaVersion, type Table } from '../schema/index.js';
import { describeSchema } from '../schema/lines.js';
import type { Store } from '../store/store.js';
import { compileSparseRowMaker } from '../table/compiled.js';
import { bookTypeAt } from './book-type.js';
import type { FieldValue } from './coerce.js';
import { ImportRejectedError, UnsupportedInputError } from './errors.js';
import { backupFileByTable } from './file-map.js';
import type { ImportProgress } from './import.js';
import { Merger, type MergeTable } from './merge.js';
import { builtRow } from './record.js';
import {
  bump,
  newKindReport,
  totalsOf,
  type ColumnNotCarried,
  type DatabaseSource,
  type FileOutcome,
  type ImportResult,
  type KindReport,
  type TableNotCarried,
} from './report.js';

export interface DatabaseImportOptions extends DriverOptions {
  /** All or nothing: any row that cannot be stored fails the whole import. */
  readonly strict?: boolean | undefined;
  /** Called every few hundred rows; `file` names the table being read, bytes count rows. */
  readonly onProgress?: (progress: ImportProgress) => void;
}

export type { TableNotCarried, ColumnNotCarried, DatabaseSource };

export interface DatabaseImportResult extends ImportResult {
  readonly source: DatabaseSource;
  readonly notCarried: { readonly tables: readonly TableNotCarried[]; readonly columns: readonly ColumnNotCarried[] };
}

/** Tables Android, Room and SQLite keep beside the app's own: never data to carry. */
const BOOKKEEPING = new Set(['android_metadata', 'room_master_table', 'sqlite_sequence']);
const PROGRESS_EVERY = 512;

/** A row of the source file, its values in the order of the plan's columns. */
type SourceRow = readonly unknown[];

interface Plan {
  readonly table: Table;
  /** The store's columns the source table has, by SQL name. */
  readonly columns: readonly Column[];
  readonly rows: number;
}

/** Imports every row of a Legado database file that the store has a table and columns for. */
export function importDatabase(store: Store<SchemaVersion>, path: string, options: DatabaseImportOptions = {}): DatabaseImportResult {
  const started = performance.now();
  const driver = resolveDriver(options.driver);
  if (samePath(driver, store.path, path)) throw new UnsupportedInputError(path, 'this is the store itself');
  refuseDamagedStore(store, 'all');
  const source = openForeignDatabase(path, driver);
  try {
    const db = source.db;
    refuseDamagedSource(db, path);
    const version = db.pragma('user_version', { simple: true }) as number;
    const identityHash = readIdentityHash(db);
    const sourceTables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
    const columnsOf = (t: string) => (db.prepare(`PRAGMA table_info(${q(t)})`).all() as { name: string }[]).map((c) => c.name);
    const count = (sql: string) => Number(db.prepare(sql).pluck().get());

    const plans: Plan[] = [];
    const notTables: TableNotCarried[] = [];
    const notColumns: ColumnNotCarried[] = [];
    const files: FileOutcome[] = [];
    const kinds: Record<string, KindReport> = {};
    const reportOf = (t: string): KindReport => (kinds[kindOf(t)] ??= newKindReport(kindOf(t), t));
    for (const name of sourceTables) {
      if (BOOKKEEPING.has(name) || name.startsWith('sqlite_')) continue;
      const rows = count(`SELECT count(*) FROM ${q(name)}`);
      const table = store.schema.table(name);
      const have = columnsOf(name);
      const missingKey = table?.primaryKey.filter((c) => !have.includes(c.name)).map((c) => c.name) ?? [];
      const reason = !table
        ? `no ${name} table at schema ${store.version}`
        : missingKey.length
          ? `the source table has no ${missingKey.join(', ')} (the store's key)`
          : undefined;
      if (reason !== undefined) {
        notTables.push({ table: name, rows, reason });
        files.push({
          file: `${path}:${name}`,
          table: name,
          status: 'not-imported',
          reason: `${rows} row(s): ${reason}`,
          read: 0,
          stored: 0,
          duplicates: 0,
          skipped: 0,
        });
        continue;
      }
      const shared = table!.columns.filter((c) => have.includes(c.name));
      for (const column of have.filter((c) => !table!.columns.some((s) => s.name === c))) {
        const values = count(`SELECT count(*) FROM ${q(name)} WHERE ${q(column)} IS NOT NULL`);
        const known = isColumnAtAnyVersion(name, column);
        notColumns.push({ table: name, column, values, reason: `no column ${name}.${column} at schema ${store.version}` });
        bump(known ? reportOf(name).droppedFields : reportOf(name).unknownFields, column, values);
      }
      plans.push({ table: table!, columns: shared, rows });
    }
    if (plans.length === 0) {
      throw new UnsupportedInputError(path, `shares no table with the store (tables: ${sourceTables.join(', ') || 'none'}); not a Legado database`);
    }

    const merger = new Merger(store);
    const totalRows = plans.reduce((n, p) => n + p.rows, 0);
    let done = 0;
    const result = (): DatabaseImportResult => ({
      store: store.path,
      schema: store.version,
      strict: options.strict ?? false,
      kinds,
      files,
      skipped: merger.skipped,
      conflicts: merger.conflicts,
      totals: totalsOf(kinds),
      durationMs: Math.round(performance.now() - started),
      source: { path, version, identityHash, description: describeSchema(version, identityHash) },
      notCarried: { tables: notTables, columns: notColumns },
    });
    store.transaction(() => {
      for (const plan of parentsFirst(plans)) {
        const t = plan.table;
        const file: FileOutcome = {
          file: `${path}:${t.name}`,
          kind: kindOf(t.name),
          table: t.name,
          status: 'imported',
          read: 0,
          stored: 0,
          duplicates: 0,
          skipped: 0,
        };
        files.push(file);
        const target: MergeTable = { api: store.table(t.name), report: reportOf(t.name), seen: new Map() };
        const decode = rowDecoder(t, plan.columns, store.version);
        const select = db
          .prepare(`SELECT ${plan.columns.map((c) => q(c.name)).join(', ')} FROM ${q(t.name)}`)
          .safeIntegers(true)
          .raw();
        for (const raw of select.iterate() as IterableIterator<SourceRow>) {
          target.report.read++;
          merger.merge(target, file, file.read++, builtRow(t, decode(raw)));
          if (++done % PROGRESS_EVERY === 0) options.onProgress?.({ file: file.file, kind: file.kind, records: done, bytes: done, totalBytes: totalRows });
        }
        merger.flush(target);
        if (file.read === 0) file.status = 'empty';
      }
      options.onProgress?.({ file: path, records: done, bytes: totalRows, totalBytes: totalRows });
      if (options.strict && merger.skipped.length > 0) throw new ImportRejectedError(result());
    });
    return { ...result(), ...afterImportNotes(store) };
  } finally {
    source.close();
  }
}

/**
 * The source's pages, checked before anything is read into the store: damage is a CorruptError
 * naming the source file, not SQLite's bare "malformed" (or the store's name) half-way through.
 */
function refuseDamagedSource(db: Db, path: string): void {
  let damage: Damage[];
  try {
    damage = quickCheck(db);
  } catch (e) {
    throw asOpenError(path, e);
  }
  if (damage.length) throw new CorruptError(path, damage, 'the database to import is damaged; nothing was stored');
}

const kindOf = (table: string): string => backupFileByTable(table)?.kind ?? table;

function samePath(driver: Driver, a: string, b: string): boolean {
  if (!driver.files) return a === b;
  try {
    return driver.files.realPath(a) === driver.files.realPath(b);
  } catch {
    return false;
  }
}

/** Tables whose rows others point at (books before chapters, sources before search results) first. */
function parentsFirst(plans: readonly Plan[]): Plan[] {
  const out: Plan[] = [];
  const pending = [...plans];
  while (pending.length) {
    const i = pending.findIndex((p) => p.table.foreignKeys.every((fk) => fk.parent === p.table.name || !pending.some((o) => o.table.name === fk.parent)));
    out.push(...pending.splice(Math.max(i, 0), 1));
  }
  return out;
}

/**
 * A source row (SQL values, integers as bigint) as the table API takes it: booleans from 0/1,
 * numbers where they fit, NULL in a NOT NULL column left out (the column default applies), and
 * books.type in the store's format, per book (bookTypeAt): an old code in a file of any version
 * becomes the bitmask at 55 and later, the bitmask the old code below.
 * A value SQLite's loose typing let through that the column cannot take is passed on as it is,
 * so the table API refuses it and the row is skipped with the reason.
 */
function rowDecoder(table: Table, columns: readonly Column[], to: number): (raw: SourceRow) => Record<string, FieldValue> {
  const retype = table.name === 'books';
  // Values at the store's column positions, made into a row at once (compiled.ts: compileSparseRowMaker).
  const at = columns.map((c) => table.columns.indexOf(c));
  const make = compileSparseRowMaker(table);
  return (raw) => {
    const values = new Array<unknown>(table.columns.length);
    for (let i = 0; i < columns.length; i++) {
      const c = columns[i]!;
      const v = raw[i];
      if (v === null || v === undefined) {
        if (!c.notNull) values[at[i]!] = null;
        continue;
      }
      values[at[i]!] = typeof v === 'bigint' ? fromInteger(c, v) : v;
    }
    const row = make(values) as Record<string, FieldValue>;
    if (retype && typeof row.type === 'number') row.type = bookTypeAt(to, row.type, row.origin);
    return row;
  };
}

function fromInteger(c: Column, v: bigint): FieldValue {
  if (c.js === 'bigint') return v;
  // Room reads a boolean as `getInt() != 0`.
  if (c.js === 'boolean') return v !== 0n;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
}
