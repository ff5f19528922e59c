// The table of contents as epublib reads it: EPUB 3's navigation document (its first <nav>,
// that nav's first <ol>, each <li> an entry) or EPUB 2's NCX (<navMap>'s <navPoint>s). Where
// epublib's reader throws part-way (an entry without a label), it keeps no table at all and
// the app falls back to the spine; so does this.
import type { EpubArchive } from './archive.js';
import { BadEpubError } from './errors.js';
import { attr, childElements, decodeXml, firstDescendant, isElement, localName, ownText, parseHtml, textContent, type Element } from './markup.js';
import type { EpubPackage, Resource } from './package.js';
import { xmlOf } from './package.js';
import { escapesArchive, hasScheme, resolvePath, splitFragment, urlDecode } from './paths.js';

export interface TocEntry {
  /** The label; null where epublib reads none (an NCX navLabel without <text>). */
  readonly title: string | null;
  /** The resource the entry points into, when the package has it. */
  readonly resource: Resource | undefined;
  /** What follows `#` in the entry's href; '' when nothing does. */
  readonly fragmentId: string;
  readonly children: readonly TocEntry[];
}

/** Thrown inside the reader where epublib's would fail, so the table is dropped as the app drops it. */
class Unreadable extends Error {}

export function readToc(archive: EpubArchive, pkg: EpubPackage, notes: string[]): TocEntry[] {
  const toc = pkg.tocResource;
  if (!toc) {
    notes.push(`${archive.file}: no table of contents (NCX or navigation document); chapters from the spine, as the app makes them`);
    return [];
  }
  try {
    if (pkg.version.startsWith('3.') && !toc.href.endsWith('.ncx')) {
      const bytes = archive.bytes(toc.href) ?? new Uint8Array(0);
      const nav = firstDescendant(parseHtml(decodeXml(bytes), { file: archive.file, entry: toc.href }), 'nav');
      if (nav) {
        const ol = firstDescendant(nav, 'ol');
        if (!ol) throw new Unreadable(`its <nav> has no <ol>`);
        return navEntries(archive, pkg, toc, ol);
      }
    }
    const document = xmlOf(archive, toc.href);
    const navMap = document && firstDescendant(document, 'navMap');
    if (!navMap) throw new Unreadable('no <navMap> (nor an EPUB 3 <nav>)');
    return ncxEntries(archive, pkg, toc, navMap);
  } catch (e) {
    if (!(e instanceof Unreadable)) throw e;
    notes.push(`${archive.file}:${toc.href}: table of contents not read (${e.message}); chapters from the spine, as the app makes them`);
    return [];
  }
}

/** An entry's href, resolved against the table's own folder as epublib does, and its resource. */
function target(archive: EpubArchive, pkg: EpubPackage, toc: Resource, raw: string | null): { resource: Resource | undefined; fragmentId: string } {
  if (raw === null) return { resource: undefined, fragmentId: '' }; // epublib looks up "<folder>/null": nothing
  const decoded = urlDecode(raw);
  if (decoded === undefined) throw new Unreadable(`malformed %-escape in ${JSON.stringify(raw)}`);
  // epublib joins the table's folder and the href: an empty path part names the folder, no resource.
  if (hasScheme(decoded) || splitFragment(decoded).href === '') return { resource: undefined, fragmentId: '' };
  const reference = resolvePath(toc.href, decoded);
  if (escapesArchive(reference)) {
    throw new BadEpubError(archive.file, toc.href, `table of contents entry ${JSON.stringify(raw)} leaves the archive`);
  }
  const { href, fragment } = splitFragment(reference);
  return { resource: pkg.byHref.get(href), fragmentId: fragment };
}

/** Entries built in document order with a stack of their own (no recursion on the table's depth). */
function entries<T>(roots: readonly T[], entry: (item: T) => { fields: Omit<TocEntry, 'children'>; children: readonly T[] }): TocEntry[] {
  const top: TocEntry[] = [];
  const stack: { item: T; into: TocEntry[] }[] = [];
  const push = (items: readonly T[], into: TocEntry[]) => {
    for (let i = items.length - 1; i >= 0; i--) stack.push({ item: items[i]!, into });
  };
  push(roots, top);
  while (stack.length > 0) {
    const { item, into } = stack.pop()!;
    const { fields, children } = entry(item);
    const kids: TocEntry[] = [];
    into.push({ ...fields, children: kids });
    push(children, kids);
  }
  return top;
}

function ncxEntries(archive: EpubArchive, pkg: EpubPackage, toc: Resource, navMap: Element): TocEntry[] {
  return entries(childElements(navMap, 'navPoint'), (point) => {
    const label = firstDescendant(point, 'navLabel');
    if (!label) throw new Unreadable('a navPoint without a navLabel');
    const text = firstDescendant(label, 'text');
    const content = firstDescendant(point, 'content');
    return {
      fields: { title: text ? ownText(text) : null, ...target(archive, pkg, toc, content ? attr(content, 'src') : null) },
      children: childElements(point, 'navPoint'),
    };
  });
}

const items = (ol: Element): Element[] => ol.children.filter((c): c is Element => isElement(c) && localName(c) === 'li');

function navEntries(archive: EpubArchive, pkg: EpubPackage, toc: Resource, ol: Element): TocEntry[] {
  return entries(items(ol), (li) => {
    // The first <a> anywhere inside (a volume's <span> label yields to its first chapter's <a>).
    const a = firstDescendant(li, 'a');
    if (!a) throw new Unreadable('an entry without an <a>');
    let title = textContent(a);
    if (title.trim() === '') {
      const span = firstDescendant(li, 'span');
      if (!span) throw new Unreadable('an entry whose <a> is empty and that has no <span>');
      title = textContent(span);
    }
    const childOl = firstDescendant(li, 'ol');
    return { fields: { title, ...target(archive, pkg, toc, a.attribs['href'] ?? '') }, children: childOl ? items(childOl) : [] };
  });
}
