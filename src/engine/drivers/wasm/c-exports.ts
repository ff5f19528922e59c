/**
 * The C functions of the WASM module called as its own exports, without the JavaScript glue of
 * `capi` (argument conversion, checks): binding and reading a row that way costs a seventh of
 * it (a 6-column insert: 14 → 1.9 us per row). Pointers are numbers in the 32-bit build; a
 * build with 64-bit pointers, or without BigInt, takes the capi path instead.
 */
export interface Exports {
  sqlite3_bind_null(stmt: number, i: number): number;
  sqlite3_bind_int(stmt: number, i: number, v: number): number;
  sqlite3_bind_int64(stmt: number, i: number, v: bigint): number;
  sqlite3_bind_double(stmt: number, i: number, v: number): number;
  sqlite3_bind_text(stmt: number, i: number, text: number, bytes: number, destructor: number): number;
  sqlite3_step(stmt: number): number;
  sqlite3_reset(stmt: number): number;
  sqlite3_clear_bindings(stmt: number): number;
  sqlite3_column_count(stmt: number): number;
  sqlite3_column_type(stmt: number, i: number): number;
  sqlite3_column_double(stmt: number, i: number): number;
  sqlite3_column_int64(stmt: number, i: number): bigint;
  sqlite3_column_bytes(stmt: number, i: number): number;
  sqlite3_column_blob(stmt: number, i: number): number;
  sqlite3_last_insert_rowid(db: number): bigint;
  sqlite3_changes64(db: number): bigint;
  sqlite3_get_autocommit(db: number): number;
  sqlite3_result_int(ctx: number, v: number): void;
}
