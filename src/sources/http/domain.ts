// The key cookies are kept under (NetworkUtils.getSubDomain): the registrable domain of an
// http(s) URL, public suffix + 1 by the whole Public Suffix List, private section included as
// OkHttp's PublicSuffixDatabase has it (`m.x.com` and `www.x.com` share; `a.blogspot.com` does not
// share with `b.blogspot.com`); an IP address, or a name that is itself a suffix, as it is.
// Anything that is not an http(s) URL is already a key and is returned unchanged.
import { getDomain } from 'tldts';

/** NetworkUtils.getBaseUrl: `scheme://host[:port]` of an http(s) URL (up to the first `/` after it), else undefined. */
export function baseOf(url: string): string | undefined {
  if (!/^https?:\/\//i.test(url)) return undefined;
  const slash = url.indexOf('/', 9);
  return slash < 0 ? url : url.slice(0, slash);
}

export function cookieDomain(url: string): string {
  const base = baseOf(url);
  if (base === undefined) return url;
  let host: string;
  try {
    host = new URL(base).hostname;
  } catch {
    return base;
  }
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return host;
  if (host.startsWith('[')) return host;
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}
