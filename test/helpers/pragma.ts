// Reads a table's structure straight from SQLite's PRAGMAs, independent of the store's own code.
import type { Connection as Database } from '../../src/engine/driver.js';

export function pragmaStructure(db: Database, table: string) {
  const columns = db.prepare(`PRAGMA table_xinfo(\`${table}\`)`).all();
  const indices = (db.prepare(`PRAGMA index_list(\`${table}\`)`).all() as { name: string; unique: number; origin: string; partial: number }[])
    .map((ix) => ({ ...ix, seq: undefined, columns: db.prepare(`PRAGMA index_info(\`${ix.name}\`)`).all() }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const foreignKeys = db.prepare(`PRAGMA foreign_key_list(\`${table}\`)`).all();
  return { columns, indices, foreignKeys };
}

export function tableNames(db: Database): string[] {
  return db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
}

export function masterSql(db: Database, name: string): string | undefined {
  return db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').pluck().get(name) as string | undefined;
}
