// XML and XHTML as trees, through htmlparser2 (small, pure JavaScript, forgiving: it runs in
// browsers and Workers, and a broken tag costs a book nothing). The package document, NCX and
// container are read as XML; navigation and chapter documents as HTML with XHTML's self-closing
// tags honoured (`<a id="c2"/>` is empty, as a reader expects). Names are matched by their
// local part: `dc:title`, `opf:item` and `item` are alike here.
//
// A hostile document can nest elements without end (200,000 <div>s) or hold millions of them: the
// parse stops at a depth and a count no book comes near, with BadEpubError naming the entry, and
// nothing here recurses on the depth of a document (the walks keep their own stacks).
import { Parser } from 'htmlparser2';
import { DomHandler, type AnyNode, type Document, type Element } from 'domhandler';
import { BadEpubError } from './errors.js';

export type { AnyNode, Document, Element };

/** The most elements one inside another, and in all, that one document may have. */
export const DOCUMENT_LIMITS = { depth: 1000, elements: 500_000 };

/** Where a document is, for the error when it passes a limit. */
export interface DocumentPlace {
  readonly file: string;
  readonly entry: string;
}

class CappedHandler extends DomHandler {
  private count = 0;
  constructor(
    private readonly place: DocumentPlace,
    options: { xmlMode?: boolean },
  ) {
    super(undefined, options);
  }
  override onopentag(name: string, attribs: Record<string, string>): void {
    // tagStack holds the document itself below the open elements.
    if (this.tagStack.length > DOCUMENT_LIMITS.depth) {
      throw new BadEpubError(this.place.file, this.place.entry, `elements nested deeper than ${DOCUMENT_LIMITS.depth} (a limit of this reader)`);
    }
    if (++this.count > DOCUMENT_LIMITS.elements) {
      throw new BadEpubError(this.place.file, this.place.entry, `more than ${DOCUMENT_LIMITS.elements} elements (a limit of this reader)`);
    }
    super.onopentag(name, attribs);
  }
}

function parse(
  text: string,
  place: DocumentPlace,
  options: { xmlMode?: boolean; recognizeSelfClosing?: boolean; lowerCaseTags?: boolean; lowerCaseAttributeNames?: boolean },
): Document {
  const handler = new CappedHandler(place, options);
  new Parser(handler, options).end(text);
  return handler.root;
}

export function parseXml(text: string, place: DocumentPlace): Document {
  return parse(text, place, { xmlMode: true });
}

export function parseHtml(text: string, place: DocumentPlace): Document {
  return parse(text, place, { recognizeSelfClosing: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
}

export const isElement = (node: AnyNode): node is Element => node.type === 'tag' || node.type === 'script' || node.type === 'style';

export function localName(element: Element): string {
  const colon = element.name.indexOf(':');
  return colon < 0 ? element.name : element.name.slice(colon + 1);
}

const childrenOf = (node: AnyNode): readonly AnyNode[] => ('children' in node ? (node.children as AnyNode[]) : []);

/**
 * The nodes under `roots` (the roots included) in document order, walked with a stack of its
 * own; `skip(node)` true leaves that node's children out.
 */
export function* preorder(roots: readonly AnyNode[], skip?: (node: AnyNode) => boolean): Generator<AnyNode> {
  const stack: AnyNode[] = [];
  for (let i = roots.length - 1; i >= 0; i--) stack.push(roots[i]!);
  while (stack.length > 0) {
    const node = stack.pop()!;
    yield node;
    if (skip?.(node)) continue;
    const children = childrenOf(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}

const under = (root: AnyNode | readonly AnyNode[]): readonly AnyNode[] => (Array.isArray(root) ? root : childrenOf(root as AnyNode));

/** Descendant elements with this local name, in document order. */
export function descendants(root: AnyNode | readonly AnyNode[], name: string): Element[] {
  const out: Element[] = [];
  for (const node of preorder(under(root))) if (isElement(node) && localName(node) === name) out.push(node);
  return out;
}

export function firstDescendant(root: AnyNode | readonly AnyNode[], name: string): Element | undefined {
  for (const node of preorder(under(root))) if (isElement(node) && localName(node) === name) return node;
  return undefined;
}

/** Child elements with this local name. */
export function childElements(element: Element, name: string): Element[] {
  return element.children.filter((c): c is Element => isElement(c) && localName(c) === name);
}

/** An attribute by its name, else by its local name (`opf:role` for `role`); '' when missing, as the DOM answers. */
export function attr(element: Element, name: string): string {
  const direct = element.attribs[name];
  if (direct !== undefined) return direct;
  for (const [key, value] of Object.entries(element.attribs)) {
    if (key.slice(key.indexOf(':') + 1) === name) return value;
  }
  return '';
}

/** All text inside, as the DOM's textContent (text and CDATA; comments left out). */
export function textContent(node: AnyNode): string {
  let out = '';
  for (const n of preorder([node])) if (n.type === 'text') out += n.data;
  return out;
}

/** Java's String.trim: every char up to U+0020 at either end. */
export function javaTrim(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && s.charCodeAt(start) <= 0x20) start++;
  while (end > start && s.charCodeAt(end - 1) <= 0x20) end--;
  return s.slice(start, end);
}

/** epublib's DOMUtil.getTextChildrenContent: the element's own text children, trimmed. */
export function ownText(element: Element): string {
  return javaTrim(element.children.map((c) => (c.type === 'text' ? c.data : '')).join(''));
}

/** Jsoup's Element.text(): all text inside, runs of whitespace as one space, trimmed. */
export function normalizedText(node: AnyNode): string {
  return textContent(node)
    .replace(/[ \t\n\f\r]+/g, ' ')
    .trim();
}

/** The root element of a document. */
export function rootElement(document: Document): Element | undefined {
  return document.children.find(isElement);
}

/**
 * Bytes of an XML document as text: a byte-order mark, else the declaration's encoding (as an
 * XML parser reads it), else UTF-8.
 */
export function decodeXml(bytes: Uint8Array): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
  const declared = /^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
  if (declared) {
    try {
      return new TextDecoder(declared).decode(bytes);
    } catch {
      // an encoding TextDecoder does not know: read as UTF-8
    }
  }
  return new TextDecoder('utf-8').decode(bytes);
}
