// One LIKE for every layer above the engine: `column LIKE pattern` as SQL and its bound values,
// written another way with exactly LIKE's meaning when the pattern is longer than the engine
// takes (a Durable Object: 50 bytes; SQLite's default: 50000).
//
// The other ways, by the pattern's shape (after runs of `%` are folded into one):
// - anchored at the start, the end or both (`ab_c%`, `%ab_c`, `ab_c`): the pattern cut into
//   pieces that each fit, each piece LIKE'd against the substr() of the text at its place, plus
//   the text's length(). LIKE itself still does `_` and case folding, so the meaning is its own;
//   substr() and length() count characters as `_` does.
// - `%text%` with no `_` in the text: instr(lower(column), lower(text)) > 0. SQLite's LIKE folds
//   the case of ASCII letters only, and so does its built-in lower() (sqlite.org/lang_corefunc
//   "lower(X)"; only the ICU extension changes both), so the two agree on every text.
// A NULL column gives NULL as LIKE does. Any other shape past the limit is refused, named.
import { InvalidArgumentError } from '../errors.js';

/** An SQL condition and the values its `?` take, in order. */
export interface SqlTerm {
  readonly sql: string;
  readonly params: (string | number)[];
}

export interface LikeOptions {
  /** The escape character (LIKE's ESCAPE clause); none when left out. */
  readonly escape?: string | undefined;
  /** The longest pattern the engine takes, in UTF-8 bytes (DriverCapabilities.maxLikePatternBytes). */
  readonly maxBytes: number;
  /** What the pattern filters, for the error (e.g. `books.name like`). */
  readonly name: string;
}

const utf8 = new TextEncoder();

/** The pattern's length as SQLite measures it against SQLITE_LIMIT_LIKE_PATTERN_LENGTH (bytes of UTF-8). */
export const likePatternBytes = (pattern: string): number => utf8.encode(pattern).length;

/** A pattern character: a literal (`text`, as written in the pattern with its escape), `_` or `%`. */
type Token = { readonly kind: 'char'; readonly text: string; readonly char: string } | { readonly kind: '_' } | { readonly kind: '%' };

/** The tokens of a pattern, runs of `%` folded; undefined when it ends in a lone escape (LIKE then matches nothing). */
function tokenize(pattern: string, escapeChar: string | undefined): Token[] | undefined {
  const out: Token[] = [];
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === escapeChar) {
      const next = chars[++i];
      if (next === undefined) return undefined;
      out.push({ kind: 'char', text: c + next, char: next });
    } else if (c === '%') {
      if (out.at(-1)?.kind !== '%') out.push({ kind: '%' });
    } else if (c === '_') out.push({ kind: '_' });
    else out.push({ kind: 'char', text: c, char: c });
  }
  return out;
}

const escapeClause = (escapeChar: string | undefined): string => (escapeChar === undefined ? '' : ` ESCAPE '${escapeChar.replace(/'/g, "''")}'`);

/**
 * `column LIKE pattern` (with `escape` as its ESCAPE character) as an SQL condition the engine
 * runs whatever the pattern's length. `column` is SQL as written (quoted where it needs to be).
 * Throws InvalidArgumentError for a pattern past the limit whose shape has no other form.
 */
export function likeTerm(column: string, pattern: string, options: LikeOptions): SqlTerm {
  // UTF-8 takes at most 3 bytes a UTF-16 unit: only a pattern that long is measured.
  const bytes = pattern.length * 3 > options.maxBytes ? likePatternBytes(pattern) : 0;
  if (bytes <= options.maxBytes) return { sql: `${column} LIKE ?${escapeClause(options.escape)}`, params: [pattern] };
  const term = rewrite(column, pattern, options);
  if (term) return term;
  throw new InvalidArgumentError(
    options.name,
    `a pattern of ${bytes} bytes, longer than the engine takes (${options.maxBytes}), and not of a shape written another way (text%, %text, %text% without _, or text with _ but no %)`,
  );
}

function rewrite(column: string, pattern: string, options: LikeOptions): SqlTerm | undefined {
  const tokens = tokenize(pattern, options.escape);
  if (!tokens) return undefined;
  let lead = tokens[0]?.kind === '%';
  const trail = tokens.length > (lead ? 1 : 0) && tokens.at(-1)!.kind === '%';
  const body = tokens.slice(lead ? 1 : 0, trail ? -1 : undefined);
  if (body.some((t) => t.kind === '%')) return undefined;
  const literal = body.every((t) => t.kind === 'char');
  if (lead && trail && body.length > 0 && literal) {
    return { sql: `instr(lower(${column}), lower(?)) > 0`, params: [body.map((t) => (t as { char: string }).char).join('')] };
  }
  // `%…%` whose middle has no literal (only `_`) is the same as `…%`; with both, no other form.
  if (lead && trail) {
    if (body.some((t) => t.kind === 'char')) return undefined;
    lead = false;
  }
  return anchored(column, body, lead, trail, options);
}

/** The body matched at the start (or, with `fromEnd`, at the end), in pieces that each fit; `open`: more may follow. */
function anchored(column: string, body: Token[], fromEnd: boolean, open: boolean, options: LikeOptions): SqlTerm | undefined {
  const n = body.length;
  const terms = [`length(${column}) ${open || fromEnd ? '>=' : '='} ?`];
  const params: (string | number)[] = [n];
  const esc = escapeClause(options.escape);
  let start = 0;
  while (start < n) {
    let piece = '';
    let bytes = 0;
    let end = start;
    for (; end < n; end++) {
      const t = body[end]!;
      const text = t.kind === 'char' ? t.text : '_';
      const b = likePatternBytes(text);
      if (bytes + b > options.maxBytes) break;
      piece += text;
      bytes += b;
    }
    if (end === start) return undefined; // one character longer than the limit
    terms.push(`substr(${column}, ?, ?) LIKE ?${esc}`);
    params.push(fromEnd ? start - n : start + 1, end - start, piece);
    start = end;
  }
  return { sql: `(${terms.join(' AND ')})`, params };
}
