// What the domain areas share: their store, statements prepared once per store, LIKE patterns
// that match text literally, and the comma-aware group match.
import type { Statement } from '../engine/driver.js';
import type { SchemaVersion } from '../schema/index.js';
import type { TableName } from '../schema/row-types.js';
import { likeTerm, type SqlTerm } from '../table/like.js';
import type { TableOf } from '../table/typed.js';
import type { DomainContext } from './context.js';

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);
/** Pattern for `Area.like`: the text anywhere (`%`, `_` and `\` in it match themselves). */
export const containing = (text: string): string => `%${escapeLike(text)}%`;
/** Pattern for `Area.like`: the text at the start. */
export const startingWith = (text: string): string => `${escapeLike(text)}%`;

/** The app's group separators (AppPattern.splitGroupRegex). */
export const GROUP_SEPARATORS = /[,;，；]/;

/** The group names in a stored group list: split, trimmed, empty ones dropped. */
export function splitGroups(text: string | null | undefined): string[] {
  if (!text) return [];
  return text
    .split(GROUP_SEPARATORS)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Base of the domain areas: one instance per store, so each statement is prepared once per store. */
export abstract class Area {
  /** The store the area works on; areas check `version` before touching columns only v62 has. */
  protected readonly store: DomainContext;
  protected readonly version: SchemaVersion;
  /** By their SQL, each map made on first use (TableApi's caches say why). */
  private statements: Map<string, Statement> | undefined;
  private valueStatements: Map<string, Statement> | undefined;

  constructor(store: DomainContext) {
    this.store = store;
    this.version = store.version;
  }

  /** A statement of this area, prepared on first use. Writing ones report changes when they run. */
  protected sql(text: string): Statement {
    const statements = (this.statements ??= new Map());
    let s = statements.get(text);
    if (!s) {
      s = this.store.db.prepare(text);
      statements.set(text, s);
    }
    return s;
  }

  /** A statement of this area whose rows are their first column's value (pluck), prepared once in that mode. */
  protected sqlValue(text: string): Statement {
    const statements = (this.valueStatements ??= new Map());
    let s = statements.get(text);
    if (!s) {
      s = this.store.db.prepare(text).pluck();
      statements.set(text, s);
    }
    return s;
  }

  /**
   * `column LIKE pattern ESCAPE '\'`, the pattern made by `containing` or `startingWith`, as a
   * condition the engine runs however long the pattern (see table/like.ts).
   */
  protected like(column: string, pattern: string): SqlTerm {
    return likeTerm(column, pattern, { escape: '\\', maxBytes: this.store.db.capabilities.maxLikePatternBytes, name: `${column} LIKE` });
  }

  /** Any of the columns LIKE the pattern. */
  protected likeAny(columns: readonly string[], pattern: string): SqlTerm {
    const terms = columns.map((c) => this.like(c, pattern));
    return { sql: `(${terms.map((t) => t.sql).join(' OR ')})`, params: terms.flatMap((t) => t.params) };
  }

  /**
   * The app's "group search" (1.1): the exact value, or one item of a `,`-separated list. Only
   * `,` separates here, as in the app's DAO queries; `groups()` lists split on `,;，；`.
   */
  protected groupMatch(column: string, group: string): SqlTerm {
    const g = escapeLike(group);
    const items = [`${g},%`, `%,${g}`, `%,${g},%`].map((p) => this.like(column, p));
    return { sql: `(${column} = ? OR ${items.map((t) => t.sql).join(' OR ')})`, params: [group, ...items.flatMap((t) => t.params)] };
  }

  /** A typed table; throws UnknownTableError when the store's version has no such table. */
  protected table<N extends TableName<62>>(name: N): TableOf<N> {
    return this.store.table(name) as unknown as TableOf<N>;
  }

  /** min or max of an order column, 0 for an empty table (as the app's Int-returning queries give). */
  protected extreme(kind: 'min' | 'max', table: string, column: string): number {
    return this.sqlValue(`SELECT ifnull(${kind}(\`${column}\`), 0) FROM \`${table}\``).get() as number;
  }

  /** Whether the store's version has this column (the areas serve every version 49 to 75). */
  protected hasColumn(table: string, field: string): boolean {
    return this.store.schema.table(table)?.column(field) !== undefined;
  }

  protected now(): number {
    return this.store.clock();
  }
}
