// A rule string cut into the pieces AnalyzeRule runs one after the other: `<js>…</js>` and
// `@js:` pieces, and between them pieces whose mode comes from their prefix (`@CSS:`, `@@`,
// `@XPath:` or `/`, `@Json:`, `$.` or `$[`, JSON content) with their `@put:{}` maps and their
// template parts (`@get:{k}`, `{{…}}`, `$1`). Compiled once per string and kept; only the
// templates are filled in per call.

import { javaTrim } from './split.js';

export type Mode = 'default' | 'xpath' | 'json' | 'js' | 'regex';

/** One template part: literal text, a variable, a `{{…}}` (inner rule or JS), or an AllInOne group. */
export type Param =
  | { readonly kind: 'text'; readonly value: string }
  | { readonly kind: 'get'; readonly value: string }
  | { readonly kind: 'eval'; readonly value: string }
  | { readonly kind: 'group'; readonly value: string; readonly group: number };

export interface SourceRule {
  readonly mode: Mode;
  /** `@put:{…}`: variable name to the rule giving its value, in order. */
  readonly put: readonly (readonly [string, string])[];
  readonly params: readonly Param[];
  /** The piece as written, `@put` cut out: what list rules run (they fill in no template). */
  readonly raw: string;
  /** The rule when no part needs filling in: cut at `##` once here. */
  readonly fixed: Made | null;
}

/** A piece with its templates filled in and its `##` suffix cut off. */
export interface Made {
  readonly rule: string;
  readonly regex: string;
  readonly replacement: string;
  readonly first: boolean;
}

const JS_PIECE = /<js>([\w\W]*?)<\/js>|@js:([\w\W]*)/gi;
const PUT = /@put:(\{[^}]+?\})/gi;
const EVAL = /@get:\{[^}]+?\}|\{\{[\w\W]*?\}\}/gi;
const GROUP = /\$\d{1,2}/g;

/** `##` cut as the app cuts it (regex, replacement, and a third `##` for the first match only). */
export function cutReplace(text: string): Made {
  const s = text.split('##');
  return { rule: s[0]!.trim(), regex: s[1] ?? '', replacement: s[2] ?? '', first: s.length > 3 };
}

/** A JSON object written leniently (single quotes, unquoted keys) read as Gson's lenient mode would, or null. */
function lenientMap(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    // Gson's lenient reader: single-quoted strings and bare keys.
    const fixed = text
      .replace(/'((?:[^'\\]|\\.)*)'/g, (_, s: string) => JSON.stringify(s.replace(/\\'/g, "'")))
      .replace(/([{,]\s*)([A-Za-z_$][\w$]*)\s*:/g, '$1"$2":');
    try {
      const v: unknown = JSON.parse(fixed);
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }
}

function splitGroups(text: string, params: Param[], state: { mode: Mode }): void {
  const head = text.split('##')[0]!;
  let start = 0;
  GROUP.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = GROUP.exec(head))) {
    if (state.mode !== 'js' && state.mode !== 'regex') state.mode = 'regex';
    if (m.index > start) params.push({ kind: 'text', value: text.slice(start, m.index) });
    params.push({ kind: 'group', value: m[0], group: Number(m[0].slice(1)) });
    start = m.index + m[0].length;
  }
  if (text.length > start) params.push({ kind: 'text', value: text.slice(start) });
}

function sourceRule(text: string, mode0: Mode, isJson: boolean): SourceRule {
  const state = { mode: mode0 };
  let rule = text;
  if (mode0 !== 'js' && mode0 !== 'regex') {
    const lower = text.slice(0, 7).toLowerCase();
    if (lower.startsWith('@css:')) state.mode = 'default';
    else if (text.startsWith('@@')) rule = text.slice(2);
    else if (lower.startsWith('@xpath:')) (state.mode = 'xpath'), (rule = text.slice(7));
    else if (lower.startsWith('@json:')) (state.mode = 'json'), (rule = text.slice(6));
    else if (isJson || text.startsWith('$.') || text.startsWith('$[')) state.mode = 'json';
    else if (text.startsWith('/')) state.mode = 'xpath';
  }
  const put: [string, string][] = [];
  for (const m of [...rule.matchAll(PUT)]) {
    rule = rule.replace(m[0], '');
    const map = lenientMap(m[1]!);
    if (map) for (const [k, v] of Object.entries(map)) put.push([k, String(v)]);
  }
  const params: Param[] = [];
  EVAL.lastIndex = 0;
  let start = 0;
  let first = true;
  let m: RegExpExecArray | null;
  while ((m = EVAL.exec(rule))) {
    if (first && state.mode !== 'js' && state.mode !== 'regex' && (m.index === 0 || !rule.slice(0, m.index).includes('##'))) state.mode = 'regex';
    first = false;
    if (m.index > start) splitGroups(rule.slice(start, m.index), params, state);
    const t = m[0];
    if (t.slice(0, 5).toLowerCase() === '@get:') params.push({ kind: 'get', value: t.slice(6, -1) });
    else params.push({ kind: 'eval', value: t.slice(2, -2) });
    start = m.index + t.length;
  }
  if (rule.length > start) splitGroups(rule.slice(start), params, state);
  const fixed = params.every((p) => p.kind === 'text') ? cutReplace(params.map((p) => p.value).join('')) : null;
  return { mode: state.mode, put, params, raw: rule, fixed };
}

export interface Compiled {
  readonly rules: readonly SourceRule[];
  /** The rule began with `:` (AllInOne): the analyser reads its items by regex from now on. */
  readonly allInOne: boolean;
}

// One map per flag combination, so a lookup builds no key.
const caches = Array.from({ length: 8 }, () => new Map<string, Compiled>());

/**
 * The pieces of a rule string (AnalyzeRule.splitSourceRule). `isJson`: the content is JSON;
 * `regex`: the analyser is in AllInOne mode; `allInOne`: a list rule, where a leading `:` starts it.
 */
export function compileRule(text: string, isJson: boolean, regex: boolean, allInOne: boolean): Compiled {
  const cache = caches[(isJson ? 4 : 0) + (regex ? 2 : 0) + (allInOne ? 1 : 0)]!;
  let c = cache.get(text);
  if (c) return c;
  let mode: Mode = 'default';
  let start = 0;
  let isAllInOne = false;
  if (allInOne && text.startsWith(':')) {
    mode = 'regex';
    isAllInOne = true;
    start = 1;
  } else if (regex) mode = 'regex';
  const rules: SourceRule[] = [];
  JS_PIECE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = JS_PIECE.exec(text))) {
    if (m.index > start) {
      const piece = javaTrim(text.slice(start, m.index));
      if (piece) rules.push(sourceRule(piece, mode, isJson));
    }
    rules.push(sourceRule(m[2] ?? m[1]!, 'js', isJson));
    start = m.index + m[0].length;
  }
  if (text.length > start) {
    const piece = javaTrim(text.slice(start));
    if (piece) rules.push(sourceRule(piece, mode, isJson));
  }
  c = { rules, allInOne: isAllInOne };
  if (cache.size > 4096) cache.clear();
  cache.set(text, c);
  return c;
}

/** A `{{…}}` holding an inner rule rather than JavaScript. */
export const isInnerRule = (s: string): boolean => s.startsWith('@') || s.startsWith('$.') || s.startsWith('$[') || s.startsWith('//');

/** A list rule's order mark (BookList, BookChapterList): a leading `-` reverses the list, a leading `+` is dropped. */
export function listRule(rule: string): { rule: string; reverse: boolean } {
  if (rule.startsWith('-')) return { rule: rule.slice(1), reverse: true };
  if (rule.startsWith('+')) return { rule: rule.slice(1), reverse: false };
  return { rule, reverse: false };
}
