// Which secret columns a statement reads, from the program SQLite compiled for it (EXPLAIN): the
// same opcodes it will run, so no spelling (an alias, a subquery, json_each over an aggregate, a
// WHERE clause used as an oracle, `main.cookies`) can read a secret without showing here. A
// value reaches a program only through an OP_Column (or a whole-record read) on a cursor opened
// on the table's b-tree, or through an index holding the column; the rest (sorters, pseudo and
// ephemeral tables, automatic indexes) is filled from those reads. None of the engines the
// store runs on offers an authorizer everywhere (better-sqlite3 has none), EXPLAIN they all run.
import type { Db } from '../engine/connection.js';
import { SECRET_FIELDS } from './secrets.js';

interface SecretTable {
  readonly table: string;
  /** Column number in the table's records → the secret column's name. */
  readonly columns: ReadonlyMap<number, string>;
}

interface ProgramOp {
  readonly opcode: string;
  readonly p1: number;
  readonly p2: number;
  readonly p3: number;
  readonly p5: number;
}

/** OPFLAG_P2ISREG (sqliteInt.h): the b-tree's root page is in a register, so which table it is cannot be read from the program. */
const P2_IS_REGISTER = 0x10;
const OPENS = new Set(['OpenRead', 'OpenWrite', 'ReopenIdx']);
const WHOLE_RECORD = new Set(['RowData', 'RowCell']);

/** The secret columns (`table.column`) `sql`'s program reads; empty when it reads none. */
export function secretColumnsRead(db: Db, sql: string): string[] {
  const { tables, indexes } = secretBtrees(db);
  if (tables.size === 0 && indexes.size === 0) return [];
  const program = db.prepare(`EXPLAIN ${sql}`).all() as ProgramOp[];
  // A cursor number may be opened more than once: every b-tree it ever stands for counts.
  const cursors = new Map<number, SecretTable[]>();
  const read = new Set<string>();
  for (const op of program) {
    if (!OPENS.has(op.opcode) || op.p3 !== 0) continue;
    if (op.p5 & P2_IS_REGISTER) {
      for (const t of tables.values()) for (const c of t.columns.values()) read.add(`${t.table}.${c}`);
      continue;
    }
    const index = indexes.get(op.p2);
    if (index) read.add(index);
    const table = tables.get(op.p2);
    if (table) cursors.set(op.p1, [...(cursors.get(op.p1) ?? []), table]);
  }
  for (const op of program) {
    const opened = cursors.get(op.p1);
    if (!opened) continue;
    for (const t of opened) {
      if (op.opcode === 'Column' && t.columns.has(op.p2)) read.add(`${t.table}.${t.columns.get(op.p2)}`);
      if (WHOLE_RECORD.has(op.opcode)) for (const c of t.columns.values()) read.add(`${t.table}.${c}`);
    }
  }
  return [...read].sort();
}

/**
 * The secret tables of the file as it is (root page → record column numbers of its secret
 * columns), and the indexes holding a secret column (root page → `table.column`): read from
 * the file, not from the schema version, so a file laid out otherwise is still covered.
 */
function secretBtrees(db: Db): { tables: Map<number, SecretTable>; indexes: Map<number, string> } {
  const tables = new Map<number, SecretTable>();
  const indexes = new Map<number, string>();
  for (const [table, fields] of Object.entries(SECRET_FIELDS)) {
    const root = db.prepare("SELECT rootpage FROM sqlite_schema WHERE type = 'table' AND name = ? COLLATE NOCASE").pluck().get(table) as number | undefined;
    if (root === undefined) continue;
    const info = db.prepare('SELECT cid, name FROM pragma_table_xinfo(?)').all(table) as { cid: number; name: string }[];
    const columns = new Map<number, string>();
    for (const c of info) if (fields.some((f) => f.toLowerCase() === c.name.toLowerCase())) columns.set(c.cid, c.name);
    tables.set(root, { table, columns });
    const indexRoots = db.prepare("SELECT name, rootpage FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? COLLATE NOCASE").all(table) as {
      name: string;
      rootpage: number;
    }[];
    for (const ix of indexRoots) {
      const held = (db.prepare('SELECT cid FROM pragma_index_xinfo(?)').pluck().all(ix.name) as number[]).find((cid) => columns.has(cid));
      if (held !== undefined) indexes.set(ix.rootpage, `${table}.${columns.get(held)}`);
    }
  }
  return { tables, indexes };
}
