// Builds valid rows for any table from the schema model, so per-table tests need no hand-written rows.
import type { Column, Schema, Table } from 'legado-store/tools';

/** A value of the column's kind, made distinct by `n`. */
export function sampleValue(c: Column, n: number): unknown {
  switch (c.js) {
    case 'string':
      return `${c.field}-${n}`;
    case 'number':
      return 1000 + n;
    case 'boolean':
      return n % 2 === 0;
    case 'bigint':
      return 1n << BigInt(n % 63);
  }
}

/** Only the fields a caller must give: NOT NULL, no default, not auto-generated. */
export function requiredFields(t: Table): Column[] {
  return t.columns.filter((c) => c.notNull && c.default === undefined && !(t.autoGenerate && c.pk === 1));
}

export function minimalRow(t: Table, n: number): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const c of requiredFields(t)) row[c.field] = sampleValue(c, n);
  // Key and unique-index fields that have a default still need distinct values between rows.
  const distinct = [...t.primaryKey.map((c) => c.name), ...t.indices.filter((ix) => ix.unique).flatMap((ix) => ix.columns)];
  for (const c of t.columns) if (distinct.includes(c.name) && !(t.autoGenerate && c.pk === 1)) row[c.field] = sampleValue(c, n);
  return row;
}

export function fullRow(t: Table, n: number): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const c of t.columns) row[c.field] = sampleValue(c, n);
  return row;
}

export function keyOf(t: Table, row: Record<string, unknown>): unknown {
  if (t.primaryKey.length === 1) return row[t.primaryKey[0]!.field];
  return Object.fromEntries(t.primaryKey.map((c) => [c.field, row[c.field]]));
}

let parentSerial = 500;

/** Parent rows the foreign keys of a row need, so that the row can be inserted. */
export function parentsFor(schema: Schema, t: Table, row: Record<string, unknown>): { table: string; row: Record<string, unknown> }[] {
  return t.foreignKeys.map((fk, i) => {
    const parent = schema.table(fk.parent)!;
    const child = t.columns.find((c) => c.name === fk.columns[0])!;
    const parentField = parent.columns.find((c) => c.name === fk.parentColumns[0])!.field;
    return { table: fk.parent, row: { ...minimalRow(parent, parentSerial++ + i), [parentField]: row[child.field] } };
  });
}
