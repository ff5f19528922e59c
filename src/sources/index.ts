// legado-store/sources: the book-source rule grammar over fetched content (docs/sources.md).
export { RuleContext, isJsonText, asText, type RuleJs, type JsBindings, type RuleVariables, type RuleContextOptions, type Content } from './analyze.js';
export { parseHtml, text, ownText, textNodes } from './dom.js';
export { outerHtml, innerHtml } from './html-out.js';
export { resolveUrl } from './url.js';
export { listRule } from './rule.js';
export { checkRule, type RuleCheck } from './check.js';
export { RuleError, JsUnavailableError } from './errors.js';
// The engine: a source's four flows over the host's fetch, sandbox and store (docs/sources.md, "Flows").
export { openSource, type OpenOptions } from './engine/session.js';
export { parseBookSource } from './engine/source.js';
export {
  chapterUrl,
  formatHtml,
  formatKeepImg,
  SourceFlowError,
  TocEmptyError,
  ContentEmptyError,
  SourceIncompleteError,
  SourceStepError,
} from './book/index.js';
export type {
  BookSource,
  SearchRule,
  BookInfoRule,
  TocRule,
  ContentRule,
  SearchBook,
  WebBook,
  WebChapter,
  StrResponse,
  UrlVars,
  VariableStore,
  SourceHttp,
  CookieJar,
  UrlRequest,
  EngineStorage,
  DebugLog,
  EngineHost,
  UrlScript,
  ExploreKind,
  SourceFlows,
} from './engine/types.js';
