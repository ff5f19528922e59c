// Elements as scripts see them (Jsoup's Element and Elements; `org.jsoup.Jsoup.parse`), run on
// the host over our own parser: a script holds a node id, valid for the call it was given in.
import type { AnyNode, Element, ParentNode } from 'domhandler';
import { Node } from 'domhandler';
import { childElements, collect, data, hasClass, isElement, ownText, parseHtml, siblingIndex, text, textNodes } from '../dom.js';
import { cssSelector } from '../css.js';
import { innerHtml, outerHtml } from '../html-out.js';
import { resolveUrl } from '../url.js';
import { HelperError } from './errors.js';

/** The nodes handed to a script during one call, by id. */
export class NodeTable {
  private readonly list: AnyNode[] = [];
  private readonly ids = new Map<AnyNode, number>();
  /** The base URL of parsed documents (absUrl). */
  readonly bases = new Map<AnyNode, string>();

  id(node: AnyNode): number {
    let id = this.ids.get(node);
    if (id === undefined) {
      id = this.list.length;
      this.list.push(node);
      this.ids.set(node, id);
    }
    return id;
  }

  node(id: unknown, helper: string): AnyNode {
    const n = typeof id === 'number' ? this.list[id] : undefined;
    if (!n) throw new HelperError(helper, 'an element from another call cannot be used here');
    return n;
  }
}

/** A parsed node (the rule engine's own, or one read the same way by another copy of domhandler). */
export const isNode = (v: unknown): v is AnyNode =>
  v instanceof Node ||
  (typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    typeof (v as { type?: unknown }).type === 'string' &&
    'parent' in v &&
    'next' in v &&
    'startIndex' in v);

/** A script's `{"__n": id}` marker (an element copied out through JSON). */
export function markerId(v: unknown): number | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const keys = Object.keys(v);
  return keys.length === 1 && keys[0] === '__n' && typeof (v as { __n: unknown }).__n === 'number' ? (v as { __n: number }).__n : undefined;
}

/** Elements as the script gets them: Jsoup's Elements (an array with its methods). */
export const elementsOut = (nodes: readonly AnyNode[], table: NodeTable) => ({ __t: 'els', list: nodes.map((n) => ({ __n: table.id(n) })) });

const el = (n: AnyNode): Element | undefined => (isElement(n) ? n : undefined);
const parentNode = (n: AnyNode): ParentNode => ('children' in n ? n : (n.parent ?? parseHtml('')));

function attr(n: AnyNode, name: string, table: NodeTable): string {
  const e = el(n);
  if (!e) return '';
  if (name.startsWith('abs:')) return absUrl(n, name.slice(4), table);
  const key = Object.keys(e.attribs).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? '' : e.attribs[key]!;
}

function baseOf(n: AnyNode, table?: NodeTable): string {
  let top: AnyNode = n;
  while (top.parent) top = top.parent;
  return table?.bases.get(top) ?? '';
}

function absUrl(n: AnyNode, name: string, table: NodeTable): string {
  const v = attr(n, name, table);
  return v ? resolveUrl(baseOf(n, table), v) : '';
}

const select = (n: AnyNode, css: string): Element[] => cssSelector(css)(parentNode(n));

/** One Element method on one node; lists of nodes come back as Elements. */
function elementMethod(table: NodeTable, n: AnyNode, method: string, args: unknown[]): unknown {
  const a0 = args[0] === undefined || args[0] === null ? '' : String(args[0]);
  const els = (list: readonly AnyNode[]) => elementsOut(list, table);
  const one = (x: AnyNode | null | undefined) => (x ? { __n: table.id(x) } : null);
  const e = el(n);
  switch (method) {
    case 'select':
      return els(select(n, a0));
    case 'selectFirst':
      return one(select(n, a0)[0]);
    case 'text':
      return text(n);
    case 'ownText':
      return 'children' in n ? ownText(n) : '';
    case 'html':
      return innerHtml(n);
    case 'outerHtml':
    case 'toString':
      return outerHtml(n);
    case 'attr':
      return attr(n, a0, table);
    case 'hasAttr':
      return !!e && Object.keys(e.attribs).some((k) => k.toLowerCase() === a0.toLowerCase());
    case 'attributes':
      return e ? { ...e.attribs } : {};
    case 'tagName':
    case 'nodeName':
      return e ? e.name : n.type === 'root' ? '#root' : `#${n.type}`;
    case 'id':
      return attr(n, 'id', table);
    case 'className':
      return attr(n, 'class', table);
    case 'classNames':
      return attr(n, 'class', table).split(/\s+/).filter(Boolean);
    case 'hasClass':
      return !!e && hasClass(e, a0.toLowerCase());
    case 'children':
      return els('children' in n ? childElements(n) : []);
    case 'child':
      return one('children' in n ? childElements(n)[Number(args[0])] : undefined);
    case 'childrenSize':
      return 'children' in n ? childElements(n).length : 0;
    case 'parent':
      return one(n.parent);
    case 'parents': {
      const out: AnyNode[] = [];
      for (let p = n.parent; p && p.type !== 'root'; p = p.parent) out.push(p);
      return els(out);
    }
    case 'getElementsByTag':
      return els(collect(parentNode(n), (x) => x.name.toLowerCase() === a0.toLowerCase()));
    case 'getElementsByClass':
      return els(collect(parentNode(n), (x) => hasClass(x, a0.toLowerCase())));
    case 'getElementById':
      return one(collect(parentNode(n), (x) => x.attribs.id === a0)[0]);
    case 'getElementsByAttribute':
      return els(collect(parentNode(n), (x) => Object.keys(x.attribs).some((k) => k.toLowerCase() === a0.toLowerCase())));
    case 'getAllElements':
      return els(collect(parentNode(n), () => true));
    case 'nextElementSibling': {
      let s = n.next;
      while (s && !isElement(s)) s = s.next;
      return one(s);
    }
    case 'previousElementSibling': {
      let s = n.prev;
      while (s && !isElement(s)) s = s.prev;
      return one(s);
    }
    case 'firstElementChild':
      return one('children' in n ? childElements(n)[0] : undefined);
    case 'lastElementChild':
      return one('children' in n ? childElements(n).at(-1) : undefined);
    case 'siblingElements':
      return els(n.parent ? childElements(n.parent).filter((x) => x !== n) : []);
    case 'elementSiblingIndex':
      return e ? siblingIndex(e) : 0;
    case 'data':
      return data(n);
    case 'val':
      return e?.name === 'textarea' ? text(e) : attr(n, 'value', table);
    case 'wholeText':
      return 'children' in n ? textOfAll(n) : '';
    case 'textNodes':
      return 'children' in n ? textNodes(n) : [];
    case 'absUrl':
      return absUrl(n, a0, table);
    case 'location':
    case 'baseUri':
      return baseOf(n, table);
    case 'body':
    case 'head':
      return one(collect(parentNode(n), (x) => x.name === method)[0]);
    case 'title':
      return text(collect(parentNode(n), (x) => x.name === 'title')[0] ?? parseHtml(''));
    case 'is':
      return !!e && select(e.parent ?? e, a0).includes(e);
    default:
      throw new HelperError(`Element.${method}`, 'not supported here');
  }
}

function textOfAll(n: ParentNode): string {
  let out = '';
  for (const c of n.children) {
    if (c.type === 'text') out += c.data;
    else if ('children' in c) out += textOfAll(c);
  }
  return out;
}

/** Elements methods over the whole list, as Jsoup's Elements runs them. */
function elementsMethod(table: NodeTable, list: AnyNode[], method: string, args: unknown[]): unknown {
  const a0 = args[0] === undefined || args[0] === null ? '' : String(args[0]);
  switch (method) {
    case 'select': {
      const seen = new Set<AnyNode>();
      for (const n of list) for (const x of select(n, a0)) seen.add(x);
      return elementsOut([...seen], table);
    }
    case 'text':
      return list
        .map((n) => text(n))
        .filter((t) => t !== '')
        .join(' ');
    case 'html':
      return list.map((n) => innerHtml(n)).join('\n');
    case 'outerHtml':
      return list.map((n) => outerHtml(n)).join('\n');
    case 'attr':
      return list.map((n) => attr(n, a0, table)).find((v, i) => v !== '' || elementMethod(table, list[i]!, 'hasAttr', args)) ?? '';
    case 'hasAttr':
    case 'hasClass':
      return list.some((n) => elementMethod(table, n, method, args));
    case 'is':
      return list.some((n) => elementMethod(table, n, 'is', args));
    case 'eachText':
      return list.map((n) => text(n)).filter((t) => t !== '');
    case 'eachAttr':
      return list.map((n) => attr(n, a0, table)).filter((v, i) => v !== '' || elementMethod(table, list[i]!, 'hasAttr', args));
    case 'parents': {
      const seen = new Set<AnyNode>();
      for (const n of list) for (let p = n.parent; p && p.type !== 'root'; p = p.parent) seen.add(p);
      return elementsOut([...seen], table);
    }
    case 'not': {
      const drop = new Set<AnyNode>();
      for (const n of list) for (const x of select(n, a0)) drop.add(x);
      return elementsOut(
        list.filter((n) => !drop.has(n)),
        table,
      );
    }
    default:
      throw new HelperError(`Elements.${method}`, 'not supported here');
  }
}

/** `dom.<method>` from the prelude: the target is one node id or a list of them. */
export function domCall(table: NodeTable, method: string, target: unknown, args: unknown[]): unknown {
  if (Array.isArray(target)) {
    const list = target.map((t) => table.node(markerId(t) ?? t, `Elements.${method}`));
    return elementsMethod(table, list, method, args);
  }
  return elementMethod(table, table.node(markerId(target) ?? target, `Element.${method}`), method, args);
}

/** `org.jsoup.Jsoup.parse(html[, baseUri])`. */
export function jsoupParse(table: NodeTable, html: string, base: string): unknown {
  const doc = parseHtml(html);
  if (base) table.bases.set(doc, base);
  return { __n: table.id(doc) };
}
