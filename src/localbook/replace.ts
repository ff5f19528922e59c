// The book's replace rules on chapter text, as the app's ContentProcessor.replaceContent applies
// them: every line trimmed, then each enabled rule in scope in sortOrder, a regex rule with its
// time limit (timeoutMillisecond, at most the host's). A rule that does not compile is left out
// and named in the notes, as the app logs it; one that runs past its limit fails the read with
// RuleTimeoutError naming it (the app disables it; here the user's store is not changed).
import { JavaRegexError, type JavaRegex } from '../text/java-regex.js';
import { expandReplacement, type FoundMatch } from '../text/java-replacement.js';
import { compileGuarded, Deadline, matches } from './regex-guard.js';
import { RuleTimeoutError, type RuleRef } from './errors.js';

/** The default longest time a replace rule gets, whatever its timeoutMillisecond (ms). */
export const REPLACE_LIMIT_MS = 10000;

export interface ReplaceRuleRow {
  readonly id?: number | string;
  readonly name: string;
  readonly pattern: string;
  readonly replacement: string;
  readonly isRegex: boolean;
  readonly timeoutMillisecond?: number;
  readonly excludeScope?: string | null;
}

/** One rule on a text; throws RuleTimeoutError or JavaRegexError. */
export function applyRule(text: string, rule: ReplaceRuleRow, maxLimitMs = REPLACE_LIMIT_MS): string {
  if (!rule.isRegex) return text.split(rule.pattern).join(rule.replacement);
  const rx = compileGuarded(rule.pattern);
  const limit = ruleLimit(rule, maxLimitMs);
  const deadline = new Deadline(ruleRef(rule), limit);
  const out = replaceMatches(text, rx, rule.replacement, matches(rx.regex, text, deadline));
  deadline.check();
  deadline.stop();
  return out;
}

/** The time limit a regex rule gets: its own timeoutMillisecond (the app's default 3,000), at most the host's. */
export const ruleLimit = (rule: ReplaceRuleRow, maxLimitMs = REPLACE_LIMIT_MS): number => Math.min(rule.timeoutMillisecond ?? 3000, maxLimitMs);

/** How a replace rule is named in its errors. */
export const ruleRef = (rule: ReplaceRuleRow): RuleRef => ({ kind: 'replace rule', name: rule.name, id: rule.id, pattern: rule.pattern });

/**
 * The text with each match replaced by the expanded replacement (Java's replaceAll), the matches
 * found by the caller: here by `matches()`, on the worker inside the QuickJS sandbox.
 */
export function replaceMatches(text: string, rx: JavaRegex, replacement: string, found: Iterable<FoundMatch>): string {
  let out = '';
  let last = 0;
  for (const m of found) {
    out += text.slice(last, m.index) + expandReplacement(replacement, rx, m);
    last = m.index + m[0]!.length;
  }
  return out + text.slice(last);
}

/** A chapter's text and title with the replace rules to apply: what a rule thread is given. */
export interface ChapterReplace {
  readonly text: string;
  readonly rules: readonly ReplaceRuleRow[];
  readonly title?: string;
  readonly titleRules?: readonly ReplaceRuleRow[];
  /** The longest time limit a rule gets (default REPLACE_LIMIT_MS). */
  readonly maxLimitMs?: number;
  /** The app's testReplaceRule: the one rule on the text as it is (no trimming), a pattern that does not compile thrown. */
  readonly raw?: boolean;
}

export interface ChapterReplaced {
  readonly text: string;
  readonly title?: string;
  readonly notes: string[];
}

/** The content rules on the text, the title rules on the title (when given). */
export function replaceChapter(job: ChapterReplace): ChapterReplaced {
  if (job.raw) return { text: job.rules.reduce((t, rule) => applyRule(t, rule, job.maxLimitMs), job.text), notes: [] };
  const notes: string[] = [];
  const text = replaceContent(job.text, job.rules, notes, job.maxLimitMs);
  if (job.title === undefined) return { text, notes };
  return { text, title: replaceTitle(job.title, job.titleRules ?? [], notes, job.maxLimitMs), notes };
}

/** Only the fields a rule is applied with (a store row has more; a rule thread is sent these). */
export const ruleFields = (r: ReplaceRuleRow): ReplaceRuleRow => ({
  ...(r.id !== undefined ? { id: String(r.id) } : {}),
  name: r.name,
  pattern: r.pattern,
  replacement: r.replacement,
  isRegex: r.isRegex,
  ...(r.timeoutMillisecond !== undefined ? { timeoutMillisecond: Number(r.timeoutMillisecond) } : {}),
});

const KT_TRIM = /^[\t\n\x0B\f\r\x1C-\x1F\p{Z}]+|[\t\n\x0B\f\r\x1C-\x1F\p{Z}]+$/gu;

/** Rules applied in order to chapter text (lines trimmed first, as the app does). */
export function replaceContent(text: string, rules: readonly ReplaceRuleRow[], notes: string[], maxLimitMs?: number): string {
  let t = text
    .split(/\r\n|\n|\r/)
    .map((l) => l.replace(KT_TRIM, ''))
    .join('\n');
  for (const rule of rules) t = applyOne(t, rule, notes, maxLimitMs);
  return t;
}

/** Rules applied in order to a title (no trimming). */
export function replaceTitle(title: string, rules: readonly ReplaceRuleRow[], notes: string[], maxLimitMs?: number): string {
  let t = title;
  for (const rule of rules) t = applyOne(t, rule, notes, maxLimitMs);
  return t;
}

function applyOne(text: string, rule: ReplaceRuleRow, notes: string[], maxLimitMs?: number): string {
  if (rule.pattern === '') return text;
  try {
    return applyRule(text, rule, maxLimitMs);
  } catch (e) {
    if (e instanceof RuleTimeoutError) throw e;
    if (e instanceof JavaRegexError) notes.push(`replace rule ${JSON.stringify(rule.name)} left out: ${e.reason}`);
    else notes.push(`replace rule ${JSON.stringify(rule.name)} left out: ${e instanceof Error ? e.message : String(e)}`);
    return text;
  }
}

/** The app's exclude scope (schema 68 on): a rule is left out when it names the book or its origin. */
export function excluded(rule: ReplaceRuleRow, name: string, origin: string): boolean {
  const ex = rule.excludeScope;
  if (ex === null || ex === undefined) return false;
  // SQL LIKE '%x%' (ASCII case-insensitive); an empty name matches any text.
  const has = (x: string): boolean => ex.toLowerCase().includes(x.toLowerCase());
  return has(name) || has(origin);
}
