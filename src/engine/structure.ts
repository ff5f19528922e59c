// Compares a file's tables with a schema version the way Room validates them: by column name
// (order does not matter), type affinity, NOT NULL, primary-key position, declared defaults,
// indices and foreign keys, all read back through PRAGMA.
import type { StructureDifference } from '../errors.js';
import { createIndexSql, createTableSql, createViewSql } from '../schema/ddl.js';
import type { Schema, Table, View } from '../schema/index.js';
import type { Db } from './connection.js';

/** Tables Android, Room and SQLite keep beside the schema's own. */
export const BOOKKEEPING_TABLES = new Set(['android_metadata', 'room_master_table', 'sqlite_sequence']);

interface ColumnInfo {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
}
interface IndexListRow {
  name: string;
  unique: number;
  origin: string;
}
interface ForeignKeyRow {
  id: number;
  seq: number;
  table: string;
  from: string;
  to: string;
  on_update: string;
  on_delete: string;
}

/** SQLite's affinity rules for a declared type (section 3.1 of its datatype doc), as Room applies them. */
export function affinityOf(declared: string): string {
  const t = declared.toUpperCase();
  if (t.includes('INT')) return 'INTEGER';
  if (t.includes('CHAR') || t.includes('CLOB') || t.includes('TEXT')) return 'TEXT';
  if (t === '' || t.includes('BLOB')) return 'BLOB';
  if (t.includes('REAL') || t.includes('FLOA') || t.includes('DOUB')) return 'REAL';
  return 'NUMERIC';
}

/** Room compares defaults with surrounding parentheses removed. */
function normaliseDefault(d: string | null | undefined): string | undefined {
  if (d === null || d === undefined) return undefined;
  let s = d.trim();
  while (s.startsWith('(') && s.endsWith(')')) s = s.slice(1, -1).trim();
  return s;
}

const shown = (d: string | undefined): string => d ?? 'none';

export function checkTable(db: Db, table: Table): StructureDifference[] {
  const out: StructureDifference[] = [];
  const t = table.name;
  const cols = db.prepare(`PRAGMA table_xinfo(\`${t}\`)`).all() as ColumnInfo[];
  if (cols.length === 0) {
    return [{ table: t, kind: 'missing-table', message: `table ${t} is missing` }];
  }
  const found = new Map(cols.map((c) => [c.name, c]));
  for (const c of table.columns) {
    const f = found.get(c.name);
    const item = c.name;
    if (!f) {
      out.push({ table: t, kind: 'missing-column', item, message: `${t}.${item}: column is missing` });
      continue;
    }
    found.delete(c.name);
    const affinity = affinityOf(f.type);
    if (affinity !== c.affinity) {
      out.push({
        table: t,
        kind: 'column-type',
        item,
        expected: c.affinity,
        found: f.type,
        message: `${t}.${item}: type ${f.type || '(none)'} (expected ${c.affinity})`,
      });
    }
    if (Boolean(f.notnull) !== c.notNull) {
      out.push({
        table: t,
        kind: 'column-not-null',
        item,
        expected: String(c.notNull),
        found: String(Boolean(f.notnull)),
        message: `${t}.${item}: ${f.notnull ? 'NOT NULL' : 'nullable'} (expected ${c.notNull ? 'NOT NULL' : 'nullable'})`,
      });
    }
    if (f.pk !== c.pk) {
      out.push({
        table: t,
        kind: 'column-primary-key',
        item,
        expected: String(c.pk),
        found: String(f.pk),
        message: `${t}.${item}: primary-key position ${f.pk} (expected ${c.pk})`,
      });
    }
    // Like Room, a default is checked only where the schema declares one.
    if (c.default !== undefined) {
      const have = normaliseDefault(f.dflt_value);
      if (have !== normaliseDefault(c.default)) {
        out.push({
          table: t,
          kind: 'column-default',
          item,
          expected: c.default,
          found: shown(have),
          message: `${t}.${item}: default ${shown(have)} (expected ${c.default})`,
        });
      }
    }
  }
  for (const extra of found.values()) {
    out.push({ table: t, kind: 'extra-column', item: extra.name, found: extra.type, message: `${t}.${extra.name}: column is not in the schema` });
  }
  if (table.autoGenerate) {
    const sql = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").pluck().get(t) as string | undefined;
    if (!sql || !/AUTOINCREMENT/i.test(sql)) {
      out.push({ table: t, kind: 'autoincrement', item: table.primaryKey[0]?.name, message: `${t}: primary key is not AUTOINCREMENT` });
    }
  }
  out.push(...checkIndices(db, table), ...checkForeignKeys(db, table));
  return out;
}

function checkIndices(db: Db, table: Table): StructureDifference[] {
  const out: StructureDifference[] = [];
  const t = table.name;
  const list = (db.prepare(`PRAGMA index_list(\`${t}\`)`).all() as IndexListRow[]).filter((ix) => !ix.name.startsWith('sqlite_autoindex_'));
  const found = new Map(list.map((ix) => [ix.name, ix]));
  for (const ix of table.indices) {
    const f = found.get(ix.name);
    const expected = `${ix.unique ? 'UNIQUE ' : ''}(${ix.columns.join(', ')})`;
    if (!f) {
      out.push({ table: t, kind: 'missing-index', item: ix.name, expected, message: `${t}: index ${ix.name} ${expected} is missing` });
      continue;
    }
    found.delete(ix.name);
    const cols = (db.prepare(`PRAGMA index_info(\`${ix.name}\`)`).all() as { seqno: number; name: string }[])
      .sort((a, b) => a.seqno - b.seqno)
      .map((r) => r.name);
    const have = `${f.unique ? 'UNIQUE ' : ''}(${cols.join(', ')})`;
    if (have !== expected) {
      out.push({
        table: t,
        kind: 'index-definition',
        item: ix.name,
        expected,
        found: have,
        message: `${t}: index ${ix.name} is ${have} (expected ${expected})`,
      });
    }
  }
  for (const extra of found.values()) {
    out.push({ table: t, kind: 'extra-index', item: extra.name, message: `${t}: index ${extra.name} is not in the schema` });
  }
  return out;
}

const fkText = (parent: string, from: readonly string[], to: readonly string[], onDelete: string, onUpdate: string): string =>
  `(${from.join(', ')}) -> ${parent}(${to.join(', ')}) ON DELETE ${onDelete} ON UPDATE ${onUpdate}`;

function checkForeignKeys(db: Db, table: Table): StructureDifference[] {
  const out: StructureDifference[] = [];
  const t = table.name;
  const rows = db.prepare(`PRAGMA foreign_key_list(\`${t}\`)`).all() as ForeignKeyRow[];
  const byId = new Map<number, ForeignKeyRow[]>();
  for (const r of rows) byId.set(r.id, [...(byId.get(r.id) ?? []), r]);
  const found = new Set(
    [...byId.values()].map((parts) => {
      parts.sort((a, b) => a.seq - b.seq);
      const p = parts[0]!;
      return fkText(
        p.table,
        parts.map((x) => x.from),
        parts.map((x) => x.to),
        p.on_delete,
        p.on_update,
      );
    }),
  );
  for (const fk of table.foreignKeys) {
    const text = fkText(fk.parent, fk.columns, fk.parentColumns, fk.onDelete, fk.onUpdate);
    if (found.has(text)) found.delete(text);
    else out.push({ table: t, kind: 'missing-foreign-key', item: fk.columns.join(', '), expected: text, message: `${t}: foreign key ${text} is missing` });
  }
  for (const extra of found) {
    out.push({ table: t, kind: 'extra-foreign-key', found: extra, message: `${t}: foreign key ${extra} is not in the schema` });
  }
  return out;
}

/** Room checks a view by its SQL text in sqlite_master, letter for letter (ViewInfo.equals). */
export function checkView(db: Db, view: View): StructureDifference[] {
  const sql = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'view' AND name = ?").pluck().get(view.name) as string | undefined;
  const expected = createViewSql(view);
  if (sql === undefined) return [{ table: view.name, kind: 'missing-view', expected, message: `view ${view.name} is missing` }];
  if (sql !== expected) {
    return [{ table: view.name, kind: 'view-definition', expected, found: sql, message: `view ${view.name}: SQL text differs from the app's` }];
  }
  return [];
}

/** Every difference between the file and the schema's tables and views. */
export function checkStructure(db: Db, schema: Schema): StructureDifference[] {
  if (sameDdl(db, schema)) return [];
  return [...schema.tables.flatMap((t) => checkTable(db, t)), ...schema.views.flatMap((v) => checkView(db, v))];
}

/**
 * sqlite_master's text of every table, index and view of the schema, by `type name`: what
 * SQLite keeps of the DDL Room (and createSchema) runs, which drops `IF NOT EXISTS`.
 */
const ddlText = new WeakMap<Schema, Map<string, string>>();

function expectedDdl(schema: Schema): Map<string, string> {
  let m = ddlText.get(schema);
  if (m === undefined) {
    m = new Map();
    const kept = (sql: string) => sql.replace(/^CREATE (UNIQUE )?(TABLE|INDEX) IF NOT EXISTS /, 'CREATE $1$2 ');
    for (const t of schema.tables) {
      m.set(`table ${t.name}`, kept(createTableSql(t)));
      const indexSql = createIndexSql(t);
      t.indices.forEach((ix, i) => m!.set(`index ${ix.name}`, kept(indexSql[i]!)));
    }
    for (const v of schema.views) m.set(`view ${v.name}`, createViewSql(v));
    ddlText.set(schema, m);
  }
  return m;
}

/**
 * True when the file holds exactly the DDL text the schema's own statements leave in
 * sqlite_master (a file the app or this store created and nothing altered since), and no other
 * index on its tables: SQLite builds every table, index and view from that text, so the
 * structure is the schema's. One read of sqlite_master instead of the PRAGMAs per table of the
 * full check, which runs whenever the text differs (a file upgraded by ALTER TABLE, say) and
 * names each difference.
 */
export function sameDdl(db: Db, schema: Schema): boolean {
  const expected = expectedDdl(schema);
  const rows = db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master').raw(true).all() as [string, string, string, string | null][];
  let matched = 0;
  for (const [type, name, table, sql] of rows) {
    const want = expected.get(`${type} ${name}`);
    if (want !== undefined) {
      if (sql !== want) return false;
      matched++;
    } else if (type === 'index' && sql !== null && schema.table(table) !== undefined) {
      return false; // an index the schema does not have, on one of its tables
    }
  }
  return matched === expected.size;
}
