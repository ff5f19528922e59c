// The package document (OPF) as the app's epublib reads it: the manifest's resources named by
// their full path in the archive, the spine, the guide, the cover and the Dublin Core fields.
import type { EpubArchive } from './archive.js';
import { BadEpubError } from './errors.js';
import { attr, decodeXml, descendants, firstDescendant, ownText, parseXml, rootElement, type Element } from './markup.js';
import { escapesArchive, hasScheme, resolvePath, splitFragment, urlDecode } from './paths.js';

export interface Resource {
  /** Full path in the archive (the app's `Resource.href`, and so its chapter url). */
  readonly href: string;
  readonly id: string;
  readonly mediaType: string;
  readonly properties: string;
}

export interface GuideReference {
  readonly resource: Resource;
  readonly title: string;
}

export interface EpubPackage {
  readonly path: string;
  readonly version: string;
  readonly resources: readonly Resource[];
  readonly byHref: ReadonlyMap<string, Resource>;
  readonly spine: readonly Resource[];
  /** The NCX or navigation document the spine names (or that is found as the app finds it). */
  readonly tocResource: Resource | undefined;
  readonly guide: readonly GuideReference[];
  /** The XHTML cover page (meta cover or guide cover), else the spine's first page. */
  readonly coverPage: Resource | undefined;
  readonly coverImage: Resource | undefined;
  readonly titles: readonly string[];
  /** Each creator as epublib's Author.toString() gives it: `last, first` split at the last space. */
  readonly authors: readonly string[];
  readonly descriptions: readonly string[];
  readonly notes: readonly string[];
}

export const XHTML = 'application/xhtml+xml';
export const NCX = 'application/x-dtbncx+xml';

/** epublib's MediaTypes by file extension, for items whose media-type it does not know. */
const BY_EXTENSION: Readonly<Record<string, string>> = {
  xhtml: XHTML,
  html: XHTML,
  htm: XHTML,
  ncx: NCX,
  css: 'text/css',
  js: 'text/javascript',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  bmp: 'image/bmp',
  ttf: 'application/x-truetype-font',
  otf: 'application/vnd.ms-opentype',
  woff: 'application/font-woff',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  ogg: 'audio/ogg',
  smil: 'application/smil+xml',
  pls: 'application/pls+xml',
};
const KNOWN = new Set([...Object.values(BY_EXTENSION), 'application/epub+zip', 'application/x-font-ttf', 'application/adobe-page-template+xml']);
const BITMAP = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/bmp']);

export function isBitmap(resource: Resource): boolean {
  return BITMAP.has(resource.mediaType);
}

function mediaTypeOf(declared: string, href: string): string {
  if (KNOWN.has(declared)) return declared;
  const ext = href.slice(href.lastIndexOf('.') + 1).toLowerCase();
  return BY_EXTENSION[ext] ?? declared;
}

const CONTAINER = 'META-INF/container.xml';
/** Where epublib looks when container.xml is missing or names no rootfile. */
const DEFAULT_PACKAGE = 'OEBPS/content.opf';

export function xmlOf(archive: EpubArchive, path: string): ReturnType<typeof parseXml> | undefined {
  const bytes = archive.bytes(path);
  return bytes && parseXml(decodeXml(bytes), { file: archive.file, entry: path });
}

function packagePath(archive: EpubArchive): { path: string; why: string } {
  const container = xmlOf(archive, CONTAINER);
  if (!container) return { path: DEFAULT_PACKAGE, why: `there is no ${CONTAINER}, and no ${DEFAULT_PACKAGE} where the app looks then` };
  const rootfile = firstDescendant(firstDescendant(container, 'rootfiles') ?? [], 'rootfile');
  const fullPath = rootfile ? attr(rootfile, 'full-path') : '';
  if (fullPath.trim() === '')
    return { path: DEFAULT_PACKAGE, why: `${CONTAINER} names no rootfile, and there is no ${DEFAULT_PACKAGE} where the app looks then` };
  if (escapesArchive(fullPath) || hasScheme(fullPath)) {
    throw new BadEpubError(archive.file, CONTAINER, `the package document's path ${JSON.stringify(fullPath)} leaves the archive`);
  }
  return { path: fullPath, why: `${CONTAINER} names ${fullPath}, which the archive does not hold` };
}

export function readPackage(archive: EpubArchive): EpubPackage {
  const { path, why } = packagePath(archive);
  const bytes = archive.bytes(path);
  if (!bytes) throw new BadEpubError(archive.file, path, `no package document (OPF): ${why}`);
  // epublib mends ` mlns="` and ` smlns="` (seen in home-made books); names are matched by local part here anyway.
  const root = rootElement(parseXml(decodeXml(bytes), { file: archive.file, entry: path }));
  if (root?.name.slice(root.name.indexOf(':') + 1) !== 'package') {
    throw new BadEpubError(archive.file, path, `not a package document: its root element is ${root ? `<${root.name}>` : 'missing'}, not <package>`);
  }
  const notes: string[] = [];
  const where = `${archive.file}:${path}`;

  // Manifest: each item resolved against the package's folder, then URL-decoded; the first item of an href wins.
  const resources: Resource[] = [];
  const byHref = new Map<string, Resource>();
  const byId = new Map<string, Resource>();
  const manifest = firstDescendant(root, 'manifest');
  if (!manifest) throw new BadEpubError(archive.file, path, 'the package document has no <manifest>');
  for (const item of descendants(manifest, 'item')) {
    const raw = attr(item, 'href');
    const id = attr(item, 'id');
    if (hasScheme(raw)) continue; // a remote resource: not in the archive
    const href = urlDecode(resolvePath(path, raw));
    if (href === undefined)
      throw new BadEpubError(archive.file, path, `manifest item ${JSON.stringify(id)}: malformed %-escape in href ${JSON.stringify(raw)}`);
    if (escapesArchive(href)) throw new BadEpubError(archive.file, path, `manifest item ${JSON.stringify(id)}: href ${JSON.stringify(raw)} leaves the archive`);
    if (byHref.has(href)) continue;
    if (!archive.has(href)) {
      notes.push(`${where}: manifest item ${JSON.stringify(id)} names ${href}, which the archive does not hold; skipped as the app skips it`);
      continue;
    }
    const resource: Resource = { href, id, mediaType: mediaTypeOf(attr(item, 'media-type'), href), properties: attr(item, 'properties') };
    resources.push(resource);
    byHref.set(href, resource);
    if (id && !byId.has(id)) byId.set(id, resource);
  }
  const byIdOrHref = (key: string) => (key.trim() === '' ? undefined : (byId.get(key) ?? byHref.get(splitFragment(key).href)));

  // Guide: epublib looks its hrefs up as written, before the manifest is read, so only a
  // package at the archive's top finds them; cover references are handled with the cover.
  const guide: GuideReference[] = [];
  for (const reference of descendants(firstDescendant(root, 'guide') ?? [], 'reference')) {
    const href = attr(reference, 'href');
    const type = attr(reference, 'type');
    if (href.trim() === '' || type.trim() === '' || type.toLowerCase() === 'cover') continue;
    const resource = byHref.get(splitFragment(href).href);
    if (resource) guide.push({ resource, title: attr(reference, 'title') });
  }

  const { coverPage: guideCoverPage, coverImage } = readCover(root, path, byHref);

  // Spine: itemrefs by id (or href); without a spine, the XHTML resources sorted by href.
  const spineElement = firstDescendant(root, 'spine');
  let spine: Resource[];
  let tocResource: Resource | undefined;
  if (!spineElement) {
    notes.push(`${where}: no <spine>; the spine is the XHTML files in order of their paths, as the app makes it`);
    const sorted = [...resources].sort((a, b) => compareIgnoreCase(a.href, b.href));
    spine = sorted.filter((r) => r.mediaType === XHTML);
    tocResource = sorted.filter((r) => r.mediaType === NCX).pop();
  } else {
    spine = [];
    for (const itemref of descendants(root, 'itemref')) {
      const idref = attr(itemref, 'idref');
      const resource = byIdOrHref(idref);
      if (resource) spine.push(resource);
      else if (idref.trim() !== '') notes.push(`${where}: spine itemref ${JSON.stringify(idref)} names no manifest item; skipped`);
    }
    tocResource = findTocResource(attr(spineElement, 'toc'), resources, byIdOrHref);
  }

  const metadata = firstDescendant(root, 'metadata');
  const texts = (name: string) => (metadata ? descendants(metadata, name).map(ownText) : []);
  const authors: string[] = [];
  for (const text of texts('creator')) {
    if (text.trim() === '') continue;
    const space = text.lastIndexOf(' ');
    authors.push(space < 0 ? `${text}, ` : `${text.slice(space + 1)}, ${text.slice(0, space)}`);
  }
  return {
    path,
    version: attr(root, 'version'),
    resources,
    byHref,
    spine,
    tocResource,
    guide,
    coverPage: guideCoverPage ?? spine[0],
    coverImage,
    titles: texts('title'),
    authors,
    descriptions: texts('description'),
    notes,
  };
}

/** Java's String.CASE_INSENSITIVE_ORDER. */
function compareIgnoreCase(a: string, b: string): number {
  const x = a.toUpperCase().toLowerCase();
  const y = b.toUpperCase().toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

/** epublib's order: the item whose properties are exactly `nav`, the spine's toc, an NCX, then the usual ids. */
function findTocResource(tocId: string, resources: readonly Resource[], byIdOrHref: (key: string) => Resource | undefined): Resource | undefined {
  const nav = resources.find((r) => r.properties === 'nav');
  if (nav) return nav;
  const named = tocId.trim() !== '' ? byIdOrHref(tocId) : undefined;
  if (named) return named;
  const ncx = resources.find((r) => r.mediaType === NCX);
  if (ncx) return ncx;
  for (const id of ['toc', 'ncx', 'ncxtoc', 'htmltoc']) {
    const found = byIdOrHref(id) ?? byIdOrHref(id.toUpperCase());
    if (found) return found;
  }
  return undefined;
}

/**
 * The cover as epublib finds it: `<meta name="cover" content="ID">` (the item with that id, or
 * the content read as an href) and `<reference type="cover">`; an XHTML one is the cover page,
 * a bitmap the cover image. EPUB 3's `properties="cover-image"`, which epublib does not read,
 * is taken when nothing else names an image.
 */
function readCover(root: Element, path: string, byHref: ReadonlyMap<string, Resource>): { coverPage?: Resource; coverImage?: Resource } {
  const hrefs: string[] = [];
  const items = descendants(root, 'item');
  const meta = descendants(root, 'meta').find((m) => attr(m, 'name').toLowerCase() === 'cover' && attr(m, 'content').trim() !== '');
  if (meta) {
    const id = attr(meta, 'content');
    const item = items.find((i) => attr(i, 'id').toLowerCase() === id.toLowerCase() && attr(i, 'href').trim() !== '');
    hrefs.push(resolvePath(path, item ? attr(item, 'href') : id));
  }
  const reference = descendants(root, 'reference').find((r) => attr(r, 'type').toLowerCase() === 'cover' && attr(r, 'href').trim() !== '');
  if (reference) hrefs.push(resolvePath(path, attr(reference, 'href')));
  let coverPage: Resource | undefined;
  let coverImage: Resource | undefined;
  for (const href of hrefs) {
    const resource = byHref.get(href) ?? byHref.get(urlDecode(href) ?? href);
    if (!resource) continue;
    if (resource.mediaType === XHTML) coverPage = resource;
    else if (isBitmap(resource)) coverImage = resource;
  }
  if (!coverImage) {
    for (const item of items) {
      if (!attr(item, 'properties').split(/\s+/).includes('cover-image')) continue;
      const resource = byHref.get(urlDecode(resolvePath(path, attr(item, 'href'))) ?? '');
      if (resource?.mediaType.startsWith('image/')) {
        coverImage = resource;
        break;
      }
    }
  }
  return { ...(coverPage && { coverPage }), ...(coverImage && { coverImage }) };
}
