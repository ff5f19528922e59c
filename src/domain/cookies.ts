// Cookies per site (legado-data-layer.md 2.8). The app keys them by the URL's registrable
// domain (NetworkUtils.getSubDomain); callers pass that key. The value is `k=v; k2=v2`.
import { Area } from './support.js';

/** Parses `k=v; k2=v2` into an ordered map; pairs without `=` or with a blank value are skipped. */
export function parseCookie(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const pair of text.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    const key = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (key === '' || value === '') continue;
    out.set(key, value);
  }
  return out;
}

export function formatCookie(map: ReadonlyMap<string, string>): string {
  return [...map].map(([k, v]) => `${k}=${v}`).join('; ');
}

/** The app's cookie merge: new pairs replace old ones of the same name, others are kept in place. */
export function mergeCookie(old: string, update: string): string {
  const map = parseCookie(old);
  for (const [k, v] of parseCookie(update)) map.set(k, v);
  return formatCookie(map);
}

export class Cookies extends Area {
  private get t() {
    return this.table('cookies');
  }

  get(url: string): string | undefined {
    return this.t.get(url)?.cookie;
  }

  /** Merges the `k=v` pairs of `cookie` into what is stored for `url`; returns the stored text. */
  set(url: string, cookie: string): string {
    return this.store.transaction(() => {
      const old = this.get(url);
      // With nothing stored the app keeps the text as given.
      const merged = old === undefined || old.trim() === '' ? cookie : mergeCookie(old, cookie);
      this.t.upsert({ url, cookie: merged });
      return merged;
    });
  }

  /** Replaces the stored text as it is (no merge). */
  replace(url: string, cookie: string): void {
    this.t.upsert({ url, cookie });
  }

  delete(url: string): boolean {
    return this.t.delete(url);
  }
}
