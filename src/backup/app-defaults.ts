// What the app gives a field that a backup or rule file leaves out: the Kotlin default of the
// entity (Gson builds entities through their no-argument constructors, reference 3.4 and 4.4).
// Listed only where it differs from the column's DDL default or where the column has none;
// any other required field without a default becomes '' / 0 / false.

/** The time of the import, in epoch milliseconds. */
export const NOW = Symbol('now');
/** A key the app fills with the current time: now, made unique within one import. */
export const NOW_UNIQUE = Symbol('now, unique');

export type AppDefault = string | number | boolean | null | typeof NOW | typeof NOW_UNIQUE;

export const APP_DEFAULTS: Readonly<Record<string, Readonly<Record<string, AppDefault>>>> = {
  books: { latestChapterTime: NOW, lastCheckTime: NOW, durChapterTime: NOW },
  book_groups: { show: true, bookSort: -1 },
  book_sources: {
    enabled: true,
    enabledExplore: true,
    enabledCookieJar: true,
    respondTime: 180000,
  },
  rssSources: { enabled: true, enabledCookieJar: true, enableJs: true, loadWithBaseUrl: true },
  replace_rules: { id: NOW_UNIQUE, order: -2147483648 },
  txtTocRules: { id: NOW_UNIQUE, serialNumber: -1, enable: true },
  httpTTS: { id: NOW_UNIQUE, lastUpdateTime: NOW },
  ruleSubs: { id: NOW_UNIQUE, update: NOW },
  servers: { id: NOW_UNIQUE, type: 'WEBDAV' },
  bookmarks: { time: NOW_UNIQUE },
  search_keywords: { usage: 1, lastUseTime: NOW },
  readRecord: { deviceId: '', lastRead: NOW },
};

export function appDefault(table: string, field: string): AppDefault | undefined {
  return APP_DEFAULTS[table]?.[field];
}
