// JSoup's CSS on css-select. JSoup differs from CSS where real sources lean on it: classes match
// ignoring case, `[attr=v]`, `^=`, `$=`, `*=` ignore case, `[attr~=re]` is a regex (a word match
// in CSS), and it has pseudo-classes css-select lacks or reads otherwise (`:matches(re)` is
// `:is()` there, `:contains` is case-sensitive). So attribute selectors and those pseudo-classes
// are cut out before css-select sees the selector, each replaced by a `:jsoup(N)` test.
import { compile, selectAll } from 'css-select';
import type { Element, ParentNode } from 'domhandler';
import { JavaRegexError, translateJavaRegex } from '../text/java-regex.js';
import { data, ownText, siblingIndex, text } from './dom.js';
import { balancedEnd } from './split.js';
import { RuleError } from './errors.js';

type Test = (el: Element) => boolean;
export type Selector = (root: ParentNode) => Element[];

const lower = (s: string): string => s.toLowerCase();
const normaliseWs = (s: string): string => s.replace(/[ \t\n\f\r\u00a0]+/g, ' ');

function javaPattern(selector: string, re: string): RegExp {
  try {
    const rx = translateJavaRegex(re).regex;
    return new RegExp(rx.source, rx.flags.replace('g', ''));
  } catch (e) {
    throw new RuleError(selector, e instanceof JavaRegexError ? e.message : String(e));
  }
}

/** Quotes around a whole value dropped, as JSoup's AttributeKeyPair does. */
function unquote(v: string): string {
  const t = v.trim();
  if (t.length >= 2 && (t[0] === '"' || t[0] === "'") && t[t.length - 1] === t[0]) return t.slice(1, -1);
  return t;
}

function attrValue(el: Element, key: string): string | undefined {
  return el.attribs[key] ?? el.attribs[lower(key)];
}

/** `[...]` as JSoup reads it: key, then one of = != ^= $= *= ~=, then the raw value. */
function attributeTest(selector: string, body: string): Test {
  const m = /^([^=!^$*~]*)(=|!=|\^=|\$=|\*=|~=)?([\s\S]*)$/.exec(body)!;
  const key = m[1]!.trim();
  if (!key) throw new RuleError(selector, `empty attribute name in [${body}]`);
  const op = m[2];
  if (!op) {
    if (key.startsWith('^')) {
      const prefix = lower(key.slice(1));
      return (el) => Object.keys(el.attribs).some((k) => lower(k).startsWith(prefix));
    }
    return (el) => attrValue(el, key) !== undefined;
  }
  const raw = unquote(m[3]!);
  const value = lower(raw);
  const when =
    (pred: (v: string) => boolean): Test =>
    (el) => {
      const v = attrValue(el, key);
      return v !== undefined && pred(v);
    };
  switch (op) {
    case '=':
      return when((v) => lower(v.trim()) === value);
    case '!=':
      return (el) => lower(attrValue(el, key) ?? '') !== value;
    case '^=':
      return when((v) => lower(v).startsWith(value));
    case '$=':
      return when((v) => lower(v).endsWith(value));
    case '*=':
      return when((v) => lower(v).includes(value));
    default: {
      const rx = javaPattern(selector, raw);
      return when((v) => rx.test(v));
    }
  }
}

function wholeText(el: ParentNode): string {
  let out = '';
  for (const c of el.children) {
    if (c.type === 'text') out += c.data;
    else if ('children' in c) out += wholeText(c);
  }
  return out;
}

function ownWholeText(el: ParentNode): string {
  let out = '';
  for (const c of el.children) if (c.type === 'text') out += c.data;
  return out;
}

/** JSoup's pseudo-classes css-select lacks or reads otherwise, by name. */
const PSEUDOS: Record<string, (selector: string, arg: string) => Test> = {
  contains: (_, a) => {
    const s = lower(normaliseWs(a.replace(/\\(.)/g, '$1')));
    return (el) => lower(text(el)).includes(s);
  },
  containsOwn: (_, a) => {
    const s = lower(normaliseWs(a.replace(/\\(.)/g, '$1')));
    return (el) => lower(ownText(el)).includes(s);
  },
  containsData: (_, a) => {
    const s = lower(a.replace(/\\(.)/g, '$1'));
    return (el) => lower(data(el)).includes(s);
  },
  containsWholeText: (_, a) => (el) => wholeText(el).includes(a),
  containsWholeOwnText: (_, a) => (el) => ownWholeText(el).includes(a),
  matches: (sel, a) => {
    const rx = javaPattern(sel, a);
    return (el) => rx.test(text(el));
  },
  matchesOwn: (sel, a) => {
    const rx = javaPattern(sel, a);
    return (el) => rx.test(ownText(el));
  },
  matchesWholeText: (sel, a) => {
    const rx = javaPattern(sel, a);
    return (el) => rx.test(wholeText(el));
  },
  matchesWholeOwnText: (sel, a) => {
    const rx = javaPattern(sel, a);
    return (el) => rx.test(ownWholeText(el));
  },
  eq: (sel, a) => {
    const n = index(sel, a);
    return (el) => siblingIndex(el) === n;
  },
  lt: (sel, a) => {
    const n = index(sel, a);
    return (el) => siblingIndex(el) < n;
  },
  gt: (sel, a) => {
    const n = index(sel, a);
    return (el) => siblingIndex(el) > n;
  },
};

function index(selector: string, arg: string): number {
  const t = arg.trim();
  if (!/^-?\d+$/.test(t)) throw new RuleError(selector, `index must be a number: ${arg}`);
  return Number(t);
}

/** The selector with JSoup's attribute selectors and pseudo-classes replaced by `:jsoup(N)`, and the tests. */
export function rewrite(selector: string): { css: string; tests: Test[] } {
  const tests: Test[] = [];
  let css = '';
  let i = 0;
  while (i < selector.length) {
    const c = selector[i]!;
    if (c === '"' || c === "'") {
      const end = selector.indexOf(c, i + 1);
      const stop = end < 0 ? selector.length : end + 1;
      css += selector.slice(i, stop);
      i = stop;
      continue;
    }
    if (c === '\\') {
      css += selector.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (c === '[') {
      const end = balancedEnd(selector, i, '[', ']', false);
      if (end < 0) throw new RuleError(selector, `unbalanced [ at ${i}`);
      tests.push(attributeTest(selector, selector.slice(i + 1, end - 1)));
      css += `:jsoup(${tests.length - 1})`;
      i = end;
      continue;
    }
    if (c === ':') {
      const name = /^[A-Za-z-]+/.exec(selector.slice(i + 1))?.[0] ?? '';
      const make = PSEUDOS[name];
      if (make && selector[i + 1 + name.length] === '(') {
        const open = i + 1 + name.length;
        const end = balancedEnd(selector, open, '(', ')', false);
        if (end < 0) throw new RuleError(selector, `unbalanced ( at ${open}`);
        tests.push(make(selector, selector.slice(open + 1, end - 1)));
        css += `:jsoup(${tests.length - 1})`;
        i = end;
        continue;
      }
    }
    // JSoup reads `ns|tag` as the tag `ns:tag`; css-select has no namespaces.
    css += c === '|' ? '\\:' : c;
    i++;
  }
  return { css, tests };
}

const cache = new Map<string, Selector>();

/** A JSoup CSS selector compiled once; selecting includes the root, as JSoup's select() does. */
export function cssSelector(selector: string): Selector {
  let fn = cache.get(selector);
  if (fn) return fn;
  const { css, tests } = rewrite(selector.trim());
  let query: ReturnType<typeof compile>;
  try {
    query = compile(css, { quirksMode: true, pseudos: { jsoup: (el: Element, arg?: string | null) => tests[Number(arg)]!(el) } });
  } catch (e) {
    throw new RuleError(selector, e instanceof Error ? e.message : String(e));
  }
  fn = (root) => selectAll(query, root.type === 'root' ? (root as unknown as Element) : [root as Element]) as Element[];
  if (cache.size > 4096) cache.clear();
  cache.set(selector, fn);
  return fn;
}
