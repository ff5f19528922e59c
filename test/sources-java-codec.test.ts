// The codec, digest, cipher, text and time helpers, called by scripts in the real sandbox, against
// outside truth: node:crypto and Buffer computing the expected values, and Java's documented
// outputs spelled out (android.util.Base64's line wrapping, hutool's lower-case hex, URLEncoder).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCipheriv, createHash, createHmac } from 'node:crypto';
import { harness } from './helpers/java-harness.js';

const h = harness({ java: { timeZoneOffsetMs: 8 * 3600 * 1000 } });
test.after(() => h.dispose());

const js = (code: string): Promise<unknown> => h.bindings.sourceScript(code, {}, 'test');
const q = JSON.stringify;

test('base64: android.util.Base64 flags and hutool decoding', async () => {
  const text = '中文 abc~?'.repeat(9);
  const std = Buffer.from(text).toString('base64');
  assert.equal(await js(`java.base64Encode(${q(text)})`), std, 'NO_WRAP by default');
  // DEFAULT (0): lines of 76 characters, each ended by \n, the last too
  assert.equal(await js(`java.base64Encode(${q(text)}, 0)`), `${std.match(/.{1,76}/g)!.join('\n')}\n`);
  assert.equal(await js(`java.base64Encode(${q(text)}, 0 | 4)`), `${std.match(/.{1,76}/g)!.join('\r\n')}\r\n`, 'CRLF');
  assert.equal(await js(`java.base64Encode("ab", 2 | 1)`), 'YWI', 'NO_PADDING');
  assert.equal(await js(`java.base64Encode("??>", 2 | 8)`), Buffer.from('??>').toString('base64url'), 'URL_SAFE');
  assert.equal(await js(`java.base64Encode("")`), '');
  assert.equal(await js(`java.base64Decode(${q(std)})`), text);
  // hutool: both alphabets, no padding needed, junk skipped
  assert.equal(await js(`java.base64Decode(${q(Buffer.from('??>?').toString('base64url'))})`), '??>?');
  assert.equal(await js(`java.base64Decode("5Lit\\n5paH")`), '中文');
  assert.equal(await js(`java.base64Decode("1tDOxA==", "gbk")`), '中文', 'charset form (D6D0 CEC4 is 中文 in GBK)');
  assert.equal(await js(`java.base64Decode("5Lit5paH", 0)`), '中文', 'flags form');
  assert.deepEqual(await js(`java.base64DecodeToByteArray("/w==")`), [-1]);
  assert.deepEqual(await js(`java.base64DecodeToByteArray("  ")`), null);
  assert.deepEqual(
    await js(`java.base64DecodeToByteArray("-_8", 8)`),
    Array.from(Buffer.from('-_8', 'base64url'), (b) => (b << 24) >> 24),
  );
  // android: a half-padded quantum is "bad base-64"
  await assert.rejects(js(`java.base64Decode("QQ=", 0)`), { code: 'HELPER_FAILED', message: /java\.base64Decode: bad base-64/ });
  await assert.rejects(js(`java.base64DecodeToByteArray("Q")`), { code: 'HELPER_FAILED' });
});

test('hex, bytes and charsets', async () => {
  assert.equal(await js(`java.hexEncodeToString("中a")`), Buffer.from('中a').toString('hex'));
  assert.equal(await js(`java.hexDecodeToString("E4B8AD61")`), '中a');
  assert.deepEqual(await js(`java.hexDecodeToByteArray("abc")`), [0x0a, (0xbc << 24) >> 24], 'odd length gets a leading 0');
  await assert.rejects(js(`java.hexDecodeToString("zz")`), { code: 'HELPER_FAILED' });
  assert.deepEqual(
    await js(`java.strToBytes("中a")`),
    Array.from(Buffer.from('中a'), (b) => (b << 24) >> 24),
  );
  assert.deepEqual(await js(`java.strToBytes("中a", "GBK")`), [-42, -48, 97]);
  assert.equal(await js(`java.bytesToStr([-42, -48, 97], "gbk")`), '中a');
  assert.equal(await js(`java.bytesToStr(java.strToBytes("繁體", "big5"), "big5")`), '繁體');
  assert.equal(await js(`java.bytesToStr([-28, -72, -83])`), '中');
  assert.deepEqual(await js(`java.strToBytes("é", "ISO-8859-1")`), [-23]);
  assert.equal(await js(`java.bytesToStr([0xe9 - 256, 0x80 - 256], "iso-8859-1")`), 'é\u0080', 'Java ISO-8859-1 is the identity, not windows-1252');
  await assert.rejects(js(`java.strToBytes("a", "no-such")`), { code: 'HELPER_FAILED', message: /unsupported charset/ });
});

test('md5, digests and HMACs as lower-case hex and Base64', async () => {
  const md5 = createHash('md5').update('书源abc').digest('hex');
  assert.equal(await js(`java.md5Encode("书源abc")`), md5);
  assert.equal(await js(`java.md5Encode16("书源abc")`), md5.slice(8, 24));
  for (const [java, node] of [
    ['MD5', 'md5'],
    ['SHA-1', 'sha1'],
    ['SHA1', 'sha1'],
    ['SHA-256', 'sha256'],
    ['SHA-512', 'sha512'],
  ]) {
    assert.equal(await js(`java.digestHex("数据", ${q(java)})`), createHash(node!).update('数据').digest('hex'), java);
    assert.equal(await js(`java.digestBase64Str("数据", ${q(java)})`), createHash(node!).update('数据').digest('base64'), java);
  }
  assert.equal(await js(`java.HMacHex("数据", "HmacSHA256", "密钥")`), createHmac('sha256', '密钥').update('数据').digest('hex'));
  assert.equal(await js(`java.HMacBase64("数据", "HmacMD5", "k")`), createHmac('md5', 'k').update('数据').digest('base64'));
  await assert.rejects(js(`java.digestHex("x", "WHIRLPOOL")`), { code: 'HELPER_FAILED', message: /WHIRLPOOL/ });
});

const KEY = '0123456789abcdef';
const IV = 'fedcba9876543210';
function nodeAes(mode: string, data: Buffer, key = KEY, iv: string | null = IV, padding = true): Buffer {
  const c = createCipheriv(`aes-${key.length * 8}-${mode}`, Buffer.from(key), iv === null ? null : Buffer.from(iv));
  c.setAutoPadding(padding);
  return Buffer.concat([c.update(data), c.final()]);
}

test('createSymmetricCrypto: AES in CBC, ECB and CTR, padded as Java pads', async () => {
  const plain = '第一章 正文 text';
  const cbc = nodeAes('cbc', Buffer.from(plain));
  const make = `java.createSymmetricCrypto("AES/CBC/PKCS5Padding", ${q(KEY)}, ${q(IV)})`;
  assert.equal(await js(`${make}.encryptBase64(${q(plain)})`), cbc.toString('base64'));
  assert.equal(await js(`${make}.encryptHex(${q(plain)})`), cbc.toString('hex'));
  assert.deepEqual(
    await js(`${make}.encrypt(${q(plain)})`),
    Array.from(cbc, (b) => (b << 24) >> 24),
  );
  // decrypt reads hex when every character is a hex digit, else Base64
  assert.equal(await js(`${make}.decryptStr(${q(cbc.toString('base64'))})`), plain);
  assert.equal(await js(`${make}.decryptStr(${q(cbc.toString('hex'))})`), plain);
  assert.equal(await js(`java.bytesToStr(${make}.decrypt(${q(cbc.toString('base64'))}))`), plain);
  const keyBytes = `java.strToBytes(${q(KEY)})`;
  assert.equal(
    await js(`java.createSymmetricCrypto("AES/ECB/PKCS7Padding", ${keyBytes}).encryptBase64("x")`),
    nodeAes('ecb', Buffer.from('x'), KEY, null).toString('base64'),
  );
  assert.equal(
    await js(`java.createSymmetricCrypto("AES", ${q(KEY)}).encryptBase64("x")`),
    nodeAes('ecb', Buffer.from('x'), KEY, null).toString('base64'),
    'Java defaults: ECB, PKCS5',
  );
  const block = 'sixteen byte msg';
  assert.equal(
    await js(`java.createSymmetricCrypto("AES/ECB/NoPadding", ${q(KEY)}).encryptHex(${q(block)})`),
    nodeAes('ecb', Buffer.from(block), KEY, null, false).toString('hex'),
  );
  await assert.rejects(js(`java.createSymmetricCrypto("AES/ECB/NoPadding", ${q(KEY)}).encryptHex("short")`), { code: 'HELPER_FAILED' });
  const zero = Buffer.concat([Buffer.from('abc'), Buffer.alloc(13)]);
  assert.equal(
    await js(`java.createSymmetricCrypto("AES/CBC/ZeroPadding", ${q(KEY)}, ${q(IV)}).encryptBase64("abc")`),
    nodeAes('cbc', zero, KEY, IV, false).toString('base64'),
  );
  const ctr = nodeAes('ctr', Buffer.from(plain), KEY, IV);
  assert.equal(await js(`java.createSymmetricCrypto("AES/CTR/NoPadding", ${q(KEY)}, ${q(IV)}).decryptStr(${q(ctr.toString('base64'))})`), plain);
  const key32 = 'k'.repeat(32);
  assert.equal(
    await js(`java.createSymmetricCrypto("AES/CBC/PKCS5Padding", ${q(key32)}, ${q(IV)}).encryptBase64("x")`),
    nodeAes('cbc', Buffer.from('x'), key32).toString('base64'),
  );
  await assert.rejects(js(`java.createSymmetricCrypto("AES/CBC/PKCS5Padding", "short", ${q(IV)}).encryptBase64("x")`), {
    code: 'HELPER_FAILED',
    message: /invalid AES key length: 5/,
  });
  await assert.rejects(js(`${make}.decryptStr(${q(nodeAes('cbc', Buffer.from(plain), 'x'.repeat(16)).toString('base64'))})`), {
    code: 'HELPER_FAILED',
    message: /padded/,
  });
});

test('the aes* helpers, with the app’s quirks', async () => {
  const plain = '内容';
  const cbc = nodeAes('cbc', Buffer.from(plain)).toString('base64');
  const args = `${q(KEY)}, "AES/CBC/PKCS5Padding", ${q(IV)}`;
  assert.equal(await js(`java.aesBase64DecodeToString(${q(cbc)}, ${args})`), plain);
  assert.equal(await js(`java.aesDecodeToString(${q(cbc)}, ${args})`), plain);
  assert.equal(await js(`java.aesEncodeToBase64String(${q(plain)}, ${args})`), cbc);
  // JsEncodeUtils.aesEncodeToString calls decryptStr: it decrypts
  assert.equal(await js(`java.aesEncodeToString(${q(cbc)}, ${args})`), plain);
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  assert.equal(await js(`java.aesDecodeArgsBase64Str(${q(cbc)}, ${q(b64(KEY))}, "CBC", "PKCS5Padding", ${q(b64(IV))})`), plain);
  assert.equal(await js(`java.aesEncodeArgsBase64Str(${q(plain)}, ${q(KEY)}, "CBC", "PKCS5Padding", ${q(IV)})`), cbc);
});

test('time, URL encoding, chapter numbers, UUIDs', async () => {
  // 1700000000000 is 2023-11-14T22:13:20Z; SimpleTimeZone's offset is in milliseconds
  assert.equal(await js(`java.timeFormatUTC(1700000000000, "yyyy-MM-dd HH:mm:ss.SSS", 8 * 3600 * 1000)`), '2023-11-15 06:13:20.000');
  assert.equal(await js(`java.timeFormatUTC(1700000000000, "yy/M/d h:mm a EEEE 'at' HH'h'", 0)`), '23/11/14 10:13 下午 星期二 at 22h');
  assert.equal(await js(`java.timeFormat(1700000000000)`), '2023/11/15 06:13', 'yyyy/MM/dd HH:mm in the zone given');
  assert.equal(await js(`java.timeFormat("1700000000000")`), '2023/11/15 06:13', 'a numeric string is a long to Rhino');
  await assert.rejects(js(`java.timeFormatUTC(0, "yyyy-bb", 0)`), { code: 'HELPER_FAILED', message: /illegal pattern character 'b'/ });
  assert.equal(await js(`java.encodeURI("a b*中~.-_")`), 'a+b*%E4%B8%AD%7E.-_');
  assert.equal(await js(`java.encodeURI("中文", "gbk")`), '%D6%D0%CE%C4');
  assert.equal(await js(`java.encodeURI("x", "no-such")`), '', 'the app answers "" for an unknown charset');
  for (const [title, want] of [
    ['第一百二十三章 风起', '第123章'],
    ['第十章', '第10章'],
    ['第二十章', '第20章'],
    ['第一千二章', '第1200章'],
    ['第一零二五章', '第1025章'],
    ['第３２章', '第32章'],
    ['第两万章', '第20000章'],
    ['第x章', '第-1章'],
    ['序章', '序章'],
  ]) {
    assert.equal(await js(`java.toNumChapter(${q(title)})`), want, title);
  }
  assert.equal(await js('java.toNumChapter(null)'), null);
  assert.match(String(await js('java.randomUUID()')), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

function nodeDes3(mode: 'cbc' | 'ecb', data: Buffer, key: Buffer, iv: Buffer | null): Buffer {
  const c = createCipheriv(mode === 'cbc' ? 'des-ede3-cbc' : 'des-ede3', key, iv);
  return Buffer.concat([c.update(data), c.final()]);
}

test('DES and DESede (3DES): createSymmetricCrypto and the des*/tripleDES* helpers', async () => {
  const key24 = '0123456789abcdefghijklmn';
  const iv8 = '12345678';
  const plain = '第五章 内容 DES';
  const cbc = nodeDes3('cbc', Buffer.from(plain), Buffer.from(key24), Buffer.from(iv8));
  assert.equal(await js(`java.createSymmetricCrypto("DESede/CBC/PKCS5Padding", ${q(key24)}, ${q(iv8)}).encryptBase64(${q(plain)})`), cbc.toString('base64'));
  assert.equal(await js(`java.tripleDESDecodeStr(${q(cbc.toString('base64'))}, ${q(key24)}, "CBC", "PKCS5Padding", ${q(iv8)})`), plain);
  assert.equal(await js(`java.tripleDESEncodeBase64Str(${q(plain)}, ${q(key24)}, "CBC", "PKCS5Padding", ${q(iv8)})`), cbc.toString('base64'));
  // the ArgsBase64 forms take the key in Base64, the IV as text
  const b64key = Buffer.from(key24).toString('base64');
  assert.equal(await js(`java.tripleDESDecodeArgsBase64Str(${q(cbc.toString('hex'))}, ${q(b64key)}, "CBC", "PKCS5Padding", ${q(iv8)})`), plain);
  assert.equal(await js(`java.tripleDESEncodeArgsBase64Str(${q(plain)}, ${q(b64key)}, "CBC", "PKCS5Padding", ${q(iv8)})`), cbc.toString('base64'));
  // single DES is 3DES with one key three times
  const k8 = 'abcdefgh';
  const ecb = nodeDes3('ecb', Buffer.from(plain), Buffer.from(k8.repeat(3)), null);
  assert.equal(await js(`java.desEncodeToBase64String(${q(plain)}, ${q(k8)}, "DES/ECB/PKCS5Padding", "")`), ecb.toString('base64'));
  assert.equal(await js(`java.desDecodeToString(${q(ecb.toString('base64'))}, ${q(k8)}, "DES/ECB/PKCS5Padding", "")`), plain);
  await assert.rejects(js(`java.tripleDESDecodeStr("00", "short", "CBC", "PKCS5Padding", ${q(iv8)})`), {
    code: 'HELPER_FAILED',
    message: /DESede key length: 5/,
  });
});

test('toURL: the app’s JsURL fields', async () => {
  assert.deepEqual(
    await js(
      'var u = java.toURL("/p/q?a=1&b=%E4%B8%AD+x&c", "https://h.test:8443/x"); [u.host, u.origin, u.pathname, u.searchParams.get("b"), u.searchParams.size()]',
    ),
    ['h.test', 'https://h.test:8443', '/p/q', '中 x', 2],
  );
  assert.equal(await js('java.toURL("https://h.test/").searchParams'), null);
});

test('htmlFormat: HtmlFormatter.formatKeepImg, whitespace as Android’s ICU reads \\s', async () => {
  const html =
    '<div>第一段&nbsp;&nbsp;文字</div><p>第二段<b>粗</b>&emsp;x</p><!-- c --><br/>' +
    '<img class="a" data-src="/i/1.jpg" src="load.gif"><img src="/i/2.jpg,{\'headers\':{\'Referer\':\'r\'}}">\u200d尾\u3000 ';
  // block tags → \n; other tags but <img> stripped; each line indented with two U+3000; the
  // greedy [^>]* before \ssrc takes the last src of a tag; URL options kept after the URL
  assert.equal(
    await js(`java.htmlFormat(${q(html)})`),
    "\u3000\u3000第一段 文字\n\u3000\u3000第二段粗 x\n\u3000\u3000<img src=\"load.gif\"><img src=\"/i/2.jpg,{'headers':{'Referer':'r'}}\">尾",
  );
  assert.equal(await js('java.htmlFormat("\\u3000\\u3000<p>a</p>\\u00a0")'), '\u3000\u3000a', 'U+3000 and U+00A0 are \\s on Android');
});
