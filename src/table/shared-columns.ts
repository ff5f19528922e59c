// Columns a bulk write's rows all share (a TOC's bookUrl, columns left null): bound once per
// batch (insertSharedSql) instead of once per row. The batch's values are laid out row after
// row, `width` values each.
import type { Statement } from '../engine/driver.js';
import type { SqlValue } from './codec.js';

/** Fewest shared columns worth a statement of their own (insertSharedSql); a batch sharing fewer takes the plain one. */
const MIN_SHARED = 2;

/** A multi-row statement whose `shared` columns are bound once, before each row's `varying` ones (insertSharedSql). */
export interface SharedBatch {
  readonly stmt: Statement;
  readonly shared: readonly number[];
  readonly varying: readonly number[];
}

/** Whether a batch binds its shared columns once: enough of them, and not all (rows that are all alike go as they are). */
export const hasShared = (shared: readonly number[], width: number): boolean => shared.length >= MIN_SHARED && shared.length < width;

/**
 * The columns (of `candidates`, every column when undefined) whose value is the same in all
 * `rows` rows of a batch laid out row after row, `width` values each.
 */
export function sameInEveryRow(values: readonly SqlValue[], rows: number, width: number, candidates: readonly number[] | undefined): number[] {
  const out: number[] = [];
  const check = (c: number): void => {
    const v = values[c];
    for (let k = c + width, end = rows * width; k < end; k += width) if (values[k] !== v) return;
    out.push(c);
  };
  if (candidates === undefined) for (let c = 0; c < width; c++) check(c);
  else for (const c of candidates) check(c);
  return out;
}

/** insertSharedSql's parameters: the shared columns' values once, then each row's other columns. */
export function bindShared(values: readonly SqlValue[], rows: number, width: number, shared: readonly number[], varying: readonly number[]): SqlValue[] {
  const out = new Array<SqlValue>(shared.length + rows * varying.length);
  let k = 0;
  for (const c of shared) out[k++] = values[c]!;
  for (let r = 0, base = 0; r < rows; r++, base += width) for (const c of varying) out[k++] = values[base + c]!;
  return out;
}

/**
 * bindShared undone: the first `rows` rows of a split batch's parameters back into `values`, row
 * after row, `width` values each. They are taken as they were encoded, not encoded again from
 * the rows given, which a caller may have changed since (a generator handing out one object).
 */
export function unbindShared(params: readonly SqlValue[], rows: number, width: number, batch: SharedBatch, values: SqlValue[]): void {
  const { shared, varying } = batch;
  for (let r = 0, base = 0, k = shared.length; r < rows; r++, base += width) {
    for (let j = 0; j < shared.length; j++) values[base + shared[j]!] = params[j]!;
    for (const c of varying) values[base + c] = params[k++]!;
  }
}
