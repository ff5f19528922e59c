// A book source from what holds one: a 3.x JSON entry (object or text) or the store's
// `book_sources` row, whose rule columns are JSON text and booleans may be 0/1. Rule columns are
// read as the app reads them: leniently, and as no rule when they cannot be read.
import { InvalidArgumentError } from '../../errors.js';
import type { BookSource } from './types.js';
import { parseJsonObject } from '../http/lenient-json.js';

const RULES = ['ruleSearch', 'ruleExplore', 'ruleBookInfo', 'ruleToc', 'ruleContent'] as const;
const BOOLS = ['enabled', 'enabledExplore', 'enabledCookieJar'] as const;
const NUMBERS = ['bookSourceType', 'customOrder', 'lastUpdateTime', 'respondTime', 'weight'] as const;

/**
 * A rule object, or its JSON text read as the app's Room converters read it (Gson, lenient:
 * unquoted keys and single quotes pass); what cannot be read as an object is no rule (null), as
 * the converters' getOrNull gives. Only string values are kept (numbers and booleans as text).
 */
function ruleObject(value: unknown): Record<string, string | null> | null {
  let v = value;
  if (typeof v === 'string') v = v.trim() === '' ? null : (parseJsonObject(v)?.value ?? null);
  if (v === null || v === undefined || typeof v !== 'object' || Array.isArray(v)) return null;
  const out: Record<string, string | null> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (typeof x === 'string' || x === null) out[k] = x;
    else if (typeof x === 'number' || typeof x === 'boolean') out[k] = String(x);
  }
  return out;
}

/**
 * The BookSource of a 3.x JSON entry, its JSON text, or a store row (rule columns as JSON text).
 * Throws InvalidArgumentError for what is not a book source (not an object, no bookSourceUrl).
 */
export function parseBookSource(input: unknown): BookSource {
  let v = input;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch (e) {
      throw new InvalidArgumentError('parseBookSource', `not JSON (${e instanceof Error ? e.message : String(e)})`);
    }
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new InvalidArgumentError('parseBookSource', input, 'a book source object or its JSON text');
  const o = v as Record<string, unknown>;
  const url = o['bookSourceUrl'];
  if (typeof url !== 'string' || url === '') throw new InvalidArgumentError('parseBookSource: bookSourceUrl', url, 'a non-empty string');
  const name = typeof o['bookSourceName'] === 'string' ? o['bookSourceName'] : '';
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(o)) {
    if ((RULES as readonly string[]).includes(k)) out[k] = ruleObject(x);
    else if ((BOOLS as readonly string[]).includes(k)) out[k] = x === null || x === undefined ? x : x === true || x === 1 || x === '1' || x === 'true';
    else if ((NUMBERS as readonly string[]).includes(k)) out[k] = typeof x === 'number' ? x : typeof x === 'bigint' ? Number(x) : Number(x ?? 0) || 0;
    else if (typeof x === 'string' || x === null || x === undefined) out[k] = x;
    else if (typeof x === 'number' || typeof x === 'boolean') out[k] = String(x);
  }
  out['bookSourceUrl'] = url;
  out['bookSourceName'] = name;
  return out as unknown as BookSource;
}
