// The app's default rule language (AnalyzeByJSoup): steps cut at `@`, each `class.x`, `tag.a`,
// `id.x`, `text.foo`, `children` or a CSS selector, with positions (`.N`, `!N:M`, `[0, 2:-1]`,
// `[!…]`), the last step of a string rule an extractor (`text`, `textNodes`, `ownText`, `html`,
// `all` or an attribute); `@CSS:` rules are one selector and an extractor. Rules are compiled
// once per string and kept.
import type { Element, ParentNode } from 'domhandler';
import { childElements, collect, data, type ElementTest, javaTrim, ownText, text, textNodes } from './dom.js';
import { cssSelector } from './css.js';
import { outerHtml } from './html-out.js';
import { combine, splitRule, trimAt } from './split.js';
import { RuleError } from './errors.js';

type Range = readonly [start: number | null, end: number | null, step: number];

/** One step: what it selects and which of those it keeps. */
interface Single {
  readonly select: (el: ParentNode) => Element[];
  /** '.' keep the positions, '!' drop them, ' ' keep all. */
  readonly split: '.' | '!' | ' ';
  readonly positions: readonly number[];
  readonly ranges: readonly (number | Range)[] | null;
}

type Positions = { before: string; split: '.' | '!' | ' '; positions: number[]; ranges: (number | Range)[] | null };

const NONE = (before: string): Positions => ({ before, split: ' ', positions: [], ranges: null });
/** `.N`, `!N`, `.N:M:…` at the end of a step (blanks allowed around the numbers). */
const DOT_FORM = /([.!])\s*(-?\s*\d+(?:\s*:\s*-?\s*\d+)*)\s*$/;
/** `[…]` at the end of a step, `!` first to exclude; no bracket inside. */
const BRACKET_FORM = /\[\s*(!?)([^[\]]*)\]$/;
/** One item of a bracket list: `N`, or `start:end` / `start:end:step`, each part optional but one. */
const ITEM = /^(-?\d+)?(?::(-?\d+)?(?::(-?\d+)?)?)?$/;

const num = (t: string | undefined): number | null => (t === undefined || t === '' ? null : Number(t));

/**
 * The positions written at the end of a step: the old form (`.0`, `!1`, `.1:3`: a list of
 * positions, not a range) or the bracket form (`[0, 2:-1:3, -1]`, `[!0]`: indices and ranges with
 * a step). A bracket that is no position list (`[href]`) leaves the whole step a selector.
 */
function parsePositions(rule: string): Positions {
  const step = javaTrim(rule);
  if (step.endsWith(']')) {
    const m = BRACKET_FORM.exec(step);
    if (!m) return NONE(step);
    const ranges: (number | Range)[] = [];
    for (const raw of m[2]!.split(',')) {
      const item = ITEM.exec(raw.replace(/\s+/g, ''));
      if (!item || item[0] === '') return NONE(step);
      if (!item[0].includes(':')) ranges.push(Number(item[1]));
      else ranges.push([num(item[1]), num(item[2]), num(item[3]) ?? 1]);
    }
    return { before: step.slice(0, m.index), split: m[1] === '!' ? '!' : '.', positions: [], ranges };
  }
  const m = DOT_FORM.exec(step);
  if (!m) return NONE(step);
  const positions = m[2]!.split(':').map((t) => Number(t.replace(/\s+/g, '')));
  return { before: step.slice(0, m.index), split: m[1] as '.' | '!', positions, ranges: null };
}

function selector(before: string): (el: ParentNode) => Element[] {
  if (before === '') return childElements;
  const dot = before.indexOf('.');
  const head = dot < 0 ? before : before.slice(0, dot);
  if (head === 'children') return childElements;
  if (head === 'class' || head === 'tag' || head === 'id' || head === 'text') {
    if (dot < 0) throw new RuleError(before, `${head} needs a name: ${head}.name`);
    const next = before.indexOf('.', dot + 1);
    const arg = before.slice(dot + 1, next < 0 ? undefined : next);
    if (head !== 'text') {
      const t: ElementTest = { by: head, name: head === 'class' ? arg.toLowerCase() : head === 'tag' ? arg.trim().toLowerCase() : arg };
      return (el) => collect(el, t);
    }
    const want = arg.replace(/[ \t\n\f\r\u00a0]+/g, ' ').toLowerCase();
    const t: ElementTest = { by: 'test', test: (e) => ownText(e).toLowerCase().includes(want) };
    return (el) => collect(el, t);
  }
  return cssSelector(before);
}

function compileSingle(rule: string): Single {
  const p = parsePositions(rule);
  return { select: selector(p.before), split: p.split, positions: p.positions, ranges: p.ranges };
}

/** The indices a step keeps or drops, in order and without repeats (ElementsSingle). */
function indexSet(s: Single, len: number): Set<number> {
  const set = new Set<number>();
  const one = (i: number): void => {
    if (i >= 0 && i < len) set.add(i);
    else if (i < 0 && len >= -i) set.add(i + len);
  };
  if (!s.ranges) {
    for (const i of s.positions) one(i);
    return set;
  }
  for (const r of s.ranges) {
    if (typeof r === 'number') {
      one(r);
      continue;
    }
    let start = r[0] ?? 0;
    if (start < 0) start += len;
    let end = r[1] ?? len - 1;
    if (end < 0) end += len;
    if ((start < 0 && end < 0) || (start >= len && end >= len)) continue;
    start = Math.min(Math.max(start, 0), len - 1);
    end = Math.min(Math.max(end, 0), len - 1);
    if (start === end || r[2] >= len) {
      set.add(start);
      continue;
    }
    const step = r[2] > 0 ? r[2] : -r[2] < len ? r[2] + len : 1;
    if (end > start) for (let i = start; i <= end; i += step) set.add(i);
    else for (let i = start; i >= end; i -= step) set.add(i);
  }
  return set;
}

function runSingle(s: Single, el: ParentNode): Element[] {
  const all = s.select(el);
  if (s.split === ' ' || all.length === 0) return all;
  const set = indexSet(s, all.length);
  if (s.split === '.') return [...set].map((i) => all[i]!);
  return all.filter((_, i) => !set.has(i));
}

/** A step run on each element, the results in order; one element's taken as it is (every step gives a new array). */
function stepAll(current: readonly ParentNode[], step: (el: ParentNode) => Element[]): Element[] {
  if (current.length === 1) return step(current[0]!);
  const next: Element[] = [];
  for (const e of current) for (const x of step(e)) next.push(x);
  return next;
}

/** A rule for elements (getElements): parts cut at &&, ||, %%, each a CSS selector or a chain of steps. */
interface ElementsRule {
  readonly type: string;
  readonly parts: readonly ((el: ParentNode) => Element[])[];
}

/** A rule for strings (getStringList): each part a chain of steps and an extractor. */
interface StringsRule {
  readonly empty: boolean;
  readonly type: string;
  readonly parts: readonly { readonly steps: readonly ((el: ParentNode) => Element[])[]; readonly last: string }[];
}

const isCss = (rule: string): boolean => rule.length >= 5 && rule.slice(0, 5).toLowerCase() === '@css:';

const elementsCache = new Map<string, ElementsRule>();
const stringsCache = new Map<string, StringsRule>();

// `make` takes the key, so a lookup that finds the rule allocates no closure.
function remember<T>(cache: Map<string, T>, key: string, make: (key: string) => T): T {
  let v = cache.get(key);
  if (v === undefined) {
    v = make(key);
    if (cache.size > 4096) cache.clear();
    cache.set(key, v);
  }
  return v;
}

const compileElements = (rule: string): ElementsRule => remember(elementsCache, rule, makeElements);

function makeElements(rule: string): ElementsRule {
  const css = isCss(rule);
  const body = css ? javaTrim(rule.slice(5)) : rule;
  const split = splitRule(body, ['&&', '||', '%%']);
  const parts = split.parts.map((part): ((el: ParentNode) => Element[]) => {
    if (css) return cssSelector(part);
    const steps = splitRule(trimAt(part), ['@']).parts;
    if (steps.length === 1) {
      const single = compileSingle(part);
      return (el) => runSingle(single, el);
    }
    const chain = steps.map((s) => compileElements(s));
    return (el) => {
      let current: ParentNode[] = [el];
      for (const step of chain) current = stepAll(current, (e) => elementsOf(step, e));
      return current as Element[];
    };
  });
  return { type: split.type, parts };
}

function elementsOf(rule: ElementsRule, el: ParentNode): Element[] {
  const results: Element[][] = [];
  for (const part of rule.parts) {
    const found = part(el);
    results.push(found);
    if (found.length > 0 && rule.type === '||') break;
  }
  return combine(rule.type, results);
}

/** The elements a default-syntax rule selects under `el` (AnalyzeByJSoup.getElements). */
export function jsoupElements(el: ParentNode, rule: string): Element[] {
  if (rule === '') return [];
  return elementsOf(compileElements(rule), el);
}

const compileStrings = (rule: string): StringsRule => remember(stringsCache, rule, makeStrings);

function makeStrings(rule: string): StringsRule {
  const css = isCss(rule);
  const body = css ? javaTrim(rule.slice(5)) : rule;
  if (body === '') return { empty: true, type: '', parts: [] };
  const split = splitRule(body, ['&&', '||', '%%']);
  const parts = split.parts.map((part) => {
    if (css) {
      const at = part.lastIndexOf('@');
      if (at < 0) throw new RuleError(rule, '@CSS: needs @ and what to take (@text, @href...)');
      return { steps: [cssSelector(part.slice(0, at))], last: part.slice(at + 1) };
    }
    const steps = splitRule(trimAt(part), ['@']).parts;
    const singles = steps.slice(0, -1).map((s) => {
      const single = compileSingle(s);
      return (el: ParentNode) => runSingle(single, el);
    });
    return { steps: singles, last: steps[steps.length - 1]! };
  });
  return { empty: false, type: split.type, parts };
}

function attr(el: Element, name: string): string {
  const v = el.attribs[name] ?? el.attribs[name.toLowerCase()];
  if (v !== undefined) return v;
  // abs:href with no base URI (the app parses without one): absolute values only.
  if (name.startsWith('abs:')) {
    const raw = el.attribs[name.slice(4).toLowerCase()] ?? '';
    return /^[a-z][a-z0-9+.-]*:/i.test(raw) ? raw : '';
  }
  return '';
}

/** What the last step takes from the elements (getResultLast). */
function extract(elements: readonly ParentNode[], last: string): string[] {
  const out: string[] = [];
  switch (last) {
    case 'text':
      for (const e of elements) {
        const t = text(e);
        if (t) out.push(t);
      }
      return out;
    case 'textNodes':
      for (const e of elements) {
        const t = textNodes(e).join('\n');
        if (t) out.push(t);
      }
      return out;
    case 'ownText':
      for (const e of elements) {
        const t = ownText(e);
        if (t) out.push(t);
      }
      return out;
    case 'html': {
      const h = elements.map((e) => outerHtml(e, { skipScripts: true })).join('\n');
      if (h) out.push(h);
      return out;
    }
    case 'all':
      out.push(elements.map((e) => outerHtml(e)).join('\n'));
      return out;
    default:
      for (const e of elements) {
        if (!('attribs' in e)) continue; // the document itself has no attributes
        const v = attr(e, last);
        if (v.trim() !== '' && !out.includes(v)) out.push(v);
      }
      return out;
  }
}

/** The strings a default-syntax rule gives on `el` (AnalyzeByJSoup.getStringList). */
export function jsoupStrings(el: ParentNode, rule: string): string[] {
  if (rule === '') return [];
  const compiled = compileStrings(rule);
  if (compiled.empty) return [data(el)];
  const { parts, type } = compiled;
  if (parts.length === 1) return partStrings(el, parts[0]!); // most rules: no list of results
  const results: string[][] = [];
  for (const part of parts) {
    const found = partStrings(el, part);
    if (found.length > 0) {
      results.push(found);
      if (type === '||') break;
    }
  }
  return combine(type, results);
}

function partStrings(el: ParentNode, part: StringsRule['parts'][number]): string[] {
  if (part.steps.length === 0) return extract([el], part.last);
  let current: readonly ParentNode[] = part.steps[0]!(el);
  for (let i = 1; i < part.steps.length; i++) current = stepAll(current, part.steps[i]!);
  return current.length === 0 ? [] : extract(current, part.last);
}

/** Compiles a default-syntax rule without running it (throws RuleError), for checking sources. */
export function checkJsoupRule(rule: string, list: boolean): void {
  if (list) compileElements(rule);
  else compileStrings(rule);
}
