// The charset of a TXT book, found from its first block as the app's EncodingDetect (ICU's
// CharsetDetector) names it, and the two things the splitter needs from a charset: decoding
// (TextDecoder; BOMs kept as U+FEFF, as Java's decoders keep them) and the byte length of
// decoded text encoded again (the app measures chapters with String.toByteArray(charset)).

export type TxtCharset = 'UTF-8' | 'UTF-16LE' | 'UTF-16BE' | 'GB18030' | 'Big5';

const LABEL: Record<TxtCharset, string> = { 'UTF-8': 'utf-8', 'UTF-16LE': 'utf-16le', 'UTF-16BE': 'utf-16be', GB18030: 'gb18030', Big5: 'big5' };

/** A charset name as stored in books.charset, mapped to one we decode ('GBK' is read as GB18030). */
export function normalizeCharset(name: string): TxtCharset | undefined {
  const n = name.trim().toLowerCase().replace(/_/g, '-');
  if (n === 'utf-8' || n === 'utf8') return 'UTF-8';
  if (n === 'utf-16le') return 'UTF-16LE';
  if (n === 'utf-16be' || n === 'utf-16') return 'UTF-16BE';
  if (n === 'gb18030' || n === 'gbk' || n === 'gb2312' || n === 'cp936' || n === 'x-gbk') return 'GB18030';
  if (n === 'big5' || n === 'big5-hkscs' || n === 'cp950') return 'Big5';
  return undefined;
}

export function decoder(charset: TxtCharset): InstanceType<typeof TextDecoder> {
  return new TextDecoder(LABEL[charset], { ignoreBOM: true });
}

// Common Han characters, simplified and traditional: text decoded with the right one of GB18030
// and Big5 is full of them, text decoded with the wrong one is not.
const COMMON = new Set(
  '的一是不了在人有我他这个们中来上大为和国地到以说时要就出会可也你对生能而子那得于着下自之年过发后作里如家多道去没成所起好小看天还然心都把事面自己什么没有只想样开知手还已现当前走与头听见她问又意情眼话把身长最该几回从些再向此两被动因其将老种点间门已让声者经吗呢啊吧' +
    '這個們來為國說時會對發後裡裏與從麼開現樣還見聽問頭話長動點間門經嗎讓聲沒當兩種無邊幾氣進過實',
);

function scoreHan(text: string): number {
  let score = 0;
  for (const ch of text) {
    if (COMMON.has(ch)) score += 1;
    else if (ch === '\uFFFD') score -= 20;
  }
  return score;
}

/** Strict UTF-8 check; a sequence cut by the end of the sample is allowed. */
function isUtf8(bytes: Uint8Array): { valid: boolean; multiByte: boolean } {
  let multiByte = false;
  const n = bytes.length;
  for (let i = 0; i < n; ) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return { valid: false, multiByte };
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined) return { valid: true, multiByte };
      if ((c & 0xc0) !== 0x80) return { valid: false, multiByte };
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return { valid: false, multiByte };
    multiByte = true;
    i += need + 1;
  }
  return { valid: true, multiByte };
}

/**
 * The charset of a sample (the file's first 512,000 bytes): a BOM first, then UTF-8 when the
 * bytes are valid UTF-8, else whichever of GB18030 and Big5 reads as more common Chinese.
 */
export function detectCharset(sample: Uint8Array): TxtCharset {
  if (sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf) return 'UTF-8';
  if (sample[0] === 0xff && sample[1] === 0xfe) return 'UTF-16LE';
  if (sample[0] === 0xfe && sample[1] === 0xff) return 'UTF-16BE';
  if (isUtf8(sample).valid) return 'UTF-8';
  const head = sample.subarray(0, 64 * 1024);
  const gb = scoreHan(decoder('GB18030').decode(head));
  const big5 = scoreHan(decoder('Big5').decode(head));
  return big5 > gb ? 'Big5' : 'GB18030';
}

/** True when the sample looks like a binary file, not text: NUL bytes or many control bytes. */
export function looksBinary(sample: Uint8Array, charset: TxtCharset): boolean {
  if (charset === 'UTF-16LE' || charset === 'UTF-16BE') return false;
  let control = 0;
  for (const b of sample) {
    if (b === 0) return true;
    if (b < 0x20 && b !== 9 && b !== 10 && b !== 13 && b !== 12 && b !== 27) control++;
  }
  return control > sample.length / 100 + 8;
}

// Which BMP code points the double-byte charsets encode in two bytes, found by decoding every
// two-byte sequence once (the rest are 4 bytes in GB18030, and one '?' byte in Big5).
const twoByteTables = new Map<TxtCharset, Uint8Array>();
function twoByteTable(charset: 'GB18030' | 'Big5'): Uint8Array {
  let t = twoByteTables.get(charset);
  if (t) return t;
  t = new Uint8Array(0x10000);
  const trails: number[] = [];
  for (let b = 0x40; b <= 0xfe; b++) if (b !== 0x7f && (charset === 'GB18030' || b <= 0x7e || b >= 0xa1)) trails.push(b);
  const d = decoder(charset);
  for (let lead = 0x81; lead <= 0xfe; lead++) {
    for (const trail of trails) {
      const s = d.decode(new Uint8Array([lead, trail]));
      if (s.length === 1 && s !== '\uFFFD') t[s.charCodeAt(0)] = 1;
    }
  }
  twoByteTables.set(charset, t);
  return t;
}

/** Bytes of text[from, to) encoded in the charset, as Java's String.toByteArray(charset) counts them. */
export function byteLength(text: string, from: number, to: number, charset: TxtCharset): number {
  if (charset === 'UTF-16LE' || charset === 'UTF-16BE') return (to - from) * 2;
  let n = 0;
  if (charset === 'UTF-8') {
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x80) n += 1;
      else if (c < 0x800) n += 2;
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          n += 4;
          i++;
        } else n += 1;
      } else if (c >= 0xd800 && c <= 0xdfff) n += 1;
      else n += 3;
    }
    return n;
  }
  const table = twoByteTable(charset);
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (table[c] === 1) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      n += charset === 'GB18030' ? 4 : 1;
      i++;
    } else n += charset === 'GB18030' ? 4 : 1;
  }
  return n;
}
