// The app's own rules that the schema cannot state, checked by `verify --deep`: each breach is
// reported with its table and key. SQLite accepts such rows; the app then misbehaves (a book
// that no tab shows, a source it cannot address).
import type { Damage } from '../errors.js';
import type { Db } from '../engine/connection.js';
import { DAMAGE_LISTED, formatKey } from '../engine/integrity.js';
import type { Schema, Table } from '../schema/model.js';
import { BITMASK_TYPE_FROM, FIRST_BIT } from '../schema/book-types.js';

const INT64_MIN = -(2n ** 63n);
const isSingleBit = (id: bigint): boolean => id !== 0n && (id === INT64_MIN || (id > 0n && (id & (id - 1n)) === 0n));

/** Every breach of the app's invariants in the file (at most DAMAGE_LISTED of each kind, then a count). */
export function appInvariants(db: Db, schema: Schema): Damage[] {
  const damage: Damage[] = [];
  for (const table of schema.tables) damage.push(...blankKeys(db, table));
  damage.push(...groupBits(db, schema));
  damage.push(...oldBookTypes(db, schema));
  return damage;
}

/** books.type below 8 in a bitmask store (55 and later): an old-format code the app reads as no kind. */
function oldBookTypes(db: Db, schema: Schema): Damage[] {
  if (schema.version < BITMASK_TYPE_FROM || !schema.table('books')) return [];
  const rows = db.prepare(`SELECT bookUrl, type FROM books WHERE type < ${FIRST_BIT}`).raw().all() as [string, number][];
  return listed(
    rows,
    'books',
    ([url, type]) => ({
      table: 'books',
      key: `bookUrl=${JSON.stringify(url)}`,
      message: `books bookUrl=${JSON.stringify(url)}: type ${type} is an old-format code (below ${FIRST_BIT}) at schema ${schema.version}, where every book has a kind bit (text 8, audio 32, image 64, webFile 128); import converts it as the app does`,
    }),
    'books with an old-format type',
  );
}

/** Text primary keys that are empty or only blanks: the app addresses rows by them. */
function blankKeys(db: Db, table: Table): Damage[] {
  const text = table.primaryKey.filter((c) => c.affinity === 'TEXT');
  if (text.length === 0) return [];
  const cols = table.primaryKey.map((c) => `"${c.name}"`).join(', ');
  const blank = text.map((c) => `trim("${c.name}", ' ' || char(9, 10, 13)) = ''`).join(' OR ');
  const rows = db.prepare(`SELECT ${cols} FROM "${table.name}" WHERE ${blank}`).raw().safeIntegers().all() as unknown[][];
  return listed(
    rows,
    table.name,
    (values) => {
      const key = formatKey(table, values);
      return { table: table.name, key, message: `${table.name} ${key}: a blank key` };
    },
    'rows with a blank key',
  );
}

/**
 * books.group is an OR of user-group ids (single bits, bit 63 included); a bit no group has
 * puts the book in a group that does not exist. User-group ids must be single bits.
 */
function groupBits(db: Db, schema: Schema): Damage[] {
  const books = schema.table('books');
  const groups = schema.table('book_groups');
  if (!books || !groups) return [];
  const ids = db.prepare('SELECT groupId FROM book_groups').pluck().safeIntegers().all() as bigint[];
  const damage: Damage[] = [];
  let mask = 0n;
  for (const id of ids) {
    if (isSingleBit(id)) mask |= id;
    else if (id > 0n)
      damage.push({ table: 'book_groups', key: `groupId=${id}`, message: `book_groups groupId=${id}: a user group whose id is not a single bit` });
  }
  const mask64 = BigInt.asIntN(64, mask);
  const rows = db.prepare('SELECT bookUrl, "group" FROM books WHERE "group" != 0 AND ("group" & ~?) != 0').raw().safeIntegers().all(mask64) as [
    string,
    bigint,
  ][];
  damage.push(
    ...listed(
      rows,
      'books',
      ([url, group]) => {
        const unknown = BigInt.asIntN(64, group & ~mask64);
        return {
          table: 'books',
          key: `bookUrl=${JSON.stringify(url)}`,
          message: `books bookUrl=${JSON.stringify(url)}: group ${group} has bits no group has (${unknown})`,
        };
      },
      'books in groups that do not exist',
    ),
  );
  return damage;
}

function listed<T>(rows: readonly T[], table: string, each: (row: T) => Damage, what: string): Damage[] {
  const out = rows.slice(0, DAMAGE_LISTED).map(each);
  if (rows.length > DAMAGE_LISTED) out.push({ table, message: `${table}: ${rows.length - DAMAGE_LISTED} more ${what} (${rows.length} in all)` });
  return out;
}
