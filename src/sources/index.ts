// legado-store/sources: the book-source rule grammar over fetched content (docs/sources.md).
export { RuleContext, isJsonText, asText, type RuleJs, type JsBindings, type RuleVariables, type RuleContextOptions, type Content } from './analyze.js';
export { parseHtml, text, ownText, textNodes } from './dom.js';
export { outerHtml, innerHtml } from './html-out.js';
export { resolveUrl } from './url.js';
export { listRule } from './rule.js';
export { checkRule, type RuleCheck } from './check.js';
export { RuleError, JsUnavailableError } from './errors.js';
