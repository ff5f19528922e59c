// The check of one book source as the app's 校验书源 runs it (CheckSourceService.doCheckSource and
// checkBook): search with the check keyword, then the first hit's info, TOC and first chapter;
// explore's first entry with a URL, then its first hit's the same way; the steps the settings
// leave on; all within one time limit. What it found is a CheckOutcome (marks.ts turns it into
// the row's columns); nothing here writes.
import type { SearchBook, SourceFlows } from '../engine/types.js';
import { SourceStepError } from '../book/errors.js';
import { CheckTimeoutError } from './errors.js';
import { asBook, readableChapters } from './hit.js';
import type { CheckBookOf, CheckEnd, CheckOutcome, CheckStep } from './marks.js';

/** The app's check settings (CheckSource.checkSearch, checkDiscovery, checkInfo, checkCategory, checkContent). */
export interface CheckSteps {
  readonly search: boolean;
  readonly explore: boolean;
  readonly info: boolean;
  readonly toc: boolean;
  readonly content: boolean;
}

export const ALL_STEPS: CheckSteps = { search: true, explore: true, info: true, toc: true, content: true };
/** The app's defaults: keyword 我的 (CheckSource.keyword), 180 s per source, 16 at a time (threadCount). */
export const CHECK_KEYWORD = '我的';
export const CHECK_TIMEOUT_MS = 180_000;
export const CHECK_CONCURRENCY = 16;

export interface CheckOptions {
  /** The keyword when the source has no `ruleSearch.checkKeyWord`. */
  readonly keyword?: string;
  readonly steps?: CheckSteps;
  readonly timeoutMs?: number;
  /** Ends the check as cancelled: nothing is to be written. */
  readonly signal?: AbortSignal;
  readonly now?: () => number;
}

/** What one check found, beyond the outcome: for the report. */
export interface CheckFindings {
  keyword?: string;
  searchHits?: number;
  exploreUrl?: string;
  exploreHits?: number;
  book?: { name: string; bookUrl: string };
  chapters?: number;
  chapter?: string;
  contentChars?: number;
}

export interface CheckRun {
  readonly outcome: CheckOutcome;
  readonly findings: CheckFindings;
  /** The error that ended it (a CheckTimeoutError for the time limit). */
  readonly error?: unknown;
}

/** The app's `getCheckKeyword`: the source's checkKeyWord unless blank. */
export function checkKeyword(flows: Pick<SourceFlows, 'source'>, fallback: string): string {
  const own = flows.source.ruleSearch?.checkKeyWord;
  return own && own.trim() !== '' ? own : fallback;
}

const SCRIPT_CODES = new Set(['SCRIPT_TIMEOUT', 'SCRIPT_MEMORY', 'SCRIPT_ERROR', 'JS_UNAVAILABLE', 'HELPER_FAILED']);
/** The app's NoStackTraceException kinds: no group, only the comment (搜索url不能为空, 下载链接为空). */
const QUIET_CODES = new Set(['SOURCE_INCOMPLETE']);

/** How the app would file an error that ended a check: a script (js失效), quiet, or the site's (网站失效). */
export function failureKind(e: unknown): 'js' | 'quiet' | 'site' {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && SCRIPT_CODES.has(code)) return 'js';
  if (typeof code === 'string' && QUIET_CODES.has(code)) return 'quiet';
  return 'site';
}

const codeOf = (e: unknown): unknown => (e as { code?: unknown } | null)?.code;
const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * Checks one source. `open(signal)` gives its flows; the signal aborts when the time is up or
 * the caller cancels, so the host's fetches end with it. Never throws: every end is in the outcome.
 */
export async function checkSource(open: (signal: AbortSignal) => SourceFlows, options: CheckOptions = {}): Promise<CheckRun> {
  const now = options.now ?? Date.now;
  const steps = options.steps ?? ALL_STEPS;
  const timeoutMs = options.timeoutMs ?? CHECK_TIMEOUT_MS;
  const started = now();
  const controller = new AbortController();
  const done: CheckStep[] = [];
  const findings: CheckFindings = {};
  let flows: SourceFlows | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onCancel: (() => void) | undefined;
  const finish = (end: CheckEnd, error?: unknown): CheckRun => ({
    outcome: { steps: [...done], end, elapsedMs: now() - started },
    findings: { ...findings },
    ...(error !== undefined ? { error } : {}),
  });
  if (options.signal?.aborted) return finish({ end: 'cancelled' });

  const book = async (hit: SearchBook, of: CheckBookOf): Promise<void> => {
    const f = flows!;
    findings.book = { name: hit.name, bookUrl: hit.bookUrl };
    // checkBook: each setting that is off returns before the groups are touched ('partial').
    try {
      if (!steps.info) return void done.push({ step: 'book', of, result: 'partial' });
      let b = asBook(hit);
      if (b.tocUrl.trim() === '') b = await f.bookInfo(b);
      if (!steps.toc || f.source.bookSourceType === 3) return void done.push({ step: 'book', of, result: 'partial' });
      const all = await f.toc(b);
      findings.chapters = all.length;
      const toc = readableChapters(all).slice(0, 2);
      const first = toc[0];
      // The app's first() on an empty list: a failure, not 目录失效.
      if (!first) throw new SourceStepError(f.source, 'ruleToc.chapterList', b.tocUrl || b.bookUrl, 'the TOC has only volumes, no chapter to read');
      if (!steps.content) return void done.push({ step: 'book', of, result: 'partial' });
      findings.chapter = first.title;
      const text = await f.content(b, first, (toc[1] ?? first).url);
      findings.contentChars = text.length;
      done.push({ step: 'book', of, result: 'ok' });
    } catch (e) {
      const code = codeOf(e);
      if (code === 'TOC_EMPTY') done.push({ step: 'book', of, result: 'toc-empty' });
      else if (code === 'CONTENT_EMPTY') done.push({ step: 'book', of, result: 'content-empty' });
      else throw e;
    }
  };

  const work = async (): Promise<void> => {
    flows = open(controller.signal);
    const source = flows.source;
    if (steps.search) {
      if (!source.searchUrl || source.searchUrl.trim() === '') done.push({ step: 'search', result: 'no-url' });
      else {
        const keyword = checkKeyword(flows, options.keyword ?? CHECK_KEYWORD);
        findings.keyword = keyword;
        const hits = await flows.search(keyword);
        findings.searchHits = hits.length;
        const first = hits[0];
        done.push({ step: 'search', result: first ? 'found' : 'empty' });
        if (first) await book(first, 'search');
      }
    }
    if (steps.explore && source.exploreUrl && source.exploreUrl.trim() !== '') {
      const url = (await flows.exploreKinds()).find((k) => k.url.trim() !== '')?.url;
      if (!url) done.push({ step: 'explore', result: 'no-url' });
      else {
        findings.exploreUrl = url;
        const hits = await flows.explore(url);
        findings.exploreHits = hits.length;
        const first = hits[0];
        done.push({ step: 'explore', result: first ? 'found' : 'empty' });
        if (first) await book(first, 'explore');
      }
    }
  };

  type Ended = { kind: 'work' } | { kind: 'error'; error: unknown } | { kind: 'timeout' } | { kind: 'cancelled' };
  // The limit first: a cancel that comes while the work starts (synchronously) is heard.
  const limit = new Promise<Ended>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'timeout' }), timeoutMs);
    if (options.signal) {
      onCancel = () => resolve({ kind: 'cancelled' });
      options.signal.addEventListener('abort', onCancel, { once: true });
    }
  });
  const running = work().then(
    (): Ended => ({ kind: 'work' }),
    (error: unknown): Ended => ({ kind: 'error', error }),
  );
  const ended = await Promise.race([running, limit]);
  clearTimeout(timer);
  if (onCancel) options.signal?.removeEventListener('abort', onCancel);
  // Whatever still runs (a fetch, a wait for the rate limit) ends with the signal; its steps no longer count.
  const result =
    options.signal?.aborted || ended.kind === 'cancelled'
      ? finish({ end: 'cancelled' })
      : ended.kind === 'timeout'
        ? timedOut()
        : ended.kind === 'error'
          ? finish({ end: 'failed', kind: failureKind(ended.error), message: messageOf(ended.error) }, ended.error)
          : finish({ end: 'done' });
  controller.abort();
  return result;

  function timedOut(): CheckRun {
    const e = new CheckTimeoutError(flows?.source.bookSourceName ?? '', flows?.source.bookSourceUrl ?? '', timeoutMs);
    return finish({ end: 'failed', kind: 'timeout', message: e.message }, e);
  }
}
