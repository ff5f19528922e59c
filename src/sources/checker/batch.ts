// `sources check` over many sources, platform-free: a bounded number at a time (the app's
// threadCount, 16), each source classified first (one that needs a browser or Java classes is
// reported, not judged), checked within its limit, and its verdict written on its row at once,
// in one write; a cancelled check writes nothing and no new check starts after a cancel.
import type { BookSource, SourceFlows } from '../engine/types.js';
import { sourceNeeds, type SourceNeeds } from '../tiers.js';
import { checkVerdict, type CheckVerdict } from './marks.js';
import { CHECK_CONCURRENCY, CHECK_TIMEOUT_MS, checkSource, type CheckOptions, type CheckRun } from './run.js';

export type CheckStatus = 'ok' | 'failed' | 'skipped' | 'cancelled';

export interface SourceCheckResult {
  readonly url: string;
  readonly name: string;
  readonly status: CheckStatus;
  /** What the source needs; absent when it could not be read. */
  readonly needs?: SourceNeeds;
  /** Why it was not checked (`skipped`): it needs a browser, Java classes, or could not be read. */
  readonly skipped?: string;
  readonly run?: CheckRun;
  /** The row as written (absent when nothing was written). */
  readonly verdict?: CheckVerdict;
  /** The error that ended it or kept it from being read. */
  readonly error?: unknown;
}

export interface CheckBatchOptions extends Omit<CheckOptions, 'signal'> {
  /** At most this many at a time (default 16, the app's threadCount). */
  readonly concurrency?: number;
  readonly signal?: AbortSignal;
  /** The source of a row (throws a typed error for a row that is not one). */
  readonly parse: (row: Readonly<Record<string, unknown>>) => BookSource;
  /** The flows of a source, whose fetches end when `signal` aborts. */
  readonly open: (source: BookSource, signal: AbortSignal) => SourceFlows;
  /** The row's current group and comment (read right before the write); undefined when it is gone. */
  readonly current: (url: string) => { bookSourceGroup: string | null; bookSourceComment: string | null } | undefined;
  /** Writes the verdict on the row, in one write. */
  readonly write: (url: string, verdict: CheckVerdict) => void;
  /** Called as each source ends, in the order they end. */
  readonly onResult?: (result: SourceCheckResult) => void;
}

const REASONS: Readonly<Record<'browser' | 'java', string>> = {
  browser: 'needs a browser (a WebView page, webJs or startBrowser): not run here',
  java: 'needs Java classes (Packages, JavaImporter, java.*): not run here',
};

/** Checks one row: parse, classify, check, write. Never throws. */
export async function checkRow(row: Readonly<Record<string, unknown>>, options: CheckBatchOptions): Promise<SourceCheckResult> {
  const url = String(row['bookSourceUrl'] ?? '');
  const name = String(row['bookSourceName'] ?? '');
  let source: BookSource;
  let needs: SourceNeeds;
  try {
    source = options.parse(row);
    needs = sourceNeeds(source);
  } catch (error) {
    return { url, name, status: 'skipped', skipped: `cannot be read: ${error instanceof Error ? error.message : String(error)}`, error };
  }
  if (needs.unsupported) return { url, name, status: 'skipped', needs, skipped: REASONS[needs.unsupported] };
  const run = await checkSource((signal) => options.open(source, signal), options);
  const base = { url, name, needs, run, ...(run.error !== undefined ? { error: run.error } : {}) };
  // A helper this engine does not have (a browser, the login screen...): the app would have run it.
  if ((run.error as { code?: unknown } | undefined)?.code === 'HELPER_UNSUPPORTED')
    return { ...base, status: 'skipped', skipped: `${run.error instanceof Error ? run.error.message : String(run.error)}: not run here` };
  const before = options.current(url);
  if (!before) return { ...base, status: 'skipped', skipped: 'no longer in the store' };
  const verdict = checkVerdict(before, run.outcome, options.timeoutMs ?? CHECK_TIMEOUT_MS);
  if (!verdict) return { ...base, status: 'cancelled' };
  options.write(url, verdict);
  return { ...base, status: verdict.ok ? 'ok' : 'failed', verdict };
}

/** Checks every row, `concurrency` at a time; results in the rows' order. */
export async function checkRows(rows: readonly Readonly<Record<string, unknown>>[], options: CheckBatchOptions): Promise<SourceCheckResult[]> {
  const results: SourceCheckResult[] = new Array(rows.length);
  const outer = options.signal;
  // One listener on the caller's signal for the whole batch: a listener per source under way
  // (32 at once) is what Node warns of as a leak (MaxListenersExceededWarning past 10).
  const live = new Set<AbortController>();
  const onAbort = (): void => live.forEach((c) => c.abort(outer?.reason));
  outer?.addEventListener('abort', onAbort, { once: true });
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < rows.length) {
      const i = next++;
      const row = rows[i]!;
      let result: SourceCheckResult;
      if (outer?.aborted) {
        result = { url: String(row['bookSourceUrl'] ?? ''), name: String(row['bookSourceName'] ?? ''), status: 'cancelled' };
      } else {
        const mine = new AbortController();
        live.add(mine);
        try {
          result = await checkRow(row, { ...options, signal: mine.signal });
        } finally {
          live.delete(mine);
        }
      }
      results[i] = result;
      options.onResult?.(result);
    }
  };
  const n = Math.max(1, Math.min(options.concurrency ?? CHECK_CONCURRENCY, rows.length));
  try {
    await Promise.all(Array.from({ length: n }, worker));
  } finally {
    outer?.removeEventListener('abort', onAbort);
  }
  return results;
}
