// Pages as JSoup sees them: an HTML5 tree (parse5, so `<tbody>` and the other implied elements
// are there) of domhandler nodes (so css-select runs on it), and JSoup's text functions, which
// normalise whitespace their own way (`<div>a<br>b  c<p>d</p></div>` reads `a b c d`).
import { parse } from 'parse5';
import { adapter } from 'parse5-htmlparser2-tree-adapter';
import { parseDocument } from 'htmlparser2';
import type { AnyNode, Document, Element, ParentNode } from 'domhandler';
import { javaTrim } from './split.js';

export type { AnyNode, Document, Element, ParentNode } from 'domhandler';
export { javaTrim } from './split.js';

/** An HTML page as JSoup.parse builds it; `<?xml` text as JSoup's XML parser does (no implied elements). */
export function parseHtml(text: string): Document {
  if (/^\s*<\?xml/i.test(text)) return parseDocument(text, { xmlMode: true });
  // JSoup parses as a browser with scripting off: <noscript> holds elements, not text.
  return parse(text, { treeAdapter: adapter, scriptingEnabled: false }) as Document;
}

export const isElement = (n: AnyNode): n is Element => n.type === 'tag' || n.type === 'script' || n.type === 'style';

/** The element children (JSoup's children()). */
export function childElements(node: ParentNode): Element[] {
  const out: Element[] = [];
  for (const c of node.children) if (isElement(c)) out.push(c);
  return out;
}

/** The element's index among its parent's element children (JSoup's elementSiblingIndex). */
export function siblingIndex(el: Element): number {
  const parent = el.parent;
  if (!parent) return 0;
  let i = 0;
  for (const c of parent.children) {
    if (c === el) return i;
    if (isElement(c)) i++;
  }
  return i;
}

/** What a step keeps: a `class.`, `tag.` or `id.` name (lower-cased for class and tag), or any test. */
export type ElementTest = { readonly by: 'class' | 'tag' | 'id'; readonly name: string } | { readonly by: 'test'; readonly test: (el: Element) => boolean };

// The name tests are read here, not through a closure per element: the walk is a rule's hot path.
const passes = (el: Element, t: ElementTest): boolean =>
  t.by === 'test' ? t.test(el) : t.by === 'class' ? hasClass(el, t.name) : t.by === 'tag' ? el.name === t.name : el.attribs['id'] === t.name;

/** Every element of the subtree in document order, the root first when it is an element (JSoup's Collector). */
export function collect(root: ParentNode, test: ElementTest | ((el: Element) => boolean)): Element[] {
  const t: ElementTest = typeof test === 'function' ? { by: 'test', test } : test;
  const out: Element[] = [];
  if (isElement(root) && passes(root, t)) out.push(root);
  collectUnder(root, t, out);
  return out;
}

function collectUnder(node: ParentNode, t: ElementTest, out: Element[]): void {
  const kids = node.children;
  for (let i = 0; i < kids.length; i++) {
    const c = kids[i]!;
    if (c.type === 'tag' || c.type === 'script' || c.type === 'style') {
      if (passes(c, t)) out.push(c);
      if (c.children.length > 0) collectUnder(c, t, out);
    }
  }
}

/** JSoup's hasClass: one of the class attribute's words, compared ignoring case (`lowerName` in lower case). */
export function hasClass(el: Element, lowerName: string): boolean {
  const cls = el.attribs['class'];
  const n = lowerName.length;
  if (cls === undefined || cls.length < n) return false;
  // Word by word, comparing only words of the name's length, with no lower-cased copy: most
  // elements are tested against a class they lack. Beyond ASCII, lower-case it as a whole.
  let start = 0;
  for (let i = 0; i <= cls.length; i++) {
    const c = i < cls.length ? cls.charCodeAt(i) : 32;
    if (c > 127) return wordIn(cls.toLowerCase(), lowerName);
    if (!isSpace(c)) continue;
    if (i - start === n && asciiLowerAt(cls, start, lowerName)) return true;
    start = i + 1;
  }
  return false;
}

/** `s` from `at` equals `lower` once its ASCII capitals are lowered (`s` all ASCII). */
function asciiLowerAt(s: string, at: number, lower: string): boolean {
  for (let k = 0; k < lower.length; k++) {
    let c = s.charCodeAt(at + k);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== lower.charCodeAt(k)) return false;
  }
  return true;
}

function wordIn(s: string, w: string): boolean {
  for (let i = s.indexOf(w); i >= 0; i = s.indexOf(w, i + 1)) {
    const end = i + w.length;
    if ((i === 0 || isSpace(s.charCodeAt(i - 1))) && (end === s.length || isSpace(s.charCodeAt(end)))) return true;
  }
  return false;
}

const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 12 || c === 13;

// Tag.java (JSoup 1.16): the block tags; unknown tags are inline but format as blocks.
const BLOCK = new Set(
  (
    'html head body frameset script noscript style meta link title frame noframes section nav aside hgroup header footer p h1 h2 h3 h4 h5 h6 ' +
    'ul ol pre div blockquote hr address figure figcaption form fieldset ins del dl dt dd li table caption thead tfoot tbody colgroup col ' +
    'tr th td video audio canvas details menu plaintext template article main svg math center dir applet marquee listing'
  ).split(' '),
);
const INLINE = new Set(
  (
    'object base font tt i b u big small em strong dfn code samp kbd var cite abbr time acronym mark ruby rt rp rtc a img br wbr map q sub sup ' +
    'bdo iframe embed span input select textarea label button optgroup option legend datalist keygen output progress meter area param source ' +
    'track summary command device basefont bgsound menuitem data bdi s strike nobr rb text mi mo msup mn mtext'
  ).split(' '),
);
const FORMAT_AS_INLINE = new Set('title a p h1 h2 h3 h4 h5 h6 pre address li th td script style ins del s'.split(' '));
const PRESERVE_WS = new Set(['pre', 'plaintext', 'title', 'textarea']);

const isBlock = (el: Element): boolean => BLOCK.has(el.name);
const formatAsBlock = (el: Element): boolean => !INLINE.has(el.name) && !FORMAT_AS_INLINE.has(el.name);

/** Script and style content is data in JSoup, not text. */
const isDataParent = (p: ParentNode | null): boolean => p !== null && (p.type === 'script' || p.type === 'style');

function preservesWhitespace(node: ParentNode | null): boolean {
  let el = node;
  for (let i = 0; i < 6 && el && el.type !== 'root'; i++) {
    if (PRESERVE_WS.has((el as Element).name)) return true;
    el = el.parent;
  }
  return false;
}

const endsWithSpace = (s: string): boolean => s.length > 0 && s.charCodeAt(s.length - 1) === 32;

/** StringUtil.appendNormalisedWhitespace: runs of whitespace (nbsp too) become one space; ZWSP and soft hyphens go. */
function appendNormalised(accum: string, text: string, stripLeading: boolean): string {
  let out = '';
  let lastWasWhite = false;
  let reachedNonWhite = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 12 || c === 13 || c === 160) {
      if ((stripLeading && !reachedNonWhite) || lastWasWhite) continue;
      out += ' ';
      lastWasWhite = true;
    } else if (c !== 8203 && c !== 173) {
      out += text[i];
      lastWasWhite = false;
      reachedNonWhite = true;
    }
  }
  return accum + out;
}

function appendText(accum: string, text: string, parent: ParentNode | null, cdata: boolean): string {
  if (cdata || preservesWhitespace(parent)) return accum + text;
  return appendNormalised(accum, text, endsWithSpace(accum));
}

/** JSoup's Element.text(): the subtree's text, whitespace normalised, a space at block and br edges. */
export function text(node: AnyNode): string {
  let accum = '';
  const walk = (n: AnyNode): void => {
    if (n.type === 'text') {
      if (!isDataParent(n.parent)) accum = appendText(accum, n.data, n.parent, false);
      return;
    }
    if (n.type === 'cdata') {
      for (const c of n.children) if (c.type === 'text') accum += c.data;
      return;
    }
    if (n.type === 'root') {
      for (const c of n.children) walk(c);
      return;
    }
    if (!isElement(n)) return;
    if (accum.length > 0 && (isBlock(n) || n.name === 'br') && !endsWithSpace(accum)) accum += ' ';
    for (const c of n.children) walk(c);
    const next = n.next;
    if (isBlock(n) && next && (next.type === 'text' || (isElement(next) && !formatAsBlock(next))) && !endsWithSpace(accum)) accum += ' ';
  };
  walk(node);
  return javaTrim(accum);
}

/** JSoup's ownText(): the element's own text nodes, normalised, a space for each direct <br>. */
export function ownText(node: ParentNode): string {
  let accum = '';
  if (isDataParent(node)) return '';
  for (const c of node.children) {
    if (c.type === 'text') accum = appendText(accum, c.data, node, false);
    else if (isElement(c) && c.name === 'br' && !endsWithSpace(accum)) accum += ' ';
  }
  return javaTrim(accum);
}

/** JSoup's textNodes() read as the app reads them: each own text node normalised and trimmed, blanks dropped. */
export function textNodes(node: ParentNode): string[] {
  if (isDataParent(node)) return [];
  const out: string[] = [];
  for (const c of node.children) {
    if (c.type !== 'text') continue;
    const t = javaTrim(appendNormalised('', c.data, false));
    if (t) out.push(t);
  }
  return out;
}

/** JSoup's data(): the script, style and comment content of the subtree. */
export function data(node: AnyNode): string {
  let out = '';
  const walk = (n: AnyNode): void => {
    if (n.type === 'text') {
      if (isDataParent(n.parent)) out += n.data;
    } else if (n.type === 'comment') out += n.data;
    else if ('children' in n) for (const c of n.children) walk(c);
  };
  walk(node);
  return out;
}
