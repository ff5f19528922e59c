// Turns SQLite constraint failures into the typed errors, naming table, fields, index and
// value. Runs only on the failure path, so it may query the database to find the culprit.
import type { Connection as Database } from '../engine/driver.js';
import {
  ConstraintFailedError,
  DuplicateKeyError,
  ForeignKeyError,
  InvalidArgumentError,
  LegadoStoreError,
  MissingFieldError,
  UniqueViolationError,
} from '../errors.js';
import { q } from '../schema/ddl.js';
import type { Table } from '../schema/index.js';
import type { SqlValue } from './codec.js';

/** The row a failed statement was writing: its fields by name, as the caller gave them. */
export type FieldLookup = (field: string) => unknown;

/** `kind` matters for unique failures: only an insert can collide with its own key. */
export function translateWriteError(
  db: Database,
  table: Table,
  kind: 'insert' | 'upsert' | 'update',
  e: unknown,
  values: FieldLookup,
  encoded?: FieldLookup,
): unknown {
  if (e instanceof LegadoStoreError) return e;
  const err = e as { code?: string; message?: string };
  switch (err.code) {
    case 'SQLITE_CONSTRAINT_PRIMARYKEY':
    case 'SQLITE_CONSTRAINT_UNIQUE':
      // SQLite may report another unique index first when the key itself is taken too
      // (books: same bookUrl and same name+author); the taken key is the clearer error.
      return (kind === 'insert' && encoded && duplicateKeyError(db, table, values, encoded)) || uniqueError(table, err.message ?? '', values) || e;
    case 'SQLITE_CONSTRAINT_NOTNULL': {
      const column = /NOT NULL constraint failed: [^.]+\.(.+)$/.exec(err.message ?? '')?.[1];
      const c = table.columns.find((x) => x.name === column);
      return c ? new MissingFieldError(table.name, c.field, null) : e;
    }
    case 'SQLITE_CONSTRAINT_FOREIGNKEY':
      return foreignKeyError(db, table, encoded ?? values) ?? e;
    case 'SQLITE_CONSTRAINT_TRIGGER':
    case 'SQLITE_CONSTRAINT_CHECK':
    case 'SQLITE_CONSTRAINT':
      return new ConstraintFailedError(table.name, err.message ?? err.code);
    case 'SQLITE_TOOBIG':
      return tooBig(table, values) ?? e;
    default:
      // The engine refuses to bind a string or blob past SQLite's length limit itself (a RangeError).
      return e instanceof RangeError && /too big|too long|too large/i.test(err.message ?? '') ? (tooBig(table, values) ?? e) : e;
  }
}

/** The field holding the longest string or blob, named in an error that does not repeat the value. */
function tooBig(table: Table, values: FieldLookup): LegadoStoreError | undefined {
  let field: string | undefined;
  let longest = -1;
  for (const c of table.columns) {
    const v = values(c.field);
    const n = typeof v === 'string' || v instanceof Uint8Array ? v.length : -1;
    if (n > longest) [field, longest] = [c.field, n];
  }
  if (field === undefined || longest < 0) return undefined;
  return new InvalidArgumentError(
    `${table.name}.${field}`,
    `a value of ${longest} characters or bytes is longer than SQLite stores (at most 1,000,000,000 bytes); nothing was written`,
  );
}

function uniqueError(table: Table, message: string, values: FieldLookup): LegadoStoreError | undefined {
  const m = /constraint failed: (.+)$/.exec(message);
  if (!m) return undefined;
  const columns = m[1]!.split(', ').map((s) => s.slice(s.indexOf('.') + 1));
  const fields = columns.map((c) => table.columns.find((x) => x.name === c)?.field ?? c);
  const vals = fields.map(values);
  const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  const index = table.indices.find((ix) => ix.unique && same(ix.columns, columns));
  if (
    same(
      columns,
      table.primaryKey.map((c) => c.name),
    )
  ) {
    return new DuplicateKeyError(table.name, index?.name ?? 'PRIMARY KEY', fields, vals);
  }
  return new UniqueViolationError(table.name, index?.name ?? `UNIQUE(${columns.join(', ')})`, fields, vals);
}

function duplicateKeyError(db: Database, table: Table, values: FieldLookup, encoded: FieldLookup): LegadoStoreError | undefined {
  const key = table.primaryKey.map((c) => encoded(c.field)) as SqlValue[];
  if (key.some((v) => v === null || v === undefined)) return undefined;
  const where = table.primaryKey.map((c) => `${q(c.name)} = ?`).join(' AND ');
  if (!db.prepare(`SELECT 1 FROM ${q(table.name)} WHERE ${where}`).get(...key)) return undefined;
  const pkColumns = table.primaryKey.map((c) => c.name).join(',');
  const index = table.indices.find((ix) => ix.unique && ix.columns.join(',') === pkColumns);
  const fields = table.primaryKey.map((c) => c.field);
  return new DuplicateKeyError(table.name, index?.name ?? 'PRIMARY KEY', fields, fields.map(values));
}

/** Finds which foreign key of the written row points at a missing parent row. */
function foreignKeyError(db: Database, table: Table, values: FieldLookup): LegadoStoreError | undefined {
  for (const fk of table.foreignKeys) {
    const fields = fk.columns.map((c) => table.columns.find((x) => x.name === c)?.field ?? c);
    const vals = fields.map(values) as SqlValue[];
    if (vals.some((v) => v === null || v === undefined)) continue;
    const where = fk.parentColumns.map((c) => `${q(c)} = ?`).join(' AND ');
    const found = db.prepare(`SELECT 1 FROM ${q(fk.parent)} WHERE ${where}`).get(...vals);
    if (!found) return new ForeignKeyError(table.name, fields, vals, fk.parent, fk.parentColumns);
  }
  return undefined;
}
