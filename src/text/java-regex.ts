// Java regexes (as the app runs them: Android's java.util.regex, which is ICU's engine) turned
// into JavaScript RegExps with the same meaning. ICU differs from JS in the classes (\s is
// [\t\n\f\r\p{Z}], \d is \p{Nd}, \w and \b are Unicode), the line terminators behind ., ^ and $,
// inline flags, possessive quantifiers and atomic groups, nested character classes and \Q..\E.
// What JS cannot say is refused with JavaRegexError, which the callers treat as the app treats
// a PatternSyntaxException: the rule is skipped and named in the report.

export class JavaRegexError extends Error {
  constructor(
    readonly pattern: string,
    readonly reason: string,
  ) {
    super(`cannot compile ${JSON.stringify(pattern.length > 60 ? `${pattern.slice(0, 57)}...` : pattern)}: ${reason}`);
    this.name = 'JavaRegexError';
  }
}

export interface JavaRegex {
  /** The compiled expression (flags g, u and what the pattern asks for). */
  readonly regex: RegExp;
  /** JS group number of each Java group number (index 0 is the whole match). */
  readonly groups: readonly number[];
  /** The Java pattern it came from. */
  readonly pattern: string;
}

export interface JavaFlags {
  /** Pattern.MULTILINE (the app's TOC rules set it). */
  readonly multiline?: boolean;
  readonly caseInsensitive?: boolean;
  readonly dotAll?: boolean;
}

// ICU's line terminators and classes, in the spelling a JS class with the u flag accepts.
const TERM = '\\n\\x0B\\f\\r\\x85\\u2028\\u2029';
const SPACE = '\\t\\n\\f\\r\\p{Z}';
const WORD = '\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\u200C\\u200D';
const HSPACE = '\\t\\p{Zs}';
const VSPACE = TERM;
const DIGIT = '\\p{Nd}';

/** Java POSIX and java* property names, and blocks JS has no name for. */
const PROPERTIES: Record<string, string> = {
  Lower: '\\p{Lowercase}',
  Upper: '\\p{Uppercase}',
  ASCII: '\\x00-\\x7F',
  Alpha: '\\p{Alphabetic}',
  Digit: DIGIT,
  Alnum: '\\p{Alphabetic}\\p{Nd}',
  Punct: '\\p{P}',
  Graph: '\\P{White_Space}',
  Print: '\\P{C}',
  Blank: HSPACE,
  Cntrl: '\\p{Cc}',
  XDigit: '0-9A-Fa-f',
  Space: '\\p{White_Space}',
  javaLowerCase: '\\p{Lowercase}',
  javaUpperCase: '\\p{Uppercase}',
  javaWhitespace: '\\t\\n\\x0B\\f\\r\\x1C-\\x1F\\p{Zs}\\p{Zl}\\p{Zp}',
  javaMirrored: '\\p{Bidi_Mirrored}',
  javaLetter: '\\p{L}',
  javaDigit: DIGIT,
  javaLetterOrDigit: '\\p{L}\\p{Nd}',
  javaAlphabetic: '\\p{Alphabetic}',
  InCJKUnifiedIdeographs: '\\u4E00-\\u9FFF',
  InCJKSymbolsAndPunctuation: '\\u3000-\\u303F',
  InHalfwidthAndFullwidthForms: '\\uFF00-\\uFFEF',
  InBasicLatin: '\\x00-\\x7F',
  InCJKUnifiedIdeographsExtensionA: '\\u3400-\\u4DBF',
  InGeneralPunctuation: '\\u2000-\\u206F',
};
const GENERAL_CATEGORY = /^(?:L[ultmo]?|M[nce]?|N[dlo]?|P[cdseifo]?|S[mcko]?|Z[slp]?|C[cfson]?|LC|L&)$/;

/** The body (class members) of \p{name}: a JS class fragment. */
function property(name: string, where: string): string {
  if (PROPERTIES[name] !== undefined) return PROPERTIES[name]!;
  let n = name;
  if (n.startsWith('Is')) n = n.slice(2);
  if (n === 'L&' || n === 'LC') return '\\p{LC}';
  if (GENERAL_CATEGORY.test(n)) return `\\p{${n}}`;
  if (/^(?:sc|script|gc|general_category|blk|block)=/i.test(n)) {
    const [k, v] = n.split('=') as [string, string];
    if (/^(?:blk|block)$/i.test(k)) throw new Error(`the Unicode block \\p{${name}} (JavaScript has no blocks) at ${where}`);
    return `\\p{${/^(?:sc|script)$/i.test(k) ? 'Script' : 'General_Category'}=${v}}`;
  }
  if (n.startsWith('In')) throw new Error(`the Unicode block \\p{${name}} at ${where}`);
  // A script (IsHan, Han, IsLatin) or a binary property (IsAlphabetic, Emoji).
  try {
    new RegExp(`\\p{Script=${n}}`, 'u');
    return `\\p{Script=${n}}`;
  } catch {
    try {
      new RegExp(`\\p{${n}}`, 'u');
      return `\\p{${n}}`;
    } catch {
      throw new Error(`the unknown property \\p{${name}} at ${where}`);
    }
  }
}

const SYNTAX = new Set('^$\\.*+?()[]{}|/');
const hex = (cp: number): string => `\\u{${cp.toString(16).toUpperCase()}}`;
/** One code point as JS source outside a class. */
function literal(cp: number): string {
  const c = String.fromCodePoint(cp);
  if (SYNTAX.has(c)) return `\\${c}`;
  if (cp < 0x20 || cp === 0x7f || (cp >= 0x80 && cp < 0xa0) || (cp >= 0xd800 && cp <= 0xdfff)) return hex(cp);
  return c;
}
/** One code point as JS source inside a class. */
function classLiteral(cp: number): string {
  const c = String.fromCodePoint(cp);
  if ('\\]-^['.includes(c)) return `\\${c}`;
  return cp < 0x20 || cp === 0x7f || (cp >= 0x80 && cp < 0xa0) || (cp >= 0xd800 && cp <= 0xdfff) ? hex(cp) : c;
}

/** Other case forms of a code point (for case-insensitive parts of a pattern JS cannot flag). */
function caseVariants(cp: number): number[] {
  const c = String.fromCodePoint(cp);
  const out = new Set<number>();
  for (const v of [c.toLowerCase(), c.toUpperCase()]) if ([...v].length === 1) out.add(v.codePointAt(0)!);
  out.delete(cp);
  return [...out];
}

interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
  x: boolean;
}

/** A character class as a set: members JS puts in one [...] plus parts needing a group. */
interface ClassSet {
  negated: boolean;
  /** Members for a JS class body. */
  body: string;
  /** Further alternatives (nested classes, negated escapes) unioned in. */
  parts: string[];
  /** Classes intersected with this one (Java's &&). */
  and: string[];
}

/** The JS source matching one character of the set. */
function emitSet(set: ClassSet): string {
  let base: string;
  if (set.parts.length === 0) base = `[${set.body}]`;
  else {
    const alts = set.body === '' ? set.parts : [`[${set.body}]`, ...set.parts];
    base = alts.length === 1 ? alts[0]! : `(?:${alts.join('|')})`;
  }
  if (set.and.length > 0) base = `(?:${set.and.map((a) => `(?=${a})`).join('')}${base})`;
  if (!set.negated) return base;
  if (set.parts.length === 0 && set.and.length === 0) return `[^${set.body}]`;
  return `(?:(?!${base})[\\s\\S])`;
}

/** Translates a Java (ICU) pattern; throws JavaRegexError for what does not compile there or here. */
export function translateJavaRegex(pattern: string, flags: JavaFlags = {}): JavaRegex {
  try {
    return translate(pattern, flags);
  } catch (e) {
    if (e instanceof JavaRegexError) throw e;
    throw new JavaRegexError(pattern, e instanceof Error ? e.message : String(e));
  }
}

function translate(pattern: string, start: JavaFlags): JavaRegex {
  const cps = [...pattern].map((c) => c.codePointAt(0)!);
  let pos = 0;
  let out = '';
  // Capture groups are marked in the output and numbered at the end, so that groups added for
  // possessive quantifiers and atomic groups can be put around text already written.
  let nextId = 0;
  const javaGroupIds: number[] = [];
  const names = new Set<string>();
  const OPEN = '\u0001';
  const REF = '\u0002';
  const openMark = (id: number): string => `${OPEN}${id}${OPEN}(`;
  const refMark = (id: number): string => `${REF}${id}${REF}`;

  // Leading inline flags the whole pattern can carry as JS flags stay JS flags (faster).
  let flags: Flags = { i: !!start.caseInsensitive, m: !!start.multiline, s: !!start.dotAll, x: false };
  // Case-insensitivity set only by leading flags becomes JS's i flag; set or cleared inside the
  // pattern it is spelled out as [aA] sets instead.
  const uniformI = !/\(\?[imsxuUd-]*i[imsxuUd-]*[:)]/.test(pattern.replace(/^\(\?[imsxuUd]*\)/, '').replace(/\\[\s\S]/g, ''));
  const stack: { flags: Flags; atom: number; capture: boolean }[] = [];
  /** Start (in out) of the last quantifiable atom, or -1. */
  let atomStart = -1;

  const where = (): string => `position ${pos}`;
  const peek = (k = 0): number | undefined => cps[pos + k];
  const eat = (c: string): boolean => {
    if (cps[pos] === c.codePointAt(0)) {
      pos++;
      return true;
    }
    return false;
  };
  const readHex = (n: number): number => {
    const s = String.fromCodePoint(...cps.slice(pos, pos + n));
    if (s.length !== n || !/^[0-9a-fA-F]+$/.test(s)) throw new Error(`a bad hex escape at ${where()}`);
    pos += n;
    return parseInt(s, 16);
  };
  /** After a backslash: an escape that stands for one code point, or undefined. */
  const codePointEscape = (c: string): number | undefined => {
    switch (c) {
      case 't':
        return 9;
      case 'n':
        return 10;
      case 'r':
        return 13;
      case 'f':
        return 12;
      case 'a':
        return 7;
      case 'e':
        return 27;
      case '0': {
        let v = 0;
        let k = 0;
        while (k < 3 && peek() !== undefined && peek()! >= 0x30 && peek()! <= 0x37 && (k < 2 || v < 32)) {
          v = v * 8 + (peek()! - 0x30);
          pos++;
          k++;
        }
        if (k === 0) throw new Error(`a bad octal escape at ${where()}`);
        return v;
      }
      case 'x': {
        if (eat('{')) {
          const endAt = cps.indexOf(0x7d, pos);
          if (endAt < 0) throw new Error(`an unclosed \\x{ at ${where()}`);
          const v = readHex(endAt - pos);
          pos++;
          return v;
        }
        return readHex(2);
      }
      case 'u':
        return readHex(4);
      case 'c': {
        const n = peek();
        if (n === undefined) throw new Error('a \\c at the end');
        pos++;
        return n ^ 64;
      }
      default:
        return undefined;
    }
  };
  const ci = (cp: number): number[] => (flags.i && !uniformI ? caseVariants(cp) : []);

  /** Reads a class after its `[`; returns its JS source. */
  const readClass = (): string => {
    const set: ClassSet = { negated: eat('^'), body: '', parts: [], and: [] };
    let first = true;
    const add = (cp: number): void => {
      set.body += classLiteral(cp);
      for (const v of ci(cp)) set.body += classLiteral(v);
    };
    for (;;) {
      const c = peek();
      if (c === undefined) throw new Error('an unclosed character class');
      const ch = String.fromCodePoint(c);
      if (ch === ']' && !first) {
        pos++;
        break;
      }
      first = false;
      if (ch === '[') {
        pos++;
        set.parts.push(readClass());
        continue;
      }
      if (ch === '&' && peek(1) === 0x26) {
        // Java's intersection: what came before, and the rest of this class.
        pos += 2;
        const left = emitSet({ ...set, negated: false });
        const right = readClass();
        set.body = '';
        set.parts = [right];
        set.and = [left];
        break;
      }
      if (flags.x && /\s/.test(ch)) {
        pos++;
        continue;
      }
      pos++;
      let cp: number | undefined;
      if (ch === '\\') {
        const e = peek();
        if (e === undefined) throw new Error('a \\ at the end');
        pos++;
        const es = String.fromCodePoint(e);
        cp = codePointEscape(es);
        if (cp === undefined) {
          const frag = classEscape(es);
          if (frag !== undefined) {
            if (frag.startsWith('[') || frag.startsWith('(')) set.parts.push(frag);
            else set.body += frag;
            continue;
          }
          if (es === 'Q') {
            for (const q of readQuoted()) add(q);
            continue;
          }
          if (/[a-zA-Z0-9]/.test(es)) throw new Error(`the escape \\${es} in a class at ${where()}`);
          cp = e;
        }
      } else cp = c;
      // A range a-z (a `-` before `]` or after a class escape is a literal).
      if (peek() === 0x2d && peek(1) !== undefined && peek(1) !== 0x5d && peek(1) !== 0x5b) {
        pos++;
        let hi = peek()!;
        pos++;
        if (hi === 0x5c) {
          const e = String.fromCodePoint(peek()!);
          pos++;
          const v = codePointEscape(e);
          if (v === undefined) {
            if (/[a-zA-Z0-9]/.test(e)) throw new Error(`a range ending in \\${e} at ${where()}`);
            hi = e.codePointAt(0)!;
          } else hi = v;
        }
        if (hi < cp) throw new Error(`an illegal range at ${where()}`);
        set.body += `${classLiteral(cp)}-${classLiteral(hi)}`;
        if (flags.i && !uniformI) {
          // ASCII letters in the range get their other case; other scripts rarely have case.
          for (let k = Math.max(cp, 0x41); k <= Math.min(hi, 0x7a); k++) for (const v of caseVariants(k)) set.body += classLiteral(v);
        }
        continue;
      }
      add(cp);
    }
    return emitSet(set);
  };
  /** A class escape's JS fragment: members for a class body, or a `[`/`(` part. */
  const classEscape = (e: string): string | undefined => {
    switch (e) {
      case 'd':
        return DIGIT;
      case 'D':
        return '\\P{Nd}';
      case 's':
        return SPACE;
      case 'S':
        return `[^${SPACE}]`;
      case 'w':
        return WORD;
      case 'W':
        return `[^${WORD}]`;
      case 'h':
        return HSPACE;
      case 'H':
        return `[^${HSPACE}]`;
      case 'v':
        return VSPACE;
      case 'V':
        return `[^${VSPACE}]`;
      case 'p':
      case 'P': {
        let name: string;
        if (eat('{')) {
          const endAt = cps.indexOf(0x7d, pos);
          if (endAt < 0) throw new Error(`an unclosed \\${e}{ at ${where()}`);
          name = String.fromCodePoint(...cps.slice(pos, endAt));
          pos = endAt + 1;
        } else {
          const n = peek();
          if (n === undefined) throw new Error(`a \\${e} at the end`);
          name = String.fromCodePoint(n);
          pos++;
        }
        const body = property(name, where());
        if (e === 'p') return body;
        return `[^${body}]`;
      }
      default:
        return undefined;
    }
  };
  /** \Q...\E: the code points up to \E (or the end). */
  const readQuoted = (): number[] => {
    let end = pos;
    while (end < cps.length && !(cps[end] === 0x5c && cps[end + 1] === 0x45)) end++;
    const q = cps.slice(pos, end);
    pos = Math.min(cps.length, end + 2);
    return q;
  };
  const emitAtom = (src: string): void => {
    atomStart = out.length;
    out += src;
  };
  const emitChar = (cp: number): void => {
    const vs = ci(cp);
    emitAtom(vs.length === 0 ? literal(cp) : `[${[cp, ...vs].map(classLiteral).join('')}]`);
  };
  const parseFlags = (text: string, base: Flags): Flags => {
    const f = { ...base };
    let on = true;
    for (const ch of text) {
      if (ch === '-') on = false;
      else if (ch === 'i') f.i = on;
      else if (ch === 'm') f.m = on;
      else if (ch === 's') f.s = on;
      else if (ch === 'x') f.x = on;
      else if (ch === 'u' || ch === 'U' || ch === 'd') continue;
      else throw new Error(`the unknown inline flag ${ch} at ${where()}`);
    }
    return f;
  };
  let jsI = false;
  // Leading flags: hoisted.
  {
    const lead = /^\(\?([imsxuUd]*)\)/.exec(pattern);
    if (lead) {
      flags = parseFlags(lead[1]!, flags);
      pos = [...lead[0]].length;
    }
    if (flags.i && uniformI) jsI = true;
  }

  while (pos < cps.length) {
    const c = cps[pos]!;
    const ch = String.fromCodePoint(c);
    if (flags.x && /\s/.test(ch)) {
      pos++;
      continue;
    }
    if (flags.x && ch === '#') {
      while (pos < cps.length && cps[pos] !== 0x0a) pos++;
      continue;
    }
    pos++;
    switch (ch) {
      case '\\': {
        const e = peek();
        if (e === undefined) throw new Error('a \\ at the end');
        pos++;
        const es = String.fromCodePoint(e);
        const cp = codePointEscape(es);
        if (cp !== undefined) {
          emitChar(cp);
          break;
        }
        const frag = classEscape(es);
        if (frag !== undefined) {
          emitAtom(frag.startsWith('[') ? frag : `[${frag}]`);
          break;
        }
        if (es >= '1' && es <= '9') {
          // Java reads as many digits as still name an existing group.
          let n = e - 0x30;
          while (peek() !== undefined && peek()! >= 0x30 && peek()! <= 0x39 && n * 10 + (peek()! - 0x30) <= javaGroupIds.length) {
            n = n * 10 + (peek()! - 0x30);
            pos++;
          }
          if (n > javaGroupIds.length) throw new Error(`a reference to group ${n}, which does not exist, at ${where()}`);
          emitAtom(`\\${refMark(javaGroupIds[n - 1]!)}`);
          break;
        }
        switch (es) {
          case 'b':
            emitAtom(`(?:(?<=[${WORD}])(?![${WORD}])|(?<![${WORD}])(?=[${WORD}]))`);
            break;
          case 'B':
            emitAtom(`(?:(?<=[${WORD}])(?=[${WORD}])|(?<![${WORD}])(?![${WORD}]))`);
            break;
          case 'A':
            emitAtom('(?<![\\s\\S])');
            break;
          case 'z':
            emitAtom('(?![\\s\\S])');
            break;
          case 'Z':
            emitAtom(`(?=(?:\\r\\n|[${TERM}])?(?![\\s\\S]))`);
            break;
          case 'R':
            emitAtom(`(?:\\r\\n|[${TERM}])`);
            break;
          case 'k': {
            const m = /^<([A-Za-z][A-Za-z0-9]*)>/.exec(String.fromCodePoint(...cps.slice(pos, pos + 40)));
            if (!m || !names.has(m[1]!)) throw new Error(`a bad named reference at ${where()}`);
            pos += m[0].length;
            emitAtom(`\\k<${m[1]}>`);
            break;
          }
          case 'Q': {
            const q = readQuoted();
            for (const cp2 of q) emitChar(cp2);
            break;
          }
          default:
            if (/[a-zA-Z0-9]/.test(es))
              throw new Error(`the escape \\${es} (${es === 'G' || es === 'X' || es === 'N' ? 'not available in JavaScript' : 'unknown'}) at ${where()}`);
            emitChar(e);
        }
        break;
      }
      case '[':
        emitAtom(readClass());
        break;
      case '.':
        emitAtom(flags.s ? '[\\s\\S]' : `[^${TERM}]`);
        break;
      case '^':
        atomStart = -1;
        out += flags.m ? `(?:(?<![\\s\\S])|(?<=[\\n\\x0B\\f\\x85\\u2028\\u2029]|\\r(?!\\n))(?=[\\s\\S]))` : '(?<![\\s\\S])';
        break;
      case '$':
        atomStart = -1;
        out += flags.m ? `(?:(?=[${TERM}]|(?![\\s\\S]))(?<!\\r(?=\\n)))` : `(?=(?:\\r\\n|[${TERM}])?(?![\\s\\S]))`;
        break;
      case '(': {
        const begin = out.length;
        if (eat('?')) {
          const rest = String.fromCodePoint(...cps.slice(pos, pos + 40));
          let m: RegExpExecArray | null;
          if (rest.startsWith(':')) {
            pos++;
            out += '(?:';
            stack.push({ flags, atom: begin, capture: false });
          } else if (rest.startsWith('=') || rest.startsWith('!')) {
            pos++;
            out += `(?${rest[0]}`;
            stack.push({ flags, atom: begin, capture: false });
          } else if (rest.startsWith('<=') || rest.startsWith('<!')) {
            pos += 2;
            out += `(?${rest.slice(0, 2)}`;
            stack.push({ flags, atom: begin, capture: false });
          } else if (rest.startsWith('>')) {
            // Atomic group: (?=(X))\N, the lookahead's capture taken whole.
            pos++;
            const id = nextId++;
            out += `(?:(?=${openMark(id)}`;
            stack.push({ flags: { ...flags }, atom: begin, capture: false });
            (stack[stack.length - 1] as { atomic?: number }).atomic = id;
          } else if ((m = /^<([A-Za-z][A-Za-z0-9]*)>/.exec(rest))) {
            pos += m[0].length;
            const id = nextId++;
            javaGroupIds.push(id);
            names.add(m[1]!);
            out += `${OPEN}${id}${OPEN}(?<${m[1]}>`;
            stack.push({ flags, atom: begin, capture: true });
          } else if ((m = /^([a-zA-Z]*(?:-[a-zA-Z]*)?)([:)])/.exec(rest))) {
            pos += m[0].length;
            const f = parseFlags(m[1]!, flags);
            if (m[2] === ')') {
              flags = f;
            } else {
              out += '(?:';
              stack.push({ flags, atom: begin, capture: false });
              flags = f;
            }
            break;
          } else throw new Error(`an unknown group construct (?${rest.slice(0, 3)} at ${where()}`);
        } else {
          const id = nextId++;
          javaGroupIds.push(id);
          out += openMark(id);
          stack.push({ flags, atom: begin, capture: true });
        }
        atomStart = -1;
        break;
      }
      case ')': {
        const top = stack.pop() as { flags: Flags; atom: number; atomic?: number } | undefined;
        if (!top) throw new Error(`an unmatched ) at ${where()}`);
        out += top.atomic !== undefined ? `))\\${refMark(top.atomic)})` : ')';
        flags = top.flags;
        atomStart = top.atom;
        break;
      }
      case '|':
        out += '|';
        atomStart = -1;
        break;
      case '*':
      case '+':
      case '?':
      case '{': {
        let q: string = ch;
        if (ch === '{') {
          const m = /^(\d+)(,(\d*))?\}/.exec(String.fromCodePoint(...cps.slice(pos, pos + 24)));
          if (!m) throw new Error(`an illegal repetition { at ${where()}`);
          if (m[3] !== undefined && m[3] !== '' && Number(m[3]) < Number(m[1])) throw new Error(`an illegal repetition range at ${where()}`);
          pos += m[0].length;
          q = `{${m[1]}${m[2] ?? ''}}`;
        }
        if (atomStart < 0) throw new Error(`a dangling quantifier ${q} at ${where()}`);
        if (eat('?')) out += `${q}?`;
        else if (eat('+')) {
          // Possessive: (?=(X*))\N keeps what the lookahead took, with no way back into it.
          const atom = out.slice(atomStart);
          const id = nextId++;
          out = `${out.slice(0, atomStart)}(?:(?=${openMark(id)}${atom}${q}))\\${refMark(id)})`;
        } else out += q;
        atomStart = -1;
        break;
      }
      default:
        emitChar(c);
    }
  }
  if (stack.length > 0) throw new Error('an unclosed group');

  // Number the groups in the order their parentheses now open.
  const order: number[] = [];
  const openRe = new RegExp(`${OPEN}(\\d+)${OPEN}`, 'g');
  for (const m of out.matchAll(openRe)) order.push(Number(m[1]));
  const jsNumber = new Map(order.map((id, k) => [id, k + 1]));
  let source = out.replace(openRe, '');
  source = source.replace(new RegExp(`${REF}(\\d+)${REF}`, 'g'), (_, id: string) => String(jsNumber.get(Number(id))));
  const groups = [0, ...javaGroupIds.map((id) => jsNumber.get(id)!)];
  let regex: RegExp;
  try {
    regex = new RegExp(source, `gu${jsI ? 'i' : ''}`);
  } catch (e) {
    throw new Error(`JavaScript refuses the translation (${e instanceof Error ? e.message : String(e)})`);
  }
  return { regex, groups, pattern };
}
