// Paths inside an EPUB as the app's epublib spells them: every resource is named by its full
// path in the archive (the package document's folder resolved in), URL-decoded as Java's
// URLDecoder does ('+' is a space). Nothing here touches a file system: a path is only a key
// into the archive's entries.

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** True for `http:...`, `data:...`, `mailto:...`: not a path in the archive. */
export function hasScheme(href: string): boolean {
  return SCHEME.test(href);
}

/** The folder part of a path, with its trailing slash ('' at the top). */
export function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash + 1);
}

/**
 * `ref` resolved against the file `base` (java.net.URI#resolve for relative references):
 * `.` and `x/..` segments removed. A `..` that would climb above the top is kept, so the caller
 * can tell (see `escapesArchive`); a reference with a scheme, or starting with `/`, is returned as is.
 */
export function resolvePath(base: string, ref: string): string {
  if (hasScheme(ref) || ref.startsWith('/')) return ref;
  const hash = ref.indexOf('#');
  const path = hash < 0 ? ref : ref.slice(0, hash);
  const fragment = hash < 0 ? '' : ref.slice(hash);
  if (path === '') return base + fragment;
  const out: string[] = [];
  const segments = (folderOf(base) + path).split('/');
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    if (segment === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else out.push('..');
    } else if (segment !== '.') {
      out.push(segment);
      return;
    }
    if (last) out.push(''); // `x/.` and `x/..` name a folder
  });
  return out.join('/') + fragment;
}

/** True when a resolved path leaves the archive: absolute, or climbing above the top. */
export function escapesArchive(path: string): boolean {
  return path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.split('/').includes('..');
}

/**
 * Java's URLDecoder.decode(s, "UTF-8"): `+` is a space, runs of %XX are UTF-8 bytes (bad
 * sequences become U+FFFD); a `%` not followed by two hex digits is an error (the app's
 * reader fails there too), reported as undefined.
 */
export function urlDecode(s: string): string | undefined {
  if (!s.includes('%') && !s.includes('+')) return s;
  let out = '';
  for (let i = 0; i < s.length; ) {
    const c = s[i]!;
    if (c === '+') {
      out += ' ';
      i++;
    } else if (c === '%') {
      const bytes: number[] = [];
      while (i < s.length && s[i] === '%') {
        const hex = s.slice(i + 1, i + 3);
        if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return undefined;
        bytes.push(parseInt(hex, 16));
        i += 3;
      }
      out += new TextDecoder('utf-8').decode(new Uint8Array(bytes));
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** What epublib's StringUtil.substringBefore/After do with the first `#`: after is '' when there is none. */
export function splitFragment(reference: string): { href: string; fragment: string } {
  const hash = reference.indexOf('#');
  return hash < 0 ? { href: reference, fragment: '' } : { href: reference.slice(0, hash), fragment: reference.slice(hash + 1) };
}
