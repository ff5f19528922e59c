// Writing rows to stdout as a table, JSON (exact integers) or CSV (RFC 4180), a chunk at a time
// so a large table is not held as one string, waiting for the reader when it is slower than the
// rows come, and stopping when it has gone (`| head`): nothing piles up in memory meanwhile.
import { csvRecord, textTable, toJson } from '../inspect/format.js';
import { UsageError } from './exit.js';
import type { CliOut } from './io.js';

export type RowFormat = 'text' | 'json' | 'csv';

export function rowFormat(flags: { json?: boolean; csv?: boolean }): RowFormat {
  if (flags.json && flags.csv) throw new UsageError('--json and --csv cannot be used together');
  return flags.json ? 'json' : flags.csv ? 'csv' : 'text';
}

const CHUNK_ROWS = 500;

/** The reader of stdout went away (EPIPE or the stream closed): the rows stop there. */
export class OutputClosed extends Error {}

/** Streams whose reader went away. stdout is never `destroyed` (Node keeps it open): each failed write reports an error instead. */
const gone = new WeakSet<NodeJS.WritableStream>();
const watched = new WeakSet<NodeJS.WritableStream>();

function watch(out: NodeJS.WritableStream): void {
  if (watched.has(out)) return;
  watched.add(out);
  out.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') gone.add(out);
  });
  out.on('close', () => gone.add(out));
}

const isGone = (out: NodeJS.WritableStream & { destroyed?: boolean }): boolean => gone.has(out) || out.destroyed === true;

/**
 * Writes `text` to stdout; when the reader is behind, waits until it has taken what is queued.
 * Throws OutputClosed once stdout cannot be written any more.
 */
export async function writeOut(text: string, out: CliOut): Promise<void> {
  watch(out);
  if (isGone(out)) throw new OutputClosed();
  if (out.write(text)) {
    // A failed write to a pipe (EPIPE) is reported on a later turn of the event loop: give it one.
    await new Promise<void>((resolve) => setImmediate(resolve));
  } else {
    await new Promise<void>((resolve) => {
      const done = (): void => {
        out.off('drain', done);
        out.off('error', done);
        out.off('close', done);
        resolve();
      };
      out.on('drain', done);
      out.on('error', done);
      out.on('close', done);
    });
  }
  if (isGone(out)) throw new OutputClosed();
}

/**
 * Rows (arrays in column order) in the format: text is an aligned table; JSON an array of
 * objects keyed by column (`asObjects`) or of arrays; CSV a header record then one per row.
 * Resolves to the number of rows written (or read, when the reader went away first).
 */
export async function writeRows(
  out: CliOut,
  format: RowFormat,
  columns: readonly string[],
  rows: Iterable<readonly unknown[]>,
  asObjects = true,
): Promise<number> {
  let n = 0;
  try {
    if (format === 'text') {
      const all: (readonly unknown[])[] = [];
      for (const r of rows) all.push(r);
      n = all.length;
      await writeOut(all.length ? textTable(columns, all) : '(no rows)\n', out);
      return n;
    }
    let buf: string[] = [];
    const flush = async (): Promise<void> => {
      const text = buf.join('');
      buf = [];
      if (text) await writeOut(text, out);
    };
    if (format === 'csv') {
      buf.push(csvRecord(columns));
      for (const r of rows) {
        buf.push(csvRecord(r));
        if (++n % CHUNK_ROWS === 0) await flush();
      }
      await flush();
      return n;
    }
    buf.push('[');
    for (const r of rows) {
      const value = asObjects ? Object.fromEntries(columns.map((c, i) => [c, r[i] ?? null])) : r;
      buf.push(`${n === 0 ? '\n  ' : ',\n  '}${toJson(value, false)}`);
      if (++n % CHUNK_ROWS === 0) await flush();
    }
    buf.push(n ? '\n]\n' : ']\n');
    await flush();
    return n;
  } catch (e) {
    if (e instanceof OutputClosed) return n;
    throw e;
  }
}
