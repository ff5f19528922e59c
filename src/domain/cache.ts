// The key/value cache with expiry (legado-data-layer.md 2.17): deadline 0 never expires,
// any other deadline is an absolute time in epoch milliseconds. Time comes from the store's
// clock (the `clock` open option), so it can be fixed in tests.
import { ValueTypeError } from '../errors.js';
import type { Row } from '../schema/row-types.js';
import type { TableOf } from '../table/typed.js';
import { likePatternBytes, likeTerm } from '../table/like.js';
import { likeMatcher } from './like-pattern.js';
import { checkText } from '../table/args.js';
import { Area } from './support.js';

/** The row with the key, unless it has expired (deadline 0 never expires). */
const LIVE = 'key = ? AND (deadline = 0 OR deadline > ?)';
const LIVE_VALUE = `SELECT value FROM caches WHERE ${LIVE}`;
const LIVE_ROW = `WHERE ${LIVE}`;

export class Cache extends Area {
  private table_: TableOf<'caches'> | undefined;

  private get t() {
    return (this.table_ ??= this.table('caches'));
  }

  /**
   * Stores `value` under `key` for `ttlSeconds` seconds (the app's CacheManager.put): 0, the
   * default, never expires. Replaces what the key held. Returns the deadline stored.
   */
  put(key: string, value: string | null, ttlSeconds = 0): number {
    if (!Number.isFinite(ttlSeconds) || ttlSeconds < 0) {
      throw new ValueTypeError('caches', 'deadline', ttlSeconds, 'a time to live of 0 (forever) or more seconds');
    }
    const deadline = ttlSeconds === 0 ? 0 : this.now() + Math.round(ttlSeconds * 1000);
    this.t.upsert({ key, value, deadline });
    return deadline;
  }

  /** The value, or undefined when the key is missing or expired (expired rows are left for purgeExpired). */
  get(key: string): string | null | undefined {
    // Only the value is read: a cache read is a point lookup, where turning the key and the
    // deadline into JS values too costs as much as the lookup itself.
    return this.sqlValue(LIVE_VALUE).get(key, this.now()) as string | null | undefined;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** The live row (value and deadline), or undefined when missing or expired. */
  entry(key: string): Row<'caches'> | undefined {
    return this.t.select(LIVE_ROW, [key, this.now()])[0];
  }

  delete(key: string): boolean {
    return this.t.delete(key);
  }

  /**
   * Deletes what the app keeps for a source (CacheDao.deleteSourceVariables): its variables
   * `v_<url>_…`, `userInfo_<url>`, `loginHeader_<url>` and `sourceVariable_<url>`. The LIKE is the
   * app's own, `_` matching any character included (and `%` too, where the URL has one). Returns
   * how many rows went.
   */
  deleteSourceVariables(sourceUrl: string): number {
    checkText('cache.deleteSourceVariables', 'sourceUrl', sourceUrl);
    const pattern = `v_${sourceUrl}_%`;
    const maxBytes = this.store.db.capabilities.maxLikePatternBytes;
    // A `%` inside the pattern (one in the URL) has no SQL form past the engine's limit.
    if (sourceUrl.includes('%') && likePatternBytes(pattern) > maxBytes) return this.deleteSourceVariablesMatched(sourceUrl, pattern);
    const m = likeTerm('key', pattern, { maxBytes, name: 'caches.key like' });
    return this.sql(`DELETE FROM caches WHERE ${m.sql} OR key IN ('userInfo_' || ?, 'loginHeader_' || ?, 'sourceVariable_' || ?)`).run(
      ...m.params,
      sourceUrl,
      sourceUrl,
      sourceUrl,
    ).changes;
  }

  /**
   * deleteSourceVariables for a long URL with a `%` on an engine with a short pattern limit: the
   * same rows, the `v_…` keys matched in JavaScript with LIKE's meaning.
   */
  private deleteSourceVariablesMatched(sourceUrl: string, pattern: string): number {
    const matches = likeMatcher(pattern);
    return this.store.transaction(() => {
      const keys = (this.sqlValue("SELECT key FROM caches WHERE key LIKE 'v_%'").all() as string[]).filter(matches);
      let n = 0;
      for (const key of keys) n += this.sql('DELETE FROM caches WHERE key = ?').run(key).changes;
      return (
        n +
        this.sql("DELETE FROM caches WHERE key IN ('userInfo_' || ?, 'loginHeader_' || ?, 'sourceVariable_' || ?)").run(sourceUrl, sourceUrl, sourceUrl).changes
      );
    });
  }

  /** Deletes the expired rows, as the app does at every start; returns how many. */
  purgeExpired(): number {
    return this.sql('DELETE FROM caches WHERE deadline > 0 AND deadline < ?').run(this.now()).changes;
  }
}
