// XPath rules (AnalyzeByXPath, JsoupXpath over JSoup's tree). The `xpath` package finds nothing
// on the HTML trees of linkedom or domhandler, so the tree is copied once per content into a
// namespace-less @xmldom/xmldom document, each copied element remembering its original (so later
// rules keep working on the page's own elements). JsoupXpath's ways kept: text() gives each text
// node normalised, an element reads as its outer HTML, and `allText()`, `html()`, `outerHtml()`
// as the last step give an element's text, inner and outer HTML.
import { DOMImplementation, type Document as XDocument, type Node as XNode } from '@xmldom/xmldom';
import xpath, { type XPathExpression, type XPathNodeSet } from 'xpath';
import type { AnyNode, Element, ParentNode } from 'domhandler';
import { javaTrim, text as jsoupText } from './dom.js';
import { innerHtml, outerHtml } from './html-out.js';
import { combine, splitRule } from './split.js';
import { RuleError } from './errors.js';

/** A copy of a tree for XPath, and the way back to the original elements. */
export interface XPathTree {
  readonly doc: XDocument;
  readonly back: Map<XNode, Element>;
  /** Made from an element (a list item): a path starting with one `/` starts at it, as JsoupXpath reads it. */
  readonly fromElement: boolean;
}

/** Copies a domhandler tree (a document, or an element as the document's root element). */
export function xpathTree(root: ParentNode): XPathTree {
  const doc = new DOMImplementation().createDocument(null, '');
  const back = new Map<XNode, Element>();
  const copy = (n: AnyNode, into: XNode): void => {
    if (n.type === 'text') into.appendChild(doc.createTextNode(n.data));
    else if (n.type === 'comment') into.appendChild(doc.createComment(n.data));
    else if (n.type === 'tag' || n.type === 'script' || n.type === 'style') {
      let el: ReturnType<XDocument['createElement']>;
      try {
        el = doc.createElement(n.name);
      } catch {
        el = doc.createElement('invalid-name');
      }
      for (const name in n.attribs) {
        try {
          el.setAttribute(name, n.attribs[name]!);
        } catch {
          // a name XML cannot hold (`@click`, `:href`): left out of the copy
        }
      }
      back.set(el, n);
      for (const c of n.children) copy(c, el);
      into.appendChild(el);
    } else if (n.type === 'root' || n.type === 'cdata') for (const c of n.children) copy(c, into);
  };
  if (root.type === 'root') {
    for (const c of root.children) if (c.type === 'tag' || c.type === 'script' || c.type === 'style') copy(c, doc);
  } else copy(root as Element, doc);
  return { doc, back, fromElement: root.type !== 'root' };
}

type Evaluator = XPathExpression;
interface Compiled {
  readonly evaluator: Evaluator;
  /** JsoupXpath's last-step function, cut off before the rest is evaluated. */
  readonly fn: 'allText' | 'html' | 'outerHtml' | null;
}

const cache = new Map<string, Compiled>();

/** JsoupXpath's `^=`, `$=` and `*=` (starts with, ends with, contains) in XPath 1.0 words. */
function jsoupXpathOperators(path: string): string {
  return path.replace(/(@[\w:-]+|text\(\)|\.)\s*(\^=|\$=|\*=)\s*('[^']*'|"[^"]*")/g, (_, a: string, op: string, v: string) =>
    op === '^=' ? `starts-with(${a},${v})` : op === '*=' ? `contains(${a},${v})` : `substring(${a},string-length(${a})-string-length(${v})+1)=${v}`,
  );
}

function compile(rule: string): Compiled {
  let c = cache.get(rule);
  if (c) return c;
  const m = /\/(allText|html|outerHtml)\(\)\s*$/.exec(rule);
  const path = jsoupXpathOperators(m ? rule.slice(0, m.index) : rule);
  try {
    c = { evaluator: xpath.parse(path), fn: m ? (m[1] as Compiled['fn']) : null };
  } catch (e) {
    throw new RuleError(rule, e instanceof Error ? e.message : String(e));
  }
  if (cache.size > 4096) cache.clear();
  cache.set(rule, c);
  return c;
}

/** A result: a page element, or a string (an attribute, a text, a value). */
export type XPathItem = Element | string;

const normalise = (s: string): string => javaTrim(s.replace(/[ \t\n\f\r\u00a0]+/g, ' '));

function evaluate(tree: XPathTree, rule: string): XPathItem[] {
  // On an item, JsoupXpath's `/a` is a child of the item: `./a` from it here.
  const relative = tree.fromElement && /^\s*\/(?!\/)/.test(rule);
  const { evaluator, fn } = compile(relative ? `.${rule.trimStart()}` : rule);
  let result: ReturnType<Evaluator['evaluate']>;
  try {
    result = evaluator.evaluate({ node: relative ? tree.doc.documentElement : tree.doc });
  } catch (e) {
    throw new RuleError(rule, e instanceof Error ? e.message : String(e));
  }
  if (!(result instanceof xpath.XNodeSet)) return [result.stringValue()];
  const out: XPathItem[] = [];
  for (const n of (result as XPathNodeSet).toArray() as XNode[]) {
    const el = tree.back.get(n);
    if (el) {
      out.push(fn === 'allText' ? jsoupText(el) : fn === 'html' ? innerHtml(el) : fn === 'outerHtml' ? outerHtml(el) : el);
    } else if (n.nodeType === 2) out.push(n.nodeValue ?? '');
    else if (n.nodeType === 3 || n.nodeType === 4) out.push(normalise(n.nodeValue ?? ''));
    else out.push(n.textContent ?? '');
  }
  return out;
}

/** The items an XPath rule selects, `&&`, `||`, `%%` applied (getElements). */
export function xpathItems(tree: XPathTree, rule: string): XPathItem[] {
  if (rule === '') return [];
  const split = splitRule(rule, ['&&', '||', '%%']);
  if (split.parts.length === 1) return evaluate(tree, rule);
  const results: XPathItem[][] = [];
  for (const part of split.parts) {
    const found = xpathItems(tree, part);
    if (found.length > 0) {
      results.push(found);
      if (split.type === '||') break;
    }
  }
  return combine(split.type, results);
}

/** An item as JsoupXpath prints it: an element as its outer HTML. */
export const itemString = (item: XPathItem): string => (typeof item === 'string' ? item : outerHtml(item));

/** The strings of an XPath rule (getStringList). */
export function xpathStrings(tree: XPathTree, rule: string): string[] {
  return xpathItems(tree, rule).map(itemString);
}

/** Compiles an XPath rule without running it (throws RuleError). */
export function checkXPathRule(rule: string): void {
  for (const part of splitRule(rule, ['&&', '||', '%%']).parts) compile(part);
}
