// Rows as JSON values, for programs that send rows over HTTP or keep them as JSON (rows hold
// bigints, which JSON.stringify refuses): the backup export's conversion (the app's JSON of the
// entity), with the integers a JSON number cannot hold exactly given as decimal text, and the
// backup import's conversion back.
import { InvalidArgumentError, UnknownTableError } from '../errors.js';
import { CURRENT_VERSION, schemas, type SchemaVersion, type Table } from '../schema/index.js';
import type { NewRow, Row, TableName } from '../schema/row-types.js';
import { toJsonValue } from './export.js';
import { Clock, RowBuilder } from './record.js';
import { newKindReport } from './report.js';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A field's JSON: a bigint as a number (decimal text beyond ±2^53), a rule column's text as its object. */
export type JsonField<T> = [Exclude<T, null>] extends [bigint]
  ? number | string
  : [Exclude<T, null>] extends [string]
    ? string | { [key: string]: JsonValue }
    : Exclude<T, null>;

/** A row as the app's JSON: the row's fields, null ones left out. */
export type JsonRow<N extends TableName<V>, V extends SchemaVersion = 62> = { [K in keyof Row<N, V>]?: JsonField<Row<N, V>[K]> };

function tableAt(name: string, version: SchemaVersion): Table {
  const schema = schemas[version];
  if (!schema) throw new InvalidArgumentError('version', version, `a supported schema version (${Object.keys(schemas).join(', ')})`);
  const table = schema.table(name);
  if (!table)
    throw new UnknownTableError(
      name,
      version,
      schema.tables.map((t) => t.name),
    );
  return table;
}

/**
 * A row as the app writes it in a backup (fields in column order, nulls left out, booleans as
 * true/false, rule columns as objects), safe for JSON.stringify: integers beyond ±2^53 (the
 * 64th book group) as their exact decimal text. `version`: the row's schema (default 62).
 */
export function toJsonRow<N extends TableName<V>, V extends SchemaVersion = 62>(table: N, row: Row<N, V>, version?: V): JsonRow<N, V> {
  const json = toJsonValue(tableAt(table, version ?? CURRENT_VERSION), row as Record<string, unknown>);
  for (const [field, value] of Object.entries(json)) if (typeof value === 'bigint') json[field] = String(value);
  return json as JsonRow<N, V>;
}

/**
 * The row a JSON record stands for, to insert or upsert: read as the backup import reads it
 * (numbers given as text, 0/1 for booleans, rule objects or their text, the app's defaults for
 * missing fields, fields the table defaults or leaves NULL left out; 2.0 formats converted). A record it cannot read exactly, a field with a value it cannot take or a
 * field no version has is an InvalidArgumentError (`INVALID_ARGUMENT`); `unknownFields: 'ignore'`
 * passes over fields the table does not have, as the app's Gson does.
 */
export function fromJsonRow<N extends TableName<V>, V extends SchemaVersion = 62>(
  table: N,
  json: unknown,
  version?: V,
  options: { readonly unknownFields?: 'reject' | 'ignore' } = {},
): NewRow<N, V> {
  const v = version ?? CURRENT_VERSION;
  const t = tableAt(table, v);
  const report = newKindReport('json', table);
  const built = RowBuilder.of(t, v).build(json, report, { clock: new Clock() });
  if ('reason' in built) throw new InvalidArgumentError(`${table} row`, built.reason);
  // 'ignore': as the app's Gson reads an entity, fields it does not have are passed over.
  const unknown = options.unknownFields === 'ignore' ? [] : Object.keys(report.unknownFields).map((f) => `${f} (no such field)`);
  const wrong = [...Object.keys(report.defaultedFields), ...unknown];
  if (wrong.length) throw new InvalidArgumentError(`${table} row`, `fields it cannot take: ${wrong.join(', ')}`);
  return built.row as NewRow<N, V>;
}
