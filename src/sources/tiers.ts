// What a book source needs to run, read from its text alone (rule-engine.md §9's tiers): T0 no
// JavaScript, T1 plain JavaScript, T2 the app's `java.`/`source.`/`cookie.`/`cache.` helpers, T3
// what this engine does not do: a browser (a `webView` URL option, `webJs`, `java.webView`,
// `startBrowser`, a captcha prompt), Java classes (`Packages`, `JavaImporter`, `java.lang.*`…),
// or a login form or page. Static: a dead site or a rule that matches nothing is not seen here.
import type { BookSource } from './engine/types.js';

export type SourceTier = 'T0' | 'T1' | 'T2' | 'T3';

export interface SourceNeeds {
  readonly tier: SourceTier;
  /** Some script runs (a rule, a URL, the header, jsLib, formatJs…). */
  readonly js: boolean;
  /** A script calls the app's helpers (`java.ajax`, `source.getKey`, `cookie.*`, `cache.*`). */
  readonly helpers: boolean;
  /** A WebView or the system browser: not run here (a `webView` page is fetched plainly). */
  readonly browser: boolean;
  /** Java classes beyond the helpers (`org.jsoup.Jsoup.parse` included, which the sandbox shims). */
  readonly java: boolean;
  /** `loginUrl` or `loginUi`: logging in needs the app's login page or form, not done here. */
  readonly login: boolean;
  /** Why a check cannot judge the source here, or null: a browser, or Java classes other than Jsoup's parse. */
  readonly unsupported: 'browser' | 'java' | null;
}

const RULE_OBJECTS = ['ruleSearch', 'ruleExplore', 'ruleBookInfo', 'ruleToc', 'ruleContent'] as const;
/** Fields whose whole text is a script. */
const SCRIPT_FIELDS: Readonly<Record<string, readonly string[]>> = {
  ruleToc: ['formatJs', 'preUpdateJs'],
  ruleContent: ['webJs', 'payAction', 'imageDecode'],
};
/** Rule fields that are not rules. */
const NOT_RULES = new Set(['checkKeyWord', 'imageStyle', 'sourceRegex']);

const TRIVIAL_TEMPLATE = /^\s*(?:key|page|\d+)(?:\s*[-+*/]\s*(?:key|page|\d+))*\s*$/;
const INNER_RULE = /^\s*(?:@|\$\.|\$\[|\/\/)/;
const HELPERS = /\b(?:java|source|cookie|cache)\s*\.\s*[A-Za-z_$]/;
const JAVA_CLASSES =
  /\bPackages\b|\bJavaImporter\b|\bimportClass\b|\bimportPackage\b|\borg\.jsoup\b|\bjava\.(?:lang|util|io|net|nio|text|math|security|time)\.|\bjavax\.|\bandroid\.|\bcn\.hutool\b|\bcom\.script\b/;
const JSOUP_PARSE_ONLY = /\borg\.jsoup\.Jsoup\.parse\b/g;
const BROWSER_CALLS =
  /\bjava\s*\.\s*(?:webView|webViewGetSource|webViewGetOverrideUrl|startBrowser|startBrowserAwait|getVerificationCode)\b|\bstartBrowser(?:Await)?\s*\(/;
/** A `webView` URL option set to anything but false, null or empty (AnalyzeUrl's test). */
const WEBVIEW_OPTION = /["']?\bwebView\b["']?\s*:\s*(?!\s*(?:false\b|null\b|""|''|["']false["']))/i;
const URL_JS_OPTION = /["']js["']\s*:/;

/** The script pieces of a rule or URL: `<js>…</js>`, `@js:…`, non-trivial `{{…}}`, and a `js` URL option. */
export function scriptPieces(text: string): string[] {
  const out: string[] = [];
  const lower = text.toLowerCase();
  let rest = text;
  const at = lower.indexOf('@js:');
  if (at >= 0) {
    out.push(text.slice(at + 4));
    rest = text.slice(0, at);
  }
  for (const m of rest.matchAll(/<js>([\s\S]*?)<\/js>/gi)) out.push(m[1]!);
  for (const m of rest.replace(/<js>[\s\S]*?<\/js>/gi, '').matchAll(/\{\{([\s\S]*?)\}\}/g)) {
    const body = m[1]!;
    if (!TRIVIAL_TEMPLATE.test(body) && !INNER_RULE.test(body)) out.push(body);
  }
  if (URL_JS_OPTION.test(rest)) out.push(rest);
  return out;
}

const textOf = (v: unknown): string => (typeof v === 'string' ? v : '');
const filled = (v: unknown): boolean => textOf(v).trim() !== '';

/** Classifies a parsed book source. */
export function sourceNeeds(source: BookSource): SourceNeeds {
  const scripts: string[] = [];
  const texts: string[] = [];
  const field = (v: unknown, wholeScript: boolean): void => {
    const t = textOf(v);
    if (t.trim() === '') return;
    texts.push(t);
    if (wholeScript) scripts.push(t);
    else scripts.push(...scriptPieces(t));
  };
  field(source.jsLib, true);
  field(source.loginCheckJs, true);
  field(source.coverDecodeJs, true);
  // With a login form, loginUrl is the script its buttons call; without one it is a page (or a script).
  field(source.loginUrl, filled(source.loginUi));
  field(source.loginUi, false);
  field(source.header, false);
  field(source.searchUrl, false);
  field(source.exploreUrl, false);
  field(source.exploreScreen, false);
  for (const name of RULE_OBJECTS) {
    const rules = source[name] as Readonly<Record<string, unknown>> | null | undefined;
    if (!rules || typeof rules !== 'object') continue;
    const whole = SCRIPT_FIELDS[name] ?? [];
    for (const [k, v] of Object.entries(rules)) if (!NOT_RULES.has(k)) field(v, whole.includes(k));
  }
  const js = scripts.length > 0;
  const helpers = scripts.some((s) => HELPERS.test(s));
  const javaText = scripts.filter((s) => JAVA_CLASSES.test(s));
  const java = javaText.length > 0;
  const javaBeyondJsoup = javaText.some((s) => JAVA_CLASSES.test(s.replace(JSOUP_PARSE_ONLY, '')));
  const browser = filled(source.ruleContent?.webJs) || scripts.some((s) => BROWSER_CALLS.test(s)) || texts.some((t) => WEBVIEW_OPTION.test(t));
  const login = filled(source.loginUrl) || filled(source.loginUi);
  const tier: SourceTier = browser || java || login ? 'T3' : helpers ? 'T2' : js ? 'T1' : 'T0';
  return { tier, js, helpers, browser, java, login, unsupported: browser ? 'browser' : javaBeyondJsoup ? 'java' : null };
}
