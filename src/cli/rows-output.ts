// Writing rows to stdout as a table, JSON (exact integers) or CSV (RFC 4180), a chunk at a time
// so a large table is not held as one string.
import { csvRecord, textTable, toJson } from '../inspect/format.js';
import { UsageError } from './exit.js';

export type RowFormat = 'text' | 'json' | 'csv';

export function rowFormat(flags: { json?: boolean; csv?: boolean }): RowFormat {
  if (flags.json && flags.csv) throw new UsageError('--json and --csv cannot be used together');
  return flags.json ? 'json' : flags.csv ? 'csv' : 'text';
}

const CHUNK_ROWS = 500;

/**
 * Rows (arrays in column order) in the format: text is an aligned table; JSON an array of
 * objects keyed by column (`asObjects`) or of arrays; CSV a header record then one per row.
 */
export function writeRows(format: RowFormat, columns: readonly string[], rows: Iterable<readonly unknown[]>, asObjects = true): number {
  const out = (s: string) => process.stdout.write(s);
  let n = 0;
  if (format === 'text') {
    const all = [...rows];
    out(all.length ? textTable(columns, all) : '(no rows)\n');
    return all.length;
  }
  let buf: string[] = [];
  const flush = () => {
    if (buf.length) out(buf.join(''));
    buf = [];
  };
  if (format === 'csv') {
    buf.push(csvRecord(columns));
    for (const r of rows) {
      buf.push(csvRecord(r));
      if (++n % CHUNK_ROWS === 0) flush();
    }
    flush();
    return n;
  }
  buf.push('[');
  for (const r of rows) {
    const value = asObjects ? Object.fromEntries(columns.map((c, i) => [c, r[i] ?? null])) : r;
    buf.push(`${n === 0 ? '\n  ' : ',\n  '}${toJson(value, false)}`);
    if (++n % CHUNK_ROWS === 0) flush();
  }
  buf.push(n ? '\n]\n' : ']\n');
  flush();
  return n;
}
