// The special book groups: negative ids that are bookshelf tabs, not bits of books.group.
// Data from legado-data-layer.md 2.2 and 6.2 (the app's open callback, v62 and v49 code). The
// books.type bitmask arrived with 55 (Migration_54_55), and with it the update-failed flag, so
// versions below 55 take the v49 data and versions from 55 on the v62 data (the reference gives
// no finer step for the callback).
import { checkInteger } from '../table/args.js';
import type { SchemaVersion } from '../schema/index.js';

/** The ids of the special groups, and the folder-style root id the app never stores. */
export const SpecialGroupId = {
  all: -1n,
  local: -2n,
  audio: -3n,
  netNoGroup: -4n,
  localNoGroup: -5n,
  updateError: -11n,
} as const;

export interface SpecialGroup {
  readonly groupId: bigint;
  readonly groupName: string;
  readonly order: number;
  readonly show: boolean;
  /** Only where the version has book_groups.enableRefresh (63 on); the app inserts 本地 with false. */
  readonly enableRefresh?: boolean;
}

/** The version whose callback and book kinds a version shares: 49 below the bitmask, else 62. */
const era = (version: SchemaVersion): 49 | 62 => (version < 55 ? 49 : 62);

/** The rows the app's open callback inserts when their id is missing, at a schema version. */
export function specialGroupsAt(version: SchemaVersion): readonly SpecialGroup[] {
  if (version < 63) return SPECIAL_GROUPS[era(version)];
  return SPECIAL_GROUPS[62].map((g) => (g.groupId === SpecialGroupId.local ? { ...g, enableRefresh: false } : g));
}

/** The callback's rows in the v62 and v49 code. */
export const SPECIAL_GROUPS: Readonly<Record<49 | 62, readonly SpecialGroup[]>> = {
  62: [
    { groupId: -1n, groupName: '全部', order: -10, show: true },
    { groupId: -2n, groupName: '本地', order: -9, show: true },
    { groupId: -3n, groupName: '音频', order: -8, show: true },
    { groupId: -4n, groupName: '网络未分组', order: -7, show: true },
    { groupId: -5n, groupName: '本地未分组', order: -6, show: false },
    { groupId: -11n, groupName: '更新失败', order: -1, show: true },
  ],
  // The v49 callback inserted four groups; -4 was still called 未分组.
  49: [
    { groupId: -1n, groupName: '全部', order: -10, show: true },
    { groupId: -2n, groupName: '本地', order: -9, show: true },
    { groupId: -3n, groupName: '音频', order: -8, show: true },
    { groupId: -4n, groupName: '未分组', order: -7, show: true },
  ],
};

/**
 * SQL tests over `books` for the kinds of book. From schema 55 on `type` is a bitmask
 * (BookType: text 8, updateError 16, audio 32, local 256); at 49 it was the source type
 * (0 text, 1 audio) and a local book was known by its origin `loc_book` (v49 BookDao).
 */
export interface BookKinds {
  readonly text: string;
  readonly audio: string;
  readonly local: string;
  /** Neither audio nor local. */
  readonly net: string;
  readonly updateError: string;
}

export const bookKindsAt = (version: SchemaVersion): BookKinds => BOOK_KINDS[era(version)];

export const BOOK_KINDS: Readonly<Record<49 | 62, BookKinds>> = {
  62: {
    text: '(type & 8) != 0',
    audio: '(type & 32) != 0',
    local: '(type & 256) != 0',
    net: '(type & 32) = 0 AND (type & 256) = 0',
    updateError: '(type & 16) != 0',
  },
  49: {
    text: 'type = 0',
    audio: 'type = 1',
    local: "origin = 'loc_book'",
    net: "type != 1 AND origin != 'loc_book'",
    // Schema 49 had no update-failed flag.
    updateError: '0',
  },
};

/**
 * Which books each special group shows (BookDao), as SQL over `books`. `@mask` is the OR of
 * every user group id: "in no group" means no bit of it is set.
 */
export function specialGroupBooks(version: SchemaVersion): ReadonlyMap<bigint, string> {
  const k = bookKindsAt(version);
  const noGroup = '(`group` & @mask) = 0';
  return new Map([
    [SpecialGroupId.all, '1'],
    [SpecialGroupId.local, k.local],
    [SpecialGroupId.audio, k.audio],
    [SpecialGroupId.netNoGroup, `${k.net} AND ${noGroup}`],
    [SpecialGroupId.localNoGroup, `${k.local} AND ${noGroup}`],
    [SpecialGroupId.updateError, k.updateError],
  ]);
}

const SPECIAL_IDS: ReadonlySet<bigint> = new Set(Object.values(SpecialGroupId));

export const isSpecialGroupId = (id: bigint): boolean => SPECIAL_IDS.has(id);

const INT64_MIN = -(2n ** 63n);

/** A user group id: one bit of a signed 64-bit mask (the 64th is -2^63). */
export function isUserGroupId(id: bigint | number): boolean {
  if (typeof id === 'number' && !Number.isSafeInteger(id)) return false;
  const v = BigInt(id);
  if (v < INT64_MIN || v > -INT64_MIN) return false;
  const bits = BigInt.asUintN(64, v);
  return bits !== 0n && (bits & (bits - 1n)) === 0n;
}

/** The id as the signed 64-bit value SQLite stores (2^63 becomes -2^63). */
export const asGroupId = (id: bigint | number): bigint => {
  checkInteger('book groups', 'groupId', id, 'a group id (a bigint, or an integer number)');
  return BigInt.asIntN(64, BigInt(id));
};

export const USER_GROUP_LIMIT = 64;
