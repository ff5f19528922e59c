// Relative links resolved as the app resolves them (NetworkUtils.getAbsoluteURL over Java's
// URL(base, spec)): nothing is percent-encoded on the way, so a link with Chinese text or URL
// options (`/s?q=中,{"method":"POST"}`) comes out as it was written, for the URL rules to encode.

const PARTS = /^([a-zA-Z][a-zA-Z0-9+.-]*:)(\/\/[^/?#]*)?([^?#]*)(\?[^#]*)?(#.*)?$/;

function removeDots(path: string): string {
  const out: string[] = [];
  const segs = path.split('/');
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i]!;
    if (s === '.') {
      if (i === segs.length - 1) out.push('');
      continue;
    }
    if (s === '..') {
      if (out.length > 1) out.pop();
      if (i === segs.length - 1) out.push('');
      continue;
    }
    out.push(s);
  }
  return out.join('/');
}

/** `spec` against `base` without encoding anything; `base` unusable: `spec` as it is. */
export function resolveUrl(base: string | undefined, spec: string): string {
  const rel = spec.trim();
  if (/^https?:\/\//i.test(rel) || /^data:/i.test(rel)) return rel;
  if (rel.startsWith('javascript')) return '';
  if (!base) return rel;
  const b = PARTS.exec(base.trim());
  if (!b) return rel;
  const [, scheme, authority = '', path = '', query = ''] = b;
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(rel)) return rel;
  if (rel.startsWith('//')) return scheme + rel;
  if (rel === '') return `${scheme}${authority}${path}${query}`;
  if (rel.startsWith('?')) return `${scheme}${authority}${path}${rel}`;
  if (rel.startsWith('#')) return `${scheme}${authority}${path}${query}${rel}`;
  const cut = rel.search(/[?#]/);
  const relPath = cut < 0 ? rel : rel.slice(0, cut);
  const rest = cut < 0 ? '' : rel.slice(cut);
  if (rel.startsWith('/')) return `${scheme}${authority}${removeDots(relPath)}${rest}`;
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '/';
  return `${scheme}${authority}${removeDots(dir + relPath)}${rest}`;
}
