// The book's replace rules on chapter text, as the app's ContentProcessor.replaceContent applies
// them: every line trimmed, then each enabled rule in scope in sortOrder, a regex rule with its
// time limit (timeoutMillisecond). A rule that does not compile or runs out of time is left out
// and named in the notes (the app logs the first and disables the second).
import { JavaRegexError } from '../text/java-regex.js';
import { expandReplacement } from '../text/java-replacement.js';
import { compileGuarded, Deadline, RegexTimeout, matches } from './regex-guard.js';

export interface ReplaceRuleRow {
  readonly name: string;
  readonly pattern: string;
  readonly replacement: string;
  readonly isRegex: boolean;
  readonly timeoutMillisecond?: number;
  readonly excludeScope?: string | null;
}

/** One rule on a text; throws RegexTimeout or JavaRegexError. */
export function applyRule(text: string, rule: ReplaceRuleRow): string {
  if (!rule.isRegex) return text.split(rule.pattern).join(rule.replacement);
  const rx = compileGuarded(rule.pattern);
  const deadline = new Deadline(rule.pattern, rule.timeoutMillisecond ?? 3000);
  let out = '';
  let last = 0;
  for (const m of matches(rx.regex, text, deadline)) {
    out += text.slice(last, m.index) + expandReplacement(rule.replacement, rx, m);
    last = m.index + m[0].length;
  }
  deadline.check();
  return out + text.slice(last);
}

const KT_TRIM = /^[\t\n\x0B\f\r\x1C-\x1F\p{Z}]+|[\t\n\x0B\f\r\x1C-\x1F\p{Z}]+$/gu;

/** Rules applied in order to chapter text (lines trimmed first, as the app does). */
export function replaceContent(text: string, rules: readonly ReplaceRuleRow[], notes: string[]): string {
  let t = text
    .split(/\r\n|\n|\r/)
    .map((l) => l.replace(KT_TRIM, ''))
    .join('\n');
  for (const rule of rules) t = applyOne(t, rule, notes);
  return t;
}

/** Rules applied in order to a title (no trimming). */
export function replaceTitle(title: string, rules: readonly ReplaceRuleRow[], notes: string[]): string {
  let t = title;
  for (const rule of rules) t = applyOne(t, rule, notes);
  return t;
}

function applyOne(text: string, rule: ReplaceRuleRow, notes: string[]): string {
  if (rule.pattern === '') return text;
  try {
    return applyRule(text, rule);
  } catch (e) {
    if (e instanceof RegexTimeout) notes.push(`replace rule ${JSON.stringify(rule.name)} left out: it ran longer than ${e.limitMs} ms`);
    else if (e instanceof JavaRegexError) notes.push(`replace rule ${JSON.stringify(rule.name)} left out: ${e.reason}`);
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
