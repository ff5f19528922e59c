// What every flow is given (the source, its HTTP client, a way to run JavaScript, a clock and
// the debug log) and the pieces they share: the variable scope the app's AnalyzeRule reads and
// writes, rule contexts, fetching a page (with loginCheckJs), and naming a failed step.
import { RuleContext, type RuleVariables } from '../analyze.js';
import type { BookSource, DebugLog, SourceHttp, StrResponse, UrlVars, WebBook } from '../engine/types.js';
import type { JavaBindings, RuleExtra } from '../java/index.js';
import { LegadoStoreError } from '../../errors.js';
import { SourceStepError } from './errors.js';

/**
 * How the flows run scripts (src/sources/java's bindings): rules' JavaScript with the `java`
 * helpers bound to a rule context; loginCheckJs as AnalyzeUrl runs it; a JS exploreUrl and
 * formatJs as source-level scripts.
 */
export type FlowScripts = Pick<JavaBindings, 'ruleJs' | 'urlScript' | 'sourceScript'>;

export interface FlowEnv {
  readonly source: BookSource;
  readonly http: SourceHttp;
  /** Absent: rules with JavaScript fail with JsUnavailableError; loginCheckJs, preUpdateJs and formatJs are not run. */
  readonly js?: FlowScripts;
  readonly now: () => number;
  readonly log: DebugLog;
  /** `source.put`/`source.get` (caches `v_<url>_<k>`): the last place `java.get` looks. */
  readonly sourceVariables?: RuleVariables;
  /** Ends every fetch of the flows (a check's time limit): rate-limit waits and requests. */
  readonly signal?: AbortSignal;
}

/** A `variable` map of a book, search hit or chapter (the app's JSON map text). */
export class VarMap {
  private readonly map = new Map<string, string>();
  constructor(text?: string | null) {
    if (!text) return;
    try {
      const v = JSON.parse(text) as unknown;
      if (v && typeof v === 'object' && !Array.isArray(v)) for (const [k, x] of Object.entries(v)) if (typeof x === 'string') this.map.set(k, x);
    } catch {
      // The app starts an empty map over text it cannot read.
    }
  }
  get(key: string): string | undefined {
    return this.map.get(key);
  }
  put(key: string, value: string): void {
    this.map.set(key, value);
  }
  entries(): IterableIterator<[string, string]> {
    return this.map.entries();
  }
  copy(): VarMap {
    const c = new VarMap();
    for (const [k, v] of this.map) c.map.set(k, v);
    return c;
  }
  /** The `variable` column: null while nothing was put. */
  text(): string | null {
    return this.map.size === 0 ? null : JSON.stringify(Object.fromEntries(this.map));
  }
}

/**
 * AnalyzeRule's put/get: `put` goes to the chapter, else the book (or search hit), else the
 * rule data, else the source; `get` reads them in that order, skipping empty values, with
 * `bookName` and `title` read from the book and chapter themselves.
 */
export class VarScope implements RuleVariables {
  chapter: VarMap | undefined;
  book: VarMap | undefined;
  /** The book (or search hit) and chapter the variables belong to, as scripts see them (`book`, `chapter`). */
  bookObject: RuleExtra['book'];
  chapterObject: RuleExtra['chapter'];
  ruleData: VarMap | undefined;
  bookName: (() => string) | undefined;
  title: (() => string) | undefined;
  constructor(private readonly source: RuleVariables | undefined) {}

  get(key: string): string | undefined {
    if (key === 'bookName' && this.bookName) return this.bookName();
    if (key === 'title' && this.title) return this.title();
    for (const m of [this.chapter, this.book, this.ruleData, this.source]) {
      const v = m?.get(key);
      if (v !== undefined && v !== '') return v;
    }
    return undefined;
  }

  put(key: string, value: string): void {
    (this.chapter ?? this.book ?? this.ruleData ?? this.source)?.put(key, value);
  }
}

/**
 * A rule context over the scope, with JavaScript when the env has it. A script sees the scope's
 * book and chapter as they are when it runs (a context reused over items sees the current one).
 */
export function ruleContext(env: FlowEnv, scope: VarScope, more: RuleExtra = {}): RuleContext {
  const scripts = env.js;
  const extra = (): RuleExtra => ({
    ...(scope.bookObject ? { book: scope.bookObject } : {}),
    ...(scope.book ? { bookVariables: scope.book } : {}),
    ...(scope.chapterObject ? { chapter: scope.chapterObject } : {}),
    ...(scope.chapter ? { chapterVariables: scope.chapter } : {}),
    ...more,
  });
  const ctx: RuleContext = new RuleContext({
    variables: scope,
    ...(scripts ? { js: { eval: (code, b) => scripts.ruleJs(ctx, extra()).eval(code, b) } } : {}),
  });
  return ctx;
}

/** Runs a step, naming the source, rule and page on whatever it throws. */
export async function step<T>(env: FlowEnv, rule: string, page: string | undefined, run: () => Promise<T> | T): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof SourceStepError || (e instanceof LegadoStoreError && 'sourceUrl' in e)) throw e;
    throw new SourceStepError(env.source, rule, page, e);
  }
}

/** `e.message` for a debug line (the app prints localizedMessage). */
export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * Fetches a flow's first page: the URL rule through the source's client, then `loginCheckJs`
 * (its value replaces the response), then the redirect lines of WebBook.checkRedirect (with the status).
 */
export async function fetchPage(env: FlowEnv, rule: string, urlRule: string, vars: UrlVars, scope: VarScope): Promise<StrResponse> {
  let res = await fetchMore(env, rule, undefined, urlRule, vars);
  const check = env.source.loginCheckJs;
  if (check && check.trim() !== '' && env.js) res = await step(env, 'loginCheckJs', res.url, () => loginCheck(env, check, res, vars, scope));
  // WebBook.checkRedirect: a redirect answered before the final response (priorResponse).
  if (res.redirectCode !== undefined) {
    env.log(`≡检测到重定向(${res.redirectCode})`);
    env.log('┌重定向后地址');
    env.log(`└${res.url}`);
  }
  return res;
}

/** A fetch of a flow without loginCheckJs (a TOC's or chapter's next pages, as in the app), named on failure. */
export function fetchMore(env: FlowEnv, rule: string, page: string | undefined, urlRule: string, vars: UrlVars): Promise<StrResponse> {
  const withSignal = env.signal ? { ...vars, signal: env.signal } : vars;
  return step(env, rule, page, () => env.http.fetch(urlRule, withSignal));
}

async function loginCheck(env: FlowEnv, code: string, res: StrResponse, vars: UrlVars, scope: VarScope): Promise<StrResponse> {
  const bindings = { result: res, baseUrl: res.url, book: vars.book, chapter: vars.chapter, key: vars.key, page: vars.page, variables: scope };
  return asResponse(await env.js!.urlScript(code, bindings, 'loginCheckJs'), res);
}

/** What loginCheckJs gave back, as a response: the response itself, one shaped like it, or a new body. */
function asResponse(v: unknown, res: StrResponse): StrResponse {
  if (typeof v === 'string') return { ...res, body: v };
  if (v && typeof v === 'object') {
    const o = v as Partial<Record<keyof StrResponse, unknown>>;
    if (typeof o.body === 'string') return { ...res, body: o.body, ...(typeof o.url === 'string' ? { url: o.url } : {}) };
  }
  return res;
}

/** BookSource.getBookType: the app's BookType bits (text 8, audio 32, image 64, file = text|webFile 128). */
export function bookTypeOf(source: Pick<BookSource, 'bookSourceType'>): number {
  switch (source.bookSourceType) {
    case 3:
      return 8 | 128;
    case 2:
      return 64;
    case 1:
      return 32;
    default:
      return 8;
  }
}

/** A list rule's order marks, as the flows read them: a leading `-` reverses, then a `+` is dropped. */
export function listOrder(rule: string | null | undefined): { rule: string; reverse: boolean } {
  let r = rule ?? '';
  let reverse = false;
  if (r.startsWith('-')) {
    reverse = true;
    r = r.slice(1);
  }
  if (r.startsWith('+')) r = r.slice(1);
  return { rule: r, reverse };
}

/** The app's threadCount: pages fetched side by side at most (the client's rate limit still applies). */
const THREADS = 16;

/** Maps with at most THREADS calls running, results in the input's order (Flow.mapAsync). */
export async function mapInOrder<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(THREADS, items.length) }, worker));
  return out;
}

/** A book of `source` with nothing read yet (SearchBook.toBook's defaults): where info, debug and add-to-shelf start from a bare URL. */
export function blankBook(source: BookSource, fields: Partial<WebBook> = {}): WebBook {
  return {
    bookUrl: '',
    tocUrl: '',
    origin: source.bookSourceUrl,
    originName: source.bookSourceName,
    name: '',
    author: '',
    kind: null,
    coverUrl: null,
    intro: null,
    wordCount: null,
    latestChapterTitle: null,
    type: bookTypeOf(source),
    variable: null,
    ...fields,
  };
}
