// `java.createSymmetricCrypto(transformation, key, iv)` and the `aes*`/`des*`/`tripleDES*`
// helpers built on it: hutool's SymmetricCrypto as the app subclasses it (SymmetricCryptoAndroid):
// a transformation `ALG/MODE/PADDING` (Java's defaults ECB and PKCS5Padding), string data as
// UTF-8, a string to decrypt read as hex when every character is a hex digit, else as Base64.
import { cbc, cfb, ctr, ecb } from '@noble/ciphers/aes.js';
import { base64DecodeLenient, base64Encode, hexDecode, hexEncode, isHex } from './codec.js';
import { desCipher } from './des.js';
import { HelperError } from './errors.js';

export interface SymmetricSpec {
  readonly transformation: string;
  readonly key: Uint8Array;
  readonly iv: Uint8Array | null;
}

interface Block {
  readonly size: number;
  encrypt(data: Uint8Array): Uint8Array;
  decrypt(data: Uint8Array): Uint8Array;
}

const STREAM_MODES = new Set(['CTR', 'CFB']);

function parse(transformation: string, helper: string): { alg: string; mode: string; padding: string } {
  const [alg = '', mode = 'ECB', padding = 'PKCS5Padding'] = transformation.split('/').map((p) => p.trim());
  const a = alg.toUpperCase();
  const m = mode.toUpperCase() || 'ECB';
  const p = padding.toUpperCase() || 'PKCS5PADDING';
  if (!['AES', 'DES', 'DESEDE', 'TRIPLEDES', '3DES'].includes(a)) throw new HelperError(helper, `unsupported cipher ${JSON.stringify(alg)}`);
  if (!['ECB', 'CBC', 'CTR', 'CFB'].includes(m)) throw new HelperError(helper, `unsupported mode ${JSON.stringify(mode)}`);
  if (!['PKCS5PADDING', 'PKCS7PADDING', 'NOPADDING', 'ZEROPADDING'].includes(p))
    throw new HelperError(helper, `unsupported padding ${JSON.stringify(padding)}`);
  return { alg: a === 'TRIPLEDES' || a === '3DES' ? 'DESEDE' : a, mode: m, padding: p };
}

function aesBlock(mode: string, key: Uint8Array, iv: Uint8Array | null, helper: string): Block {
  if (![16, 24, 32].includes(key.length)) throw new HelperError(helper, `invalid AES key length: ${key.length} bytes`);
  const needIv = (): Uint8Array => {
    if (iv?.length !== 16) throw new HelperError(helper, `wrong IV length: must be 16 bytes long${iv ? `, got ${iv.length}` : ''}`);
    return iv;
  };
  const make = () => {
    if (mode === 'ECB') return ecb(key, { disablePadding: true });
    if (mode === 'CBC') return cbc(key, needIv(), { disablePadding: true });
    if (mode === 'CTR') return ctr(key, needIv());
    return cfb(key, needIv());
  };
  return { size: 16, encrypt: (d) => make().encrypt(d), decrypt: (d) => make().decrypt(d) };
}

function pad(data: Uint8Array, size: number, padding: string, helper: string): Uint8Array {
  if (padding === 'NOPADDING') {
    if (data.length % size) throw new HelperError(helper, `input length not multiple of ${size} bytes (NoPadding)`);
    return data;
  }
  const fill = padding === 'ZEROPADDING' ? (data.length % size ? size - (data.length % size) : 0) : size - (data.length % size);
  const out = new Uint8Array(data.length + fill);
  out.set(data);
  if (padding !== 'ZEROPADDING') out.fill(fill, data.length);
  return out;
}

function unpad(data: Uint8Array, size: number, padding: string, helper: string): Uint8Array {
  if (padding === 'NOPADDING') return data;
  if (padding === 'ZEROPADDING') {
    let end = data.length;
    while (end > 0 && data[end - 1] === 0) end--;
    return data.slice(0, end);
  }
  const n = data[data.length - 1] ?? 0;
  if (n < 1 || n > size || n > data.length || data.subarray(data.length - n).some((b) => b !== n)) {
    throw new HelperError(helper, 'given final block not properly padded (wrong key or data?)');
  }
  return data.slice(0, data.length - n);
}

function cipherOf(spec: SymmetricSpec, helper: string): { block: Block; stream: boolean; padding: string } {
  const { alg, mode, padding } = parse(spec.transformation, helper);
  const block = alg === 'AES' ? aesBlock(mode, spec.key, spec.iv, helper) : desCipher(alg === 'DESEDE', mode, spec.key, spec.iv, helper);
  return { block, stream: STREAM_MODES.has(mode), padding };
}

export function symmetricEncrypt(spec: SymmetricSpec, data: Uint8Array, helper: string): Uint8Array {
  const { block, stream, padding } = cipherOf(spec, helper);
  return block.encrypt(stream ? data : pad(data, block.size, padding, helper));
}

export function symmetricDecrypt(spec: SymmetricSpec, data: Uint8Array, helper: string): Uint8Array {
  const { block, stream, padding } = cipherOf(spec, helper);
  if (stream) return block.decrypt(data);
  if (data.length % block.size)
    throw new HelperError(helper, `input length ${data.length} not multiple of ${block.size} bytes (not hex or Base64 of the cipher text?)`);
  return unpad(block.decrypt(data), block.size, padding, helper);
}

/** SymmetricCryptoAndroid.decrypt(String): hex when every character is a hex digit, else Base64 (hutool's). */
export function cipherTextBytes(text: string, helper: string): Uint8Array {
  return isHex(text) ? hexDecode(text, helper) : base64DecodeLenient(text);
}

export { base64Encode as cipherBase64, hexEncode as cipherHex };
