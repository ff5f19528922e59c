// SQL LIKE (no ESCAPE) evaluated in JavaScript, for an engine that refuses patterns as long as
// the app writes (a Durable Object: at most 50 bytes): `%` any run of characters, `_` one
// character, letters compared case-insensitively for ASCII only, as SQLite's LIKE does.

const utf8 = new TextEncoder();

/** The pattern's length as SQLite measures it against SQLITE_LIMIT_LIKE_PATTERN_LENGTH (bytes of UTF-8). */
export const likePatternBytes = (pattern: string): number => utf8.encode(pattern).length;

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
