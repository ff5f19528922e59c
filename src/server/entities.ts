// The app's entities as JSON, both ways, through the backup's own conversions: out as its Gson
// writes them (fields in column order, nulls left out, rule columns as objects), in as its Gson
// reads them (missing fields get the entity's defaults, unknown ones are passed over). Reading
// never throws: text Gson could not turn into the entity gives undefined, as `getOrNull()` does.
import { toJsonValue } from '../backup/export.js';
import { fromJsonRow } from '../backup/json-row.js';
import type { SchemaVersion } from '../schema/index.js';
import type { NewRow, TableName } from '../schema/row-types.js';
import type { Store } from '../store/store.js';

type AnyStore = Store<SchemaVersion>;
type EntityTable = TableName<62>;

/** A row as the app's Gson writes the entity. */
export function toEntity(store: AnyStore, table: EntityTable, row: object): Record<string, unknown> {
  return toJsonValue(store.schema.table(table)!, row as Record<string, unknown>);
}

/** JSON text, or undefined when it is not JSON. */
export function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One entity from a JSON object, or undefined. */
export function entityFrom<N extends EntityTable>(store: AnyStore, table: N, value: unknown): NewRow<N> | undefined {
  if (!isObject(value)) return undefined;
  try {
    return fromJsonRow(table, value, store.version as 62, { unknownFields: 'ignore' }) as NewRow<N>;
  } catch {
    return undefined;
  }
}

/** An entity from JSON text (`GSON.fromJsonObject<T>(text).getOrNull()`). */
export function readEntity<N extends EntityTable>(store: AnyStore, table: N, text: string | undefined): NewRow<N> | undefined {
  return entityFrom(store, table, parseJson(text));
}

/** A list of entities from JSON text, or undefined when the text or any element is not one (`fromJsonArray`). */
export function readEntities<N extends EntityTable>(store: AnyStore, table: N, text: string | undefined): NewRow<N>[] | undefined {
  const value = parseJson(text);
  if (!Array.isArray(value)) return undefined;
  const rows: NewRow<N>[] = [];
  for (const v of value) {
    const row = entityFrom(store, table, v);
    if (!row) return undefined;
    rows.push(row);
  }
  return rows;
}
