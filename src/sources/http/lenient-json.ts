// JSON as Gson's lenient reader takes it, for URL options and `header` written by hand:
// single-quoted strings, unquoted names and values, `=`/`=>` for `:`, `;` for `,`, comments
// (`//`, `#`, `/* */`). Strict JSON is tried first; the app then logs that the JSON is not
// standard, and so do we (the caller's log).

class Reader {
  i = 0;
  constructor(readonly s: string) {}

  fail(what: string): never {
    throw new SyntaxError(`${what} at ${this.i}`);
  }

  skip(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i]!;
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f') this.i++;
      else if (c === '#' || (c === '/' && s[this.i + 1] === '/')) {
        const nl = s.indexOf('\n', this.i);
        this.i = nl < 0 ? s.length : nl + 1;
      } else if (c === '/' && s[this.i + 1] === '*') {
        const end = s.indexOf('*/', this.i + 2);
        if (end < 0) this.fail('unterminated comment');
        this.i = end + 2;
      } else break;
    }
  }

  value(): unknown {
    this.skip();
    const c = this.s[this.i];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"' || c === "'") return this.quoted(c);
    const lit = this.literal();
    if (lit === 'null') return null;
    if (lit === 'true') return true;
    if (lit === 'false') return false;
    if (/^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(lit)) return Number(lit);
    return lit;
  }

  literal(): string {
    const start = this.i;
    while (this.i < this.s.length && !/[/\\;#={}[\]:,\s]/.test(this.s[this.i]!)) this.i++;
    if (this.i === start) this.fail('a value expected');
    return this.s.slice(start, this.i);
  }

  quoted(q: string): string {
    let out = '';
    this.i++;
    for (;;) {
      if (this.i >= this.s.length) this.fail('unterminated string');
      const c = this.s[this.i++]!;
      if (c === q) return out;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = this.s[this.i++];
      if (e === 'u') {
        const hex = this.s.slice(this.i, this.i + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('bad \\u escape');
        out += String.fromCharCode(Number.parseInt(hex, 16));
        this.i += 4;
      } else out += ({ b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' } as Record<string, string>)[e ?? ''] ?? e ?? '';
    }
  }

  /** `,` or `;` between members; true when one was there. */
  separator(): boolean {
    this.skip();
    const c = this.s[this.i];
    if (c === ',' || c === ';') {
      this.i++;
      return true;
    }
    return false;
  }

  object(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.i++;
    for (;;) {
      this.skip();
      if (this.s[this.i] === '}') return (this.i++, out);
      const c = this.s[this.i];
      const name = c === '"' || c === "'" ? this.quoted(c) : this.literal();
      this.skip();
      if (this.s[this.i] === ':') this.i++;
      else if (this.s[this.i] === '=') this.i += this.s[this.i + 1] === '>' ? 2 : 1;
      else this.fail("':' expected");
      out[name] = this.value();
      if (!this.separator()) {
        this.skip();
        if (this.s[this.i] !== '}') this.fail("'}' expected");
      }
    }
  }

  array(): unknown[] {
    const out: unknown[] = [];
    this.i++;
    for (;;) {
      this.skip();
      if (this.s[this.i] === ']') return (this.i++, out);
      out.push(this.value());
      if (!this.separator()) {
        this.skip();
        if (this.s[this.i] !== ']') this.fail("']' expected");
      }
    }
  }
}

/** A JSON value read leniently; throws SyntaxError when even that fails. */
export function parseLenient(text: string): unknown {
  const r = new Reader(text);
  const v = r.value();
  r.skip();
  if (r.i < text.length) r.fail('text after the value');
  return v;
}

/** A JSON object: strict first, then lenient (`lenient` says which read it); null when neither reads an object. */
export function parseJsonObject(text: string): { value: Record<string, unknown>; lenient: boolean } | null {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) ? { value: v, lenient: false } : null;
  } catch {
    try {
      const v = parseLenient(text);
      return isObject(v) ? { value: v, lenient: true } : null;
    } catch {
      return null;
    }
  }
}
