// SQLite's own checks of a file, as damage reports with table and key where SQLite names them:
// quick_check (pages and records; what `verify` and a write open run), integrity_check (also
// every index against its table; `verify --deep`) and foreign_key_check (orphans a plain
// `sqlite3` delete leaves, since foreign keys are off there by default).
import { CorruptError, type Damage } from '../errors.js';
import type { Schema, Table } from '../schema/model.js';
import type { Db } from './connection.js';
import type { WalVerdict } from './wal-check.js';

/** How many damage entries of one kind are listed; the rest are counted in one more entry. */
export const DAMAGE_LISTED = 100;

/** PRAGMA quick_check: empty when the file is sound. */
export function quickCheck(db: Db): Damage[] {
  return checkRows(db, `quick_check(${DAMAGE_LISTED})`);
}

/**
 * PRAGMA integrity_check: quick_check and every index entry against its row. SQLite gives up
 * with SQLITE_CORRUPT on some damage; then what quick_check finds is the answer.
 */
export function integrityCheck(db: Db): Damage[] {
  try {
    return checkRows(db, `integrity_check(${DAMAGE_LISTED})`);
  } catch (e) {
    if (!String((e as { code?: unknown }).code).startsWith('SQLITE_CORRUPT')) throw e;
    const quick = checkRows(db, `quick_check(${DAMAGE_LISTED})`);
    return [...quick, { message: `integrity_check stopped: ${(e as Error).message}` }];
  }
}

/**
 * PRAGMA integrity_check(T) for each table: its indexes against its rows. quick_check only
 * counts an index's entries, so an entry that no longer matches its row (the row "missing from
 * index" while the count still agrees) passes it, and a write then trusts the index: a unique
 * index that lost a row lets a duplicate in.
 */
export function indexCheck(db: Db, tables: readonly string[]): Damage[] {
  return tables.flatMap((t) => checkRows(db, `integrity_check("${t.replace(/"/g, '""')}")`));
}

/** Rows of a check PRAGMA as damage; SQLite names a b-tree by its root page, turned into its table or index. */
function checkRows(db: Db, pragma: string): Damage[] {
  const rows = db.pragma(pragma) as Record<string, unknown>[];
  const messages = rows.map((r) => String(Object.values(r)[0]).replace(/^\*\*\* in database \w+ \*\*\*\n/, ''));
  if (messages.length === 1 && messages[0] === 'ok') return [];
  let roots: Map<number, { type: string; name: string; table: string }> | undefined;
  return messages.map((message) => {
    const tree = /^Tree (\d+) page/.exec(message)?.[1];
    if (tree !== undefined) {
      roots ??= new Map(
        (db.prepare('SELECT rootpage, type, name, tbl_name FROM sqlite_master WHERE rootpage > 0').raw().all() as [number, string, string, string][]).map(
          ([root, type, name, table]) => [root, { type, name, table }],
        ),
      );
      const at = roots.get(Number(tree));
      if (at) return { table: at.table, ...(at.type === 'index' && { key: `index ${at.name}` }), message: `${at.type} ${at.name}: ${message}` };
      return { message };
    }
    const index = /\bindex (\S+)$/.exec(message)?.[1];
    const table = index
      ? (db.prepare("SELECT tbl_name FROM sqlite_master WHERE type = 'index' AND name = ?").pluck().get(index) as string | undefined)
      : undefined;
    return { ...(table !== undefined && { table }), ...(index !== undefined && { key: `index ${index}` }), message };
  });
}

/** PRAGMA foreign_key_check, each orphan named by its table's primary key. */
export function foreignKeyCheck(db: Db, schema: Schema): Damage[] {
  const rows = db.pragma('foreign_key_check') as { table: string; rowid: number | bigint | null; parent: string; fkid: number }[];
  const damage: Damage[] = [];
  const perTable = new Map<string, number>();
  // Per table, read once: its foreign keys, and the statement that finds a row's key by rowid.
  const fkLists = new Map<string, { id: number; from: string; to: string }[]>();
  const keyFinders = new Map<string, (rowid: number | bigint) => string>();
  for (const r of rows) {
    const n = (perTable.get(r.table) ?? 0) + 1;
    perTable.set(r.table, n);
    if (n > DAMAGE_LISTED) continue;
    const table = schema.table(r.table);
    let fks = fkLists.get(r.table);
    if (fks === undefined) fkLists.set(r.table, (fks = db.pragma(`foreign_key_list("${r.table}")`) as { id: number; from: string; to: string }[]));
    const fk = fks.filter((f) => f.id === r.fkid);
    const via = fk.length ? ` (${fk.map((f) => f.from).join(', ')} → ${r.parent}.${fk.map((f) => f.to).join(', ')})` : '';
    let key: string | undefined;
    if (r.rowid === null) key = undefined;
    else if (!table) key = `rowid ${r.rowid}`;
    else {
      let find = keyFinders.get(r.table);
      if (find === undefined) keyFinders.set(r.table, (find = keyFinder(db, table)));
      key = find(r.rowid);
    }
    damage.push({ table: r.table, ...(key !== undefined && { key }), message: `${r.table}${key ? ` ${key}` : ''}: no row in ${r.parent}${via}` });
  }
  for (const [table, n] of perTable) {
    if (n > DAMAGE_LISTED) damage.push({ table, message: `${table}: ${n - DAMAGE_LISTED} more rows with no parent row (${n} in all)` });
  }
  return damage;
}

/** A function giving a row's primary key as `field=value, ...`, found by rowid (prepared once). */
function keyFinder(db: Db, table: Table): (rowid: number | bigint) => string {
  const cols = table.primaryKey.map((c) => `"${c.name}"`).join(', ');
  const stmt = db.prepare(`SELECT ${cols} FROM "${table.name}" WHERE rowid = ?`).raw().safeIntegers();
  return (rowid) => {
    const values = stmt.get(rowid) as unknown[] | undefined;
    return values === undefined ? `rowid ${rowid}` : formatKey(table, values);
  };
}

/** Primary-key values as `field=value, ...` (strings quoted, so a blank one shows). */
export function formatKey(table: Table, values: readonly unknown[]): string {
  return table.primaryKey.map((c, i) => `${c.field}=${typeof values[i] === 'string' ? JSON.stringify(values[i]) : String(values[i])}`).join(', ');
}

/** What lies beside a file: no -wal, a -wal with its -shm (a connection may be using it), or a -wal alone. */
export type WalState = 'none' | 'live' | 'orphan';

export function walState(fileSize: (path: string) => number | undefined, path: string): WalState {
  if (!fileSize(`${path}-wal`)) return 'none';
  return fileSize(`${path}-shm`) === undefined ? 'orphan' : 'live';
}

/**
 * Before a write, on the read-only connection that inspects the file: a damaged file, or a
 * stale or foreign -wal beside an intact one (which SQLite would merge into it on the first
 * checkpoint), is refused before anything is written or checkpointed. `checked`: what
 * wal-check.ts found reading the -wal's pages (openStore); without it, or where it was unsure,
 * quick_check reads every page, and a -wal with no -shm (no connection has it open: left by a
 * copy or from another file) also gets integrity_check, since foreign pages often show only as
 * index entries that do not match their rows.
 */
export function refuseDamaged(db: Db, path: string, wal: WalState, checked?: WalVerdict, indexesOf: readonly string[] = []): void {
  // The page check only ever spares the whole-file check: what it found wrong (or could not
  // read) is confirmed by SQLite's own check on its consistent snapshot before anything is
  // refused, since the files it reads may change under it while another connection writes.
  if (checked !== undefined && checked !== 'unsure' && checked.sound) return;
  let damage: Damage[];
  try {
    damage = wal === 'orphan' ? integrityCheck(db) : quickCheck(db);
    // The tables a write is about to change: their indexes too (integrityCheck covered them).
    if (damage.length === 0 && wal !== 'orphan' && indexesOf.length > 0 && db.capabilities.indexCheck !== false) damage = indexCheck(db, indexesOf);
  } catch (e) {
    // Some damage (a zeroed root page) stops the check itself: that is the answer too.
    if (!String((e as { code?: unknown }).code).startsWith('SQLITE_CORRUPT')) throw e;
    damage = [{ message: (e as Error).message }];
  }
  if (damage.length > 0 && checked !== undefined && checked !== 'unsure') damage = [...checked.damage.map((message) => ({ message })), ...damage];
  if (damage.length === 0) return;
  throw new CorruptError(
    path,
    damage,
    wal !== 'none'
      ? `the file read with the -wal beside it is damaged (a stale or foreign ${path}-wal? the file alone may be intact: move the -wal away, keep it, and verify again); nothing was written`
      : 'the file is damaged; nothing was written',
  );
}
