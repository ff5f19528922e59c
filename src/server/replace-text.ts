// A replace rule applied to a text, as the app's testReplaceRule does: a regex rule through the
// regex with Java's replacement syntax ($n and ${name} refer to groups, a backslash makes the
// next character literal), a plain rule as a literal replace of every occurrence. The regex is
// read as JavaScript's, which agrees with Java's on what rules use (classes, groups, lookaround).

/** The replaced text; an error's message when the pattern does not compile (the app returns its stack trace). */
export function replaceText(text: string, pattern: string, replacement: string, isRegex: boolean): string {
  if (!isRegex) return text.replaceAll(pattern, () => replacement);
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'g');
  } catch (e) {
    return `java.util.regex.PatternSyntaxException: ${(e as Error).message}`;
  }
  return text.replace(re, (...args: unknown[]) => javaReplacement(replacement, args));
}

/** Expands Java's replacement string for one match (`args` as String.replace gives them to a function). */
function javaReplacement(replacement: string, args: unknown[]): string {
  const hasNamed = typeof args[args.length - 1] === 'object';
  const named = (hasNamed ? args[args.length - 1] : undefined) as Record<string, string | undefined> | undefined;
  const groups = args.slice(0, args.length - (hasNamed ? 3 : 2)) as (string | undefined)[]; // [match, g1, g2, ...]
  let out = '';
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i]!;
    if (c === '\\') {
      i++;
      if (i < replacement.length) out += replacement[i];
      continue;
    }
    if (c !== '$') {
      out += c;
      continue;
    }
    if (replacement[i + 1] === '{') {
      const close = replacement.indexOf('}', i);
      const name = close < 0 ? '' : replacement.slice(i + 2, close);
      if (!named || !(name in named)) throw new Error(`No group with name {${name}}`);
      out += named[name] ?? '';
      i = close;
      continue;
    }
    // Java reads the first digit, then more while the number still names a group.
    let j = i + 1;
    if (!/[0-9]/.test(replacement[j] ?? '')) throw new Error('Illegal group reference');
    let n = Number(replacement[j]);
    while (j + 1 < replacement.length && /[0-9]/.test(replacement[j + 1]!) && n * 10 + Number(replacement[j + 1]) < groups.length) {
      j++;
      n = n * 10 + Number(replacement[j]);
    }
    if (n >= groups.length) throw new Error(`No group ${n}`);
    out += groups[n] ?? '';
    i = j;
  }
  return out;
}
