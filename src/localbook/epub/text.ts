// A chapter's text as the app's EpubFile.getContent and LocalBook.getContent give it:
// - the files from the chapter's own to the next chapter's (in the book's contents order): the
//   first cut after its start fragment's element and before its end fragment's, the ones between
//   whole, the next chapter's first file up to the end fragment when there is one;
// - a file whose path holds "cover" or "titlepage.xhtml" stands for the cover: <img src="cover.jpeg">
//   (kept once per chapter);
// - <script>, <style>, <title> and elements styled display:none left out; every image named by
//   its full path in the archive as `<img src="...">` (SVG <image> too);
// - paragraphs one a line as the app's HtmlFormatter leaves them: lines joined by "\n" and two
//   ideographic spaces (U+3000), four before the first, "\n" and two after the last; blank lines
//   dropped, runs of no-break spaces one space, zero-width joiners and thin spaces gone; text
//   `<img` becomes `< img`.
// The app serialises Jsoup's tree and cuts that text with regexes; this walks the tree and
// produces the same lines (see docs/local-books.md, "EPUB", for where the two can part).
import type { EpubArchive } from './archive.js';
import type { EpubChapter } from './chapters.js';
import { isElement, localName, parseHtml, preorder, type AnyNode, type Element } from './markup.js';
import type { Resource } from './package.js';
import { folderOf, hasScheme, resolvePath, urlDecode } from './paths.js';

const BREAK = 0;
type Piece = typeof BREAK | { readonly img: string } | string;

/** Jsoup's block tags: each starts and ends a line in its pretty-printed HTML. */
const BLOCK = new Set(
  (
    'html head body frameset script noscript style meta link title frame noframes section nav aside hgroup header footer p ' +
    'h1 h2 h3 h4 h5 h6 ul ol pre div blockquote hr address figure figcaption form fieldset ins del dl dt dd li table caption ' +
    'thead tfoot tbody colgroup col tr th td video audio canvas details menu plaintext template article main svg math center ' +
    'dir applet marquee listing'
  ).split(' '),
);
/** Jsoup's blocks whose content it prints inline. */
const INLINE_CONTENT = new Set('title a p h1 h2 h3 h4 h5 h6 pre address li th td script style ins del s'.split(' '));
/** HtmlFormatter's wrapHtmlRegex `</?(?:div|p|br|hr|h\d|article|dd|dl)[^>]*>`: a prefix of the tag name. */
const WRAP = /^(?:div|p|br|hr|h\d|article|dd|dl)/;

const COVER_IMAGE = 'cover.jpeg';

export function chapterText(archive: EpubArchive, contents: readonly Resource[], chapter: EpubChapter, bookName?: string): string {
  const pieces: Piece[] = [];
  const nextHref = beforeLastHash(chapter.nextUrl);
  const currentHref = beforeLastHash(chapter.url);
  const isLast = nextHref.trim() === '';
  const start = chapter.startFragmentId;
  const end = chapter.endFragmentId;
  const includeNext = end !== undefined && end.trim() !== '';
  let found = false;
  for (const resource of contents) {
    if (!found) {
      if (resource.href !== currentHref) continue;
      found = true;
      body(archive, resource, start, end, pieces);
      if (!isLast && resource.href === nextHref) break;
      continue;
    }
    if (resource.href !== nextHref) {
      body(archive, resource, undefined, undefined, pieces);
    } else {
      if (includeNext) body(archive, resource, undefined, end, pieces);
      break;
    }
  }
  return withoutTitle(format(pieces), chapter.title, bookName);
}

function beforeLastHash(url: string): string {
  const hash = url.lastIndexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}

/** One file's part of the chapter (the app's getBody), as pieces; files are joined by a line break. */
function body(archive: EpubArchive, resource: Resource, start: string | undefined, end: string | undefined, out: Piece[]): void {
  out.push(BREAK);
  if (resource.href.includes('titlepage.xhtml') || resource.href.includes('cover')) {
    out.push({ img: COVER_IMAGE }, BREAK);
    return;
  }
  const bytes = archive.bytes(resource.href) ?? new Uint8Array(0);
  const document = parseHtml(new TextDecoder('utf-8').decode(bytes), { file: archive.file, entry: resource.href });
  const bodyElement = findBody(document.children);
  const roots = bodyElement ? [bodyElement] : document.children.filter((n) => !(isElement(n) && n.name === 'head'));

  const byId = (id: string | undefined) => (id !== undefined && id.trim() !== '' ? findById(roots, id) : undefined);
  // The app cuts the serialised body at the fragment element's own serialisation; an element
  // printed over several lines (a block with content) is not found there, and nothing is cut.
  const startAt = cuttable(byId(start));
  let endAt = end !== start ? cuttable(byId(end)) : undefined;
  if (startAt && endAt && !precedes(startAt, endAt)) endAt = undefined;

  // Document order with a stack of its own (no recursion on the document's depth); an `exit`
  // frame puts the line break after a block once its children are done.
  type Frame =
    | { readonly node: AnyNode; readonly emit: boolean; readonly pre: boolean }
    | { readonly exit: true; readonly breaks: boolean; readonly emit: boolean };
  let phase: 'before' | 'in' | 'done' = startAt ? 'before' : 'in';
  const stack: Frame[] = [];
  const pushChildren = (nodes: readonly AnyNode[], emit: boolean, pre: boolean): void => {
    for (let i = nodes.length - 1; i >= 0; i--) stack.push({ node: nodes[i]!, emit, pre });
  };
  pushChildren(roots, true, false);
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if ('exit' in frame) {
      if (frame.breaks && frame.emit && phase === 'in') out.push(BREAK);
      continue;
    }
    const { node, emit, pre } = frame;
    if (node === endAt) {
      phase = 'done';
      break;
    }
    if (node === startAt) {
      phase = 'in';
      continue;
    }
    const on = emit && phase === 'in';
    if (node.type === 'text') {
      if (on) out.push(textPiece(node.data, pre));
      continue;
    }
    if (!isElement(node)) continue; // comments, CDATA, processing instructions
    const name = localName(node).toLowerCase();
    if (name === 'script' || name === 'style') continue;
    if (name === 'img' || name === 'image') {
      if (on) out.push({ img: imageSource(resource.href, name === 'img' ? node.attribs['src'] : node.attribs['xlink:href']) });
      continue;
    }
    const hidden = name === 'title' || (node.attribs['style'] ?? '').toLowerCase().includes('display:none');
    const breaks = BLOCK.has(name) || WRAP.test(name);
    if (breaks && on) out.push(BREAK);
    stack.push({ exit: true, breaks, emit });
    pushChildren(node.children, emit && !hidden, pre || name === 'pre');
  }
  out.push(BREAK);
}

/** The first element (elements only, in document order) that passes `test`. */
function findElement(nodes: readonly AnyNode[], test: (e: Element) => boolean): Element | undefined {
  for (const node of preorder(nodes, (n) => !isElement(n))) if (isElement(node) && test(node)) return node;
  return undefined;
}

const findBody = (nodes: readonly AnyNode[]): Element | undefined => findElement(nodes, (e) => e.name === 'body');
const findById = (nodes: readonly AnyNode[], id: string): Element | undefined => findElement(nodes, (e) => e.attribs['id'] === id);

/** The element when Jsoup prints it on one line (so the app's cut finds it), else undefined. */
function cuttable(element: Element | undefined): Element | undefined {
  return element && oneLine(element) ? element : undefined;
}

/** A block with content prints over several lines, and so does anything holding a block (at any depth). */
function oneLine(element: Element): boolean {
  const name = element.name.toLowerCase();
  if (BLOCK.has(name) && !INLINE_CONTENT.has(name) && element.children.length > 0) return false;
  return !findElement(element.children, (e) => BLOCK.has(e.name.toLowerCase()));
}

/** True when `a` ends before `b` starts in document order. */
function precedes(a: AnyNode, b: AnyNode): boolean {
  const path = (n: AnyNode) => {
    const out: AnyNode[] = [];
    for (let p: AnyNode | null = n; p; p = p.parent) out.unshift(p);
    return out;
  };
  const pa = path(a);
  const pb = path(b);
  let i = 0;
  while (i < pa.length && i < pb.length && pa[i] === pb[i]) i++;
  if (i === pa.length || i === pb.length) return false; // one holds the other
  const parent = pa[i - 1] as Element | undefined;
  const siblings = parent ? parent.children : [];
  return siblings.indexOf(pa[i] as never) < siblings.indexOf(pb[i] as never);
}

/** The image's path as the app names it: resolved against the file, then URL-decoded. */
function imageSource(fileHref: string, src: string | undefined): string {
  const ref = (src ?? '').trim();
  if (ref === '') return folderOf(fileHref); // java.net.URI resolves an empty reference to the folder
  const resolved = hasScheme(ref) ? ref : resolvePath(fileHref, ref);
  return urlDecode(resolved) ?? resolved;
}

/**
 * A text node as it reaches the app's text: Jsoup prints runs of whitespace as one space
 * (outside <pre>) and a no-break space as `&nbsp;`, which HtmlFormatter turns into a space (a
 * run into one); thin spaces and zero-width (non-)joiners are dropped; `&lt;img` is broken
 * into `&lt; img` before the entities are decoded.
 */
function textPiece(data: string, pre: boolean): string {
  const text = pre ? data : data.replace(/[ \t\n\f\r]+/g, ' ');
  return text
    .replace(/\u00a0+/g, ' ')
    .replace(/[\u2009\u200c\u200d]/g, '')
    .replace(/<img/gi, '< img');
}

/** Java's \s (ASCII whitespace only: the ideographic space U+3000 is not one). */
const WS = '[ \\t\\n\\x0B\\f\\r]';
const INDENT = '\u3000\u3000';

/** HtmlFormatter.format's last steps: whitespace around line breaks becomes one break and an indent. */
function format(pieces: readonly Piece[]): string {
  let s = '';
  let keptCover = false;
  for (const piece of pieces) {
    if (piece === BREAK) s += '\n';
    else if (typeof piece === 'string') s += piece;
    else {
      if (piece.img === COVER_IMAGE) {
        if (keptCover) continue; // the app keeps the first img[src="cover.jpeg"] of a chapter
        keptCover = true;
      }
      s += `<img src="${piece.img}">`;
    }
  }
  // Jsoup prints an element without children on one line: an empty chapter is ''.
  if (new RegExp(`^${WS}*$`).test(s)) return '';
  // Java's \s does not match U+3000, so the first line gets a double indent and the text ends
  // with a line break and an indent: the app's text has both (its reader trims them later).
  return s
    .replace(new RegExp(`${WS}*\\n+${WS}*`, 'g'), `\n${INDENT}`)
    .replace(new RegExp(`^[\\n${WS.slice(1, -1)}]+`), INDENT)
    .replace(new RegExp(`[\\n${WS.slice(1, -1)}]+$`), '');
}

/**
 * The chapter's title left out when it is the text's first line, as the app's ContentProcessor
 * means to ("remove the same title": leading spaces, punctuation and the book's name before it).
 * The app's Java regex stops at the U+3000 indent its own formatter adds, so on the phone an
 * EPUB title often shows twice; the contract here is the text without the title line.
 */
function withoutTitle(text: string, title: string, bookName: string | undefined): string {
  if (title.trim() === '') return text;
  const quote = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const name = bookName ? `|${quote(bookName)}` : '';
  const line = new RegExp(`^(?:\\s|\\p{P}${name})*${quote(title.trim())}[^\\S\\n]*(?:\\n|$)`, 'u');
  const match = line.exec(text);
  return match ? text.slice(match[0].length) : text;
}
