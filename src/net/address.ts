// What kind of address an IP literal is: public, or one of the kinds the network policy keeps
// a server's fetches away from (loopback, private, link-local, metadata, ...). IPv4 in the
// dotted form the WHATWG URL parser and DNS give; IPv6 in any RFC 4291 text form. IPv6 forms
// that carry an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by that address.
import type { RefusalReason } from './errors.js';

export type AddressKind = 'public' | Exclude<RefusalReason, 'scheme' | 'local-name' | 'invalid-url'>;

type Range = readonly [base: number, bits: number, kind: AddressKind];

const v4 = (text: string): number => text.split('.').reduce((n, p) => n * 256 + Number(p), 0);

/** First match wins: the single metadata addresses before the blocks that hold them. */
const V4_RANGES: readonly Range[] = (
  [
    ['169.254.169.254', 32, 'metadata'], // AWS, GCP, Azure, OpenStack
    ['100.100.100.200', 32, 'metadata'], // Alibaba Cloud
    ['168.63.129.16', 32, 'metadata'], // Azure's host endpoint, a public address
    ['192.0.0.192', 32, 'metadata'], // Oracle Cloud
    ['255.255.255.255', 32, 'broadcast'],
    ['0.0.0.0', 8, 'unspecified'],
    ['10.0.0.0', 8, 'private'],
    ['100.64.0.0', 10, 'private'], // carrier-grade NAT
    ['127.0.0.0', 8, 'loopback'],
    ['169.254.0.0', 16, 'link-local'],
    ['172.16.0.0', 12, 'private'],
    ['192.0.0.0', 24, 'reserved'],
    ['192.0.2.0', 24, 'reserved'],
    ['192.88.99.0', 24, 'reserved'],
    ['192.168.0.0', 16, 'private'],
    ['198.18.0.0', 15, 'reserved'],
    ['198.51.100.0', 24, 'reserved'],
    ['203.0.113.0', 24, 'reserved'],
    ['224.0.0.0', 4, 'multicast'],
    ['240.0.0.0', 4, 'reserved'],
  ] as const
).map(([base, bits, kind]) => [v4(base), bits, kind] as const);

/** The 32-bit value of a dotted IPv4 address, or undefined. */
export function parseIPv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  return v4(text);
}

export function ipv4Kind(value: number): AddressKind {
  for (const [base, bits, kind] of V4_RANGES) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    if ((value & mask) >>> 0 === base) return kind;
  }
  return 'public';
}

/** The eight 16-bit groups of an IPv6 address (brackets and a %zone allowed), or undefined. */
export function parseIPv6(text: string): number[] | undefined {
  let t = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = t.indexOf('%');
  if (zone >= 0) t = t.slice(0, zone);
  if (!t.includes(':')) return undefined;
  const tail: number[] = [];
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(t);
  if (dotted) {
    const n = parseIPv4(dotted[2]!);
    if (n === undefined) return undefined;
    t = dotted[1]!.endsWith('::') ? dotted[1]! : dotted[1]!.slice(0, -1);
    tail.push(n >>> 16, n & 0xffff);
  }
  const halves = t.split('::');
  if (halves.length > 2) return undefined;
  const groups = (s: string): number[] | undefined => {
    if (s === '') return [];
    const out: number[] = [];
    for (const g of s.split(':')) {
      if (!/^[0-9a-f]{1,4}$/i.test(g)) return undefined;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !rest) return undefined;
  const known = head.length + rest.length + tail.length;
  if (halves.length === 1 ? known !== 8 : known > 7) return undefined;
  return [...head, ...new Array<number>(8 - known).fill(0), ...rest, ...tail];
}

const starts = (g: readonly number[], prefix: readonly number[], bits: number): boolean => {
  for (let i = 0; i * 16 < bits; i++) {
    const take = Math.min(16, bits - i * 16);
    const mask = (0xffff << (16 - take)) & 0xffff;
    if ((g[i]! & mask) !== (prefix[i]! & mask)) return false;
  }
  return true;
};
const embedded = (hi: number, lo: number): number => ((hi << 16) >>> 0) + lo;

export function ipv6Kind(g: readonly number[]): AddressKind {
  const zeros = (n: number): boolean => g.slice(0, n).every((x) => x === 0);
  if (zeros(8)) return 'unspecified';
  if (zeros(7) && g[7] === 1) return 'loopback';
  // ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (translated), ::a.b.c.d (compatible): the IPv4 address.
  if (zeros(5) && (g[5] === 0xffff || g[5] === 0)) return ipv4Kind(embedded(g[6]!, g[7]!));
  if (zeros(4) && g[4] === 0xffff && g[5] === 0) return ipv4Kind(embedded(g[6]!, g[7]!));
  if (starts(g, [0x64, 0xff9b, 0, 0, 0, 0], 96)) return ipv4Kind(embedded(g[6]!, g[7]!)); // NAT64
  if (starts(g, [0x64, 0xff9b, 1], 48)) return 'private'; // local-use NAT64
  if (starts(g, [0x2002], 16)) return ipv4Kind(embedded(g[1]!, g[2]!)); // 6to4
  if (starts(g, [0x2001, 0], 32)) return 'reserved'; // Teredo
  if (starts(g, [0x2001, 0xdb8], 32)) return 'reserved'; // documentation
  if (starts(g, [0x100, 0, 0, 0], 64)) return 'reserved'; // discard
  if (g.join(':') === [0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254].join(':')) return 'metadata'; // AWS over IPv6
  if (starts(g, [0xfc00], 7)) return 'unique-local';
  if (starts(g, [0xfe80], 10)) return 'link-local';
  if (starts(g, [0xfec0], 10)) return 'private'; // the old site-local block
  if (starts(g, [0xff00], 8)) return 'multicast';
  return 'public';
}

/** The kind of an IP literal (IPv6 with or without brackets), or undefined when it is not one. */
export function addressKind(text: string): AddressKind | undefined {
  const n = parseIPv4(text);
  if (n !== undefined) return ipv4Kind(n);
  const g = parseIPv6(text);
  return g ? ipv6Kind(g) : undefined;
}
