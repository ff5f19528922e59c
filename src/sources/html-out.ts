// outerHtml as JSoup writes it in its HTML syntax (without the pretty-printer's indentation):
// `&nbsp;` for U+00A0, `&amp; &lt; &gt;` in text, `&amp; &quot;` in attributes, void elements
// without an end tag, script and style content raw.
import type { AnyNode } from 'domhandler';
import { isElement } from './dom.js';

const VOID = new Set('area base br col embed hr img input keygen link meta param source track wbr basefont bgsound command device frame menuitem'.split(' '));
// JSoup writes these with an empty value as the bare name.
const BOOLEAN = new Set(
  'allowfullscreen async autofocus checked compact declare default defer disabled formnovalidate hidden inert ismap itemscope multiple muted nohref noresize noshade novalidate nowrap open readonly required reversed seamless selected sortable truespeed typemustmatch'.split(
    ' ',
  ),
);

function escapeText(s: string): string {
  return /[&<>\u00a0]/.test(s) ? s.replace(/[&<>\u00a0]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&nbsp;')) : s;
}

function escapeAttr(s: string): string {
  return /[&"\u00a0]/.test(s) ? s.replace(/[&"\u00a0]/g, (c) => (c === '&' ? '&amp;' : c === '"' ? '&quot;' : '&nbsp;')) : s;
}

export interface OuterHtmlOptions {
  /** Leave out <script> and <style> elements (the `html` extractor). */
  readonly skipScripts?: boolean;
}

/** One node's outer HTML. */
export function outerHtml(node: AnyNode, options: OuterHtmlOptions = {}): string {
  const parts: string[] = [];
  write(node, parts, options.skipScripts === true);
  return parts.join('');
}

/** The inner HTML of an element or document. */
export function innerHtml(node: AnyNode, options: OuterHtmlOptions = {}): string {
  const parts: string[] = [];
  if ('children' in node) for (const c of node.children) write(c, parts, options.skipScripts === true);
  return parts.join('');
}

function write(n: AnyNode, out: string[], skipScripts: boolean): void {
  switch (n.type) {
    case 'text':
      out.push(n.parent && (n.parent.type === 'script' || n.parent.type === 'style') ? n.data : escapeText(n.data));
      return;
    case 'comment':
      out.push(`<!--${n.data}-->`);
      return;
    case 'cdata':
      out.push('<![CDATA[');
      for (const c of n.children) if (c.type === 'text') out.push(c.data);
      out.push(']]>');
      return;
    case 'directive':
      out.push(`<${n.data}>`);
      return;
    case 'root':
      for (const c of n.children) write(c, out, skipScripts);
      return;
    default:
      break;
  }
  if (!isElement(n)) return;
  if (skipScripts && (n.type === 'script' || n.type === 'style')) return;
  let open = `<${n.name}`;
  for (const name in n.attribs) {
    const value = n.attribs[name]!;
    open += value === '' && BOOLEAN.has(name) ? ` ${name}` : ` ${name}="${escapeAttr(value)}"`;
  }
  out.push(`${open}>`);
  if (VOID.has(n.name) && n.children.length === 0) return;
  for (const c of n.children) write(c, out, skipScripts);
  out.push(`</${n.name}>`);
}
