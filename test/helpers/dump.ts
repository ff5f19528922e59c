// Every row of a file read with plain SQLite, not through the store: by column name, integers
// as exact bigints, in primary-key order, so two files can be compared row for row.
import { createHash } from 'node:crypto';
import type { Connection as Database } from '../../src/engine/driver.js';
import { schemas } from 'legado-store';
import { openDb } from './engine.js';

export type Dump = Record<string, Record<string, unknown>[]>;

/** The rows of every table of the file's own schema version (49 or 62). */
export function dumpTables(db: Database): Dump {
  const version = db.pragma('user_version', { simple: true }) as 49 | 62;
  const schema = schemas[version];
  if (!schema) throw new Error(`not a 49 or 62 file: user_version ${version}`);
  const out: Dump = {};
  for (const t of schema.tables) {
    const order = t.primaryKey.map((c) => `\`${c.name}\``).join(', ');
    const rows = db.prepare(`SELECT * FROM \`${t.name}\` ORDER BY ${order}`).safeIntegers(true).all() as Record<string, unknown>[];
    // Columns sorted by name: files whose columns stand in another order compare equal.
    out[t.name] = rows.map((r) => Object.fromEntries(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
  }
  return out;
}

/** One hash of the version, identity hash and every row: equal fingerprints, equal contents. */
export function fingerprint(db: Database): string {
  const hash = db.prepare('SELECT identity_hash FROM room_master_table WHERE id = 42').pluck().get();
  const text = JSON.stringify([db.pragma('user_version', { simple: true }), hash, dumpTables(db)], (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));
  return createHash('sha256').update(text).digest('hex');
}

/** Runs fn on a plain connection to the file (the engine under test), closed afterwards. */
export function withDb<T>(path: string, fn: (db: Database) => T): T {
  const db = openDb(path);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}
