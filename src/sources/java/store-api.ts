// `source.*` (BaseSource.kt), `cookie.*` (CookieStore) and `cache.*` (CacheManager) over the
// engine's seams: the store's `caches` rows keyed as the app keys them, the source's cookie jar,
// and a memory map per host (the app's is one per process). Login info is never logged.
import type { BookSource, CookieJar, EngineHost, EngineStorage } from '../engine/types.js';
import { parseJsonObject } from '../http/lenient-json.js';
import { DEFAULT_USER_AGENT } from '../http/url-rule.js';
import { fromUtf8, utf8 } from './bytes.js';
import { base64Encode } from './codec.js';
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
  /** Runs a source-level script (the header's, the login's) beside the one calling. */
  readonly script: (code: string, rule: string) => Promise<unknown>;
}

/** BaseSource.getLoginJs: the loginUrl without its `@js:`/`<js>` marks. */
function sourceLoginJs(source: BookSource): string | null {
  const js = source.loginUrl;
  if (js === null || js === undefined) return null;
  if (js.startsWith('@js:')) return js.slice(4);
  if (js.startsWith('<js>')) return js.slice(4, js.lastIndexOf('<'));
  return js;
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
    getLoginJs: () => sourceLoginJs(source),
    getHeaderMap: async (hasLoginHeader) => {
      // BaseSource.getHeaderMap: the header (JSON, or a script giving JSON), a User-Agent, the login header if asked
      const header = source.header?.trim() ?? '';
      const lower = header.slice(0, 4).toLowerCase();
      let json = header;
      if (lower === '@js:' || lower === '<js>') {
        const code = lower === '@js:' ? header.slice(4) : header.slice(4, header.lastIndexOf('<'));
        const value = await options.script(code, 'header');
        json = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
      }
      const map: Record<string, string> = {};
      for (const [k, v] of Object.entries(parseJsonObject(json)?.value ?? {})) map[k] = text(v);
      if (!Object.keys(map).some((k) => k.toLowerCase() === 'user-agent')) map['User-Agent'] = DEFAULT_USER_AGENT;
      if (hasLoginHeader === true) Object.assign(map, jsonMap(loginHeader()) ?? {});
      return mapOut(map);
    },
    login: async () => {
      // BaseSource.login: the loginUrl script, then its login() called
      const js = sourceLoginJs(source);
      if (!js?.trim()) return;
      await options.script(`${js}\nif (typeof login == 'function') { login.apply(this); } else { throw ('Function login not implements!!!'); }`, 'loginUrl');
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
