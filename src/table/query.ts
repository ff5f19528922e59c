// Simple filters and ordering for list and count, compiled to SQL with bound values.
import { InvalidArgumentError, UnknownFieldError, ValueTypeError } from '../errors.js';
import type { DriverCapabilities } from '../engine/driver.js';
import { q } from '../schema/ddl.js';
import { likeTerm } from './like.js';
import type { Column } from '../schema/index.js';
import type { Codec, SqlValue } from './codec.js';

/** A condition on one field: a value (equality; null means IS NULL) or an operator object. */
export type Condition<T> =
  | T
  | null
  | {
      readonly eq?: T | null;
      readonly ne?: T | null;
      readonly gt?: T;
      readonly gte?: T;
      readonly lt?: T;
      readonly lte?: T;
      readonly in?: readonly T[];
      readonly notIn?: readonly T[];
      /** SQL LIKE pattern (case-insensitive for ASCII, `%` and `_` wildcards). */
      readonly like?: string;
    };

export type Where<R> = { readonly [F in keyof R]?: Condition<NonNullable<R[F]> extends bigint ? bigint | number : NonNullable<R[F]>> };

export type OrderTerm<R> = (keyof R & string) | readonly [keyof R & string, 'asc' | 'desc'];

export interface Query<R> {
  readonly where?: Where<R>;
  readonly orderBy?: OrderTerm<R> | readonly OrderTerm<R>[];
  readonly limit?: number;
  readonly offset?: number;
}

export interface CompiledQuery {
  /** The SQL after FROM <table>: WHERE, ORDER BY, LIMIT. */
  readonly tail: string;
  readonly params: SqlValue[];
}

const OPS: Record<string, string> = { eq: '=', ne: '!=', gt: '>', gte: '>=', lt: '<', lte: '<=' };

/** The engine's limits a query is compiled within (SQLite's defaults when not given). */
export type QueryLimits = Pick<DriverCapabilities, 'maxParameters' | 'maxLikePatternBytes'>;

const SQLITE_LIMITS: QueryLimits = { maxParameters: 32766, maxLikePatternBytes: 50000 };

/**
 * The query as SQL within the engine's limits: IN lists bound a value per `?` as long as the
 * statement stays within `maxParameters`; past it, each list is bound as one JSON array read by
 * json_each (same matches: neither a bound value nor json_each's has an affinity, so the
 * column's applies to both). A LIKE pattern longer than the engine
 * takes is written another way with its meaning (like.ts), or refused, named.
 */
export function compileQuery(codec: Codec, query: Query<unknown> = {}, limits: QueryLimits = SQLITE_LIMITS): CompiledQuery {
  const compiled = compile(codec, query, limits, false);
  if (compiled.params.length <= limits.maxParameters) return compiled;
  const packed = compile(codec, query, limits, true);
  if (packed.params.length > limits.maxParameters) {
    throw new InvalidArgumentError(
      `${codec.table.name}: query`,
      `${packed.params.length} bound values, more than the engine takes in one statement (${limits.maxParameters})`,
    );
  }
  return packed;
}

/** SQL text of a JSON array of bound values, as json_each reads them (numbers past double range as ±9e999, SQLite's infinity). */
function jsonList(values: readonly SqlValue[]): string {
  const item = (v: SqlValue): string =>
    typeof v === 'bigint'
      ? String(v)
      : typeof v === 'number' && !Number.isFinite(v)
        ? Number.isNaN(v)
          ? 'null'
          : v > 0
            ? '9e999'
            : '-9e999'
        : JSON.stringify(v);
  return `[${values.map(item).join(',')}]`;
}

function compile(codec: Codec, query: Query<unknown>, limits: QueryLimits, packLists: boolean): CompiledQuery {
  const table = codec.table;
  const params: SqlValue[] = [];
  const terms: string[] = [];
  const column = (field: string): Column => {
    const c = table.column(field);
    if (!c) throw new UnknownFieldError(table.name, field, codec.version);
    return c;
  };
  for (const [field, cond] of Object.entries((query.where ?? {}) as Record<string, unknown>)) {
    if (cond === undefined) continue;
    const c = column(field);
    const col = q(c.name);
    if (cond === null) {
      terms.push(`${col} IS NULL`);
    } else if (typeof cond !== 'object' || Array.isArray(cond)) {
      terms.push(`${col} = ?`);
      params.push(codec.encodeValue(c, cond));
    } else {
      for (const [op, v] of Object.entries(cond as Record<string, unknown>)) {
        if (v === undefined) continue;
        if ((op === 'eq' || op === 'ne') && v === null) {
          terms.push(`${col} ${op === 'eq' ? 'IS' : 'IS NOT'} NULL`);
        } else if (op in OPS) {
          terms.push(`${col} ${OPS[op]} ?`);
          params.push(codec.encodeValue(c, v));
        } else if (op === 'in' || op === 'notIn') {
          if (!Array.isArray(v)) throw new ValueTypeError(table.name, field, v, `an array for "${op}"`);
          if (v.length === 0) {
            terms.push(op === 'in' ? '0' : '1');
            continue;
          }
          if (packLists) {
            terms.push(`${col} ${op === 'in' ? 'IN' : 'NOT IN'} (SELECT value FROM json_each(?))`);
            params.push(jsonList(v.map((x) => codec.encodeValue(c, x))));
            continue;
          }
          // The list padded to a bucket's length with its last value (which changes nothing): a
          // statement per bucket rather than per length, for a program that calls this in a loop.
          const n = inListLength(v.length);
          terms.push(`${col} ${op === 'in' ? 'IN' : 'NOT IN'} (${'?, '.repeat(n - 1)}?)`);
          for (const x of v) params.push(codec.encodeValue(c, x));
          for (let i = v.length; i < n; i++) params.push(params[params.length - 1]!);
        } else if (op === 'like') {
          if (typeof v !== 'string') throw new ValueTypeError(table.name, field, v, 'a string LIKE pattern');
          const term = likeTerm(col, v, { maxBytes: limits.maxLikePatternBytes, name: `${table.name}.${field} like` });
          terms.push(term.sql);
          params.push(...term.params);
        } else {
          throw new ValueTypeError(table.name, field, cond, 'a value or an operator object (eq, ne, gt, gte, lt, lte, in, notIn, like)');
        }
      }
    }
  }
  let tail = terms.length ? ` WHERE ${terms.join(' AND ')}` : '';
  const order = query.orderBy === undefined ? [] : isTermList(query.orderBy) ? query.orderBy : [query.orderBy];
  if (order.length) {
    tail += ` ORDER BY ${order.map((t) => (typeof t === 'string' ? q(column(t).name) : `${q(column(t[0]).name)} ${direction(table.name, t[1])}`)).join(', ')}`;
  }
  if (query.limit !== undefined || query.offset !== undefined) {
    const limit = query.limit === undefined ? -1 : checkCount(table.name, 'limit', query.limit);
    const offset = checkCount(table.name, 'offset', query.offset ?? 0);
    // LIMIT written into the SQL, not bound: SQLite (3.47 on) plans with a bound LIMIT's value
    // and so prepares the statement again every time it is bound, which costs more than the
    // query. OFFSET bound: a program paging through a table gives a new one every call, and a
    // statement per page costs more than the page (a page size is usually one value).
    if (Number.isSafeInteger(limit) && Number.isSafeInteger(offset)) {
      tail += ` LIMIT ${limit} OFFSET ?`;
      params.push(offset);
    } else {
      tail += ' LIMIT ? OFFSET ?';
      params.push(BigInt(limit), BigInt(offset));
    }
  }
  return { tail, params };
}

/**
 * The number of `?` of an IN list of n values: n up to 8, then the next power of two (a
 * statement per bucket, at most a dozen), and n itself where that would pass SQLite's default
 * limit of 32,766 variables per statement.
 */
export function inListLength(n: number): number {
  if (n <= 8) return n;
  const bucket = 2 ** Math.ceil(Math.log2(n));
  return bucket <= IN_LIST_MAX ? bucket : n;
}
const IN_LIST_MAX = 16_384;

function isTermList(o: unknown): o is readonly OrderTerm<unknown>[] {
  // A single [field, direction] pair is a term, not a list of two terms.
  return Array.isArray(o) && !(o.length === 2 && typeof o[0] === 'string' && (o[1] === 'asc' || o[1] === 'desc'));
}

function checkCount(table: string, what: string, n: unknown): number {
  if (typeof n !== 'number' || !Number.isInteger(n)) throw new ValueTypeError(table, `(${what})`, n, 'an integer');
  // SQLite's LIMIT and OFFSET are 64-bit signed integers.
  if (n < 0 || n >= 2 ** 63) throw new InvalidArgumentError(`${table}: ${what}`, n, 'an integer from 0 to 2^63 - 1');
  return n;
}

function direction(table: string, d: unknown): 'ASC' | 'DESC' {
  if (d === 'asc') return 'ASC';
  if (d === 'desc') return 'DESC';
  throw new InvalidArgumentError(`${table}: sort direction`, d, '"asc" or "desc"');
}
