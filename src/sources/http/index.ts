// The book-source HTTP client (docs/sources.md, "URL rules and fetching").
export { createSourceHttp, dataUrl } from './client.js';
export { workOutUrl, sourceHeaders, DEFAULT_USER_AGENT } from './url-rule.js';
export { SourceCookieJar, cookieMap, mergeCookies, MAX_COOKIE_LENGTH } from './cookies.js';
export { cookieDomain } from './domain.js';
export { encodeText, decodeText, charsetName } from './charset.js';
export { encodeParams, encodeQuery, encodeFormValue, escapeJs, isEncodedQuery, isEncodedForm } from './percent.js';
export { decodeAnswer, answerCharset, metaCharset, contentTypeCharset } from './decode.js';
export { rateLimiter, sharedLimiter, type RateLimiter } from './rate.js';
export { parseLenient, parseJsonObject } from './lenient-json.js';
export { UrlRuleError } from './errors.js';
