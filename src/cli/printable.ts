// Text from outside (a server's file names, names and keys inside a backup, a path) as it is
// printed for a person: every control character shown as an escape, so none reaches the terminal
// as a command (ESC [31m recolours it, a bare CR rewrites the line, a bidi override reorders it).
// U+0000–U+001F, U+007F–U+009F become `\xHH`; the invisible direction marks and overrides
// (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) and the line and paragraph separators
// (U+2028, U+2029) become `\u{HHHH}`. Backslashes are left as they are (Windows paths stay
// readable); `--json` gives every name exactly.
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => {
    const n = c.charCodeAt(0);
    return n <= 0xff ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u{${n.toString(16)}}`;
  });
}

/** Lines built from such text, each escaped, joined by the newlines that are ours. */
export function printableLines(lines: readonly string[]): string {
  return lines.map(printable).join('\n');
}
