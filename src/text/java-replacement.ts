// Java's replacement strings (Matcher.appendReplacement) over a translated Java regex's match.
import type { JavaRegex } from './java-regex.js';

/** A match as the expansion reads it: a RegExpExecArray, or one copied out of a sandbox. */
export interface FoundMatch {
  readonly index: number;
  /** The whole match (0), then the JS groups. */
  readonly [group: number]: string | undefined;
  readonly groups?: Readonly<Record<string, string | undefined>> | undefined;
}

/** Java's Matcher.appendReplacement: `$n`, `${name}`, and `\` quoting the next character. */
export function expandReplacement(replacement: string, rx: JavaRegex, m: FoundMatch): string {
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
      const name = replacement.slice(i + 2, close);
      if (close < 0 || (m.groups?.[name] === undefined && !(m.groups && name in m.groups))) throw new Error(`no group named ${name}`);
      out += m.groups[name] ?? '';
      i = close;
      continue;
    }
    let n = -1;
    let j = i + 1;
    while (j < replacement.length && /\d/.test(replacement[j]!)) {
      const next = (n < 0 ? 0 : n * 10) + Number(replacement[j]);
      if (n >= 0 && next >= rx.groups.length) break;
      n = next;
      j++;
    }
    if (n < 0 || n >= rx.groups.length) throw new Error(`no group ${n < 0 ? '' : n} in the replacement ${JSON.stringify(replacement)}`);
    out += m[rx.groups[n]!] ?? '';
    i = j - 1;
  }
  return out;
}
