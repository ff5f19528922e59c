// Text replacement rules (legado-data-layer.md 2.5): which rules apply to a book, in sortOrder.
import type { NewRow, Row } from '../schema/row-types.js';
import { checkObject, checkText } from '../table/args.js';
import { Area, containing } from './support.js';

/** Kotlin's Int.MIN_VALUE: the app's "no order given" default for a rule. */
export const UNSET_ORDER = -2147483648;

export class ReplaceRules extends Area {
  private get t() {
    return this.table('replace_rules');
  }

  /** Every rule, in sortOrder. */
  all(): Row<'replace_rules'>[] {
    return this.t.list({ orderBy: 'order' });
  }

  enabled(): Row<'replace_rules'>[] {
    return this.t.list({ where: { isEnabled: true }, orderBy: 'order' });
  }

  /** The enabled title rules for a book (its name and its source URL), in sortOrder. */
  forTitle(bookName: string, origin: string): Row<'replace_rules'>[] {
    return this.inScope('scopeTitle', bookName, origin, 'replaceRules.forTitle');
  }

  /** The enabled content rules for a book (its name and its source URL), in sortOrder. */
  forContent(bookName: string, origin: string): Row<'replace_rules'>[] {
    return this.inScope('scopeContent', bookName, origin, 'replaceRules.forContent');
  }

  /** Enables or disables every rule; returns how many changed. */
  enableAll(enabled: boolean): number {
    return this.sql('UPDATE replace_rules SET isEnabled = ? WHERE isEnabled != ?').run(enabled ? 1 : 0, enabled ? 1 : 0).changes;
  }

  /** The order a new rule gets from the app's editor: the largest sortOrder plus one. */
  nextOrder(): number {
    return this.extreme('max', 'replace_rules', 'sortOrder') + 1;
  }

  /**
   * Adds a rule as the app's editor saves one: a missing order (or Int.MIN_VALUE) becomes
   * nextOrder(). A missing id is chosen by SQLite (AUTOINCREMENT). Returns the id.
   */
  add(rule: NewRow<'replace_rules'>): number {
    checkObject('replaceRules.add', 'rule', rule);
    return this.store.transaction(() => {
      const order = rule.order === undefined || rule.order === UNSET_ORDER ? this.nextOrder() : rule.order;
      return this.t.insert({ ...rule, order });
    });
  }

  /** Rules whose group or name contains `key`. */
  search(key: string): Row<'replace_rules'>[] {
    checkText('replaceRules.search', 'key', key);
    const m = this.likeAny(['`group`', 'name'], containing(key));
    return this.t.select(`WHERE ${m.sql} ORDER BY sortOrder`, m.params);
  }

  /** Rules in `group` (the comma-aware match). */
  byGroup(group: string): Row<'replace_rules'>[] {
    checkText('replaceRules.byGroup', 'group', group);
    const m = this.groupMatch('`group`', group);
    return this.t.select(`WHERE ${m.sql} ORDER BY sortOrder`, m.params);
  }

  private inScope(flag: 'scopeTitle' | 'scopeContent', bookName: string, origin: string, method: string): Row<'replace_rules'>[] {
    checkText(method, 'bookName', bookName);
    checkText(method, 'origin', origin);
    // The scope test (v62): the scope names the book or its source, or is empty (a global rule).
    // An empty name or origin names nothing (the app's LIKE '%%' would match every scope).
    const names = [bookName, origin].filter((s) => s !== '').map((s) => this.like('scope', containing(s)));
    const inScope = [...names.map((t) => t.sql), 'scope IS NULL', "scope = ''"].join(' OR ');
    return this.t.select(
      `WHERE isEnabled = 1 AND ${flag} = 1 AND (${inScope}) ORDER BY sortOrder`,
      names.flatMap((t) => t.params),
    );
  }
}
