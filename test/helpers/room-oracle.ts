// Test oracle built from the app's own exported Room schemas, through the facts extracted from
// them into test/fixtures/room-facts (scripts/extract-room-facts.ts): a file at version N made
// the way Room creates it from N.json, and a replay of the statements Room's generated
// AutoMigrations run between two versions, derived from the two schemas alone
// (room-conventions.md, schema-history.md, legado-data-layer.md 5.1). It shares no code with
// src/, so agreeing with it means agreeing with the app.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openDb, type Connection } from './engine.js';

/** <repo>/test/fixtures/room-facts (this file runs from <repo>/dist/test/helpers). */
export const ROOM_FACTS = fileURLToPath(new URL('../../../test/fixtures/room-facts/', import.meta.url));

export interface RoomField {
  readonly columnName: string;
  readonly affinity: string;
  readonly notNull?: boolean;
  readonly defaultValue?: string;
}
export interface RoomIndex {
  readonly name: string;
  readonly unique: boolean;
  readonly columnNames: readonly string[];
  readonly createSql: string;
}
export interface RoomForeignKey {
  readonly table: string;
  readonly onDelete: string;
  readonly onUpdate: string;
  readonly columns: readonly string[];
  readonly referencedColumns: readonly string[];
}
export interface RoomEntity {
  readonly tableName: string;
  readonly createSql: string;
  readonly fields: readonly RoomField[];
  readonly primaryKey: { readonly autoGenerate: boolean; readonly columnNames: readonly string[] };
  readonly indices?: readonly RoomIndex[];
  readonly foreignKeys?: readonly RoomForeignKey[];
}
export interface RoomView {
  readonly viewName: string;
  readonly createSql: string;
}
export interface RoomSchema {
  readonly version: number;
  readonly identityHash: string;
  readonly entities: readonly RoomEntity[];
  readonly views?: readonly RoomView[];
  readonly setupQueries: readonly string[];
}

export type Line = 'legado' | 'LegadoTeam-fork';

/** One line's fixture: each distinct entity once, each version naming its entities by key. */
interface RoomFacts {
  readonly versions: Readonly<Record<string, Omit<RoomSchema, 'version' | 'entities'> & { readonly entities: readonly string[] }>>;
  readonly entities: Readonly<Record<string, RoomEntity>>;
}

const lines = new Map<Line, RoomFacts>();

/** The facts of one line, read once. */
function roomFacts(line: Line): RoomFacts {
  let f = lines.get(line);
  if (!f) {
    f = JSON.parse(readFileSync(`${ROOM_FACTS}${line}.json`, 'utf8')) as RoomFacts;
    lines.set(line, f);
  }
  return f;
}

/** Every version of the line the facts hold, ascending. */
export function roomVersions(line: Line): number[] {
  return Object.keys(roomFacts(line).versions)
    .map(Number)
    .sort((a, b) => a - b);
}

/** The exported schema of one version: the main line up to 75, the LegadoTeam line above. */
export function roomSchema(version: number, line: Line = version <= 75 ? 'legado' : 'LegadoTeam-fork'): RoomSchema {
  const facts = roomFacts(line);
  const v = facts.versions[version];
  if (!v) throw new Error(`no Room schema facts for ${line} ${version} in ${ROOM_FACTS}${line}.json`);
  return { ...v, version, entities: v.entities.map((k) => facts.entities[k]!) };
}

const put = (sql: string, placeholder: string, name: string): string => sql.split(placeholder).join(name);
const tableSql = (e: RoomEntity, name = e.tableName): string => put(e.createSql, '${TABLE_NAME}', name);
const indexSql = (e: RoomEntity): string[] => (e.indices ?? []).map((ix) => put(ix.createSql, '${TABLE_NAME}', e.tableName));
const viewSql = (v: RoomView): string => put(v.createSql, '${VIEW_NAME}', v.viewName);

/** A new file at the schema's version, as Android and Room create it (legado-data-layer.md 6.1). */
export function createRoomFile(path: string, schema: RoomSchema): void {
  const db = openDb(path);
  try {
    db.transaction(() => {
      db.exec('CREATE TABLE IF NOT EXISTS android_metadata (locale TEXT)');
      db.exec("INSERT INTO android_metadata (locale) VALUES ('zh')");
      for (const e of schema.entities) for (const sql of [tableSql(e), ...indexSql(e)]) db.exec(sql);
      for (const v of schema.views ?? []) db.exec(viewSql(v));
      for (const sql of schema.setupQueries) db.exec(sql);
      db.pragma(`user_version = ${schema.version}`);
    })();
  } finally {
    db.close();
  }
}

/** One statement of a generated migration, or Room's DBUtil.foreignKeyCheck on a table. */
export type MigrationStatement = { readonly sql: string } | { readonly foreignKeyCheck: string };

/** The app's AutoMigrationSpecs: 64->65 @DeleteColumn, 54->55 Migration_54_55.onPostMigrate. */
const DELETED_COLUMNS: Readonly<Record<number, Readonly<Record<string, readonly string[]>>>> = {
  65: { book_sources: ['enabledReview'] },
};
const POST_MIGRATE: Readonly<Record<number, readonly string[]>> = {
  55: [
    'update books set type = 32 where type = 1',
    'update books set type = 64 where type = 2',
    'update books set type = 128 where type = 3',
    'update books set type = 8 where type = 0',
    "update books set type = type | 256 where origin like 'loc_book%' or origin like 'webDav::%'",
  ],
};

const fieldKey = (f: RoomField): string => JSON.stringify([f.affinity, f.notNull ?? false, f.defaultValue ?? null]);
const indexKey = (e: RoomEntity): string => JSON.stringify((e.indices ?? []).map((i) => [i.name, i.unique, i.columnNames]).sort());
const fkKey = (e: RoomEntity): string =>
  JSON.stringify((e.foreignKeys ?? []).map((f) => [f.table, f.columns, f.referencedColumns, f.onDelete, f.onUpdate]).sort());

/**
 * The statements of the AutoMigration from `from` to `to` (adjacent versions), in the order
 * Room's AutoMigrationWriter writes them: drop every view; drop/rename tables (none in the
 * app); ALTER TABLE ADD COLUMN for tables that only gained columns; new tables with their
 * indices; each table with a complex change rebuilt through `_new_<table>`; every view of the
 * new version created; then the spec's onPostMigrate.
 */
export function autoMigrationStatements(from: RoomSchema, to: RoomSchema): MigrationStatement[] {
  const deleted = DELETED_COLUMNS[to.version] ?? {};
  const out: MigrationStatement[] = (from.views ?? []).map((v) => ({ sql: `DROP VIEW ${v.viewName}` }));
  const added: MigrationStatement[] = [];
  const created: MigrationStatement[] = [];
  const complex: MigrationStatement[] = [];
  for (const e of from.entities) {
    if (!to.entities.some((t) => t.tableName === e.tableName)) throw new Error(`${from.version}->${to.version}: ${e.tableName} dropped without a spec`);
  }
  for (const next of to.entities) {
    const old = from.entities.find((e) => e.tableName === next.tableName);
    if (!old) {
      created.push(...[tableSql(next), ...indexSql(next)].map((sql) => ({ sql })));
      continue;
    }
    const gone = old.fields.filter((f) => !next.fields.some((n) => n.columnName === f.columnName)).map((f) => f.columnName);
    for (const c of gone) {
      if (!deleted[next.tableName]?.includes(c)) throw new Error(`${from.version}->${to.version}: ${next.tableName}.${c} dropped without @DeleteColumn`);
    }
    const changed = old.fields.some((f) => {
      const n = next.fields.find((x) => x.columnName === f.columnName);
      return n !== undefined && fieldKey(n) !== fieldKey(f);
    });
    const isComplex =
      gone.length > 0 ||
      changed ||
      JSON.stringify(old.primaryKey) !== JSON.stringify(next.primaryKey) ||
      indexKey(old) !== indexKey(next) ||
      fkKey(old) !== fkKey(next);
    const newFields = next.fields.filter((n) => !old.fields.some((f) => f.columnName === n.columnName));
    if (isComplex) {
      const tmp = `_new_${next.tableName}`;
      const shared = next.fields
        .filter((n) => old.fields.some((f) => f.columnName === n.columnName))
        .map((f) => `\`${f.columnName}\``)
        .join(',');
      complex.push(
        { sql: tableSql(next, tmp) },
        { sql: `INSERT INTO \`${tmp}\` (${shared}) SELECT ${shared} FROM \`${old.tableName}\`` },
        { sql: `DROP TABLE \`${old.tableName}\`` },
        { sql: `ALTER TABLE \`${tmp}\` RENAME TO \`${next.tableName}\`` },
        ...indexSql(next).map((sql) => ({ sql })),
        ...((next.foreignKeys ?? []).length ? [{ foreignKeyCheck: next.tableName }] : []),
      );
    } else {
      for (const f of newFields) {
        if (f.notNull && f.defaultValue === undefined) throw new Error(`${next.tableName}.${f.columnName}: NOT NULL without a default`);
        const sql = `ALTER TABLE \`${next.tableName}\` ADD COLUMN \`${f.columnName}\` ${f.affinity}${f.notNull ? ' NOT NULL' : ''} DEFAULT ${f.defaultValue ?? 'NULL'}`;
        added.push({ sql });
      }
    }
  }
  out.push(...added, ...created, ...complex, ...(to.views ?? []).map((v) => ({ sql: viewSql(v) })));
  out.push(...(POST_MIGRATE[to.version] ?? []).map((sql) => ({ sql })));
  return out;
}

/**
 * The app's upgrade of an open file from its version to `to`, every step an AutoMigration, in
 * one transaction with foreign keys off (Android's onUpgrade), then Room's identity hash and
 * Android's user_version.
 */
export function replayRoomUpgrade(db: Connection, to: number): void {
  const from = db.pragma('user_version', { simple: true }) as number;
  db.pragma('foreign_keys = OFF');
  db.transaction(() => {
    for (let v = from; v < to; v++) {
      for (const s of autoMigrationStatements(roomSchema(v), roomSchema(v + 1))) {
        if ('sql' in s) {
          db.exec(s.sql);
        } else {
          const bad = db.prepare(`PRAGMA foreign_key_check(\`${s.foreignKeyCheck}\`)`).all();
          if (bad.length) throw new Error(`foreign key violation in ${s.foreignKeyCheck}`);
        }
      }
    }
    for (const sql of roomSchema(to).setupQueries) db.exec(sql);
    db.pragma(`user_version = ${to}`);
  })();
  db.pragma('foreign_keys = ON');
}

/** Every row of every table of the schema, by column name, integers exact, in key order. */
export function roomDump(db: Connection, schema: RoomSchema): Record<string, Record<string, unknown>[]> {
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const e of schema.entities) {
    const order = e.primaryKey.columnNames.map((c) => `\`${c}\``).join(', ');
    const rows = db.prepare(`SELECT * FROM \`${e.tableName}\` ORDER BY ${order}`).safeIntegers(true).all() as Record<string, unknown>[];
    out[e.tableName] = rows.map((r) => Object.fromEntries(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
  }
  return out;
}

/**
 * What Room validates, read through PRAGMA: per table its columns by name (type, NOT NULL,
 * key position, and the default where the schema declares one), indices and foreign keys;
 * per view its SQL text. Column order is not part of it (ALTER appends columns).
 */
export function roomStructure(db: Connection, schema: RoomSchema): unknown {
  const tables: Record<string, unknown> = {};
  for (const e of schema.entities) {
    const declared = new Map(e.fields.map((f) => [f.columnName, f.defaultValue]));
    const cols = (
      db.prepare(`PRAGMA table_info(\`${e.tableName}\`)`).all() as { name: string; type: string; notnull: number; dflt_value: string | null; pk: number }[]
    )
      .map((c) => ({ ...c, cid: undefined, dflt_value: declared.get(c.name) === undefined ? undefined : c.dflt_value }))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
    const indices = (db.prepare(`PRAGMA index_list(\`${e.tableName}\`)`).all() as { name: string; unique: number; origin: string }[])
      .map((ix) => ({ name: ix.name, unique: ix.unique, origin: ix.origin, columns: db.prepare(`PRAGMA index_info(\`${ix.name}\`)`).all() }))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
    const foreignKeys = db.prepare(`PRAGMA foreign_key_list(\`${e.tableName}\`)`).all();
    tables[e.tableName] = { cols, indices, foreignKeys };
  }
  const views = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'view' ORDER BY name").all();
  const names = db.prepare("SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name").all();
  const hash = db.prepare('SELECT identity_hash FROM room_master_table WHERE id = 42').pluck().get();
  return { version: db.pragma('user_version', { simple: true }), hash, names, tables, views };
}

/**
 * A few rows in every table of the schema, made from its fields alone: parents before
 * children, keys unique, foreign keys pointing at existing rows, nullable columns sometimes
 * null, and the values the app's data steps look at (books.type 0..3, local and WebDAV
 * origins, 64-bit group masks).
 */
export function fillRoomRows(db: Connection, schema: RoomSchema, rows = 6): void {
  const done = new Set<string>();
  const pending = [...schema.entities];
  const keys = new Map<string, unknown[][]>();
  db.transaction(() => {
    while (pending.length) {
      const i = pending.findIndex((e) => (e.foreignKeys ?? []).every((f) => done.has(f.table) || f.table === e.tableName));
      const e = pending.splice(Math.max(i, 0), 1)[0]!;
      const made: unknown[][] = [];
      for (let r = 0; r < rows; r++) {
        const row: Record<string, unknown> = {};
        e.fields.forEach((f, k) => {
          const fk = (e.foreignKeys ?? []).find((x) => x.columns.includes(f.columnName));
          if (fk && keys.has(fk.table)) {
            const parent = schema.entities.find((p) => p.tableName === fk.table)!;
            const parentRow = keys.get(fk.table)![r % keys.get(fk.table)!.length]!;
            row[f.columnName] = parentRow[parent.primaryKey.columnNames.indexOf(fk.referencedColumns[fk.columns.indexOf(f.columnName)]!)];
            return;
          }
          row[f.columnName] = sampleValue(e.tableName, f, r, k);
        });
        db.prepare(
          `INSERT INTO \`${e.tableName}\` (${e.fields.map((f) => `\`${f.columnName}\``).join(', ')}) VALUES (${e.fields.map(() => '?').join(', ')})`,
        ).run(...e.fields.map((f) => row[f.columnName]));
        made.push(e.primaryKey.columnNames.map((c) => row[c]));
      }
      keys.set(e.tableName, made);
      done.add(e.tableName);
    }
  })();
}

const ORIGINS = ['loc_book', 'webDav::https://dav.example.org/a.epub', 'https://src.example.org', 'LOC_BOOK/x.txt', 'webdav::lower', ''];

function sampleValue(table: string, f: RoomField, r: number, k: number): unknown {
  const c = f.columnName;
  if (table === 'books' && c === 'type') return r % 4;
  if (table === 'books' && c === 'origin') return ORIGINS[r % ORIGINS.length];
  if ((table === 'books' && c === 'group') || (table === 'book_groups' && c === 'groupId')) return r === 0 ? -(2n ** 63n) : 2n ** BigInt(r * 10);
  if (table === 'replace_rules' && c === 'id') return r + 1;
  if (!f.notNull && r % 3 === 2) return null;
  if (f.affinity === 'INTEGER') return r * 1000 + k;
  if (f.affinity === 'REAL') return r + k / 10;
  return `${table}.${c} ${r} 书`;
}
