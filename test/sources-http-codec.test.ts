// The book-source HTTP client's pure parts, against values from outside: charset bytes from
// Python's codecs (spelled out here), the app's percent forms (hutool PercentCodec for a query,
// java.net.URLEncoder for a form, EncoderUtils.escape), Gson's lenient JSON, OkHttp's public
// suffix keys, and the charset order of OkHttpUtils.text. Platform-free: runs on every runtime.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  answerCharset,
  cookieDomain,
  decodeAnswer,
  encodeParams,
  encodeText,
  escapeJs,
  isEncodedForm,
  isEncodedQuery,
  metaCharset,
  parseJsonObject,
  parseLenient,
} from '../src/sources/http/index.js';
import { simpleTemplate, templateText } from '../src/sources/http/template.js';
import { withXmlDeclaration } from '../src/sources/http/decode.js';

const hex = (b: Uint8Array | undefined): string => Array.from(b ?? [], (x) => x.toString(16).padStart(2, '0')).join(' ');
const bytes = (...b: number[]): Uint8Array => Uint8Array.from(b);

test('charset bytes match Python codecs (GBK, GB2312, GB18030 two- and four-byte, Big5); what a charset lacks is ?', () => {
  // python3 -c "print('你好'.encode('gbk').hex())" and the like.
  assert.equal(hex(encodeText('你好', 'gbk')), 'c4 e3 ba c3');
  assert.equal(hex(encodeText('你好', 'GB2312')), 'c4 e3 ba c3');
  assert.equal(hex(encodeText('测试 a+b', 'gbk')), 'b2 e2 ca d4 20 61 2b 62');
  assert.equal(hex(encodeText('あ', 'gbk')), 'a4 a2');
  assert.equal(hex(encodeText('中文', 'big5')), 'a4 a4 a4 e5');
  assert.equal(hex(encodeText('€', 'gb18030')), 'a2 e3');
  assert.equal(hex(encodeText('¥', 'gb18030')), '81 30 84 36');
  assert.equal(hex(encodeText('\u{10000}', 'gb18030')), '90 30 81 30');
  assert.equal(hex(encodeText('¥', 'gbk')), '3f');
  assert.equal(hex(encodeText('好', 'utf8')), 'e5 a5 bd');
  assert.equal(encodeText('x', 'no-such-charset'), undefined);
});

test('GET query: percent-encoded whole in the charset, RFC 3986 sub-delimiters and % kept; an encoded query kept', () => {
  assert.equal(encodeParams('q=斗破 苍穹&p=1', 'gbk', true), 'q=%B6%B7%C6%C6%20%B2%D4%F1%B7&p=1');
  assert.equal(encodeParams('q=斗 破&p=1', null, true), 'q=%E6%96%97%20%E7%A0%B4&p=1');
  assert.equal(encodeParams('a=[1]&b={x}|^`!$()*+,;:@/?', null, true), 'a=[1]&b={x}|^`!$()*+,;:@/?');
  assert.equal(encodeParams('q=%E6%96%97&p=1', null, true), 'q=%E6%96%97&p=1');
  assert.equal(encodeParams('q="x"', 'utf-8', true), 'q=%22x%22');
  assert.ok(isEncodedQuery('a=%41&b=~'));
  assert.ok(!isEncodedQuery('a=b c'));
  assert.ok(!isEncodedQuery('a=%4'), 'a broken escape needs encoding');
});

test('POST form: URLEncoder per field (space +, *-._ kept); UTF-8 fields already encoded kept; escape', () => {
  assert.equal(encodeParams('searchkey=斗破 苍穹&searchtype=articlename', 'gbk', false), 'searchkey=%B6%B7%C6%C6+%B2%D4%F1%B7&searchtype=articlename');
  assert.equal(encodeParams('k=a*b-c.d_e~f!g', null, false), 'k=a*b-c.d_e%7Ef%21g');
  // Without a charset a field already encoded stays; with one it is encoded again (the app's way).
  assert.equal(encodeParams('k=%E6%96%97&x', null, false), 'k=%E6%96%97&x');
  assert.equal(encodeParams('k=%B6%B7', 'gbk', false), 'k=%25B6%25B7');
  assert.ok(isEncodedForm('a%20b*'));
  assert.ok(!isEncodedForm('a~b'));
  assert.equal(encodeParams('k=你 a&v=~', 'escape', false), 'k=%u4f60%20a&v=%7e');
  assert.equal(escapeJs('\t\u0100'), '%09%u100');
});

test('Gson-lenient JSON: single quotes, bare names and values, = and ;, comments; strict first', () => {
  assert.deepEqual(parseLenient("{method:'POST', body:'a=1&b=2', n: 3, t: true, nothing: null}"), {
    method: 'POST',
    body: 'a=1&b=2',
    n: 3,
    t: true,
    nothing: null,
  });
  assert.deepEqual(parseLenient('{a=1; b=>two # comment\n, c: [1, "x"] /* more */}'), { a: 1, b: 'two', c: [1, 'x'] });
  assert.deepEqual(parseJsonObject('{"a":"1"}'), { value: { a: '1' }, lenient: false });
  assert.deepEqual(parseJsonObject("{'a':'it\\'s'}"), { value: { a: "it's" }, lenient: true });
  assert.equal(parseJsonObject('[1,2]'), null);
  assert.equal(parseJsonObject('{a:'), null);
});

test('simple templates are read without JS with its rules; others are left to the script', () => {
  assert.deepEqual(simpleTemplate('key', '斗破', 2), { value: '斗破' });
  assert.deepEqual(simpleTemplate('(page-1)*20', 'k', 3), { value: 40 });
  assert.deepEqual(simpleTemplate('page+1', 'k', 3), { value: 4 });
  assert.deepEqual(simpleTemplate('key+page', 'k', 3), { value: 'k3' });
  assert.deepEqual(simpleTemplate(' page ', undefined, undefined), { value: undefined });
  assert.equal(simpleTemplate('java.encodeURI(key)', 'k', 1), undefined);
  assert.equal(simpleTemplate('page)', 'k', 1), undefined);
  assert.equal(templateText(40), '40');
  assert.equal(templateText(undefined), '');
  assert.equal(templateText(1.5), '1.5');
});

test('cookie keys: registrable domain by the Public Suffix List (private section too), an IP as it is, a non-URL unchanged', () => {
  assert.equal(cookieDomain('https://www.example.com/a'), 'example.com');
  assert.equal(cookieDomain('http://www.biquge.com.cn'), 'biquge.com.cn');
  assert.equal(cookieDomain('http://www.content.example.com'), 'example.com');
  assert.equal(cookieDomain('https://a.b.blogspot.com/'), 'b.blogspot.com');
  assert.equal(cookieDomain('http://1.2.3.4:8080/x'), '1.2.3.4');
  assert.equal(cookieDomain('http://127.0.0.1:5000#tag'), '127.0.0.1');
  assert.equal(cookieDomain('example.com'), 'example.com');
});

test('answer charset: Content-Type header, then <meta> in <head>, then valid UTF-8, else GB18030; a UTF-8 BOM dropped', () => {
  const gbkPage = new Uint8Array([
    ...new TextEncoder().encode('<html><head><meta http-equiv="Content-Type" content="text/html; charset=gbk" /></head><body>'),
    0xc4,
    0xe3,
    0xba,
    0xc3,
  ]);
  assert.equal(metaCharset(gbkPage), 'gbk');
  assert.ok(decodeAnswer(gbkPage, 'text/html').endsWith('你好'));
  // The header wins over the page.
  assert.equal(answerCharset(gbkPage, 'text/html; charset=UTF-8'), 'UTF-8');
  assert.equal(metaCharset(new TextEncoder().encode("<head><meta charset='big5'></head>")), 'big5');
  assert.equal(metaCharset(new TextEncoder().encode('<body><meta charset="big5"></body>')), undefined, 'only the head counts');
  assert.equal(decodeAnswer(bytes(0xc4, 0xe3, 0xba, 0xc3), null), '你好');
  assert.equal(decodeAnswer(bytes(0xef, 0xbb, 0xbf, 0xe4, 0xbd, 0xa0), null), '你');
  // An unknown name falls through to the guess.
  assert.equal(decodeAnswer(bytes(0xe4, 0xbd, 0xa0), 'text/html; charset=x-unknown'), '你');
  assert.equal(withXmlDeclaration('<rss/>', 'application/rss+xml'), '<?xml version="1.0"?><rss/>');
  assert.equal(withXmlDeclaration('<?xml version="1.0"?><a/>', 'text/xml'), '<?xml version="1.0"?><a/>');
  assert.equal(withXmlDeclaration('<a/>', 'text/html'), '<a/>');
});
