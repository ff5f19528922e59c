// SQL LIKE (no ESCAPE) evaluated in JavaScript, for the one pattern table/like.ts has no SQL form
// for past an engine's limit (a Durable Object: 50 bytes) that the store itself writes: the
// app's `v_<url>_%` when the URL has a `%` in it. `%` any run of characters, `_` one character,
// letters compared case-insensitively for ASCII only, as SQLite's LIKE does.

const asciiLower = (text: string): string => text.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));

/** A test of `text LIKE pattern`. */
export function likeMatcher(pattern: string): (text: string) => boolean {
  let source = '';
  for (const c of asciiLower(pattern)) {
    if (c === '%') source += '[^]*';
    else if (c === '_') source += '.';
    else source += c.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
  }
  const re = new RegExp(`^${source}$`, 'su');
  return (text) => re.test(asciiLower(text));
}
