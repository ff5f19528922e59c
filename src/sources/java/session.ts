// The composition: a source's scripts in its sandbox with the helpers bound. `javaBindings(engine,
// source, http, host)` gives the UrlScript the HTTP client runs URL rules' JavaScript with, and
// `ruleJs(ctx, extra)`, the RuleJs a RuleContext runs rules' JavaScript with. Each call binds one
// host function (`__legado`) that routes the prelude's methods to the helpers with the call's
// own state: its rule context, its book and chapter, the elements handed to it.
import type { RuleContext, RuleJs } from '../analyze.js';
import type { BookSource, EngineHost, SourceHttp, StrResponse, UrlScript, UrlVars, VariableStore, WebChapter } from '../engine/types.js';
import { LegadoStoreError } from '../../errors.js';
import { formatKeepImg } from '../html-format.js';
import { ScriptFailedError, type ScriptPlace } from '../js/errors.js';
import { QuickJsEngine } from '../js/engine.js';
import type { JsBindings, JsEngine, JsSource } from '../js/types.js';
import { domCall, elementsOut, isNode, jsoupParse, markerId, NodeTable } from './dom-api.js';
import { HelperError, HelperUnsupportedError } from './errors.js';
import { codecHelpers, symmetricOp } from './helpers-codec.js';
import { netHelpers, strResponseOut } from './helpers-net.js';
import { prelude, withPrepare } from './prelude.js';
import { cacheApi, cookieApi, jsonMap, sourceApi, sourceVariables } from './store-api.js';

type Helper = (...args: unknown[]) => unknown;
type Book = NonNullable<UrlVars['book']>;

export interface JavaBindingsOptions {
  /** The phone's Android ID: login info (`userInfo_<url>`) is AES-encrypted with its first 16 characters, as the app does. */
  readonly deviceId?: string;
  /** The offset from UTC (ms) `java.timeFormat` writes in; default the host's own time zone. */
  readonly timeZoneOffsetMs?: number;
  /**
   * Makes an engine for scripts started while one of the source's scripts waits on a helper (a
   * JavaScript `header` or a `{{js}}` URL fetched by `java.ajax`): the waiting script holds its
   * lane, so they run on another. Default a one-lane QuickJsEngine (give one with `wasmModule` on workerd).
   */
  readonly nestedEngine?: () => JsEngine;
}

/** Engines for nested scripts, shared by the sources of one engine, made when first needed. */
const nestedEngines = new WeakMap<JsEngine, JsEngine[]>();
/** Nesting deeper than this is refused (the app stops at 10 levels of its own). */
const MAX_NESTING = 4;

/** What a rule's script sees beyond the rule context (AnalyzeRule's bindings). */
export interface RuleExtra {
  readonly book?: Book;
  readonly chapter?: Partial<WebChapter>;
  readonly title?: string;
  readonly nextChapterUrl?: string;
  readonly key?: string;
  readonly page?: number;
  /** The rule the scripts belong to (`ruleToc.chapterList`…), for error messages. */
  readonly rule?: string;
  /** Where `book.getVariable/putVariable` read and write (the book's variable map). */
  readonly bookVariables?: VariableStore;
  readonly chapterVariables?: VariableStore;
  /** `java.reGetBook()`/`java.refreshTocUrl()` of `preUpdateJs`; without them the helpers refuse. */
  readonly reGetBook?: () => Promise<void>;
  readonly refreshTocUrl?: () => Promise<void>;
}

export interface JavaBindings {
  /** Runs a URL rule's JavaScript (the HTTP client's seam): `java` = helpers + the bindings' `java` fields, written back after. */
  readonly urlScript: UrlScript;
  /** The RuleJs of a RuleContext: `java` = helpers + the context's getString/getElements/put/get... */
  ruleJs(ctx?: RuleContext, extra?: RuleExtra): RuleJs;
  /** Runs a source-level script (`header`, `loginUrl`, explore JS) as BaseSource.evalJS: `baseUrl` = the source URL. */
  sourceScript(code: string, bindings?: Readonly<Record<string, unknown>>, rule?: string): Promise<unknown>;
  /** The sandbox's source: the prelude and the jsLib (its URLs fetched once and joined). */
  jsSource(): Promise<JsSource>;
}

const BROWSER = 'needs a browser or the app’s login screen, which cannot run here';
const FILES = 'reads or writes files of the app’s cache, which this engine does not have';
const UNSUPPORTED: Record<string, string> = {
  startBrowser: BROWSER,
  startBrowserAwait: BROWSER,
  getVerificationCode: BROWSER,
  webView: BROWSER,
  webViewGetSource: BROWSER,
  webViewGetOverrideUrl: BROWSER,
  openUrl: BROWSER,
  downloadFile: FILES,
  getFile: FILES,
  readFile: FILES,
  readTxtFile: FILES,
  deleteFile: FILES,
  unzipFile: FILES,
  un7zFile: FILES,
  unrarFile: FILES,
  unArchiveFile: FILES,
  getTxtInFolder: FILES,
  getRarStringContent: 'RAR archives are not supported here (zip is)',
  getRarByteArrayContent: 'RAR archives are not supported here (zip is)',
  get7zStringContent: '7z archives are not supported here (zip is)',
  get7zByteArrayContent: '7z archives are not supported here (zip is)',
  queryTTF: 'font decoding is not supported here',
  queryBase64TTF: 'font decoding is not supported here',
  replaceFont: 'font decoding is not supported here',
  t2s: 'traditional/simplified conversion needs a dictionary this engine does not carry',
  s2t: 'traditional/simplified conversion needs a dictionary this engine does not carry',
  createAsymmetricCrypto: 'RSA and other asymmetric ciphers are not supported here',
  createSign: 'signatures are not supported here',
  androidId: 'there is no Android device here',
};

/** The app's JsURL: host, origin (with an explicit port), path, and the query's values URL-decoded. */
function jsUrl(url: string, base: string | undefined) {
  let u: URL;
  try {
    u = base === undefined ? new URL(url) : new URL(url, base);
  } catch {
    throw new HelperError('toURL', `not a URL: ${JSON.stringify(url)}`);
  }
  const query = u.search.slice(1);
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      return s;
    }
  };
  const params = query
    ? query
        .split('&')
        .filter((pair) => pair.includes('='))
        .map((pair) => [pair.slice(0, pair.indexOf('=')), decode(pair.slice(pair.indexOf('=') + 1))])
    : null;
  return {
    __t: 'url',
    host: u.hostname,
    origin: `${u.protocol.slice(0, -1)}://${u.hostname}${u.port ? `:${u.port}` : ''}`,
    pathname: u.pathname,
    searchParams: params,
  };
}

const WEBVIEW_UA = 'Mozilla/5.0 (Linux; Android 13; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';

/** The state of one script call. */
interface Call {
  readonly place: ScriptPlace;
  /** Which engine runs it: 0 the host's, n the n-th nested one. */
  level: number;
  readonly nodes: NodeTable;
  readonly ctx: RuleContext | undefined;
  readonly extra: RuleExtra;
  /** put/get of a URL rule's script: the chapter's, else the rule data's (AnalyzeUrl.put/get). */
  readonly variables: VariableStore | undefined;
  /** The typed error a helper threw last, thrown again if the script does not catch it. */
  error?: LegadoStoreError;
}

/** A host value as the script gets it: nodes as ids, byte arrays signed, StrResponses shaped. */
function toScript(value: unknown, nodes: NodeTable): unknown {
  if (isNode(value)) return { __n: nodes.id(value) };
  if (value instanceof Uint8Array) return Array.from(value, (b) => (b << 24) >> 24);
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every(isNode)) return elementsOut(value, nodes);
    return value.map((v) => toScript(v, nodes));
  }
  if (isStrResponse(value)) return strResponseOut(value);
  return value;
}

const isStrResponse = (v: unknown): v is StrResponse =>
  typeof v === 'object' && v !== null && (v as StrResponse).headers instanceof Headers && typeof (v as StrResponse).body === 'string';

/** A script value back on the host: `{"__n": id}` as the node again, a shaped StrResponse as one. */
function fromScript(value: unknown, nodes: NodeTable): unknown {
  if (Array.isArray(value)) return value.map((v) => fromScript(v, nodes));
  if (typeof value !== 'object' || value === null) return value;
  const id = markerId(value);
  if (id !== undefined) return nodes.node(id, 'result');
  const v = value as { __t?: unknown; url?: string; code?: number; body?: string; headers?: [string, string][] };
  if (v.__t === 'str')
    return { url: v.url ?? '', requestUrl: v.url ?? '', code: v.code ?? 200, body: v.body ?? '', headers: new Headers(v.headers ?? []) } satisfies StrResponse;
  return value;
}

/** A book or chapter for a script: its fields without the pages the flows keep on it. */
function plainBook(book: Book | undefined): Book | undefined {
  if (!book) return undefined;
  const { infoHtml: _i, tocHtml: _t, ...rest } = book;
  return rest;
}

const text = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'string' ? v : String(v));

const isJsonObject = (s: string): boolean => {
  const t = s.trim();
  if (!t.startsWith('{') || !t.endsWith('}')) return false;
  try {
    return typeof JSON.parse(t) === 'object';
  } catch {
    return false;
  }
};

/**
 * `http` may be given as a function: the HTTP client is made with this composition's urlScript
 * (`createSourceHttp(source, host, bindings.urlScript)`), so each needs the other.
 */
export function javaBindings(
  engine: JsEngine,
  source: BookSource,
  httpGiven: SourceHttp | (() => SourceHttp),
  host: EngineHost,
  options: JavaBindingsOptions = {},
): JavaBindings {
  const name = source.bookSourceName || source.bookSourceUrl;
  const log = (line: string) => host.log?.(line);
  const httpOf = typeof httpGiven === 'function' ? httpGiven : () => httpGiven;
  const jarOf = () => httpOf().cookies;
  const http: SourceHttp = {
    fetch: (rule, vars) => httpOf().fetch(rule, vars),
    request: (rule, vars) => httpOf().request(rule, vars),
    direct: (method, url, body, headers) => httpOf().direct(method, url, body, headers),
    get cookies() {
      return jarOf();
    },
  };
  const codec = codecHelpers(options);
  const sourceMethods = sourceApi(source, host.storage, jarOf, { ...options, script: (code, rule) => sourceScript(code, {}, rule) });
  const cookie = cookieApi(jarOf);
  const cache = cacheApi(host);
  let current: Call | undefined; // the call whose helpers are running (calls of a source run one at a time in its sandbox)
  const net = netHelpers({ http, vars: () => urlVars(current), log });

  function urlVars(call: Call | undefined): UrlVars {
    const extra = call?.extra ?? {};
    return { ...(extra.book ? { book: extra.book } : {}), ...(extra.chapter ? { chapter: extra.chapter } : {}) };
  }

  const java: Record<string, Helper> = {
    ...codec,
    ...net,
    getCookie: (tag, key) => (key === undefined || key === null ? jarOf().getCookie(text(tag)) : jarOf().getKey(text(tag), text(key))),
    log: (msg) => {
      log(text(msg));
      return msg;
    },
    toast: (msg) => log(`${name}: ${text(msg)}`),
    longToast: (msg) => log(`${name}: ${text(msg)}`),
    getWebViewUA: () => WEBVIEW_UA,
    htmlFormat: (html) => formatKeepImg(text(html)),
    toURL: (url, base) => jsUrl(text(url), base === undefined || base === null || base === '' ? undefined : text(base)),
    interop: (what) => {
      throw new HelperUnsupportedError(
        text(what) || 'Packages',
        'Java classes cannot be reached from scripts here (only org.jsoup.Jsoup.parse and java.lang.String are shimmed)',
      );
    },
  };
  for (const [helper, why] of Object.entries(UNSUPPORTED)) {
    java[helper] = () => {
      throw new HelperUnsupportedError(helper, why);
    };
  }

  /** put/get/getString… of `java`: the rule context's in rules, the URL's variables in URL scripts. */
  function ruleHelper(call: Call, helper: string, args: unknown[]): unknown {
    const ctx = call.ctx;
    if (helper === 'get' && args.length >= 2) return net.httpGet!(args[0], args[1]);
    if (helper === 'put' || helper === 'get') {
      const key = text(args[0]);
      if (helper === 'put') {
        const value = text(args[1]);
        if (ctx) ctx.put(key, value);
        else call.variables?.put(key, value);
        return value;
      }
      if (ctx) return ctx.get(key);
      if (key === 'bookName' && call.extra.book?.name !== undefined) return call.extra.book.name;
      if (key === 'title' && call.extra.chapter?.title !== undefined) return call.extra.chapter.title;
      return call.variables?.get(key) || '';
    }
    if (helper === 'reGetBook' || helper === 'refreshTocUrl') {
      const hook = call.extra[helper];
      if (!hook) throw new HelperUnsupportedError(helper, 'only in preUpdateJs (rule-engine.md §4)');
      return hook().then(() => undefined);
    }
    if (!ctx) throw new HelperUnsupportedError(helper, 'is a rule analyser method: not available in a URL script');
    switch (helper) {
      case 'getString': {
        const [rule, second, isUrl] = args;
        if (typeof second === 'boolean') return ctx.getString(text(rule), { unescape: second });
        return ctx.getString(text(rule), {
          ...(second !== undefined && second !== null ? { content: fromScript(second, call.nodes) } : {}),
          isUrl: isUrl === true,
        });
      }
      case 'getStringList': {
        const [rule, content, isUrl] = args;
        return ctx.getStringList(text(rule), {
          ...(content !== undefined && content !== null ? { content: fromScript(content, call.nodes) } : {}),
          isUrl: isUrl === true,
        });
      }
      case 'getElement':
        return ctx.getElement(text(args[0]));
      case 'getElements':
        return ctx.getElements(text(args[0]));
      case 'setContent':
        ctx.setContent(fromScript(args[0], call.nodes), args[1] === undefined || args[1] === null ? undefined : text(args[1]));
        return undefined;
      default:
        throw new HelperUnsupportedError(helper, 'not supported here');
    }
  }

  function bookVariable(call: Call, which: 'book' | 'chapter', op: 'getVariable' | 'putVariable', args: unknown[]): unknown {
    const store = which === 'book' ? call.extra.bookVariables : call.extra.chapterVariables;
    const key = text(args[0]);
    if (op === 'putVariable') {
      if (!store) throw new HelperUnsupportedError(`${which}.putVariable`, 'no variable map was given for it');
      store.put(key, text(args[1]));
      return undefined;
    }
    if (store) return store.get(key) ?? '';
    const own = which === 'book' ? call.extra.book?.variable : call.extra.chapter?.variable;
    return jsonMap(own)?.[key] ?? '';
  }

  function route(call: Call, fullName: string, args: unknown[]): unknown {
    const dot = fullName.indexOf('.');
    const area = fullName.slice(0, dot);
    const helper = fullName.slice(dot + 1);
    switch (area) {
      case 'java': {
        const fn = java[helper];
        if (!fn) throw new HelperUnsupportedError(helper, 'not supported here');
        return fn(...args);
      }
      case 'rule':
        return ruleHelper(call, helper, args);
      case 'source': {
        if ((helper === 'get' && args.length >= 2) || !sourceMethods[helper]) {
          if (helper === 'get') return net.httpGet!(args[0], args[1]);
          throw new HelperUnsupportedError(`source.${helper}`, 'not supported here');
        }
        return sourceMethods[helper]!(...args);
      }
      case 'cookie':
        return cookie[helper]!(...args);
      case 'cache':
        return cache[helper]!(...args);
      case 'dom':
        return domCall(call.nodes, helper, args[0], args.slice(1));
      case 'jsoup':
        return jsoupParse(call.nodes, text(args[0]), text(args[1]));
      case 'symmetric':
        return symmetricOp(args[0], args[1], args[2], args[3]);
      case 'book':
      case 'chapter':
        return bookVariable(call, area, helper as 'getVariable' | 'putVariable', args);
      default:
        throw new HelperUnsupportedError(fullName, 'not supported here');
    }
  }

  /** Per level: the source's scripts there that wait on a helper's Promise (their lane is held). */
  const waiting: number[] = [];
  function engineAt(level: number): JsEngine {
    if (level === 0) return engine;
    let pool = nestedEngines.get(engine);
    if (!pool) nestedEngines.set(engine, (pool = []));
    while (pool.length < level) pool.push(options.nestedEngine?.() ?? new QuickJsEngine({ lanes: 1 }));
    return pool[level - 1]!;
  }

  /** The one host function of a call: routes, shapes what comes back, remembers a typed failure. */
  function dispatcher(call: Call) {
    const fail = (e: unknown): never => {
      if (e instanceof LegadoStoreError) call.error = e;
      throw e;
    };
    return (fullName: unknown, args: unknown) => {
      const list = Array.isArray(args) ? args : [];
      current = call;
      try {
        const out = route(call, text(fullName), list);
        if (out instanceof Promise) {
          const level = call.level;
          waiting[level] = (waiting[level] ?? 0) + 1;
          return out.then((v) => toScript(v, call.nodes), fail).finally(() => void waiting[level]!--);
        }
        return toScript(out, call.nodes);
      } catch (e) {
        return fail(e);
      }
    };
  }

  async function fetchJsLib(): Promise<string> {
    const lib = source.jsLib ?? '';
    if (!isJsonObject(lib)) return lib;
    const parts: string[] = [];
    for (const url of Object.values(JSON.parse(lib) as Record<string, unknown>)) {
      if (typeof url !== 'string' || !/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) continue; // the app evaluates only absolute URLs
      let answer: StrResponse;
      try {
        answer = await http.fetch(url);
      } catch (e) {
        throw new HelperError('source.jsLib', `could not fetch ${url} (${e instanceof Error ? e.message : String(e)})`, { source: name, rule: 'jsLib' });
      }
      // The app would evaluate an error page as script; a 4xx/5xx is a failed download here.
      if (answer.code >= 400) throw new HelperError('source.jsLib', `could not fetch ${url} (HTTP ${answer.code})`, { source: name, rule: 'jsLib' });
      parts.push(answer.body);
    }
    return parts.join('\n');
  }

  let made: Promise<JsSource> | undefined;
  function jsSource(): Promise<JsSource> {
    if (!made) {
      // The prelude is one line: jsLib's own lines keep their numbers in errors.
      made = fetchJsLib().then((lib) => ({ key: source.bookSourceUrl, name, jsLib: `${prelude(source)}${lib}` }));
      made.catch(() => (made = undefined)); // a failed download is tried again by the next script
    }
    return made;
  }

  async function run(code: string, bindings: JsBindings, call: Call): Promise<unknown> {
    const js = await jsSource();
    // A level where none of the source's scripts waits on a helper: the first, unless this script
    // was started from inside a waiting one (it would queue behind it on its lane for ever).
    while ((waiting[call.level] ?? 0) > 0) call.level++;
    if (call.level > MAX_NESTING) throw new HelperUnsupportedError('script', `scripts started from scripts more than ${MAX_NESTING} deep`, call.place);
    try {
      const out = await engineAt(call.level).run(
        withPrepare(code),
        { ...bindings, __legado: dispatcher(call) },
        { source: js, ...(call.place.rule ? { rule: call.place.rule } : {}) },
      );
      return fromScript(out, call.nodes);
    } catch (e) {
      const helperError = call.error;
      if (helperError && e instanceof ScriptFailedError && e.scriptMessage === `Error: ${helperError.message}`) {
        throw 'at' in helperError && typeof helperError.at === 'function' ? (helperError.at as (p: ScriptPlace) => Error)(call.place) : helperError;
      }
      throw e;
    } finally {
      if (current === call) current = undefined;
    }
  }

  const newCall = (rule: string | undefined, ctx: RuleContext | undefined, extra: RuleExtra, variables?: VariableStore): Call => ({
    place: { source: name, ...(rule ? { rule } : {}) },
    nodes: new NodeTable(),
    level: 0,
    ctx,
    extra,
    variables,
  });

  const urlScript: UrlScript = async (code, bindings, rule) => {
    const { java: bits, variables, source: _s, cookie: _c, cache: _ca, book, chapter, result, headerMap, ...rest } = bindings as Record<string, unknown>;
    const store = variables && typeof (variables as VariableStore).get === 'function' ? (variables as VariableStore) : undefined;
    const extra: RuleExtra = { ...(book ? { book: book as Book } : {}), ...(chapter ? { chapter: chapter as Partial<WebChapter> } : {}) };
    const call = newCall(rule, undefined, extra, store);
    const urlBits = bits && typeof bits === 'object' ? Object.fromEntries(Object.entries(bits).filter(([, v]) => typeof v !== 'function')) : undefined;
    // the `js` option's headers: `java.headerMap.put(k, v)` as in the app (and `headerMap` itself)
    const onJava = headerMap ? { ...urlBits, headerMap } : urlBits;
    const out = await run(
      code,
      {
        ...rest,
        ...(headerMap ? { headerMap } : {}),
        book: plainBook(extra.book),
        chapter: extra.chapter,
        result: toScript(result, call.nodes),
        ...(onJava ? { __legadoUrl: onJava } : {}),
      },
      call,
    );
    if (urlBits && bits && typeof bits === 'object') {
      // `java.url = …` / `java.headerMap` set by the `js` option: written back for the HTTP client.
      const after = (await engineAt(call.level).run(
        '__legadoUrlBits()',
        { __legado: dispatcher(call) },
        { source: await jsSource(), rule: rule ?? 'js' },
      )) as Record<string, unknown>;
      Object.assign(bits, after);
    }
    return out;
  };

  function ruleJs(ctxGiven?: RuleContext, extra: RuleExtra = {}): RuleJs {
    return {
      eval: (code, b) => {
        const ctx = b.java ?? ctxGiven;
        const call = newCall(extra.rule, ctx, extra);
        const chapter = extra.chapter;
        return run(
          code,
          {
            result: toScript(b.result, call.nodes),
            // the page is copied in only for a script that names it (a TOC runs one per chapter)
            ...(/\bsrc\b/.test(code) ? { src: toScript(b.src, call.nodes) } : {}),
            baseUrl: b.baseUrl,
            book: plainBook(extra.book),
            chapter,
            title: extra.title ?? chapter?.title,
            nextChapterUrl: extra.nextChapterUrl,
            ...(extra.key !== undefined ? { key: extra.key } : {}),
            ...(extra.page !== undefined ? { page: extra.page } : {}),
          },
          call,
        );
      },
    };
  }

  function sourceScript(code: string, bindings: Readonly<Record<string, unknown>> = {}, rule?: string): Promise<unknown> {
    // BaseSource.evalJS: `java` is the source, so java.put/get are the source's variables.
    const call = newCall(rule, undefined, {}, sourceVariables(source, host.storage));
    const { result, ...rest } = bindings;
    return run(code, { baseUrl: source.bookSourceUrl, ...rest, result: toScript(result, call.nodes) }, call);
  }

  return { urlScript, ruleJs, sourceScript, jsSource };
}
