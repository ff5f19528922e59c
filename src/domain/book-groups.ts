// Book groups (legado-data-layer.md 2.2): user groups are single bits of a 64-bit mask that
// books.group ORs together; negative ids are the special bookshelf tabs.
import { LimitError, ValueTypeError } from '../errors.js';
import type { SchemaVersion } from '../schema/index.js';
import type { NewRow, Row } from '../schema/row-types.js';
import { checkObject, checkRows } from '../table/args.js';
import { Area } from './support.js';
import { SpecialGroupId, USER_GROUP_LIMIT, asGroupId, isSpecialGroupId, isUserGroupId, specialGroupBooks, specialGroupsAt } from './special-groups.js';

export type GroupId = bigint | number;

export interface NewGroupOptions {
  readonly cover?: string | null;
  /** Shown as a bookshelf tab (default true, the app's default). */
  readonly show?: boolean;
  /** Default: one more than the largest order of the user groups, as the app does. */
  readonly order?: number;
  /** The group's own bookshelf sort (0 to 3), -1 for the global setting. Schema 62 only. */
  readonly bookSort?: number;
}

const INT64_MIN = -(2n ** 63n);
/** User groups: the positive bits, and bit 63 (negative as a signed value). */
const USER = '(groupId > 0 OR groupId = @min)';

export class BookGroups<V extends SchemaVersion = 62> extends Area {
  private get t() {
    return this.table('book_groups');
  }

  /** Every group, special ones included, in `order`. */
  all(): Row<'book_groups', V>[] {
    return this.out(this.t.list({ orderBy: 'order' }));
  }

  /** The user groups (the ones books can be put in), in `order`. */
  userGroups(): Row<'book_groups', V>[] {
    return this.out(this.t.select(`WHERE ${USER} ORDER BY \`order\``, { min: INT64_MIN }));
  }

  get(id: GroupId): Row<'book_groups', V> | undefined {
    return this.t.get(id) as Row<'book_groups', V> | undefined;
  }

  getByName(name: string): Row<'book_groups', V> | undefined {
    return this.out(this.t.list({ where: { groupName: name }, limit: 1 }))[0];
  }

  /** The OR of every user group id: the bits a book in some group has at least one of. */
  userMask(): bigint {
    let mask = 0n;
    for (const id of this.sqlValue(`SELECT groupId FROM book_groups WHERE ${USER}`).safeIntegers(true).all({ min: INT64_MIN }) as bigint[]) {
      mask |= id;
    }
    return mask;
  }

  /** The smallest power of two no group uses yet (bit 63 is -2^63), or undefined when all 64 are taken. */
  nextId(): bigint | undefined {
    const used = this.userMask();
    for (let bit = 0n; bit < BigInt(USER_GROUP_LIMIT); bit++) {
      if ((BigInt.asUintN(64, used) & (1n << bit)) === 0n) return BigInt.asIntN(64, 1n << bit);
    }
    return undefined;
  }

  /** Creates a user group with the next free id; a LimitError when 64 exist. */
  create(name: string, options: NewGroupOptions = {}): Row<'book_groups', V> {
    checkObject('bookGroups.create', 'options', options, true);
    return this.store.transaction(() => {
      const groupId = this.nextId();
      if (groupId === undefined) throw new LimitError('book_groups', USER_GROUP_LIMIT, 'no free user group id');
      const order = options.order ?? this.maxUserOrder() + 1;
      const row = { groupId, groupName: name, cover: options.cover ?? null, order, show: options.show ?? true };
      this.t.insert(options.bookSort === undefined ? row : { ...row, bookSort: options.bookSort });
      return this.get(groupId)!;
    });
  }

  rename(id: GroupId, name: string): boolean {
    return this.t.update(id, { groupName: name });
  }

  setShow(id: GroupId, show: boolean): boolean {
    return this.t.update(id, { show });
  }

  /** Sets a group's own sort (-1: use the global setting). Schema 62 only (UnknownFieldError at 49). */
  setBookSort(id: GroupId, bookSort: number): boolean {
    return this.t.update(id, { bookSort });
  }

  /** The group's own sort, or -1 (use the global setting): always -1 at schema 49, which has no bookSort. */
  bookSortOf(id: GroupId): number {
    if (!this.hasColumn('book_groups', 'bookSort')) return -1;
    return this.t.get(id)?.bookSort ?? -1;
  }

  /** Gives the listed groups `order` 1, 2, 3… in list order, as the app's group manager does. */
  reorder(ids: readonly GroupId[]): number {
    checkRows('bookGroups.reorder', ids, 'ids', 'an array of group ids');
    return this.store.transaction(() => {
      let changed = 0;
      let i = 0;
      for (const id of ids) if (this.t.update(id, { order: ++i })) changed++;
      return changed;
    });
  }

  /**
   * Deletes a group. For a user group its bit is also cleared from every book, in the same
   * transaction (the app's removeGroup); special ids are not bits, so books are left alone.
   */
  delete(id: GroupId): boolean {
    const gid = asGroupId(id);
    return this.store.transaction(() => {
      const deleted = this.t.delete(gid);
      if (isUserGroupId(gid)) {
        this.sql('UPDATE books SET `group` = `group` & ~@id WHERE (`group` & @id) != 0').run({ id: gid });
      }
      return deleted;
    });
  }

  /** Names of the user groups whose bits are in `mask` (a book's group), in `order`. */
  namesOf(mask: GroupId): string[] {
    return this.sqlValue(`SELECT groupName FROM book_groups WHERE ${USER} AND (groupId & @mask) != 0 ORDER BY \`order\``).all({
      min: INT64_MIN,
      mask: asGroupId(mask),
    }) as string[];
  }

  /**
   * The bookshelf tabs, in `order`, by the v62 rules: user groups that are shown (even when
   * empty); "all" when shown; local, audio and update-failed when shown and some book is of
   * that kind; the two "no group" tabs when shown and some book is in no user group.
   */
  visible(): Row<'book_groups', V>[] {
    const specials = [...specialGroupBooks(this.version)]
      .map(([id, cond]) => (id === SpecialGroupId.all ? `groupId = ${id}` : `(groupId = ${id} AND EXISTS (SELECT 1 FROM books WHERE ${cond}))`))
      .join(' OR ');
    return this.out(this.t.select(`WHERE show != 0 AND (${USER} OR ${specials}) ORDER BY \`order\``, { min: INT64_MIN, mask: this.userMask() }));
  }

  /**
   * Inserts the special groups whose id is missing, as the app does on every open; existing
   * rows (renamed or hidden ones too) are left as they are. Returns how many were inserted.
   */
  ensureSpecial(): number {
    return this.store.transaction(() => {
      let inserted = 0;
      for (const g of specialGroupsAt(this.version)) {
        if (this.t.has(g.groupId)) continue;
        this.t.insert({
          groupId: g.groupId,
          groupName: g.groupName,
          order: g.order,
          show: g.show,
          ...(g.enableRefresh === undefined ? {} : { enableRefresh: g.enableRefresh }),
        } as NewRow<'book_groups'>);
        inserted++;
      }
      return inserted;
    });
  }

  /** Throws unless `id` names a special group or is a power of two. */
  static check(id: GroupId): bigint {
    const gid = asGroupId(id);
    if (!isSpecialGroupId(gid) && !isUserGroupId(id)) {
      throw new ValueTypeError('book_groups', 'groupId', id, 'a special group id (-1, -2, -3, -4, -5, -11) or a user group id (a power of two)');
    }
    return gid;
  }

  private maxUserOrder(): number {
    return (this.sqlValue(`SELECT ifnull(max(\`order\`), 0) FROM book_groups WHERE ${USER}`).get({ min: INT64_MIN }) as number) ?? 0;
  }

  private out(rows: readonly unknown[]): Row<'book_groups', V>[] {
    return rows as Row<'book_groups', V>[];
  }
}
