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
  damage.push(...groupIds(db, schema));
  damage.push(...oldBookTypes(db, schema));
  return damage;
}

/**
 * What the app lives with but a reader may want to know, not damage: books whose group has bits
 * no group has. The app restores bookshelf.json without remapping bits (its bookGroup.json may
 * be missing, or hold other ids) and never clears them; no user-group tab shows the book for
 * such a bit, and the next group the app creates takes the lowest free bit, and the book with it.
 */
export function appNotes(db: Db, schema: Schema): Damage[] {
  return strayGroupBits(db, schema);
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

/** The user-group ids of the file (single bits, bit 63 included), and those that are not single bits. */
function userGroups(db: Db): { mask: bigint; notBits: bigint[] } {
  const ids = db.prepare('SELECT groupId FROM book_groups').pluck().safeIntegers().all() as bigint[];
  let mask = 0n;
  const notBits: bigint[] = [];
  for (const id of ids) {
    if (isSingleBit(id)) mask |= id;
    else if (id > 0n) notBits.push(id);
  }
  return { mask: BigInt.asIntN(64, mask), notBits };
}

/** User-group ids must be single bits: books.group is an OR of them. */
function groupIds(db: Db, schema: Schema): Damage[] {
  if (!schema.table('book_groups')) return [];
  return userGroups(db).notBits.map((id) => ({
    table: 'book_groups',
    key: `groupId=${id}`,
    message: `book_groups groupId=${id}: a user group whose id is not a single bit`,
  }));
}

/** Books whose group has a bit no group has (see appNotes). */
function strayGroupBits(db: Db, schema: Schema): Damage[] {
  if (!schema.table('books') || !schema.table('book_groups')) return [];
  const mask64 = userGroups(db).mask;
  const damage: Damage[] = [];
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
          message: `books bookUrl=${JSON.stringify(url)}: group ${group} has bits no group has (${unknown}); the app keeps such bits: a group it creates later takes the lowest free bit, and the book with it`,
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
