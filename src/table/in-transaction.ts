// Bulk writes inside a transaction the caller holds, for the domain (replaceToc) and the imports
// that merge record by record: they reach a table's BulkWriter through its BULK_WRITER key.
import type { EncodedRow, RowsWritten } from './bulk-write.js';
import { BULK_WRITER, type TableApi } from './table.js';

export type { EncodedRow, RowsWritten } from './bulk-write.js';

type AnyTable<N extends object> = TableApi<object, N, object, unknown>;

/** insertMany inside the caller's transaction, without a savepoint of its own (BulkWriter.insertInTransaction). */
export const insertInTransaction = <N extends object>(t: AnyTable<N>, rows: Iterable<N>): number => t[BULK_WRITER]().insertInTransaction(rows);

/** Upserts rows in order inside the caller's transaction, stopping at the first refused (BulkWriter.upsertRows). */
export const upsertRowsInTransaction = <N extends object>(t: AnyTable<N>, rows: readonly EncodedRow[]): RowsWritten => t[BULK_WRITER]().upsertRows(rows);

/** Rows one multi-row statement of a bulk write takes in this table. */
export const bulkRows = <N extends object>(t: AnyTable<N>): number => t[BULK_WRITER]().rows();
