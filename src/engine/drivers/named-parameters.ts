// Named parameters (`@id`, `:id`, `$id`) as positional ones, for an engine that binds only by
// position (a Durable Object's sql.exec): each occurrence becomes `?` and its name is listed,
// so a name used twice is bound twice. Quotes and comments are skipped as SQLite reads them.

export interface Positional {
  readonly sql: string;
  /** The names in order of occurrence, without their prefix; undefined when there are none. */
  readonly names: readonly string[] | undefined;
}

const NAME = /[A-Za-z0-9_]/;

export function namedToPositional(sql: string): Positional {
  const names: string[] = [];
  let out = '';
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i]!;
    let end = i + 1;
    if (c === '-' && sql[i + 1] === '-') {
      const nl = sql.indexOf('\n', i);
      end = nl < 0 ? n : nl + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      const close = sql.indexOf('*/', i + 2);
      end = close < 0 ? n : close + 2;
    } else if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      let j = i + 1;
      for (;;) {
        const k = sql.indexOf(close, j);
        if (k < 0) {
          end = n;
          break;
        }
        if (close !== ']' && sql[k + 1] === close) j = k + 2;
        else {
          end = k + 1;
          break;
        }
      }
    } else if ((c === '@' || c === ':' || c === '$') && NAME.test(sql[i + 1] ?? '')) {
      while (end < n && NAME.test(sql[end]!)) end++;
      names.push(sql.slice(i + 1, end));
      out += '?';
      i = end;
      continue;
    }
    out += sql.slice(i, end);
    i = end;
  }
  return names.length === 0 ? { sql, names: undefined } : { sql: out, names };
}
