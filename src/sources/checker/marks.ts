// What a check writes on the source's row, as the app's 校验书源 marks it (CheckSourceService,
// BookSource.addGroup/removeGroup/addErrorComment/removeErrorComment, Debug.getRespondTime): a
// pure function from the check's outcome to the three columns it changes.
import { JavaHashSet } from './java-hash-set.js';

/** The group names the app's check adds (and removes on a later success). */
export const CHECK_GROUPS = {
  searchUrlEmpty: '搜索链接规则为空',
  searchInvalid: '搜索失效',
  exploreEmpty: '发现规则为空',
  exploreInvalid: '发现失效',
  timeout: '校验超时',
  js: 'js失效',
  site: '网站失效',
} as const;

/** Which book the info/TOC/content steps checked: the first search hit's or the first explore hit's. */
export type CheckBookOf = 'search' | 'explore';

/** One step of a check, in the order the app runs them. */
export type CheckStep =
  /** searchUrl blank (`no-url`), search found nothing (`empty`), or a first hit (`found`). */
  | { readonly step: 'search'; readonly result: 'no-url' | 'empty' | 'found' }
  /** No explore entry with a URL (`no-url`), explore found nothing (`empty`), or a first hit. */
  | { readonly step: 'explore'; readonly result: 'no-url' | 'empty' | 'found' }
  /**
   * The hit's info, TOC and content: `ok` all three ran and passed, `partial` the check's
   * settings (or a file source) stopped before content, `toc-empty` / `content-empty` the app's
   * TocEmptyException / ContentEmptyException.
   */
  | { readonly step: 'book'; readonly of: CheckBookOf; readonly result: 'ok' | 'partial' | 'toc-empty' | 'content-empty' };

/**
 * How a check ended. `failed`: an error ended it (`timeout` the check's time limit, `js` a
 * script, `site` anything else the app counts as the site's failure, `quiet` the app's
 * NoStackTraceException kind: no group, only the comment). `cancelled`: nothing is written.
 */
export type CheckEnd =
  | { readonly end: 'done' }
  | { readonly end: 'failed'; readonly kind: 'timeout' | 'js' | 'site' | 'quiet'; readonly message: string }
  | { readonly end: 'cancelled' };

export interface CheckOutcome {
  readonly steps: readonly CheckStep[];
  readonly end: CheckEnd;
  /** From the start of the check to its end (ms). */
  readonly elapsedMs: number;
}

/** The columns of `book_sources` a check sets. */
export interface CheckedRow {
  readonly bookSourceGroup: string | null;
  readonly bookSourceComment: string | null;
  readonly respondTime: number;
}

export interface CheckVerdict extends CheckedRow {
  /** The check passed (the app's 校验成功). */
  readonly ok: boolean;
  /** The error comment's message when it failed (`// Error: <message>` in the comment). */
  readonly message: string | null;
}

const SPLIT = /[,;，；]/;
const splitGroups = (text: string): string[] =>
  text
    .split(SPLIT)
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** The app's `BookSource.addGroup`: through a HashSet, joined with `,`; a blank group becomes `groups` as given. */
export function addGroup(current: string | null, groups: string): string | null {
  let out = current;
  if (out !== null) {
    const set = new JavaHashSet(splitGroups(out));
    set.addAll(splitGroups(groups));
    out = set.values().join(',');
  }
  return out === null || out.trim() === '' ? groups : out;
}

/** The app's `BookSource.removeGroup`. */
export function removeGroup(current: string | null, groups: string): string | null {
  if (current === null) return null;
  const set = new JavaHashSet(splitGroups(current));
  set.removeAll(splitGroups(groups));
  return set.values().join(',');
}

/** The app's `getInvalidGroupNames`: groups holding 失效, and 校验超时, joined with `, `. */
export function invalidGroupNames(current: string | null): string {
  if (current === null) return '';
  return new JavaHashSet(splitGroups(current))
    .values()
    .filter((g) => g.includes('失效') || g === CHECK_GROUPS.timeout)
    .join(', ');
}

const ERROR_PREFIX = '// Error: ';

/** The app's `removeErrorComment`: paragraphs starting `// Error: ` go; the rest are joined with one newline (as the app does). */
export function removeErrorComment(comment: string | null): string | null {
  if (comment === null) return null;
  return comment
    .split('\n\n')
    .filter((p) => !p.startsWith(ERROR_PREFIX))
    .join('\n');
}

/** The app's `addErrorComment`: `// Error: <message>` in front, a blank line before what was there. */
export function addErrorComment(comment: string | null, message: string): string {
  return ERROR_PREFIX + message + (comment === null || comment.trim() === '' ? '' : `\n\n${comment}`);
}

/**
 * The row after a check (CheckSourceService.checkSource/doCheckSource/checkBook): invalid groups
 * and error comments of earlier checks cleared, each step's group added or removed in order, the
 * failure's group and comment, and `respondTime` (the time taken; on a failure the time limit
 * plus the time taken, so failed sources sort last). `null` for a cancelled check: nothing written.
 */
export function checkVerdict(
  row: { readonly bookSourceGroup: string | null; readonly bookSourceComment: string | null },
  outcome: CheckOutcome,
  timeoutMs: number,
): CheckVerdict | null {
  if (outcome.end.end === 'cancelled') return null;
  let group = removeGroup(row.bookSourceGroup, invalidGroupNames(row.bookSourceGroup));
  let comment = removeErrorComment(row.bookSourceComment);
  const add = (g: string) => (group = addGroup(group, g));
  const remove = (g: string) => (group = removeGroup(group, g));
  for (const s of outcome.steps) {
    if (s.step === 'search') {
      if (s.result === 'no-url') add(CHECK_GROUPS.searchUrlEmpty);
      else {
        remove(CHECK_GROUPS.searchUrlEmpty);
        if (s.result === 'empty') add(CHECK_GROUPS.searchInvalid);
        else remove(CHECK_GROUPS.searchInvalid);
      }
    } else if (s.step === 'explore') {
      if (s.result === 'no-url') add(CHECK_GROUPS.exploreEmpty);
      else {
        remove(CHECK_GROUPS.exploreEmpty);
        if (s.result === 'empty') add(CHECK_GROUPS.exploreInvalid);
        else remove(CHECK_GROUPS.exploreInvalid);
      }
    } else {
      const of = s.of === 'search' ? '搜索' : '发现';
      if (s.result === 'toc-empty') add(`${of}目录失效`);
      else if (s.result === 'content-empty') add(`${of}正文失效`);
      else if (s.result === 'ok') {
        remove(`${of}目录失效`);
        remove(`${of}正文失效`);
      }
    }
  }
  let message: string | null = null;
  if (outcome.end.end === 'failed') {
    const kind = outcome.end.kind;
    if (kind !== 'quiet') add(kind === 'timeout' ? CHECK_GROUPS.timeout : kind === 'js' ? CHECK_GROUPS.js : CHECK_GROUPS.site);
    message = outcome.end.message;
  } else {
    // A check that ran through but left an invalid group fails with those names as its message.
    const invalid = invalidGroupNames(group);
    if (invalid.trim() !== '') message = invalid;
  }
  if (message !== null) comment = addErrorComment(comment, message);
  const ok = message === null;
  return { bookSourceGroup: group, bookSourceComment: comment, respondTime: ok ? outcome.elapsedMs : timeoutMs + outcome.elapsedMs, ok, message };
}
