// Which URLs and addresses a fetch under the network policy may reach. A URL is read by the
// WHATWG parser first, which already turns every spelling of an address into one form
// (`2130706433`, `0x7f000001`, `0177.0.0.1`, `127.1` all become `127.0.0.1`; `[::ffff:127.0.0.1]`
// becomes `[::ffff:7f00:1]`; `%6c%6fcalhost`, `LOCALHOST` become `localhost`), then judged:
// only http and https; no loopback, private, link-local, unique-local, unspecified, multicast,
// broadcast, reserved or cloud-metadata address; no local name. A host that resolves names
// itself (Node) checks each resolved address again with checkAddress before connecting.
import { addressKind, type AddressKind } from './address.js';
import { NetworkPolicyError, type RefusalReason } from './errors.js';

/** Who may be reached besides the public internet. */
export interface AddressRules {
  /** Reach loopback, private, link-local and the other refused addresses too (a LAN, tests). */
  readonly allowPrivateHosts?: boolean | undefined;
  /**
   * Hosts reached though their address or name would be refused: `name`, `name:port`,
   * `address`, `address:port`, `[v6]`, `[v6]:port` (a NAS on the LAN, a test's fixture server).
   */
  readonly reachableHosts?: readonly string[] | undefined;
}

/** Names that reach this machine or its network whatever DNS says (RFC 6761, 6762, 8375, ICANN's .internal). */
const LOCAL_SUFFIXES = ['.localhost', '.local', '.localdomain', '.internal', '.home.arpa'];
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

const WHY: Readonly<Record<Exclude<RefusalReason, 'scheme' | 'invalid-url'>, string>> = {
  loopback: 'a loopback address (this machine)',
  private: 'a private network address',
  'link-local': 'a link-local address',
  'unique-local': 'a unique-local IPv6 address (a private network)',
  unspecified: 'the unspecified address (this machine)',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  metadata: "a cloud metadata service's address",
  reserved: 'a reserved or special-purpose address',
  'local-name': 'a local name (this machine or its network)',
};

const bare = (hostname: string): string => hostname.replace(/\.+$/, '').toLowerCase();

/** The refusal reason for a host name (not an address), or undefined. */
function nameKind(hostname: string): RefusalReason | undefined {
  const name = bare(hostname);
  if (METADATA_NAMES.has(name)) return 'metadata';
  if (name === 'localhost' || LOCAL_SUFFIXES.some((s) => name.endsWith(s))) return 'local-name';
  // A single label (`router`, `intranet`) is completed by the machine's search domains: a LAN name.
  if (!name.includes('.')) return 'local-name';
  return undefined;
}

/** One reachableHosts entry: its host name as the URL parser gives it, and its port when given. */
function parseEntry(entry: string): { hostname: string; port: string | undefined } | undefined {
  const port = /^(?:\[[^\]]*\]|[^:]*):(\d+)$/.exec(entry)?.[1];
  try {
    return { hostname: bare(new URL(`http://${entry}/`).hostname), port };
  } catch {
    return undefined;
  }
}

const effectivePort = (url: URL): string => url.port || (url.protocol === 'https:' ? '443' : '80');

/** Whether the URL's host is on the rules' reachable list (port included when the entry names one). */
export function listedHost(url: URL, rules: AddressRules): boolean {
  const hostname = bare(url.hostname);
  return (rules.reachableHosts ?? []).some((entry) => {
    const e = parseEntry(entry);
    return e !== undefined && e.hostname === hostname && (e.port === undefined || e.port === effectivePort(url));
  });
}

/** Whether a host name is on the list with any port (for the address check, which knows no port). */
function listedName(hostname: string, rules: AddressRules): boolean {
  const name = bare(hostname);
  return (rules.reachableHosts ?? []).some((entry) => parseEntry(entry)?.hostname === name);
}

const refuse = (url: string | URL, reason: RefusalReason, what: string): NetworkPolicyError =>
  new NetworkPolicyError('ADDRESS_REFUSED', url, `refused: ${what}; a server reaches only public http(s) addresses`, reason);

/** The URL, parsed and normalised, when the rules let a fetch reach it; a NetworkPolicyError otherwise. */
export function checkUrl(input: string | URL, rules: AddressRules = {}): URL {
  let url: URL;
  try {
    url = new URL(String(input));
  } catch {
    throw refuse(String(input), 'invalid-url', 'not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse(url, 'scheme', `the ${url.protocol} scheme (only http and https)`);
  if (rules.allowPrivateHosts || listedHost(url, rules)) return url;
  const kind = addressKind(url.hostname);
  if (kind !== undefined) {
    if (kind !== 'public') throw refuse(url, kind, `${url.hostname} is ${WHY[kind]}`);
    return url;
  }
  const reason = nameKind(url.hostname);
  if (reason) throw refuse(url, reason, `${url.hostname} is ${WHY[reason as keyof typeof WHY]}`);
  return url;
}

/**
 * Throws when a resolved address of `hostname` is one the rules keep away from, for hosts that
 * resolve names themselves: called with every address a name resolved to, before connecting.
 */
export function checkAddress(url: string | URL, hostname: string, address: string, rules: AddressRules = {}): void {
  if (rules.allowPrivateHosts || listedName(hostname, rules)) return;
  const kind: AddressKind | undefined = addressKind(address);
  if (kind === undefined) throw refuse(url, 'invalid-url', `${hostname} resolved to ${address}, which is not an IP address`);
  if (kind !== 'public') throw refuse(url, kind, `${hostname} resolves to ${address}, ${WHY[kind]}`);
}
