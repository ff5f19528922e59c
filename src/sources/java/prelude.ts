// The script side of the helpers: a prelude evaluated in the source's sandbox before its jsLib.
// It defines `java`, `source`, `cookie`, `cache` and `org.jsoup.Jsoup` once per sandbox; each
// method calls the one host function bound for the current call (`__legado(name, args)`), so a
// call binds one function, not a hundred. It also gives values their Java shapes without host
// round trips: elements with Jsoup's methods (a node id each; JSON gives back `{"__n": id}`, which
// the host reads as the node again), lists with size()/get()/toArray(), maps that print as Java's,
// StrResponse and Jsoup responses, and SymmetricCrypto objects.
import type { BookSource } from '../engine/types.js';

/** Host helpers reached as `java.<name>` (and `source.<name>`, as the app's source is a JsExtensions too). */
export const JAVA_HELPERS = [
  'ajax',
  'ajaxAll',
  'connect',
  'post',
  'head',
  'importScript',
  'cacheFile',
  'downloadFile',
  'getCookie',
  'strToBytes',
  'bytesToStr',
  'base64Decode',
  'base64DecodeToByteArray',
  'base64Encode',
  'hexDecodeToByteArray',
  'hexDecodeToString',
  'hexEncodeToString',
  'timeFormatUTC',
  'timeFormat',
  'encodeURI',
  'htmlFormat',
  't2s',
  's2t',
  'getWebViewUA',
  'md5Encode',
  'md5Encode16',
  'digestHex',
  'digestBase64Str',
  'HMacHex',
  'HMacBase64',
  'aesDecodeToByteArray',
  'aesDecodeToString',
  'aesDecodeArgsBase64Str',
  'aesBase64DecodeToByteArray',
  'aesBase64DecodeToString',
  'aesEncodeToByteArray',
  'aesEncodeToString',
  'aesEncodeToBase64ByteArray',
  'aesEncodeToBase64String',
  'aesEncodeArgsBase64Str',
  'desDecodeToString',
  'desBase64DecodeToString',
  'desEncodeToString',
  'desEncodeToBase64String',
  'tripleDESDecodeStr',
  'tripleDESDecodeArgsBase64Str',
  'tripleDESEncodeBase64Str',
  'tripleDESEncodeArgsBase64Str',
  'createAsymmetricCrypto',
  'createSign',
  'toNumChapter',
  'toURL',
  'toast',
  'longToast',
  'log',
  'randomUUID',
  'androidId',
  'openUrl',
  'startBrowser',
  'startBrowserAwait',
  'getVerificationCode',
  'webView',
  'webViewGetSource',
  'webViewGetOverrideUrl',
  'getZipStringContent',
  'getZipByteArrayContent',
  'getRarStringContent',
  'getRarByteArrayContent',
  'get7zStringContent',
  'get7zByteArrayContent',
  'getFile',
  'readFile',
  'readTxtFile',
  'deleteFile',
  'unzipFile',
  'un7zFile',
  'unrarFile',
  'unArchiveFile',
  'getTxtInFolder',
  'queryTTF',
  'queryBase64TTF',
  'replaceFont',
] as const;

/** Only on the rule analyser (`java` in rules) and the URL analyser; `get` is a variable with one argument. */
export const RULE_HELPERS = ['getString', 'getStringList', 'getElement', 'getElements', 'setContent', 'put', 'get', 'reGetBook', 'refreshTocUrl'] as const;

/** `source.*` beyond the helpers (BaseSource.kt). */
export const SOURCE_METHODS = [
  'getKey',
  'getTag',
  'put',
  'get',
  'getVariable',
  'setVariable',
  'getLoginHeader',
  'getLoginHeaderMap',
  'putLoginHeader',
  'removeLoginHeader',
  'getLoginInfo',
  'getLoginInfoMap',
  'putLoginInfo',
  'removeLoginInfo',
  'getHeaderMap',
  'login',
  'getLoginJs',
] as const;

export const COOKIE_METHODS = ['getCookie', 'getKey', 'setCookie', 'replaceCookie', 'removeCookie'] as const;
export const CACHE_METHODS = [
  'get',
  'put',
  'delete',
  'getFromMemory',
  'putMemory',
  'deleteMemory',
  'getInt',
  'getLong',
  'getDouble',
  'getFloat',
  'putFile',
  'getFile',
] as const;

/** Element methods run on the host (Jsoup's Element), by node id. */
export const ELEMENT_METHODS = [
  'select',
  'selectFirst',
  'text',
  'ownText',
  'html',
  'outerHtml',
  'attr',
  'hasAttr',
  'attributes',
  'tagName',
  'nodeName',
  'id',
  'className',
  'classNames',
  'hasClass',
  'children',
  'child',
  'childrenSize',
  'parent',
  'parents',
  'getElementsByTag',
  'getElementsByClass',
  'getElementById',
  'getElementsByAttribute',
  'nextElementSibling',
  'previousElementSibling',
  'firstElementChild',
  'lastElementChild',
  'siblingElements',
  'elementSiblingIndex',
  'data',
  'val',
  'wholeText',
  'textNodes',
  'absUrl',
  'body',
  'head',
  'title',
  'getAllElements',
  'is',
  'location',
  'baseUri',
] as const;

/** Elements methods run on the host over the whole list. */
export const ELEMENTS_METHODS = ['select', 'text', 'html', 'outerHtml', 'attr', 'hasAttr', 'hasClass', 'eachText', 'eachAttr', 'is', 'parents', 'not'] as const;

const SCRIPT = String.raw`
(function (g) {
  var slice = Array.prototype.slice;
  function hide(o, name, value) { Object.defineProperty(o, name, { value: value, writable: true, configurable: true, enumerable: false }); }
  function host(name, args) { return out(g.__legado(name, slice.call(args))); }
  function forward(o, prefix, names) {
    names.forEach(function (n) { hide(o, n, function () { return host(prefix + n, arguments); }); });
  }

  /* Java lists: the app's Lists and arrays answer size(), get(i), toArray(), isEmpty(). */
  [['size', function () { return this.length; }], ['get', function (i) { return this[i]; }],
   ['toArray', function () { return slice.call(this); }], ['isEmpty', function () { return this.length === 0; }],
   ['contains', function (x) { return this.indexOf(x) >= 0; }]].forEach(function (m) { hide(Array.prototype, m[0], m[1]); });

  function El(id) { this.__n = id; }
  forwardDom(El.prototype, 'dom.', %ELEMENT%);
  hide(El.prototype, 'toString', function () { return this.outerHtml(); });
  hide(El.prototype, 'toJSON', function () { return { __n: this.__n }; });
  function forwardDom(o, prefix, names) {
    names.forEach(function (n) { hide(o, n, function () { return host(prefix + n, [this.toJSON()].concat(slice.call(arguments))); }); });
  }

  class Elements extends Array {}
  forwardDom(Elements.prototype, 'dom.', %ELEMENTS%);
  hide(Elements.prototype, 'toJSON', function () { return slice.call(this).map(function (e) { return e && e.toJSON ? e.toJSON() : e; }); });
  hide(Elements.prototype, 'first', function () { return this.length ? this[0] : null; });
  hide(Elements.prototype, 'last', function () { return this.length ? this[this.length - 1] : null; });
  hide(Elements.prototype, 'eq', function (i) { var e = new Elements(); if (this[i]) e.push(this[i]); return e; });
  hide(Elements.prototype, 'toString', function () { return this.outerHtml(); });
  function elements(list) { var e = new Elements(); for (var i = 0; i < list.length; i++) e.push(out(list[i])); return e; }

  function JavaMap(entries) { for (var i = 0; i < entries.length; i++) this[entries[i][0]] = entries[i][1]; }
  hide(JavaMap.prototype, 'get', function (k) { return Object.prototype.hasOwnProperty.call(this, k) ? this[k] : null; });
  hide(JavaMap.prototype, 'containsKey', function (k) { return Object.prototype.hasOwnProperty.call(this, k); });
  hide(JavaMap.prototype, 'keySet', function () { return Object.keys(this); });
  hide(JavaMap.prototype, 'values', function () { var o = this; return Object.keys(o).map(function (k) { return o[k]; }); });
  hide(JavaMap.prototype, 'size', function () { return Object.keys(this).length; });
  hide(JavaMap.prototype, 'isEmpty', function () { return Object.keys(this).length === 0; });
  hide(JavaMap.prototype, 'put', function (k, v) { var old = this.get(k); this[k] = v; return old; });
  hide(JavaMap.prototype, 'putAll', function (m) { var o = this; Object.keys(m || {}).forEach(function (k) { o[k] = m[k]; }); });
  hide(JavaMap.prototype, 'remove', function (k) { var old = this.get(k); delete this[k]; return old; });
  hide(JavaMap.prototype, 'toString', function () { var o = this; return '{' + Object.keys(o).map(function (k) { return k + '=' + o[k]; }).join(', ') + '}'; });

  function headerOf(list, name) {
    var want = String(name).toLowerCase();
    for (var i = 0; i < list.length; i++) if (list[i][0].toLowerCase() === want) return list[i][1];
    return null;
  }
  function headersNamed(list, name) {
    var want = String(name).toLowerCase();
    return list.filter(function (h) { return h[0].toLowerCase() === want; }).map(function (h) { return h[1]; });
  }
  /* okhttp Headers: get(name), values(name), names(), toMultimap(); printed one per line. */
  function Headers(list) { hide(this, '_h', list); }
  hide(Headers.prototype, 'get', function (n) { return headerOf(this._h, n); });
  hide(Headers.prototype, 'values', function (n) { return headersNamed(this._h, n); });
  hide(Headers.prototype, 'names', function () { return this._h.map(function (h) { return h[0]; }); });
  hide(Headers.prototype, 'size', function () { return this._h.length; });
  hide(Headers.prototype, 'toMultimap', function () { var m = {}; this._h.forEach(function (h) { (m[h[0]] = m[h[0]] || []).push(h[1]); }); return m; });
  hide(Headers.prototype, 'toString', function () { return this._h.map(function (h) { return h[0] + ': ' + h[1] + '\n'; }).join(''); });
  hide(Headers.prototype, 'toJSON', function () { return this.toMultimap(); });

  /* The app's StrResponse (java.connect, java.ajaxAll, loginCheckJs's result). */
  function StrResponse(d) { hide(this, '_d', d); }
  [['body', 'body'], ['code', 'code'], ['message', 'message'], ['url', 'url']].forEach(function (m) {
    hide(StrResponse.prototype, m[0], function () { return this._d[m[1]]; });
  });
  hide(StrResponse.prototype, 'isSuccessful', function () { return this._d.code >= 200 && this._d.code < 300; });
  hide(StrResponse.prototype, 'headers', function () { return new Headers(this._d.headers); });
  hide(StrResponse.prototype, 'header', function (n) { return headerOf(this._d.headers, n); });
  hide(StrResponse.prototype, 'raw', function () { return this; });
  hide(StrResponse.prototype, 'toString', function () { return 'Response{protocol=http/1.1, code=' + this._d.code + ', message=' + this._d.message + ', url=' + this._d.url + '}'; });
  hide(StrResponse.prototype, 'toJSON', function () { return this._d; });

  /* Jsoup's Connection.Response (java.get/post/head). */
  function JsoupResponse(d) { hide(this, '_d', d); }
  hide(JsoupResponse.prototype, 'body', function () { return this._d.body; });
  hide(JsoupResponse.prototype, 'statusCode', function () { return this._d.code; });
  hide(JsoupResponse.prototype, 'statusMessage', function () { return this._d.message; });
  hide(JsoupResponse.prototype, 'url', function () { return this._d.url; });
  hide(JsoupResponse.prototype, 'contentType', function () { return headerOf(this._d.headers, 'content-type'); });
  hide(JsoupResponse.prototype, 'header', function (n) { var v = headersNamed(this._d.headers, n); return v.length ? v.join(', ') : null; });
  hide(JsoupResponse.prototype, 'hasHeader', function (n) { return headerOf(this._d.headers, n) !== null; });
  hide(JsoupResponse.prototype, 'headers', function (n) {
    if (arguments.length) return headersNamed(this._d.headers, n);
    var m = new JavaMap([]); var list = this._d.headers;
    for (var i = 0; i < list.length; i++) m[list[i][0]] = m[list[i][0]] === undefined ? list[i][1] : m[list[i][0]] + ', ' + list[i][1];
    return m;
  });
  hide(JsoupResponse.prototype, 'cookies', function () { return new JavaMap(this._d.cookies); });
  hide(JsoupResponse.prototype, 'cookie', function (n) { var m = new JavaMap(this._d.cookies); return m.get(n); });
  hide(JsoupResponse.prototype, 'hasCookie', function (n) { return new JavaMap(this._d.cookies).containsKey(n); });
  hide(JsoupResponse.prototype, 'bodyAsBytes', function () { return java.strToBytes(this._d.body); });
  hide(JsoupResponse.prototype, 'parse', function () { return host('jsoup.parse', [this._d.body, this._d.url]); });
  hide(JsoupResponse.prototype, 'toJSON', function () { return this._d; });

  function out(v) {
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) { for (var i = 0; i < v.length; i++) v[i] = out(v[i]); return v; }
    if (typeof v.__n === 'number') return new El(v.__n);
    switch (v.__t) {
      case 'els': return elements(v.list);
      case 'map': return new JavaMap(v.entries);
      case 'str': return new StrResponse(v);
      case 'jsoup': return new JsoupResponse(v);
      case 'url': return { host: v.host, origin: v.origin, pathname: v.pathname, searchParams: v.searchParams ? new JavaMap(v.searchParams) : null };
    }
    return v;
  }

  /* hutool's SymmetricCrypto as the app makes it: the work is on the host, the object here. */
  function Crypto(t, key, iv) { hide(this, '_s', [String(t), key, iv === undefined ? null : iv]); }
  ['encrypt', 'encryptHex', 'encryptBase64', 'decrypt', 'decryptStr'].forEach(function (op) {
    hide(Crypto.prototype, op, function () { return host('symmetric.op', [this._s, op].concat(slice.call(arguments))); });
  });
  hide(Crypto.prototype, 'setIv', function (iv) { this._s[2] = iv; return this; });

  var java = {};
  forward(java, 'java.', %JAVA%);
  forward(java, 'rule.', %RULE%);
  forward(java, 'source.', %SOURCE_ONLY%);
  hide(java, 'createSymmetricCrypto', function (t, key, iv) { return new Crypto(t, key, iv); });
  hide(java, 'logType', function (x) {
    var t = x === null || x === undefined ? 'null' : typeof x === 'string' ? 'java.lang.String' : typeof x === 'number' ? 'java.lang.Double'
      : typeof x === 'boolean' ? 'java.lang.Boolean' : x instanceof El ? 'org.jsoup.nodes.Element' : x instanceof Elements ? 'org.jsoup.select.Elements'
      : Array.isArray(x) ? 'org.mozilla.javascript.NativeArray' : typeof x === 'function' ? 'org.mozilla.javascript.InterpretedFunction' : 'org.mozilla.javascript.NativeObject';
    java.log(t);
  });

  var source = %SOURCE%;
  forward(source, 'java.', %JAVA%);
  forward(source, 'source.', %SOURCE_METHODS%);
  hide(source, 'createSymmetricCrypto', java.createSymmetricCrypto);
  hide(source, 'logType', java.logType);

  var cookie = {};
  forward(cookie, 'cookie.', %COOKIE%);
  hide(cookie, 'cookieToMap', function (c) {
    var m = new JavaMap([]);
    String(c || '').split(/;\s*/).forEach(function (pair) {
      var at = pair.indexOf('=');
      if (at <= 0) return;
      var v = pair.slice(at + 1);
      if (v.trim() !== '' || v.trim() === 'null') m[pair.slice(0, at).trim()] = v.trim();
    });
    return m;
  });
  hide(cookie, 'mapToCookie', function (m) {
    if (!m) return null;
    var keys = Object.keys(m);
    return keys.length ? keys.map(function (k) { return k + '=' + m[k]; }).join('; ') : null;
  });

  var cache = {};
  forward(cache, 'cache.', %CACHE%);

  var Jsoup = {};
  hide(Jsoup, 'parse', function (html, base) { return host('jsoup.parse', [String(html), base === undefined ? '' : String(base)]); });
  hide(Jsoup, 'parseBodyFragment', Jsoup.parse);
  var refuse = function (what) { return function () { host('java.interop', [what]); }; };
  /* java.lang.String: from text, or from bytes in a charset; getBytes(charset) as Java's. */
  function JString(x, cs) {
    var s = Array.isArray(x) ? java.bytesToStr(x, cs === undefined ? 'UTF-8' : cs) : String(x);
    var o = new String(s);
    hide(o, 'getBytes', function (c) { return java.strToBytes(s, c === undefined ? 'UTF-8' : c); });
    hide(o, 'equals', function (y) { return s === String(y); });
    return o;
  }
  function javaPackage(path) {
    return new Proxy(function () {}, {
      get: function (t, name) {
        if (typeof name !== 'string') return undefined;
        var full = path ? path + '.' + name : name;
        if (full === 'org.jsoup.Jsoup') return Jsoup;
        if (full === 'java.lang.String') return JString;
        return javaPackage(full);
      },
      apply: function () { host('java.interop', [path]); },
      construct: function () { host('java.interop', [path]); },
    });
  }
  var org = javaPackage('org');
  var Packages = javaPackage('');
  var JavaImporter = refuse('JavaImporter');
  var importClass = refuse('importClass');
  var importPackage = refuse('importPackage');

  /* Per call: the bindings given as host values take their Java shapes; a URL's own fields go on java. */
  var urlKeys = [];
  function prepare() {
    if (g.result !== undefined) g.result = out(g.result);
    if (g.src !== undefined) g.src = out(g.src);
    ['book', 'chapter'].forEach(function (name) {
      var o = g[name];
      if (o && typeof o === 'object') {
        hide(o, 'getVariable', function (k) { return host(name + '.getVariable', [k]); });
        hide(o, 'putVariable', function (k, v) { return host(name + '.putVariable', [k, v]); });
      }
    });
    urlKeys.forEach(function (k) { delete java[k]; });
    var bits = g.__legadoUrl;
    urlKeys = bits && typeof bits === 'object' ? Object.keys(bits) : [];
    urlKeys.forEach(function (k) { java[k] = bits[k]; });
  }

  g.java = java; g.source = source; g.cookie = cookie; g.cache = cache; g.org = org; g.Packages = Packages;
  g.JavaImporter = JavaImporter; g.importClass = importClass; g.importPackage = importPackage;
  g.__legadoPrepare = prepare;
  g.__legadoUrlBits = function () { var o = {}; ['url', 'headerMap', 'body', 'type', 'method', 'charset'].forEach(function (k) { if (java[k] !== undefined) o[k] = java[k]; }); return o; };
})(globalThis);
`;

/** Fields of the source scripts read (`source.bookSourceUrl`...); the jsLib itself left out. */
function sourceFields(source: BookSource): Record<string, unknown> {
  const { jsLib: _jsLib, ...fields } = source;
  return fields;
}

/** The prelude for one source: its fields baked in, the helper names listed. */
export function prelude(source: BookSource): string {
  const names: Record<string, unknown> = {
    '%ELEMENT%': ELEMENT_METHODS,
    '%ELEMENTS%': ELEMENTS_METHODS,
    '%JAVA%': JAVA_HELPERS,
    // BaseSource's own methods on `java` too (java is the source in header and login scripts)
    '%SOURCE_ONLY%': SOURCE_METHODS.filter((n) => n !== 'put' && n !== 'get'),
    '%RULE%': RULE_HELPERS,
    '%SOURCE%': sourceFields(source),
    '%SOURCE_METHODS%': SOURCE_METHODS,
    '%COOKIE%': COOKIE_METHODS,
    '%CACHE%': CACHE_METHODS,
  };
  return SCRIPT.trim()
    .replace(/\n\s*/g, ' ')
    .replace(/%[A-Z_]+%/g, (m) => JSON.stringify(names[m]));
}

/** The code a call runs: the bindings shaped first, on the same line (the script's line numbers stay). */
export const withPrepare = (code: string): string => `__legadoPrepare();${code}`;
