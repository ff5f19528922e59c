// Rows as text for people and for other programs: JSON with every integer exact (the app's
// 64-bit group bitmasks do not fit a JS number), CSV as RFC 4180 says, and an aligned table.
import { gsonCompact, gsonPretty } from '../backup/gson.js';

/** JSON text of any value the store reads: bigints are written as the exact integers they are. */
export function toJson(value: unknown, pretty = true): string {
  return pretty ? gsonPretty(value) : gsonCompact(value);
}

/** One CSV field (RFC 4180): quoted when it holds a comma, a quote, CR or LF; quotes doubled. Null is an empty field. */
export function csvField(value: unknown): string {
  const text = cellText(value, '');
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A CSV record: fields joined by commas, ended by CRLF (RFC 4180). */
export function csvRecord(values: readonly unknown[]): string {
  return values.map(csvField).join(',') + '\r\n';
}

/** A value as plain text: bigints exactly, booleans as true/false, objects as JSON. */
export function cellText(value: unknown, nullText = 'null'): string {
  if (value === null || value === undefined) return nullText;
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Uint8Array) return `x'${Array.from(value, (b) => b.toString(16).padStart(2, '0')).join('')}'`;
  return toJson(value, false);
}

/** Rows as an aligned text table for a terminal: cells cut at `width` characters, line breaks shown as ⏎. */
export function textTable(columns: readonly string[], rows: readonly (readonly unknown[])[], width = 40): string {
  const cut = (v: unknown): string => {
    const t = cellText(v)
      .replace(/\r?\n|\r/g, '⏎')
      .replace(/\t/g, ' ');
    return [...t].length > width ? [...t].slice(0, width - 1).join('') + '…' : t;
  };
  const cells = rows.map((r) => r.map(cut));
  // A loop, not Math.max(...cells): spreading 125,000 rows into arguments overflows the stack.
  const widths = columns.map((c) => displayWidth(c));
  for (const r of cells) for (let i = 0; i < widths.length; i++) widths[i] = Math.max(widths[i]!, displayWidth(r[i] ?? ''));
  const line = (r: readonly string[]) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c + ' '.repeat(widths[i]! - displayWidth(c))))
      .join('  ')
      .trimEnd();
  const out = [line(columns), line(widths.map((w) => '-'.repeat(w)))];
  for (const r of cells) out.push(line(r));
  return out.join('\n') + '\n';
}

/** Terminal columns a text takes: East Asian wide characters (the app's Chinese names) take two. */
export function displayWidth(text: string): number {
  let w = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    w += isWide(c) ? 2 : 1;
  }
  return w;
}

const isWide = (c: number): boolean =>
  (c >= 0x1100 && c <= 0x115f) ||
  (c >= 0x2e80 && c <= 0xa4cf) ||
  (c >= 0xac00 && c <= 0xd7a3) ||
  (c >= 0xf900 && c <= 0xfaff) ||
  (c >= 0xfe30 && c <= 0xfe4f) ||
  (c >= 0xff00 && c <= 0xff60) ||
  (c >= 0xffe0 && c <= 0xffe6) ||
  (c >= 0x1f300 && c <= 0x1faff) ||
  (c >= 0x20000 && c <= 0x3fffd);
