// `{{…}}` in a URL rule is always JavaScript (AnalyzeUrl.replaceKeyPageJs). Most are `{{key}}`,
// `{{page}}` or page arithmetic (`{{(page-1)*20}}`), which this evaluates itself, so a source
// without real JS runs on a host without a sandbox; anything else goes to the script.

type Tok = { kind: 'num'; v: number } | { kind: 'name'; v: 'key' | 'page' } | { kind: 'op'; v: string };

function tokens(expr: string): Tok[] | undefined {
  const out: Tok[] = [];
  const re = /\s*(?:(\d+(?:\.\d+)?)|(key|page)\b|([-+*/%()]))/y;
  let at = 0;
  for (;;) {
    if (/^\s*$/.test(expr.slice(at))) return out;
    re.lastIndex = at;
    const m = re.exec(expr);
    if (!m) return undefined;
    at = re.lastIndex;
    if (m[1] !== undefined) out.push({ kind: 'num', v: Number(m[1]) });
    else if (m[2] !== undefined) out.push({ kind: 'name', v: m[2] as 'key' | 'page' });
    else out.push({ kind: 'op', v: m[3]! });
  }
}

type Val = string | number | null | undefined;

/**
 * The value of a simple expression over `key` and `page` with JS's rules (`+` joins strings), or
 * `undefined` when the expression is not one this reads (the caller runs it as JS).
 */
export function simpleTemplate(expr: string, key: Val, page: Val): { value: Val } | undefined {
  const t = tokens(expr);
  if (!t || t.length === 0) return undefined;
  let i = 0;
  const fail = Symbol('fail');
  const primary = (): Val => {
    const tok = t[i++];
    if (!tok) throw fail;
    if (tok.kind === 'num') return tok.v;
    if (tok.kind === 'name') return tok.v === 'key' ? key : page;
    if (tok.v === '(') {
      const v = sum();
      if (t[i++]?.v !== ')') throw fail;
      return v;
    }
    if (tok.v === '-' || tok.v === '+') {
      const v = Number(primary());
      return tok.v === '-' ? -v : v;
    }
    throw fail;
  };
  const product = (): Val => {
    let v = primary();
    while (t[i]?.kind === 'op' && '*/%'.includes(String(t[i]!.v))) {
      const op = t[i++]!.v;
      const r = Number(primary());
      const l = Number(v);
      v = op === '*' ? l * r : op === '/' ? l / r : l % r;
    }
    return v;
  };
  const sum = (): Val => {
    let v = product();
    while (t[i]?.kind === 'op' && (t[i]!.v === '+' || t[i]!.v === '-')) {
      const op = t[i++]!.v;
      const r = product();
      if (op === '+' && (typeof v === 'string' || typeof r === 'string')) v = String(v) + String(r);
      else v = op === '+' ? Number(v) + Number(r) : Number(v) - Number(r);
    }
    return v;
  };
  try {
    const value = sum();
    return i === t.length ? { value } : undefined;
  } catch (e) {
    if (e === fail) return undefined;
    throw e;
  }
}

/** A template's value as the URL gets it: a string as it is, nothing as '', a whole number without `.0`. */
export function templateText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return v.toFixed(0);
  return String(v);
}
