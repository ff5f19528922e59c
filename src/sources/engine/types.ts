// The rule engine's seams, fixed before its parts are built side by side: the book source as the
// app's 3.x JSON has it, what the four flows give back (named as the app's entities name their
// fields, so the store writes them as they are), the HTTP client a flow asks for pages, and what
// the host passes in (fetch, the sandbox, the store's cookies and caches, a clock, a log).
import type { HostFetch } from '../../net/fetch.js';
import type { JsEngine } from '../js/types.js';

/** `ruleSearch` and `ruleExplore` (entities/rule/SearchRule.kt, ExploreRule.kt). */
export interface SearchRule {
  readonly checkKeyWord?: string | null;
  readonly bookList?: string | null;
  readonly name?: string | null;
  readonly author?: string | null;
  readonly intro?: string | null;
  readonly kind?: string | null;
  readonly lastChapter?: string | null;
  readonly updateTime?: string | null;
  readonly bookUrl?: string | null;
  readonly coverUrl?: string | null;
  readonly wordCount?: string | null;
}

/** `ruleBookInfo` (BookInfoRule.kt). */
export interface BookInfoRule {
  readonly init?: string | null;
  readonly name?: string | null;
  readonly author?: string | null;
  readonly intro?: string | null;
  readonly kind?: string | null;
  readonly lastChapter?: string | null;
  readonly updateTime?: string | null;
  readonly coverUrl?: string | null;
  readonly tocUrl?: string | null;
  readonly wordCount?: string | null;
  readonly canReName?: string | null;
  readonly downloadUrls?: string | null;
}

/** `ruleToc` (TocRule.kt). */
export interface TocRule {
  readonly preUpdateJs?: string | null;
  readonly chapterList?: string | null;
  readonly chapterName?: string | null;
  readonly chapterUrl?: string | null;
  readonly formatJs?: string | null;
  readonly isVolume?: string | null;
  readonly isVip?: string | null;
  readonly isPay?: string | null;
  readonly updateTime?: string | null;
  readonly nextTocUrl?: string | null;
}

/** `ruleContent` (ContentRule.kt). */
export interface ContentRule {
  readonly content?: string | null;
  readonly title?: string | null;
  readonly nextContentUrl?: string | null;
  readonly webJs?: string | null;
  readonly sourceRegex?: string | null;
  readonly replaceRegex?: string | null;
  readonly imageStyle?: string | null;
  readonly imageDecode?: string | null;
  readonly payAction?: string | null;
}

/**
 * A book source as its 3.x JSON (and the store's row, rule columns parsed) has it. Rule objects
 * may come as JSON text, as the store keeps them; `parseBookSource` (sources/engine/source.ts) gives this.
 */
export interface BookSource {
  readonly bookSourceUrl: string;
  readonly bookSourceName: string;
  readonly bookSourceGroup?: string | null;
  /** 0 text, 1 audio, 2 image, 3 file. */
  readonly bookSourceType?: number;
  readonly bookUrlPattern?: string | null;
  readonly customOrder?: number;
  readonly enabled?: boolean;
  readonly enabledExplore?: boolean;
  readonly jsLib?: string | null;
  /** Default true (the app's). */
  readonly enabledCookieJar?: boolean | null;
  /** `"N"` (ms between starts, one at a time) or `"a/b"` (a requests per b ms). */
  readonly concurrentRate?: string | null;
  readonly header?: string | null;
  readonly loginUrl?: string | null;
  readonly loginUi?: string | null;
  readonly loginCheckJs?: string | null;
  readonly coverDecodeJs?: string | null;
  readonly bookSourceComment?: string | null;
  readonly variableComment?: string | null;
  readonly lastUpdateTime?: number;
  readonly respondTime?: number;
  readonly weight?: number;
  readonly exploreUrl?: string | null;
  readonly exploreScreen?: string | null;
  readonly searchUrl?: string | null;
  readonly ruleExplore?: SearchRule | null;
  readonly ruleSearch?: SearchRule | null;
  readonly ruleBookInfo?: BookInfoRule | null;
  readonly ruleToc?: TocRule | null;
  readonly ruleContent?: ContentRule | null;
}

/** A search or explore hit (SearchBook.kt): the `searchBooks` row's fields. */
export interface SearchBook {
  bookUrl: string;
  /** The source's bookSourceUrl. */
  origin: string;
  originName: string;
  /** The app's book type bits (BookType: text 8, audio 32, image 64, webFile 128, ...). */
  type: number;
  name: string;
  author: string;
  kind: string | null;
  coverUrl: string | null;
  intro: string | null;
  wordCount: string | null;
  latestChapterTitle: string | null;
  /** Defaults to '' (the book URL is used). */
  tocUrl: string;
  /** When found (epoch ms), the store's clock. */
  time: number;
  /** The hit's variables (`@put`, `java.put`) as the app's JSON map text, or null. */
  variable: string | null;
  /** The source's customOrder. */
  originOrder: number;
  /** The page the hit came from when it was a detail page (the info step then fetches nothing). */
  infoHtml?: string;
  /** The page kept for the TOC step when the TOC URL is the book URL. */
  tocHtml?: string;
}

/** A book as the info step fills it: the fields of the `books` row it sets. */
export interface WebBook {
  bookUrl: string;
  tocUrl: string;
  origin: string;
  originName: string;
  name: string;
  author: string;
  kind: string | null;
  coverUrl: string | null;
  intro: string | null;
  wordCount: string | null;
  latestChapterTitle: string | null;
  type: number;
  variable: string | null;
  /** Download URLs of a file (type 3) source. */
  downloadUrls?: string[];
  infoHtml?: string;
  tocHtml?: string;
}

/** A chapter of the TOC (BookChapter.kt): the `chapters` row's fields the TOC step sets. */
export interface WebChapter {
  url: string;
  title: string;
  isVolume: boolean;
  /** The page the chapter was listed on (relative URLs in its content resolve against the chapter URL). */
  baseUrl: string;
  bookUrl: string;
  /** From 0, in reading order. */
  index: number;
  isVip: boolean;
  isPay: boolean;
  /** `updateTime` of the TOC rule. */
  tag: string | null;
  variable: string | null;
}

/** A page as a flow reads it (the app's StrResponse): the final URL after redirects is the base. */
export interface StrResponse {
  /** The final URL. */
  readonly url: string;
  /** The URL asked for (after the URL rule was worked out). */
  readonly requestUrl: string;
  readonly code: number;
  /** The status of the last redirect followed (the app's priorResponse.code), for the debug line; absent when none was. */
  readonly redirectCode?: number;
  readonly headers: Headers;
  /** The body decoded (BOM, header, `<meta>`, detection, UTF-8), or hex bytes for `type`. */
  readonly body: string;
}

/** The values a URL rule's `{{…}}` and JS see (AnalyzeUrl's bindings). */
export interface UrlVars {
  readonly key?: string;
  /** From 1. */
  readonly page?: number;
  readonly baseUrl?: string;
  readonly book?: Partial<SearchBook & WebBook>;
  readonly chapter?: Partial<WebChapter>;
  /** Variables of the rule data the URL belongs to (search book, book, chapter). */
  readonly variables?: VariableStore;
  /** Ends a rate-limit wait and the fetch (a flow's time limit). */
  readonly signal?: AbortSignal;
}

/** Where `@put`/`java.put` keep values for the object being built (the app's `variable` map). */
export interface VariableStore {
  get(key: string): string | undefined;
  put(key: string, value: string): void;
}

/**
 * A source's HTTP client (AnalyzeUrl + HttpHelper): one per source and run, so its cookie jar,
 * `concurrentRate` and login header are the source's.
 */
export interface SourceHttp {
  /** Works out a URL rule (JS, templates, `<a,b>` pages, options, charset) and fetches it. */
  fetch(urlRule: string, vars?: UrlVars): Promise<StrResponse>;
  /** The request a URL rule makes, without fetching (for debug lines and cache keys). */
  request(urlRule: string, vars?: UrlVars): Promise<UrlRequest>;
  /**
   * A plain request with no URL rule work and **no redirect following** (`java.get/post/head`:
   * scripts read `Location`); the source's cookies, headers' defaults and rate apply.
   */
  direct(method: 'GET' | 'POST' | 'HEAD', url: string, body: string | null, headers: Readonly<Record<string, string>>): Promise<StrResponse>;
  /** The cookie store the source's requests use (`cookie.*` in scripts). */
  readonly cookies: CookieJar;
}

/**
 * The app's CookieStore as scripts see it: keyed by the URL's registrable domain (an IP as it
 * is); persistent cookies in the store's `cookies` table, session cookies in memory.
 */
export interface CookieJar {
  /** The `k=v; …` text sent to `url`, '' when none. */
  getCookie(url: string): string;
  /** One cookie's value, '' when none. */
  getKey(url: string, key: string): string;
  /** Makes `cookie` what is stored for the domain (the app's CookieStore.setCookie: no merge). */
  setCookie(url: string, cookie: string): void;
  /** Merges `k=v` pairs into what is stored (the app's CookieStore.replaceCookie, despite its name). */
  replaceCookie(url: string, cookie: string): void;
  removeCookie(url: string): void;
}

/** A worked-out URL rule (AnalyzeUrl's fields). */
export interface UrlRequest {
  /** The absolute URL (GET query encoded in `charset`). */
  readonly url: string;
  readonly method: 'GET' | 'POST';
  /** The encoded body of a POST. */
  readonly body: string | Uint8Array | null;
  readonly headers: Readonly<Record<string, string>>;
  readonly charset: string | null;
  readonly retry: number;
  /** `type`: the response is given as hex bytes. */
  readonly type: string | null;
  /** The rule asked for a WebView (not run here: the page is fetched plainly, and said in debug). */
  readonly webView: boolean;
}

/**
 * The store's keyed text the engine reads and writes: the `cookies` table (keyed by registrable
 * domain) and the `caches` table (source variables `v_<url>_<k>`, `sourceVariable_<url>`,
 * `loginHeader_<url>`, `userInfo_<url>`, `java.cache`). The store's Cookies and Cache areas fit.
 */
export interface EngineStorage {
  readonly cookies: {
    get(domain: string): string | undefined;
    /** Merges `k=v` pairs into what is stored. */
    set(domain: string, cookie: string): unknown;
    replace(domain: string, cookie: string): void;
    delete(domain: string): unknown;
  };
  readonly cache: {
    get(key: string): string | null | undefined;
    put(key: string, value: string | null, ttlSeconds?: number): unknown;
    delete(key: string): unknown;
  };
}

/** A debug line (model/Debug.kt's log): the stage's symbol and text. */
export type DebugLog = (line: string) => void;

/** What the host passes in: everything platform-bound. */
export interface EngineHost {
  /** The host's fetch under the network policy (src/net): Node's checks each resolved address. */
  readonly fetch?: HostFetch;
  /** Private and loopback addresses reachable (a LAN, the tests); refused by default. */
  readonly allowPrivateHosts?: boolean;
  /** Hosts reached though private (`name`, `name:port`, `address:port`; src/net/rules.ts): a fixture site with the rest refused. */
  readonly reachableHosts?: readonly string[];
  /** Largest response body (bytes), redirects followed at most, time of one fetch (ms). */
  readonly maxBytes?: number;
  readonly maxRedirects?: number;
  readonly timeoutMs?: number;
  /** The sandbox for sources' scripts; without it a rule that needs JS fails with JsUnavailableError. */
  readonly js?: JsEngine;
  readonly storage: EngineStorage;
  /** Epoch ms (the store's clock in tests). */
  readonly now?: () => number;
  /** `java.log` and debug lines. */
  readonly log?: DebugLog;
}

/**
 * How the HTTP client runs a URL rule's JavaScript (`@js:`, `<js>`, `{{…}}`, the `js` option,
 * a JS `header`): the composition (sources/engine/session.ts) binds it to the source's sandbox and the
 * `java` helpers, so http/ and java/ need not import each other. The client passes `key`, `page`,
 * `baseUrl`, `book`, `chapter`, `source`, `result` and `variables` (the UrlVars' store, for
 * `java.get/put`); for the `js` option also `headerMap` (`get`/`put`/`remove` on the request's
 * headers, for `java.headerMap`). `rule` names the URL rule for messages (its options, which may hold
 * secrets, left out), or is `header`.
 */
export type UrlScript = (code: string, bindings: Readonly<Record<string, unknown>>, rule: string) => Promise<unknown>;

/** An explore entry (`name::url` line or JSON `{title, url, style}`); an empty url is a heading. */
export interface ExploreKind {
  readonly title: string;
  readonly url: string;
  readonly style?: unknown;
}

/**
 * The four flows of one source (model/webBook/WebBook.kt), built by `openSource(source, host)`
 * (sources/engine/session.ts). Each fails with a typed error naming the source and the rule.
 */
export interface SourceFlows {
  readonly source: BookSource;
  search(key: string, page?: number): Promise<SearchBook[]>;
  exploreKinds(): Promise<ExploreKind[]>;
  explore(url: string, page?: number): Promise<SearchBook[]>;
  /** Fills the book from its detail page (`infoHtml` when the hit carried it, else fetched). */
  bookInfo(book: SearchBook | WebBook, options?: { canReName?: boolean }): Promise<WebBook>;
  /** The whole TOC, numbered from 0 (`tocHtml` when the info step kept it). */
  toc(book: WebBook): Promise<WebChapter[]>;
  /** A chapter's text in the app's display form; `nextChapterUrl` stops `nextContentUrl`. */
  content(book: WebBook, chapter: WebChapter, nextChapterUrl?: string): Promise<string>;
}
