// The app's RuleAnalyzer: cutting a rule at `&&`, `||`, `%%` or `@` where the separator is
// outside `[...]` and `(...)` (quotes count only inside those), and the `{$.x}` inner rules.
// The first separator found sets the kind: `a&&b||c` is `a` and `b||c`.
import { RuleError } from './errors.js';

export interface Split {
  readonly parts: readonly string[];
  /** The separator the parts were cut at; '' when there was none. */
  readonly type: string;
}

/**
 * The end (exclusive) of the balanced group opening at `at`, or -1. Rule mode (XPath, JSoup):
 * quotes hide brackets, a backslash outside quotes escapes. Code mode (JSON, JS): square brackets
 * always nest, the given pair only at square depth 0, a backslash escapes everywhere.
 */
export function balancedEnd(q: string, at: number, open: string, close: string, code: boolean): number {
  let quote = ''; // the quote character we are inside, '' outside
  let squares = 0; // code mode: [ ] nesting
  let pairs = 0; // the given pair
  for (let i = at; i < q.length; i++) {
    const c = q[i]!;
    if (c === '\\' && (code || quote === '')) {
      i++;
    } else if (quote !== '') {
      if (c === quote) quote = '';
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (code && (c === '[' || c === ']')) {
      squares += c === '[' ? 1 : -1;
    } else if (!code || squares === 0) {
      if (c === open) pairs++;
      else if (c === close) pairs--;
    }
    if (squares <= 0 && pairs <= 0) return i + 1;
  }
  return -1;
}

/** Cuts `q` at the separators outside brackets; the first one found fixes the kind. */
export function splitRule(q: string, seps: readonly string[], code = false): Split {
  const parts: string[] = [];
  let type = '';
  let start = 0;
  let i = 0;
  while (i < q.length) {
    const c = q[i]!;
    if (c === '[' || c === '(') {
      const end = balancedEnd(q, i, c, c === '[' ? ']' : ')', code);
      if (end >= 0) {
        i = end;
        continue;
      }
      // The app checks a bracket only when a separator follows it.
      const later = type ? q.includes(type, i) : seps.some((s) => q.includes(s, i));
      if (later) throw new RuleError(q, `unbalanced ${c} at ${i}`);
      break;
    }
    const sep = type ? (q.startsWith(type, i) ? type : undefined) : seps.find((s) => q.startsWith(s, i));
    if (sep !== undefined) {
      parts.push(q.slice(start, i));
      type = sep;
      i += sep.length;
      start = i;
      continue;
    }
    i++;
  }
  parts.push(q.slice(start));
  return { parts, type };
}

/**
 * Replaces each balanced `{$.…}` in `q` by what `fn` gives for its inside (`$.…`); one that gives
 * nothing stays as it is. '' when nothing was replaced (the app's innerRule).
 */
export function innerRule(q: string, fn: (inner: string) => string | null | undefined): string {
  let out = '';
  let last = 0;
  let from = 0;
  let replaced = false;
  for (;;) {
    const at = q.indexOf('{$.', from);
    if (at < 0) break;
    const end = balancedEnd(q, at, '{', '}', true);
    if (end >= 0) {
      const value = fn(q.slice(at + 1, end - 1));
      if (value) {
        out += q.slice(last, at) + value;
        last = from = end;
        replaced = true;
        continue;
      }
    }
    from = at + 3;
  }
  return replaced ? out + q.slice(last) : '';
}

/** Leading `@` and control or space characters dropped (RuleAnalyzer.trim). */
export function trimAt(s: string): string {
  let i = 0;
  while (i < s.length && (s[i] === '@' || s.charCodeAt(i) < 33)) i++;
  return i === 0 ? s : s.slice(i);
}

/** Results of the parts put together: `%%` interleaves (A1 B1 A2 B2...), the others append. */
export function combine<T>(type: string, results: readonly (readonly T[])[]): T[] {
  if (type !== '%%') return results.length === 1 ? (results[0] as T[]) : (results.flat() as T[]);
  const out: T[] = [];
  for (let i = 0; i < (results[0]?.length ?? 0); i++) for (const r of results) if (i < r.length) out.push(r[i]!);
  return out;
}

/** Java's String.trim: every char up to U+0020 at either end. */
export function javaTrim(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s.charCodeAt(a) <= 32) a++;
  while (b > a && s.charCodeAt(b - 1) <= 32) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}
