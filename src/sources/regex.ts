// Java regexes in rules: the `##re##repl###` suffix and the AllInOne lists (`:r1&&r2`, each
// regex but the last run on the joined matches of the one before, the last giving one item per
// match with all its groups). Patterns go through the one Java-to-JS translator.
import { translateJavaRegex, type JavaRegex } from '../text/java-regex.js';
import { expandReplacement } from '../text/java-replacement.js';
import { RuleError } from './errors.js';

const cache = new Map<string, JavaRegex | null>();

/** The translated pattern, or null when it does not compile (the app then replaces literally). */
export function javaRegex(pattern: string): JavaRegex | null {
  let rx = cache.get(pattern);
  if (rx !== undefined) return rx;
  try {
    rx = translateJavaRegex(pattern);
  } catch {
    rx = null;
  }
  if (cache.size > 4096) cache.clear();
  cache.set(pattern, rx);
  return rx;
}

function* matches(rx: JavaRegex, text: string): Generator<RegExpExecArray> {
  const re = rx.regex;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    yield m;
    if (m[0].length === 0) re.lastIndex += (text.codePointAt(m.index) ?? 0) > 0xffff ? 2 : 1;
  }
}

/** Java's replaceAll with its replacement syntax; throws on a group the pattern lacks. */
function replaceAll(rx: JavaRegex, text: string, replacement: string): string {
  let out = '';
  let last = 0;
  for (const m of matches(rx, text)) {
    out += text.slice(last, m.index) + expandReplacement(replacement, rx, m);
    last = m.index + m[0].length;
  }
  return out + text.slice(last);
}

export interface Replace {
  readonly regex: string;
  readonly replacement: string;
  /** `###`: only the first match, rewritten; '' without one. */
  readonly first: boolean;
}

/** The `##` suffix applied to a result, as AnalyzeRule.replaceRegex does. */
export function applyReplace(text: string, r: Replace): string {
  if (r.regex === '') return text;
  const rx = javaRegex(r.regex);
  if (r.first) {
    if (!rx) return r.replacement;
    const m = matches(rx, text).next();
    if (m.done) return '';
    try {
      const found = m.value[0];
      const again = matches(rx, found).next();
      if (again.done) return found;
      return found.slice(0, again.value.index) + expandReplacement(r.replacement, rx, again.value) + found.slice(again.value.index + again.value[0].length);
    } catch {
      return r.replacement;
    }
  }
  if (rx) {
    try {
      return replaceAll(rx, text, r.replacement);
    } catch {
      // a replacement naming a group the pattern lacks: the literal replace below
    }
  }
  return text.split(r.regex).join(r.replacement);
}

function strict(pattern: string): JavaRegex {
  const rx = javaRegex(pattern);
  if (!rx) {
    try {
      translateJavaRegex(pattern);
    } catch (e) {
      throw new RuleError(pattern, e instanceof Error ? e.message : String(e));
    }
  }
  return rx!;
}

const groupsOf = (rx: JavaRegex, m: RegExpExecArray): string[] => rx.groups.map((g) => m[g] ?? '');

/** AllInOne items: each match of the last regex as its groups (group 0 first). */
export function allInOne(text: string, regexes: readonly string[]): string[][] {
  let input = text;
  for (let i = 0; i < regexes.length; i++) {
    const rx = strict(regexes[i]!);
    const found = [...matches(rx, input)];
    if (found.length === 0) return [];
    if (i === regexes.length - 1) return found.map((m) => groupsOf(rx, m));
    input = found.map((m) => m[0]).join('');
  }
  return [];
}

/** The first AllInOne item (getElement), or null. */
export function allInOneFirst(text: string, regexes: readonly string[]): string[] | null {
  let input = text;
  for (let i = 0; i < regexes.length; i++) {
    const rx = strict(regexes[i]!);
    const it = matches(rx, input);
    const first = it.next();
    if (first.done) return null;
    if (i === regexes.length - 1) return groupsOf(rx, first.value);
    input = [first.value, ...it].map((m) => m[0]).join('');
  }
  return null;
}

/** Checks the patterns of an AllInOne rule (throws RuleError). */
export function checkAllInOne(regexes: readonly string[]): void {
  for (const r of regexes) strict(r);
}
