// Relative links resolved as the app resolves them (NetworkUtils.getAbsoluteURL over Java's
// URL(base, spec)): nothing is percent-encoded on the way, so a link with Chinese text or URL
// options (`/s?q=中,{"method":"POST"}`) comes out as it was written, for the URL rules to encode.

// Made once: a regex literal in the function would be a new RegExp object on every call.
const HTTP = /^https?:\/\//i;
const DATA = /^data:/i;
const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;
const QUERY_OR_FRAGMENT = /[?#]/;
const PARTS = /^([a-zA-Z][a-zA-Z0-9+.-]*:)(\/\/[^/?#]*)?([^?#]*)(\?[^#]*)?(#.*)?$/;

/** RFC 3986's remove_dot_segments, as a string: no array per call (a page resolves hundreds of links). */
function removeDots(path: string): string {
  if (!path.includes('/.') && !path.startsWith('.')) return path; // no `.` or `..` segment
  let out = '';
  let count = 0; // segments in `out`
  let start = 0;
  while (start <= path.length) {
    let end = path.indexOf('/', start);
    if (end < 0) end = path.length;
    const s = path.slice(start, end);
    const last = end === path.length;
    if (s === '.' || s === '..') {
      if (s === '..' && count > 1) {
        out = out.slice(0, out.lastIndexOf('/'));
        count--;
      }
      if (last) (out = count === 0 ? '' : `${out}/`), count++;
    } else (out = count === 0 ? s : `${out}/${s}`), count++;
    start = end + 1;
  }
  return out;
}

interface Parts {
  readonly scheme: string;
  readonly authority: string;
  readonly path: string;
  readonly query: string;
  /** The path up to its last `/`, where a relative path starts. */
  readonly dir: string;
}

// The last base cut into parts: a page's links are all resolved against the same base.
let lastBase: string | undefined;
let lastParts: Parts | null = null;

function baseParts(base: string): Parts | null {
  if (base === lastBase) return lastParts;
  const b = PARTS.exec(base.trim());
  lastBase = base;
  const path = b?.[3] ?? '';
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '/';
  lastParts = b ? { scheme: b[1]!, authority: b[2] ?? '', path, query: b[4] ?? '', dir } : null;
  return lastParts;
}

/** `spec` against `base` without encoding anything; `base` unusable: `spec` as it is. */
export function resolveUrl(base: string | undefined, spec: string): string {
  const rel = spec.trim();
  if (HTTP.test(rel) || DATA.test(rel)) return rel;
  if (rel.startsWith('javascript')) return '';
  if (!base) return rel;
  const b = baseParts(base);
  if (!b) return rel;
  const { scheme, authority, path, query, dir } = b;
  if (SCHEME.test(rel)) return rel;
  if (rel.startsWith('//')) return scheme + rel;
  if (rel === '') return `${scheme}${authority}${path}${query}`;
  if (rel.startsWith('?')) return `${scheme}${authority}${path}${rel}`;
  if (rel.startsWith('#')) return `${scheme}${authority}${path}${query}${rel}`;
  const cut = rel.search(QUERY_OR_FRAGMENT);
  const relPath = cut < 0 ? rel : rel.slice(0, cut);
  const rest = cut < 0 ? '' : rel.slice(cut);
  if (rel.startsWith('/')) return `${scheme}${authority}${removeDots(relPath)}${rest}`;
  return `${scheme}${authority}${removeDots(dir + relPath)}${rest}`;
}
