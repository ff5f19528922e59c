// GBK bytes without iconv: an encoder made by inverting TextDecoder('gbk') over every two-byte
// code (rule-engine.md §7), and the percent forms a GBK site reads and writes.

let table: Map<string, number> | undefined;

/** Character → two-byte GBK code, built once from the host's own decoder. */
function encoderTable(): Map<string, number> {
  if (table) return table;
  table = new Map();
  const decoder = new TextDecoder('gbk');
  for (let lead = 0x81; lead <= 0xfe; lead++) {
    for (let trail = 0x40; trail <= 0xfe; trail++) {
      if (trail === 0x7f) continue;
      const ch = decoder.decode(new Uint8Array([lead, trail]));
      if (ch.length === 1 && ch !== '\ufffd' && !table.has(ch)) table.set(ch, (lead << 8) | trail);
    }
  }
  return table;
}

/** `text` in GBK bytes; a character GBK lacks becomes `?`, as a GBK site's own output would. */
export function encodeGbk(text: string): Uint8Array {
  const codes = encoderTable();
  const out: number[] = [];
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c < 0x80) out.push(c);
    else {
      const code = codes.get(ch);
      if (code === undefined) out.push(0x3f);
      else out.push(code >> 8, code & 0xff);
    }
  }
  return Uint8Array.from(out);
}

export function decodeGbk(bytes: Uint8Array): string {
  return new TextDecoder('gbk').decode(bytes);
}

const UNRESERVED = /[A-Za-z0-9\-_.~]/;

/** Percent-encodes `text` as GBK bytes (what a browser on a GBK form sends, and `charset:"gbk"`). */
export function gbkPercentEncode(text: string): string {
  let out = '';
  for (const b of encodeGbk(text)) {
    const ch = String.fromCharCode(b);
    out += b < 0x80 && UNRESERVED.test(ch) ? ch : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Reads a percent-encoded value as GBK bytes (`+` is a space, as in a form body). */
export function gbkPercentDecode(value: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (ch === '%' && /^[0-9a-fA-F]{2}$/.test(value.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(value.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (ch === '+') bytes.push(0x20);
    else for (const b of new TextEncoder().encode(ch)) bytes.push(b);
  }
  return decodeGbk(Uint8Array.from(bytes));
}

/** The fields of an `a=b&c=d` form whose values are GBK percent-encoded. */
export function gbkForm(body: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const pair of body.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    out.set(gbkPercentDecode(eq < 0 ? pair : pair.slice(0, eq)), eq < 0 ? '' : gbkPercentDecode(pair.slice(eq + 1)));
  }
  return out;
}
