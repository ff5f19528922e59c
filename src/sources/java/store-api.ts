// `source.*` (BaseSource.kt), `cookie.*` (CookieStore) and `cache.*` (CacheManager) over the
// engine's seams: the store's `caches` rows keyed as the app keys them, the source's cookie jar,
// and a memory map per host (the app's is one per process). Login info is never logged.
import type { BookSource, CookieJar, EngineHost, EngineStorage } from '../engine/types.js';
import { fromUtf8, utf8 } from './bytes.js';
import { base64Encode } from './codec.js';
import { HelperError } from './errors.js';
import { cipherTextBytes, symmetricDecrypt, symmetricEncrypt } from './symmetric.js';

type Helper = (...args: unknown[]) => unknown;

const text = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'string' ? v : String(v));

/**
 * The key login info is encrypted with when the host gives no Android ID: the app uses the
 * phone's (`AppConst.androidId`, first 16 characters); this is as little a secret as that is.
 */
export const DEFAULT_DEVICE_ID = 'legado-store-key';

function loginInfoSpec(deviceId: string) {
  return { transformation: 'AES/ECB/PKCS5Padding', key: utf8(deviceId).slice(0, 16), iv: null };
}

/** A JSON object of strings (GSON's lenient read), or undefined. */
export function jsonMap(value: string | null | undefined): Record<string, string> | undefined {
  if (!value) return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
    return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  } catch {
    return undefined;
  }
}

/** A Java Map as the prelude shapes it. */
export const mapOut = (map: Record<string, string>) => ({ __t: 'map', entries: Object.entries(map) });

/** The source's own variables: `source.put/get` (`v_<url>_<key>` rows of `caches`). */
export function sourceVariables(source: BookSource, storage: EngineStorage) {
  const prefix = `v_${source.bookSourceUrl}_`;
  return {
    get: (key: string): string | undefined => storage.cache.get(prefix + key) ?? undefined,
    put: (key: string, value: string): void => void storage.cache.put(prefix + key, value),
  };
}

export interface SourceApiOptions {
  readonly deviceId?: string;
}

/** `source.*` methods beyond the java helpers. `get`/`put` with two arguments are HTTP (`get(url, headers)`): the caller routes those. */
export function sourceApi(source: BookSource, storage: EngineStorage, jarOf: () => CookieJar, options: SourceApiOptions): Record<string, Helper> {
  const key = source.bookSourceUrl;
  const vars = sourceVariables(source, storage);
  const deviceId = options.deviceId ?? DEFAULT_DEVICE_ID;
  const loginHeader = (): string | null => storage.cache.get(`loginHeader_${key}`) ?? null;
  const loginInfo = (): string | null => {
    const stored = storage.cache.get(`userInfo_${key}`);
    if (!stored) return null;
    try {
      return fromUtf8(symmetricDecrypt(loginInfoSpec(deviceId), cipherTextBytes(stored, 'source.getLoginInfo'), 'source.getLoginInfo'));
    } catch {
      return null; // the app logs "获取登陆信息出错" and answers null (another device's key)
    }
  };
  return {
    getKey: () => key,
    getTag: () => source.bookSourceName,
    put: (k, v) => {
      vars.put(text(k), text(v));
      return text(v);
    },
    get: (k) => vars.get(text(k)) ?? '',
    getVariable: () => storage.cache.get(`sourceVariable_${key}`) ?? '',
    setVariable: (v) => {
      if (v === null || v === undefined) storage.cache.delete(`sourceVariable_${key}`);
      else storage.cache.put(`sourceVariable_${key}`, text(v));
    },
    getLoginHeader: () => loginHeader(),
    getLoginHeaderMap: () => {
      const map = jsonMap(loginHeader());
      return map ? mapOut(map) : null;
    },
    putLoginHeader: (header) => {
      const value = text(header);
      const map = jsonMap(value);
      const cookie = map?.Cookie ?? map?.cookie;
      if (cookie) jarOf().replaceCookie(key, cookie); // CookieStore.replaceCookie: merged into what is kept
      storage.cache.put(`loginHeader_${key}`, value);
    },
    removeLoginHeader: () => {
      storage.cache.delete(`loginHeader_${key}`);
      jarOf().removeCookie(key);
    },
    getLoginInfo: () => loginInfo(),
    getLoginInfoMap: () => {
      const map = jsonMap(loginInfo());
      return map ? mapOut(map) : null;
    },
    putLoginInfo: (info) => {
      const encrypted = base64Encode(symmetricEncrypt(loginInfoSpec(deviceId), utf8(text(info)), 'source.putLoginInfo'));
      storage.cache.put(`userInfo_${key}`, encrypted);
      return true;
    },
    removeLoginInfo: () => void storage.cache.delete(`userInfo_${key}`),
    getLoginJs: () => {
      const js = source.loginUrl;
      if (js === null || js === undefined) return null;
      if (js.startsWith('@js:')) return js.slice(4);
      if (js.startsWith('<js>')) return js.slice(4, js.lastIndexOf('<'));
      return js;
    },
    getHeaderMap: () => {
      const header = source.header ?? '';
      if (/^(@js:|<js>)/i.test(header.trim()))
        throw new HelperError('source.getHeaderMap', 'a JavaScript header cannot be worked out from inside another script here');
      return mapOut(jsonMap(header) ?? {});
    },
  };
}

/** `cookie.*`: the source's jar (CookieJar seam). */
export function cookieApi(jarOf: () => CookieJar): Record<string, Helper> {
  return {
    getCookie: (url) => jarOf().getCookie(text(url)),
    getKey: (url, k) => jarOf().getKey(text(url), text(k)),
    setCookie: (url, c) => jarOf().setCookie(text(url), text(c)),
    replaceCookie: (url, c) => {
      if (text(url) === '' || text(c) === '') return; // as the app's: nothing to do
      jarOf().replaceCookie(text(url), text(c));
    },
    removeCookie: (url) => jarOf().removeCookie(text(url)),
  };
}

const memories = new WeakMap<object, Map<string, unknown>>();
const MEMORY_ENTRIES = 4096;

/** The process-wide memory cache of the app, here one per host (`cache.putMemory`). */
export function memoryOf(host: EngineHost): Map<string, unknown> {
  let m = memories.get(host);
  if (!m) memories.set(host, (m = new Map()));
  return m;
}

/** `cache.*`: rows of `caches` (saveTime in seconds; 0 keeps for ever), and the memory map. */
export function cacheApi(host: EngineHost): Record<string, Helper> {
  const { cache } = host.storage;
  const memory = memoryOf(host);
  const num = (k: unknown, int: boolean) => {
    const v = cache.get(text(k));
    if (v === null || v === undefined) return null;
    const n = Number(v.trim());
    return v.trim() === '' || !Number.isFinite(n) || (int && !Number.isInteger(n)) ? null : n;
  };
  const putMemory = (k: unknown, v: unknown) => {
    memory.delete(text(k));
    memory.set(text(k), v);
    if (memory.size > MEMORY_ENTRIES) memory.delete(memory.keys().next().value as string); // the app's LRU, by entries
  };
  return {
    get: (k) => cache.get(text(k)) ?? null,
    put: (k, v, saveTime) => {
      const seconds = Number(saveTime) || 0;
      cache.put(text(k), text(v), seconds > 0 ? seconds : undefined);
    },
    delete: (k) => {
      cache.delete(text(k));
      memory.delete(text(k));
    },
    getFromMemory: (k) => memory.get(text(k)) ?? null,
    putMemory,
    deleteMemory: (k) => void memory.delete(text(k)),
    getInt: (k) => num(k, true),
    getLong: (k) => num(k, true),
    getDouble: (k) => num(k, false),
    getFloat: (k) => num(k, false),
    // The app keeps these as cache files; here they live in the memory map, not in `caches`.
    putFile: (k, v) => putMemory(`file:${text(k)}`, text(v)),
    getFile: (k) => (memory.get(`file:${text(k)}`) as string | undefined) ?? null,
  };
}
