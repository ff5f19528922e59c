// The engine's keyed text (EngineStorage) over a store: the `cookies` table keyed by registrable
// domain and the `caches` table (source variables, login headers, `java.cache`), through the
// store's own Cookies and Cache areas, so merges and expiry are the app's.
import type { Cache } from '../../domain/cache.js';
import type { Cookies } from '../../domain/cookies.js';
import type { EngineStorage } from '../engine/types.js';

/** What engineStorage needs of a store: its Cookies and Cache areas. */
export interface StorageAreas {
  readonly cookies: Cookies;
  readonly cache: Cache;
}

export function engineStorage(store: StorageAreas): EngineStorage {
  const { cookies, cache } = store;
  return {
    cookies: {
      get: (domain) => cookies.get(domain),
      set: (domain, cookie) => cookies.set(domain, cookie),
      replace: (domain, cookie) => cookies.replace(domain, cookie),
      delete: (domain) => cookies.delete(domain),
    },
    cache: {
      get: (key) => cache.get(key),
      put: (key, value, ttlSeconds) => cache.put(key, value, ttlSeconds ?? 0),
      delete: (key) => cache.delete(key),
    },
  };
}
