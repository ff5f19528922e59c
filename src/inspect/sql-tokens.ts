// SQL text split into tokens by SQLite's own rules (tokenize.c): whitespace is the ASCII space
// and \t \n \v \f \r, comments (`-- …` to the end of the line, `/* … */` or to the end) separate
// tokens anywhere, identifiers may be quoted four ways. `query` reads a statement's shape from
// these tokens, so a comment in the middle (`PRAGMA/**/x=1`) cannot hide a keyword or an `=`.

export type SqlTokenKind = 'word' | 'quoted' | 'string' | 'number' | 'blob' | 'variable' | 'punct';

export interface SqlToken {
  readonly kind: SqlTokenKind;
  /** The token's text; for a word or quoted identifier, the identifier itself (quotes removed, doubled quotes made single). */
  readonly text: string;
}

const SPACE = /[\t\n\v\f\r ]/;
const ID_START = /[A-Za-z_\u0080-\uffff]/;
const ID_PART = /[A-Za-z0-9_$\u0080-\uffff]/;
const CLOSE: Readonly<Record<string, string>> = { '"': '"', '`': '`', '[': ']' };

/** The tokens of `sql`, comments and whitespace left out. An unterminated string or identifier runs to the end, as SQLite would refuse it anyway. */
export function sqlTokens(sql: string): SqlToken[] {
  const out: SqlToken[] = [];
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i]!;
    if (SPACE.test(c)) {
      i++;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === "'" || ((c === 'x' || c === 'X') && sql[i + 1] === "'")) {
      const start = c === "'" ? i : i + 1;
      const [text, next] = quoted(sql, start, "'");
      out.push({ kind: c === "'" ? 'string' : 'blob', text });
      i = next;
    } else if (c in CLOSE) {
      const [text, next] = quoted(sql, i, CLOSE[c]!);
      out.push({ kind: 'quoted', text });
      i = next;
    } else if (ID_START.test(c)) {
      let j = i + 1;
      while (j < n && ID_PART.test(sql[j]!)) j++;
      out.push({ kind: 'word', text: sql.slice(i, j) });
      i = j;
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(sql[i + 1] ?? ''))) {
      const m = /^(?:0[xX][0-9A-Fa-f_]+|(?:[0-9_]*\.?[0-9_]*)(?:[eE][+-]?[0-9_]+)?)[A-Za-z0-9_]*/.exec(sql.slice(i))!;
      out.push({ kind: 'number', text: m[0] });
      i += Math.max(1, m[0].length);
    } else if (c === '?' || c === ':' || c === '@' || c === '$' || c === '#') {
      let j = i + 1;
      while (j < n && ID_PART.test(sql[j]!)) j++;
      out.push({ kind: 'variable', text: sql.slice(i, j) });
      i = j;
    } else {
      const two = sql.slice(i, i + 2);
      const len = ['||', '<=', '>=', '==', '!=', '<>', '<<', '>>', '->'].includes(two) ? (two === '->' && sql[i + 2] === '>' ? 3 : 2) : 1;
      out.push({ kind: 'punct', text: sql.slice(i, i + len) });
      i += len;
    }
  }
  return out;
}

/** A quoted run starting at `start` (the opening quote), with the closing quote doubled inside; [text, index after it]. */
function quoted(sql: string, start: number, close: string): [string, number] {
  let text = '';
  let i = start + 1;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === close) {
      if (close !== ']' && sql[i + 1] === close) {
        text += close;
        i += 2;
        continue;
      }
      return [text, i + 1];
    }
    text += c;
    i++;
  }
  return [text, i];
}

/** True when the token is the keyword `word` (lower case; a quoted word is an identifier, never a keyword). */
export function isKeyword(t: SqlToken | undefined, word: string): boolean {
  return t !== undefined && t.kind === 'word' && t.text.toLowerCase() === word;
}

/** True when the token names `name` (lower case), bare or quoted, as SQLite compares names: without regard to case. */
export function isName(t: SqlToken | undefined, name: string): boolean {
  return t !== undefined && (t.kind === 'word' || t.kind === 'quoted') && t.text.toLowerCase() === name;
}
