// JSONPath rules (AnalyzeByJSonPath, Jayway JsonPath in the app) on jsonpath-plus, whose filters
// run in its own interpreter (`eval: 'safe'`, never `eval` or `vm` code). Jayway's ways kept:
// a path without `$` starts at the root (`data.list`), a definite path gives its value and an
// indefinite one (`[*]`, `..`, filters, unions, slices) a list, lists read as lines, objects as
// JSON text, and `{$.x}` inside a rule is replaced by its value.
import { JSONPath } from 'jsonpath-plus';
import { combine, innerRule, splitRule } from './split.js';
import { RuleError } from './errors.js';

interface Compiled {
  readonly path: string;
  /** No wildcard, deep scan, filter, union or slice: one value, not a list. */
  readonly definite: boolean;
}

const cache = new Map<string, Compiled>();

function compile(rule: string): Compiled {
  let c = cache.get(rule);
  if (c) return c;
  const path = rule.startsWith('$') || rule.startsWith('@') ? rule : `$.${rule}`;
  let parts: string[];
  try {
    parts = JSONPath.toPathArray(path);
  } catch (e) {
    throw new RuleError(rule, e instanceof Error ? e.message : String(e));
  }
  const definite = !path.includes('..') && parts.every((p) => p !== '*' && !/^[?(]|[,:]/.test(p) && !p.startsWith('?('));
  c = { path, definite };
  if (cache.size > 4096) cache.clear();
  cache.set(rule, c);
  return c;
}

/**
 * What the path finds: the value (definite), a list (indefinite), or undefined when nothing is
 * there. A path that does not compile or fails finds nothing, as in the app, which catches
 * Jayway's errors in every read (checkJsonRule reports it).
 */
export function readPath(json: unknown, rule: string): unknown {
  if (json === undefined || json === null || typeof json !== 'object') return undefined;
  let found: unknown[];
  let definite: boolean;
  try {
    const c = compile(rule);
    definite = c.definite;
    found = JSONPath({ path: c.path, json: json as object, wrap: true, eval: 'safe' }) as unknown[];
  } catch {
    return undefined;
  }
  if (!definite) return found;
  return found.length === 0 ? undefined : found[0];
}

/** A JSON value as the app prints it: strings as they are, objects and arrays as JSON. */
export function jsonString(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** getString: lists joined with lines, `{$.x}` inner rules replaced. */
export function jsonString1(json: unknown, rule: string): string {
  if (rule === '') return '';
  const split = splitRule(rule, ['&&', '||'], true);
  if (split.parts.length === 1) {
    const inner = innerRule(rule, (r) => jsonString1(json, r));
    if (inner) return inner;
    const v = readPath(json, rule);
    return Array.isArray(v) ? v.map(jsonString).join('\n') : jsonString(v);
  }
  const out: string[] = [];
  for (const part of split.parts) {
    const s = jsonString1(json, part);
    if (s) {
      out.push(s);
      if (split.type === '||') break;
    }
  }
  return out.join('\n');
}

/** getStringList. */
export function jsonStrings(json: unknown, rule: string): string[] {
  if (rule === '') return [];
  const split = splitRule(rule, ['&&', '||', '%%'], true);
  if (split.parts.length === 1) {
    const inner = innerRule(rule, (r) => jsonString1(json, r));
    if (inner) return [inner];
    const v = readPath(json, rule);
    if (v === undefined) return [];
    return Array.isArray(v) ? v.map(jsonString) : [jsonString(v)];
  }
  const results: string[][] = [];
  for (const part of split.parts) {
    const found = jsonStrings(json, part);
    if (found.length > 0) {
      results.push(found);
      if (split.type === '||') break;
    }
  }
  return combine(split.type, results);
}

/** getList: the items of the list the rule finds (a single object is no list: nothing). */
export function jsonItems(json: unknown, rule: string): unknown[] {
  if (rule === '') return [];
  const split = splitRule(rule, ['&&', '||', '%%'], true);
  if (split.parts.length === 1) {
    const v = readPath(json, rule);
    return Array.isArray(v) ? v : [];
  }
  const results: unknown[][] = [];
  for (const part of split.parts) {
    const found = jsonItems(json, part);
    if (found.length > 0) {
      results.push(found);
      if (split.type === '||') break;
    }
  }
  return combine(split.type, results).filter((x) => x !== null && x !== undefined);
}

/** Compiles a JSONPath rule without running it (throws RuleError). */
export function checkJsonRule(rule: string): void {
  for (const part of splitRule(rule, ['&&', '||', '%%'], true).parts) if (!part.includes('{$.')) compile(part);
}
