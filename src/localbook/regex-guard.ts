// Rules that could run away. A JS regex cannot be interrupted while it runs, so two guards:
// a pattern with a repeated group that itself repeats without bound (the shape behind
// catastrophic backtracking, e.g. `(\s*\S+)+`) is refused before it runs, and matching runs
// against a time limit: checked between matches here, and inside a match by a host that runs
// the rules on a thread it can stop (the watch below).
import { translateJavaRegex, type JavaFlags, type JavaRegex, JavaRegexError } from '../text/java-regex.js';
import { RuleTimeoutError, type RuleRef } from './errors.js';

/** Why a Java pattern may backtrack without end, or undefined. */
export function backtrackRisk(pattern: string): string | undefined {
  // Per open group: does it contain an unbounded quantifier (at any depth)?
  const stack: boolean[] = [];
  let inner = false;
  const unboundedAt = (i: number): boolean => {
    const c = pattern[i];
    if (c === '*' || c === '+') return true;
    if (c === '{') return /^\{\d+,\}/.test(pattern.slice(i, i + 12));
    return false;
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') {
      // Skip a class (nested ones too).
      let depth = 1;
      for (i++; i < pattern.length && depth > 0; i++) {
        if (pattern[i] === '\\') i++;
        else if (pattern[i] === '[') depth++;
        else if (pattern[i] === ']' && depth-- === 1) break;
      }
      continue;
    }
    if (c === '(') {
      stack.push(inner);
      inner = false;
    } else if (c === ')') {
      const groupRepeats = unboundedAt(i + 1);
      // A possessive or atomic inner part cannot backtrack; `)++` is possessive too.
      const possessive = groupRepeats && pattern[i + 2] === '+';
      if (groupRepeats && inner && !possessive) return `the group ending at ${i} repeats and holds a repetition without bound (catastrophic backtracking)`;
      inner = (stack.pop() ?? false) || inner || groupRepeats;
    } else if (unboundedAt(i) && pattern[i - 1] !== '\\') inner = true;
  }
  return undefined;
}

/** A Java pattern compiled for matching under the guards; throws JavaRegexError when refused. */
export function compileGuarded(pattern: string, flags: JavaFlags = {}): JavaRegex {
  const risk = backtrackRisk(pattern);
  if (risk) throw new JavaRegexError(pattern, risk);
  return translateJavaRegex(pattern, flags);
}

/**
 * Told when a rule starts a stretch of matching with its limit (undefined: no rule runs now). A
 * host that runs rules on a thread it can stop (node/rule-thread.ts) sets it there and stops the
 * thread when a stretch outlasts its limit, inside one match; elsewhere only `check()` holds.
 */
export type RuleWatch = (rule: RuleRef | undefined, limitMs: number) => void;
let watch: RuleWatch | undefined;

/** Sets (or clears) the watch of this thread. */
export function watchRules(w: RuleWatch | undefined): void {
  watch = w;
}

/** A rule's clock: each `lap()` starts a stretch of `limitMs` (one block, one text); `check()` throws past it. */
export class Deadline {
  private end = 0;
  constructor(
    readonly rule: RuleRef,
    readonly limitMs: number,
  ) {
    this.lap();
  }
  lap(): void {
    this.end = Date.now() + this.limitMs;
    watch?.(this.rule, this.limitMs);
  }
  check(): void {
    if (Date.now() > this.end) throw new RuleTimeoutError(this.rule, this.limitMs);
  }
  /** The rule is done: the watch stops timing it. */
  stop(): void {
    watch?.(undefined, 0);
  }
}

/** Every match of `re` in `text` (as Java's find() loop sees them), checking the deadline between them. */
export function* matches(re: RegExp, text: string, deadline?: Deadline): Generator<RegExpExecArray> {
  re.lastIndex = 0;
  let k = 0;
  for (;;) {
    const m = re.exec(text);
    if (!m) return;
    if (m[0].length === 0) re.lastIndex = m.index + 1;
    if (deadline && (++k & 63) === 0) deadline.check();
    yield m;
  }
}
