// Text to bytes in the charset a source names for its request (`charset:"gbk"`), and bytes to
// text for answers. TextEncoder knows only UTF-8, so a legacy charset's encoder is made by
// inverting the platform's own TextDecoder (rule-engine.md §7: Node, workerd, Bun and browsers
// decode gbk, gb18030, big5...): every single byte and every two-byte code is decoded once and
// the table kept. GB18030's four-byte codes follow its linear ranges (WHATWG's gb18030 index):
// the BMP ones are read from the decoder in one pass, the others computed.

const names = new Map<string, string | undefined>();

/** The WHATWG name of a charset label (`GB2312` → `gbk`, `UTF8` → `utf-8`), or undefined when the platform does not know it. */
export function charsetName(label: string): string | undefined {
  if (names.has(label)) return names.get(label);
  let name: string | undefined;
  try {
    name = new TextDecoder(label.trim()).encoding;
  } catch {
    name = undefined;
  }
  if (names.size < 256) names.set(label, name);
  return name;
}

type Table = Map<number, number[]>;
const tables = new Map<string, Table>();

/** Code point → bytes for a legacy charset, from its decoder (two-byte codes win over single bytes; standard Big5 over HKSCS). */
function tableFor(name: string): Table {
  let table = tables.get(name);
  if (table) return table;
  table = new Map();
  const decoder = new TextDecoder(name);
  const put = (bytes: number[]): void => {
    const s = decoder.decode(Uint8Array.from(bytes));
    const cp = s.codePointAt(0);
    if (cp === undefined || cp === 0xfffd || s.length !== (cp > 0xffff ? 2 : 1) || table!.has(cp)) return;
    table!.set(cp, bytes);
  };
  const leads = [...range(0xa1, 0xfe), ...range(0x81, 0xa0)];
  for (const lead of leads) for (const trail of range(0x40, 0xfe)) put([lead, trail]);
  for (const b of range(0x80, 0xff)) put([b]);
  tables.set(name, table);
  return table;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

let gb18030Bmp: Map<number, number> | undefined;

/** GB18030 four-byte pointer of a BMP code point, read from the decoder over all 39,420 BMP four-byte codes at once. */
function gb18030Pointer(cp: number): number | undefined {
  if (cp >= 0x10000) return cp <= 0x10ffff ? 189000 + cp - 0x10000 : undefined;
  if (!gb18030Bmp) {
    gb18030Bmp = new Map();
    const count = 39420;
    const bytes = new Uint8Array(count * 4);
    for (let p = 0; p < count; p++) bytes.set(fourBytes(p), p * 4);
    const text = new TextDecoder('gb18030').decode(bytes);
    if (text.length === count) for (let p = 0; p < count; p++) gb18030Bmp.set(text.charCodeAt(p), p);
  }
  return gb18030Bmp.get(cp);
}

function fourBytes(p: number): number[] {
  return [0x81 + Math.floor(p / 12600), 0x30 + (Math.floor(p / 1260) % 10), 0x81 + (Math.floor(p / 10) % 126), 0x30 + (p % 10)];
}

/**
 * `text` as bytes in `label`; a character the charset lacks becomes `?` (0x3F), as Java's
 * String.getBytes does. Undefined when the platform does not know the charset.
 */
export function encodeText(text: string, label: string): Uint8Array | undefined {
  const name = charsetName(label);
  if (name === undefined) return undefined;
  if (name === 'utf-8') return new TextEncoder().encode(text);
  if (name === 'utf-16le' || name === 'utf-16be') {
    const out = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) {
      const u = text.charCodeAt(i);
      const [hi, lo] = [u >> 8, u & 0xff];
      out[2 * i] = name === 'utf-16le' ? lo : hi;
      out[2 * i + 1] = name === 'utf-16le' ? hi : lo;
    }
    return out;
  }
  if (name === 'replacement' || name === 'x-user-defined') return undefined;
  const table = tableFor(name);
  const out: number[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) {
      out.push(cp);
      continue;
    }
    const bytes = table.get(cp);
    if (bytes) {
      out.push(...bytes);
      continue;
    }
    const pointer = name === 'gb18030' ? gb18030Pointer(cp) : undefined;
    if (pointer !== undefined) out.push(...fourBytes(pointer));
    else out.push(0x3f);
  }
  return Uint8Array.from(out);
}

/** `bytes` read as `label`; undefined when the platform does not know the charset. */
export function decodeText(bytes: Uint8Array, label: string): string | undefined {
  try {
    return new TextDecoder(label.trim()).decode(bytes);
  } catch {
    return undefined;
  }
}
