// DES and DESede (3DES, encrypt-decrypt-encrypt) for `createSymmetricCrypto("DES/...")`,
// `des*` and `tripleDES*`, in ECB and CBC: the noble libraries have no DES, and a few sources
// still decrypt their text with it. FIPS 46-3's tables; keys as Java's key specs read them (DES:
// the first 8 bytes, DESede: the first 24). Small and slow (bit arrays), for chapter-sized data.
import { HelperError } from './errors.js';

interface Block {
  readonly size: number;
  encrypt(data: Uint8Array): Uint8Array;
  decrypt(data: Uint8Array): Uint8Array;
}

const table = (s: string): number[] => s.trim().split(/\s+/).map(Number);

const IP = table(`58 50 42 34 26 18 10 2 60 52 44 36 28 20 12 4 62 54 46 38 30 22 14 6 64 56 48 40 32 24 16 8
  57 49 41 33 25 17 9 1 59 51 43 35 27 19 11 3 61 53 45 37 29 21 13 5 63 55 47 39 31 23 15 7`);
const FP = table(`40 8 48 16 56 24 64 32 39 7 47 15 55 23 63 31 38 6 46 14 54 22 62 30 37 5 45 13 53 21 61 29
  36 4 44 12 52 20 60 28 35 3 43 11 51 19 59 27 34 2 42 10 50 18 58 26 33 1 41 9 49 17 57 25`);
const E = table(`32 1 2 3 4 5 4 5 6 7 8 9 8 9 10 11 12 13 12 13 14 15 16 17 16 17 18 19 20 21 20 21 22 23 24 25
  24 25 26 27 28 29 28 29 30 31 32 1`);
const P = table('16 7 20 21 29 12 28 17 1 15 23 26 5 18 31 10 2 8 24 14 32 27 3 9 19 13 30 6 22 11 4 25');
const PC1 = table(`57 49 41 33 25 17 9 1 58 50 42 34 26 18 10 2 59 51 43 35 27 19 11 3 60 52 44 36
  63 55 47 39 31 23 15 7 62 54 46 38 30 22 14 6 61 53 45 37 29 21 13 5 28 20 12 4`);
const PC2 = table(`14 17 11 24 1 5 3 28 15 6 21 10 23 19 12 4 26 8 16 7 27 20 13 2
  41 52 31 37 47 55 30 40 51 45 33 48 44 49 39 56 34 53 46 42 50 36 29 32`);
const SHIFTS = [1, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 1];
const S = [
  `14 4 13 1 2 15 11 8 3 10 6 12 5 9 0 7 0 15 7 4 14 2 13 1 10 6 12 11 9 5 3 8
   4 1 14 8 13 6 2 11 15 12 9 7 3 10 5 0 15 12 8 2 4 9 1 7 5 11 3 14 10 0 6 13`,
  `15 1 8 14 6 11 3 4 9 7 2 13 12 0 5 10 3 13 4 7 15 2 8 14 12 0 1 10 6 9 11 5
   0 14 7 11 10 4 13 1 5 8 12 6 9 3 2 15 13 8 10 1 3 15 4 2 11 6 7 12 0 5 14 9`,
  `10 0 9 14 6 3 15 5 1 13 12 7 11 4 2 8 13 7 0 9 3 4 6 10 2 8 5 14 12 11 15 1
   13 6 4 9 8 15 3 0 11 1 2 12 5 10 14 7 1 10 13 0 6 9 8 7 4 15 14 3 11 5 2 12`,
  `7 13 14 3 0 6 9 10 1 2 8 5 11 12 4 15 13 8 11 5 6 15 0 3 4 7 2 12 1 10 14 9
   10 6 9 0 12 11 7 13 15 1 3 14 5 2 8 4 3 15 0 6 10 1 13 8 9 4 5 11 12 7 2 14`,
  `2 12 4 1 7 10 11 6 8 5 3 15 13 0 14 9 14 11 2 12 4 7 13 1 5 0 15 10 3 9 8 6
   4 2 1 11 10 13 7 8 15 9 12 5 6 3 0 14 11 8 12 7 1 14 2 13 6 15 0 9 10 4 5 3`,
  `12 1 10 15 9 2 6 8 0 13 3 4 14 7 5 11 10 15 4 2 7 12 9 5 6 1 13 14 0 11 3 8
   9 14 15 5 2 8 12 3 7 0 4 10 1 13 11 6 4 3 2 12 9 5 15 10 11 14 1 7 6 0 8 13`,
  `4 11 2 14 15 0 8 13 3 12 9 7 5 10 6 1 13 0 11 7 4 9 1 10 14 3 5 12 2 15 8 6
   1 4 11 13 12 3 7 14 10 15 6 8 0 5 9 2 6 11 13 8 1 4 10 7 9 5 0 15 14 2 3 12`,
  `13 2 8 4 6 15 11 1 10 9 3 14 5 0 12 7 1 15 13 8 10 3 7 4 12 5 6 11 0 14 9 2
   7 11 4 1 9 12 14 2 0 6 10 13 15 3 5 8 2 1 14 7 4 10 8 13 15 12 9 0 3 5 6 11`,
].map(table);

type Bits = Uint8Array;

function toBits(bytes: Uint8Array): Bits {
  const bits = new Uint8Array(bytes.length * 8);
  for (let i = 0; i < bits.length; i++) bits[i] = (bytes[i >> 3]! >> (7 - (i & 7))) & 1;
  return bits;
}

function fromBits(bits: Bits): Uint8Array {
  const bytes = new Uint8Array(bits.length / 8);
  for (let i = 0; i < bits.length; i++) bytes[i >> 3]! |= bits[i]! << (7 - (i & 7));
  return bytes;
}

const permute = (bits: Bits, map: readonly number[]): Bits => Uint8Array.from(map, (p) => bits[p - 1]!);

/** The 16 round keys of one 8-byte key. */
function subkeys(key: Uint8Array): Bits[] {
  const cd = permute(toBits(key), PC1);
  let c = Array.from(cd.subarray(0, 28));
  let d = Array.from(cd.subarray(28));
  return SHIFTS.map((n) => {
    c = [...c.slice(n), ...c.slice(0, n)];
    d = [...d.slice(n), ...d.slice(0, n)];
    return permute(Uint8Array.from([...c, ...d]), PC2);
  });
}

function feistel(r: Bits, k: Bits): Bits {
  const x = permute(r, E).map((b, i) => b ^ k[i]!);
  const out = new Uint8Array(32);
  for (let s = 0; s < 8; s++) {
    const o = s * 6;
    const row = (x[o]! << 1) | x[o + 5]!;
    const col = (x[o + 1]! << 3) | (x[o + 2]! << 2) | (x[o + 3]! << 1) | x[o + 4]!;
    const v = S[s]![row * 16 + col]!;
    for (let b = 0; b < 4; b++) out[s * 4 + b] = (v >> (3 - b)) & 1;
  }
  return permute(out, P);
}

/** One 8-byte block through the 16 rounds, keys in the order given (reversed to decrypt). */
function crypt(block: Uint8Array, keys: Bits[]): Uint8Array {
  const bits = permute(toBits(block), IP);
  let l = bits.subarray(0, 32) as Bits;
  let r = bits.subarray(32) as Bits;
  for (const k of keys) {
    const f = feistel(r, k);
    const next = l.map((b, i) => b ^ f[i]!);
    l = r;
    r = next;
  }
  return fromBits(permute(Uint8Array.from([...r, ...l]), FP));
}

export function desCipher(triple: boolean, mode: string, key: Uint8Array, iv: Uint8Array | null, helper: string): Block {
  const need = triple ? 24 : 8;
  if (key.length < need) throw new HelperError(helper, `invalid ${triple ? 'DESede' : 'DES'} key length: ${key.length} bytes (needs ${need})`);
  if (mode !== 'ECB' && mode !== 'CBC') throw new HelperError(helper, `${triple ? 'DESede' : 'DES'} in ${mode} mode is not supported here (ECB and CBC are)`);
  const ks = (triple ? [0, 8, 16] : [0]).map((at) => subkeys(key.subarray(at, at + 8)));
  const enc = (b: Uint8Array) => (triple ? crypt(crypt(crypt(b, ks[0]!), [...ks[1]!].reverse()), ks[2]!) : crypt(b, ks[0]!));
  const dec = (b: Uint8Array) => (triple ? crypt(crypt(crypt(b, [...ks[2]!].reverse()), ks[1]!), [...ks[0]!].reverse()) : crypt(b, [...ks[0]!].reverse()));
  const chain = (): Uint8Array => {
    if (mode === 'ECB') return new Uint8Array(8);
    if (iv?.length !== 8) throw new HelperError(helper, `wrong IV length: must be 8 bytes long${iv ? `, got ${iv.length}` : ''}`);
    return iv;
  };
  return {
    size: 8,
    encrypt(data) {
      let prev = chain();
      const out = new Uint8Array(data.length);
      for (let i = 0; i < data.length; i += 8) {
        const block = data.slice(i, i + 8);
        if (mode === 'CBC') for (let j = 0; j < 8; j++) block[j]! ^= prev[j]!;
        prev = enc(block);
        out.set(prev, i);
      }
      return out;
    },
    decrypt(data) {
      let prev = chain();
      const out = new Uint8Array(data.length);
      for (let i = 0; i < data.length; i += 8) {
        const block = data.subarray(i, i + 8);
        const plain = dec(block);
        if (mode === 'CBC') for (let j = 0; j < 8; j++) plain[j]! ^= prev[j]!;
        prev = block;
        out.set(plain, i);
      }
      return out;
    },
  };
}
