// AnalyzeRule: a rule string run on fetched content. The content is set once (a page's text,
// an element, a JSON value, an AllInOne item) and parsed lazily, once per kind; rules are
// compiled once per string. JavaScript pieces go to the evaluator given (`js`); without one, a
// rule that needs JavaScript fails with JsUnavailableError. Results are shaped as the app shapes
// them: lists joined with lines by getString, entities decoded when there is a `&`, URLs resolved
// against the final URL, lists of URLs without blanks or repeats.
import { decodeHTML } from 'entities';
import type { Element, ParentNode } from 'domhandler';
import { parseHtml, text as jsoupText } from './dom.js';
import { outerHtml } from './html-out.js';
import { jsoupElements, jsoupStrings } from './jsoup.js';
import { jsonItems, jsonString, jsonString1, jsonStrings, readPath } from './jsonpath.js';
import { type XPathTree, itemString, xpathItems, xpathTree } from './xpath.js';
import { allInOne, allInOneFirst, applyReplace } from './regex.js';
import { compileRule, cutReplace, isInnerRule, type Made, type SourceRule } from './rule.js';
import { javaTrim } from './split.js';
import { resolveUrl } from './url.js';
import { JsUnavailableError } from './errors.js';

/** What the JavaScript evaluator is given with each piece of code. */
export interface JsBindings {
  /** The value so far (the previous piece's result, or the content). */
  readonly result: unknown;
  readonly baseUrl: string | undefined;
  /** The content the rule runs on (`src`). */
  readonly src: unknown;
  /** The analyser itself (`java`): getString, getStringList, getElements, put, get. */
  readonly java: RuleContext;
}

/** The seam for JavaScript: runs code and gives its completion value. */
export interface RuleJs {
  eval(code: string, bindings: JsBindings): unknown;
}

/** Where `@put`/`@get` and `java.put`/`java.get` keep values (the app: chapter, book, rule data, source). */
export interface RuleVariables {
  get(key: string): string | undefined;
  put(key: string, value: string): void;
}

export interface RuleContextOptions {
  readonly js?: RuleJs;
  readonly variables?: RuleVariables;
}

/** Content a rule runs on: page text, a parsed page or element, a JSON value, or an AllInOne item. */
export type Content = string | ParentNode | unknown;

const isNode = (v: unknown): v is ParentNode =>
  typeof v === 'object' && v !== null && 'type' in v && 'children' in v && typeof (v as { type: unknown }).type === 'string' && !Array.isArray(v);

/** The app's String.isJson: `{…}` or `[…]` once trimmed. */
export function isJsonText(s: string): boolean {
  const t = javaTrim(s);
  return (t.startsWith('{') && t.endsWith('}')) || (t.startsWith('[') && t.endsWith(']'));
}

/** A value as text, as the app's toString gives it. */
export function asText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '';
  if (isNode(v)) return outerHtml(v);
  if (Array.isArray(v)) return v.every((x) => typeof x === 'string') ? `[${v.join(', ')}]` : JSON.stringify(v);
  return jsonString(v);
}

function mapVariables(): RuleVariables {
  const m = new Map<string, string>();
  return { get: (k) => m.get(k), put: (k, v) => void m.set(k, v) };
}

type Value = unknown;

interface StringOptions {
  readonly content?: Content;
  readonly isUrl?: boolean;
  readonly unescape?: boolean;
  readonly inner?: boolean;
}

const NO_OPTIONS: StringOptions = Object.freeze({}); // getString's default, one object for every call

/** A piece getString can run without awaiting: no JavaScript, no `@put`, no template to fill. */
const isPlain = (sr: SourceRule): boolean => sr.mode !== 'js' && sr.put.length === 0 && sr.fixed !== null;

/** `##` applied to a value that is there. */
const replacedOnce = (result: Value, made: Made): Value =>
  result !== null && result !== undefined && made.regex !== '' ? applyReplace(asText(result), made) : result;

export class RuleContext {
  private content: Content = undefined;
  private isJson = false;
  /** AllInOne mode: set by a `:` list rule, kept for the item rules (AnalyzeRule.isRegex). */
  private regexMode = false;
  private baseUrl: string | undefined;
  private redirectUrl: string | undefined;
  private doc: ParentNode | undefined;
  private json: { value: unknown } | undefined;
  private tree: XPathTree | undefined;
  readonly variables: RuleVariables;
  private readonly js: RuleJs | undefined;

  constructor(options: RuleContextOptions = {}) {
    this.js = options.js;
    this.variables = options.variables ?? mapVariables();
  }

  /** Sets the content and, when given, the base URL; the final URL after redirects defaults to the base URL. */
  setContent(content: Content, baseUrl?: string, redirectUrl?: string): this {
    this.content = content;
    this.isJson = typeof content === 'string' ? isJsonText(content) : !isNode(content) && typeof content === 'object' && content !== null;
    if (baseUrl !== undefined) this.baseUrl = baseUrl;
    if (redirectUrl !== undefined || baseUrl !== undefined) this.redirectUrl = redirectUrl ?? baseUrl;
    this.doc = undefined;
    this.json = undefined;
    this.tree = undefined;
    return this;
  }

  get base(): string | undefined {
    return this.baseUrl;
  }

  // The parsed forms of a value, kept for the content itself (the app's analyser cache).
  private nodeOf(v: Value): ParentNode {
    if (isNode(v)) return v;
    if (v === this.content) return (this.doc ??= parseHtml(asText(v)));
    return parseHtml(asText(v));
  }

  private jsonOf(v: Value): unknown {
    const parse = (x: Value): unknown => {
      if (typeof x !== 'string') return isNode(x) ? undefined : x;
      try {
        return JSON.parse(x);
      } catch {
        return undefined;
      }
    };
    if (v === this.content) return (this.json ??= { value: parse(v) }).value;
    return parse(v);
  }

  private treeOf(v: Value): XPathTree {
    const make = (x: Value): XPathTree => {
      if (isNode(x)) return xpathTree(x);
      let html = asText(x);
      if (html.endsWith('</td>')) html = `<tr>${html}</tr>`;
      if (html.endsWith('</tr>') || html.endsWith('</tbody>')) html = `<table>${html}</table>`;
      return xpathTree(parseHtml(html));
    };
    if (v === this.content) return (this.tree ??= make(v));
    return make(v);
  }

  private async evalJs(code: string, result: Value): Promise<Value> {
    if (!this.js) throw new JsUnavailableError(code);
    return await this.js.eval(code, { result, baseUrl: this.baseUrl, src: this.content, java: this });
  }

  private async putRules(rule: SourceRule): Promise<void> {
    for (const [k, r] of rule.put) this.variables.put(k, await this.getString(r));
  }

  /** Fills in a piece's templates against the value so far (makeUpRule). */
  private async makeUp(rule: SourceRule, result: Value): Promise<Made> {
    if (rule.fixed) return rule.fixed;
    let out = '';
    for (const p of rule.params) {
      if (p.kind === 'text') out += p.value;
      else if (p.kind === 'get') out += this.variables.get(p.value) ?? '';
      // An AllInOne item gives its group, or nothing when it has fewer; other values keep `$N`.
      else if (p.kind === 'group') out += Array.isArray(result) ? (result.length > p.group ? asText(result[p.group]) : '') : p.value;
      else if (isInnerRule(p.value)) out += await this.getString(p.value, { inner: true });
      else {
        const v = await this.evalJs(p.value, result);
        if (v === null || v === undefined) continue;
        out += typeof v === 'number' && Number.isInteger(v) ? v.toFixed(0) : asText(v);
      }
    }
    return cutReplace(out);
  }

  private replaced(value: Value, made: Made): Value {
    if (made.regex === '') return value;
    if (Array.isArray(value)) return value.map((x) => applyReplace(asText(x), made));
    return applyReplace(asText(value), made);
  }

  /**
   * One string (AnalyzeRule.getString): lists joined with lines, entities decoded, `isUrl`
   * resolved. Rules with no JavaScript, `@put` or template (most) run without an async frame.
   */
  getString(rule: string | null | undefined, options: StringOptions = NO_OPTIONS): Promise<string> {
    if (!rule) return Promise.resolve('');
    try {
      const { rules } = options.inner ? compileRule(rule, this.isJson, false, false) : compileRule(rule, this.isJson, this.regexMode, false);
      if (!rules.every(isPlain)) return this.getStringAwaiting(rules, options);
      const isUrl = options.isUrl === true;
      let result = options.content ?? this.content;
      if (result !== undefined) for (const sr of rules) result = this.piece(sr, sr.fixed!, result, isUrl);
      return Promise.resolve(this.finish(rules.length === 0 ? undefined : result, options));
    } catch (e) {
      return Promise.reject(e);
    }
  }

  private async getStringAwaiting(rules: readonly SourceRule[], options: StringOptions): Promise<string> {
    const isUrl = options.isUrl === true;
    let result: Value = options.content ?? this.content;
    if (result === undefined) return this.finish(undefined, options);
    for (const sr of rules) {
      if (sr.put.length > 0) await this.putRules(sr);
      const made = sr.fixed ?? (await this.makeUp(sr, result));
      if (sr.mode !== 'js') result = this.piece(sr, made, result, isUrl);
      else if (result !== null && result !== undefined)
        result = replacedOnce(made.rule !== '' || made.regex === '' ? await this.evalJs(made.rule, result) : result, made);
    }
    return this.finish(result, options);
  }

  /** A piece that is no JavaScript on the value so far: its step, then its `##` replacement. */
  private piece(sr: SourceRule, made: Made, result: Value, isUrl: boolean): Value {
    if (result === null || result === undefined) return result;
    // made.rule comes trimmed (cutReplace).
    return replacedOnce(made.rule !== '' || made.regex === '' ? this.stringStep(sr.mode, made.rule, result, isUrl) : result, made);
  }

  /** The value as the string getString gives. */
  private finish(result: Value, options: StringOptions): string {
    const str = asText(result);
    const text = options.unescape !== false && str.includes('&') ? decodeHTML(str) : str;
    if (options.isUrl !== true) return text;
    return text.trim() === '' ? (this.baseUrl ?? '') : resolveUrl(this.redirectUrl, text);
  }

  private stringStep(mode: SourceRule['mode'], rule: string, result: Value, isUrl: boolean): Value {
    switch (mode) {
      case 'json':
        return jsonString1(this.jsonOf(result), rule);
      case 'xpath': {
        const found = xpathItems(this.treeOf(result), rule);
        return found.length === 0 ? null : found.map(itemString).join('\n');
      }
      case 'default': {
        const list = jsoupStrings(this.nodeOf(result), rule);
        if (isUrl) return list[0] ?? '';
        return list.length === 0 ? null : list.join('\n');
      }
      default:
        return rule;
    }
  }

  /** A list of strings (getStringList): a string result cut at lines; with `isUrl`, absolute, without blanks or repeats. */
  async getStringList(rule: string | null | undefined, options: { content?: Content; isUrl?: boolean } = {}): Promise<string[] | null> {
    if (!rule) return null;
    const { rules } = compileRule(rule, this.isJson, this.regexMode, false);
    let result: Value = options.content ?? this.content;
    if (result !== undefined && rules.length > 0) {
      for (const sr of rules) {
        await this.putRules(sr);
        const made = await this.makeUp(sr, result);
        if (result === null || result === undefined) continue;
        if (made.rule !== '') result = await this.listStep(sr.mode, made.rule, result);
        if (result !== null && result !== undefined) result = this.replaced(result, made);
      }
    }
    if (result === null || result === undefined) return null;
    const list = typeof result === 'string' ? result.split('\n') : Array.isArray(result) ? result.map(asText) : [asText(result)];
    if (!options.isUrl) return list;
    const urls: string[] = [];
    for (const u of list) {
      const abs = resolveUrl(this.redirectUrl, u);
      if (abs !== '' && !urls.includes(abs)) urls.push(abs);
    }
    return urls;
  }

  private async listStep(mode: SourceRule['mode'], rule: string, result: Value): Promise<Value> {
    switch (mode) {
      case 'js':
        return this.evalJs(rule, result);
      case 'json':
        return jsonStrings(this.jsonOf(result), rule);
      case 'xpath':
        return xpathItems(this.treeOf(result), rule).map(itemString);
      case 'default':
        return jsoupStrings(this.nodeOf(result), rule);
      default:
        return rule;
    }
  }

  /** The items of a list rule (getElements): elements, JSON values or AllInOne items; a `:` rule turns AllInOne on. */
  async getElements(rule: string): Promise<unknown[]> {
    const compiled = compileRule(rule, this.isJson, this.regexMode, true);
    if (compiled.allInOne) this.regexMode = true;
    let result: Value = this.content;
    if (result !== undefined && compiled.rules.length > 0) {
      for (const sr of compiled.rules) {
        await this.putRules(sr);
        if (result === null || result === undefined) continue;
        result = await this.elementsStep(sr.mode, sr.raw, result);
      }
    }
    if (result === null || result === undefined) return [];
    return Array.isArray(result) ? result : [result];
  }

  private async elementsStep(mode: SourceRule['mode'], rule: string, result: Value): Promise<Value> {
    switch (mode) {
      case 'regex':
        return allInOne(asText(result), splitNotBlank(rule));
      case 'js':
        return this.evalJs(rule, result);
      case 'json':
        return jsonItems(this.jsonOf(result), rule);
      case 'xpath':
        return xpathItems(this.treeOf(result), rule);
      default:
        return jsoupElements(this.nodeOf(result), rule);
    }
  }

  /** One item (getElement, the `init` rule of book info): the `##` suffix and templates applied. */
  async getElement(rule: string): Promise<unknown> {
    if (!rule) return null;
    const compiled = compileRule(rule, this.isJson, this.regexMode, true);
    if (compiled.allInOne) this.regexMode = true;
    let result: Value = this.content;
    for (const sr of compiled.rules) {
      await this.putRules(sr);
      const made = await this.makeUp(sr, result);
      if (result === null || result === undefined) continue;
      switch (sr.mode) {
        case 'regex':
          result = allInOneFirst(asText(result), splitNotBlank(made.rule));
          break;
        case 'js':
          result = await this.evalJs(made.rule, result);
          break;
        case 'json':
          result = readPath(this.jsonOf(result), made.rule) ?? null;
          break;
        case 'xpath':
          result = xpathItems(this.treeOf(result), made.rule);
          break;
        default:
          result = jsoupElements(this.nodeOf(result), made.rule);
      }
      if (made.regex !== '') result = applyReplace(asText(result), made);
    }
    return result;
  }

  /** `java.put`: stores and returns the value. */
  put(key: string, value: string): string {
    this.variables.put(key, value);
    return value;
  }

  /** `java.get`: the stored value or ''. */
  get(key: string): string {
    return this.variables.get(key) ?? '';
  }

  /** The text of an element as JSoup's text() gives it (for the JS seam's Element shim). */
  static text(el: Element): string {
    return jsoupText(el);
  }
}

function splitNotBlank(rule: string): string[] {
  return rule
    .split('&&')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}
