// The backup files as the raw and ORM contenders write and read them by hand: the app's
// layout (one JSON array per table, 2-space pretty print, null fields left out, booleans as
// true/false, rule columns as nested objects, replace_rules.sortOrder as `order`, 64-bit
// group masks exact).
import { readFileSync, writeFileSync } from 'node:fs';

type Obj = Record<string, unknown>;

/** How a table's rows look in a backup file: which fields are booleans, nested objects, renamed. */
export interface JsonShape {
  readonly booleans: readonly string[];
  readonly objects: readonly string[];
  /** Column name to backup field name. */
  readonly renamed?: Readonly<Record<string, string>>;
}

export const BOOK_JSON: JsonShape = { booleans: ['canUpdate'], objects: ['readConfig'] };
export const SOURCE_JSON: JsonShape = {
  booleans: ['enabled', 'enabledExplore', 'enabledReview', 'enabledCookieJar'],
  objects: ['ruleExplore', 'ruleSearch', 'ruleBookInfo', 'ruleToc', 'ruleContent', 'ruleReview'],
};
export const RULE_JSON: JsonShape = {
  booleans: ['scopeTitle', 'scopeContent', 'isEnabled', 'isRegex'],
  objects: [],
  renamed: { sortOrder: 'order' },
};

/** The file of each table a benchmark backup holds, and how its rows look there. */
export const BACKUP_FILES = {
  books: { file: 'bookshelf.json', shape: BOOK_JSON },
  book_sources: { file: 'bookSource.json', shape: SOURCE_JSON },
  replace_rules: { file: 'replaceRule.json', shape: RULE_JSON },
} as const;

/** A row (booleans as 0/1 or as booleans) as the app's backup writes it. */
export function toJson(row: Obj, shape: JsonShape): Obj {
  const out: Obj = {};
  for (const k in row) {
    const v = row[k];
    if (v === null || v === undefined) continue;
    const name = shape.renamed?.[k] ?? k;
    if (shape.booleans.includes(k)) out[name] = v === true || (v !== false && v !== 0 && v !== 0n);
    else if (shape.objects.includes(k)) {
      const parsed: unknown = JSON.parse(v as string);
      if (parsed !== null) out[name] = parsed;
    } else out[name] = typeof v === 'bigint' && k !== 'group' ? Number(v) : v;
  }
  return out;
}

/**
 * A backup record as a row: nested objects back to their JSON text, pretty-printed, and a
 * missing one as the text `null`, which is what the app's Gson type converters store.
 */
export function fromJson(o: Obj, shape: JsonShape): Obj {
  const row: Obj = { ...o };
  for (const k of shape.objects) row[k] = row[k] !== undefined && row[k] !== null ? JSON.stringify(row[k], null, 2) : 'null';
  return row;
}

// JSON.stringify cannot write a bigint: it is written as a marked string, then unquoted.
const BIG = '~bigint~';
const BIG_RE = /"~bigint~(-?\d+)"/g;

export function writeJson(file: string, rows: readonly Obj[], shape: JsonShape): number {
  const text = JSON.stringify(
    rows.map((r) => toJson(r, shape)),
    (_k, v: unknown) => (typeof v === 'bigint' ? `${BIG}${v}` : v),
    2,
  );
  writeFileSync(file, text.replace(BIG_RE, '$1'));
  return rows.length;
}

/**
 * UTF-8 decoded at its fastest on every runtime: `readFileSync(file, 'utf8')` builds its string
 * through V8's own UTF-8 decoder, 2-7x slower on Chinese text than a TextDecoder (2 MB of book
 * sources: 11.9 ms against 5.2 on Node 20, 8.9 against 1.4 on Node 24, 1.6 against 1.3 on Bun).
 * One streaming call of no bytes moves Node 20's and 22's decoder to its faster (ICU) path for
 * good, as the store's reader does (src/backup/byte-source.ts). A leading U+FEFF is kept, as
 * `readFileSync(file, 'utf8')` keeps it.
 */
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });
UTF8.decode(new Uint8Array(0), { stream: true });

/** A file's text, read and decoded the fastest way hand-written code has (UTF8). */
export function readText(file: string): string {
  return UTF8.decode(readFileSync(file));
}

/** The records of a backup file; `exactGroups` for bookshelf.json, whose `group` masks are 64-bit. */
export function readJson(file: string, exactGroups = false): Obj[] {
  const text = readText(file);
  if (!exactGroups) return JSON.parse(text) as Obj[];
  // Integers too long for a double are read as text, then as bigints.
  const marked = text.replace(/("group":\s*)(-?\d{16,})/g, '$1"$2"');
  return JSON.parse(marked, (k, v: unknown) => (k === 'group' && typeof v === 'string' ? BigInt(v) : v)) as Obj[];
}
