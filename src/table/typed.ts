// The typed table API of a table of a given schema version: its rows, new rows, patches and keys.
import type { SchemaVersion } from '../schema/index.js';
import type { Key, NewRow, Patch, Row, TableName } from '../schema/row-types.js';
import type { TableApi } from './table.js';

export type TableOf<N extends TableName<V>, V extends SchemaVersion = 62> = TableApi<Row<N, V>, NewRow<N, V>, Patch<N, V>, Key<N, V>>;

export type Tables<V extends SchemaVersion = 62> = { readonly [N in TableName<V>]: TableOf<N, V> };
