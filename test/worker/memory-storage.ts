// An EngineStorage kept in maps: what a Worker without the store passes the engine (cookies by
// domain, merged as the store's Cookies area merges them; the keyed cache without expiry).
import type { EngineStorage } from '../../src/sources/engine/types.js';
import { mergeCookies } from '../../src/sources/http/cookies.js';

export function memoryStorage(): EngineStorage {
  const cookies = new Map<string, string>();
  const cache = new Map<string, string | null>();
  return {
    cookies: {
      get: (domain) => cookies.get(domain),
      set: (domain, cookie) => cookies.set(domain, mergeCookies(cookies.get(domain), cookie)),
      replace: (domain, cookie) => void cookies.set(domain, cookie),
      delete: (domain) => cookies.delete(domain),
    },
    cache: {
      get: (key) => cache.get(key),
      put: (key, value) => cache.set(key, value),
      delete: (key) => cache.delete(key),
    },
  };
}
