// XML and XHTML as trees, through htmlparser2 (small, pure JavaScript, forgiving: it runs in
// browsers and Workers, and a broken tag costs a book nothing). The package document, NCX and
// container are read as XML; navigation and chapter documents as HTML with XHTML's self-closing
// tags honoured (`<a id="c2"/>` is empty, as a reader expects). Names are matched by their
// local part: `dc:title`, `opf:item` and `item` are alike here.
import { DomUtils, parseDocument } from 'htmlparser2';
import type { AnyNode, Document, Element } from 'domhandler';

export type { AnyNode, Document, Element };

export function parseXml(text: string): Document {
  return parseDocument(text, { xmlMode: true });
}

export function parseHtml(text: string): Document {
  return parseDocument(text, { recognizeSelfClosing: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
}

export const isElement = (node: AnyNode): node is Element => node.type === 'tag' || node.type === 'script' || node.type === 'style';

export function localName(element: Element): string {
  const colon = element.name.indexOf(':');
  return colon < 0 ? element.name : element.name.slice(colon + 1);
}

/** Descendant elements with this local name, in document order. */
export function descendants(root: AnyNode | readonly AnyNode[], name: string): Element[] {
  const nodes = Array.isArray(root) ? root : 'children' in (root as object) ? (root as Element).children : [];
  return DomUtils.findAll((e) => localName(e) === name, nodes as AnyNode[]);
}

export function firstDescendant(root: AnyNode | readonly AnyNode[], name: string): Element | undefined {
  const nodes = Array.isArray(root) ? root : 'children' in (root as object) ? (root as Element).children : [];
  return DomUtils.findOne((e) => localName(e) === name, nodes as AnyNode[]) ?? undefined;
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

/** All text inside, as the DOM's textContent. */
export function textContent(node: AnyNode): string {
  return DomUtils.textContent(node);
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
