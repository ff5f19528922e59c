// `java.*` helpers that need no network and no source: codecs, digests, ciphers, text, time.
// Each takes the script's arguments as they came (Rhino picks an overload by the arguments' types;
// so do these) and gives what the app's method returns; bytes as signed number arrays.
import { decodeText, encodeText, fromScriptBytes, fromUtf8, toSigned, utf8 } from './bytes.js';
import { base64DecodeAndroid, base64DecodeLenient, base64Encode, digestOf, hexDecode, hexEncode, hmacOf, md5Hex, NO_WRAP } from './codec.js';
import { HelperError } from './errors.js';
import { cipherTextBytes, type SymmetricSpec, symmetricDecrypt, symmetricEncrypt } from './symmetric.js';
import { formatDate, localOffset, toNumChapter, urlEncode } from './text.js';

type Helper = (...args: unknown[]) => unknown;

const str = (v: unknown): string =>
  v === null || v === undefined ? String(v) : typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
const isNullish = (v: unknown): v is null | undefined => v === null || v === undefined;

/** A key or IV as createSymmetricCrypto takes it: a string (UTF-8) or a byte array; null for none. */
function keyBytes(v: unknown, helper: string): Uint8Array | null {
  if (isNullish(v)) return null;
  return typeof v === 'string' ? utf8(v) : fromScriptBytes(v, helper);
}

/** Data to encrypt: a string (UTF-8, or the charset given) or a byte array. */
function plainBytes(v: unknown, charset: unknown, helper: string): Uint8Array {
  if (typeof v === 'string') return isNullish(charset) ? utf8(v) : encodeText(v, str(charset), helper);
  return fromScriptBytes(v, helper);
}

/** Data to decrypt: a string is hex or Base64 (SymmetricCryptoAndroid.decrypt), else a byte array. */
const cipherBytes = (v: unknown, helper: string): Uint8Array => (typeof v === 'string' ? cipherTextBytes(v, helper) : fromScriptBytes(v, helper));

function spec(transformation: unknown, key: unknown, iv: unknown, helper: string): SymmetricSpec {
  const k = keyBytes(key, helper);
  if (!k) throw new HelperError(helper, 'a key is needed (a random key could never decrypt what the site sent)');
  const i = keyBytes(iv, helper);
  return { transformation: str(transformation), key: k, iv: i && i.length > 0 ? i : null };
}

/** The operations of the script's SymmetricCrypto object (prelude), by name. */
export function symmetricOp(state: unknown, op: unknown, data: unknown, charset: unknown, name?: string): unknown {
  const [t, key, iv] = Array.isArray(state) ? state : [];
  const helper = name ?? `createSymmetricCrypto(...).${str(op)}`;
  const s = spec(t, key, iv, helper);
  switch (op) {
    case 'encrypt':
      return toSigned(symmetricEncrypt(s, plainBytes(data, charset, helper), helper));
    case 'encryptHex':
      return hexEncode(symmetricEncrypt(s, plainBytes(data, charset, helper), helper));
    case 'encryptBase64':
      return base64Encode(symmetricEncrypt(s, plainBytes(data, charset, helper), helper));
    case 'decrypt':
      return toSigned(symmetricDecrypt(s, cipherBytes(data, helper), helper));
    case 'decryptStr': {
      const plain = symmetricDecrypt(s, cipherBytes(data, helper), helper);
      return isNullish(charset) ? fromUtf8(plain) : decodeText(plain, str(charset), helper);
    }
    default:
      throw new HelperError(helper, 'not a SymmetricCrypto method');
  }
}

const decryptStr = (name: string) => (data: unknown, key: unknown, transformation: unknown, iv: unknown) =>
  symmetricOp([transformation, key, iv], 'decryptStr', data, null, name);
const decrypt = (name: string) => (data: unknown, key: unknown, transformation: unknown, iv: unknown) =>
  symmetricOp([transformation, key, iv], 'decrypt', data, null, name);
const encryptBase64 = (data: unknown, key: unknown, transformation: unknown, iv: unknown, name?: string) =>
  symmetricOp([transformation, key, iv], 'encryptBase64', data, null, name);

function base64Bytes(v: unknown, helper: string): Uint8Array {
  return base64DecodeAndroid(str(v), NO_WRAP, helper);
}

export function codecHelpers(options: { timeZoneOffsetMs?: number }): Record<string, Helper> {
  const offset = (time: number) => options.timeZoneOffsetMs ?? localOffset(time);
  const helpers: Record<string, Helper> = {
    strToBytes: (s, charset) => toSigned(isNullish(charset) ? utf8(str(s)) : encodeText(str(s), str(charset), 'strToBytes')),
    bytesToStr: (bytes, charset) => decodeText(fromScriptBytes(bytes, 'bytesToStr'), isNullish(charset) ? 'UTF-8' : str(charset), 'bytesToStr'),
    // base64Decode(str) and (str, charset) are hutool's lenient decoder; (str, flags) is Android's.
    base64Decode: (s, second) => {
      if (typeof second === 'number') return fromUtf8(base64DecodeAndroid(str(s), second, 'base64Decode'));
      const bytes = base64DecodeLenient(isNullish(s) ? '' : str(s));
      return isNullish(second) ? fromUtf8(bytes) : decodeText(bytes, str(second), 'base64Decode');
    },
    base64DecodeToByteArray: (s, flags) => {
      if (isNullish(s) || str(s).trim() === '') return null;
      return toSigned(base64DecodeAndroid(str(s), typeof flags === 'number' ? flags : 0, 'base64DecodeToByteArray'));
    },
    base64Encode: (s, flags) => base64Encode(utf8(str(s)), typeof flags === 'number' ? flags : NO_WRAP),
    hexDecodeToByteArray: (hex) => toSigned(hexDecode(str(hex), 'hexDecodeToByteArray')),
    hexDecodeToString: (hex) => fromUtf8(hexDecode(str(hex), 'hexDecodeToString')),
    hexEncodeToString: (s) => hexEncode(utf8(str(s))),
    md5Encode: (s) => md5Hex(utf8(str(s))),
    md5Encode16: (s) => md5Hex(utf8(str(s))).slice(8, 24),
    digestHex: (data, algorithm) => hexEncode(digestOf(str(algorithm), 'digestHex')(utf8(str(data)))),
    digestBase64Str: (data, algorithm) => base64Encode(digestOf(str(algorithm), 'digestBase64Str')(utf8(str(data)))),
    HMacHex: (data, algorithm, key) => hexEncode(hmacOf(str(algorithm), 'HMacHex')(utf8(str(key)), utf8(str(data)))),
    HMacBase64: (data, algorithm, key) => base64Encode(hmacOf(str(algorithm), 'HMacBase64')(utf8(str(key)), utf8(str(data)))),
    aesDecodeToByteArray: decrypt('aesDecodeToByteArray'),
    aesDecodeToString: decryptStr('aesDecodeToString'),
    aesBase64DecodeToByteArray: decrypt('aesBase64DecodeToByteArray'),
    aesBase64DecodeToString: decryptStr('aesBase64DecodeToString'),
    aesDecodeArgsBase64Str: (data, key, mode, padding, iv) =>
      symmetricOp(
        [`AES/${str(mode)}/${str(padding)}`, toSigned(base64Bytes(key, 'aesDecodeArgsBase64Str')), toSigned(base64Bytes(iv, 'aesDecodeArgsBase64Str'))],
        'decryptStr',
        data,
        null,
      ),
    aesEncodeToByteArray: (data, key, transformation, iv) => symmetricOp([transformation, key, iv], 'encrypt', data, null),
    // The app's aesEncodeToString decrypts (JsEncodeUtils calls decryptStr): sources that work rely on that.
    aesEncodeToString: decryptStr('aesEncodeToString'),
    aesEncodeToBase64ByteArray: (data, key, transformation, iv) => toSigned(utf8(str(encryptBase64(data, key, transformation, iv)))),
    aesEncodeToBase64String: (d, k, t, iv) => encryptBase64(d, k, t, iv, 'aesEncodeToBase64String'),
    aesEncodeArgsBase64Str: (data, key, mode, padding, iv) => encryptBase64(data, key, `AES/${str(mode)}/${str(padding)}`, iv),
    desDecodeToString: decryptStr('desDecodeToString'),
    desBase64DecodeToString: decryptStr('desBase64DecodeToString'),
    desEncodeToString: (data, key, transformation, iv) => {
      const bytes = symmetricOp([transformation, key, iv], 'encrypt', data, null) as number[];
      return fromUtf8(Uint8Array.from(bytes, (b) => b & 0xff));
    },
    desEncodeToBase64String: (d, k, t, iv) => encryptBase64(d, k, t, iv, 'desEncodeToBase64String'),
    tripleDESDecodeStr: (data, key, mode, padding, iv) => symmetricOp([`DESede/${str(mode)}/${str(padding)}`, key, iv], 'decryptStr', data, null),
    tripleDESDecodeArgsBase64Str: (data, key, mode, padding, iv) =>
      symmetricOp([`DESede/${str(mode)}/${str(padding)}`, toSigned(base64Bytes(key, 'tripleDESDecodeArgsBase64Str')), iv], 'decryptStr', data, null),
    tripleDESEncodeBase64Str: (data, key, mode, padding, iv) => encryptBase64(data, key, `DESede/${str(mode)}/${str(padding)}`, iv),
    tripleDESEncodeArgsBase64Str: (data, key, mode, padding, iv) =>
      encryptBase64(data, toSigned(base64Bytes(key, 'tripleDESEncodeArgsBase64Str')), `DESede/${str(mode)}/${str(padding)}`, iv),
    timeFormat: (time) => {
      const t = Number(time);
      return formatDate(t, 'yyyy/MM/dd HH:mm', offset(t), 'timeFormat');
    },
    // SimpleTimeZone(sh, "UTC"): `sh` is the offset in milliseconds.
    timeFormatUTC: (time, format, sh) => formatDate(Number(time), str(format), Number(sh) || 0, 'timeFormatUTC'),
    encodeURI: (s, enc) => {
      try {
        return urlEncode(str(s), isNullish(enc) ? 'UTF-8' : str(enc), 'encodeURI');
      } catch {
        return ''; // the app answers '' when the charset is unknown
      }
    },
    toNumChapter: (s) => toNumChapter(isNullish(s) ? null : str(s)),
    randomUUID: () => crypto.randomUUID(),
  };
  return helpers;
}
