// Writing a new, empty store file: the statements Room and Android run for a new database.
import { createSchemaSql } from '../schema/ddl.js';
import type { VersionedSchema } from '../schema/index.js';
import type { Db } from './connection.js';

/** Android's per-database locale table; Legado sets Locale.CHINESE when it creates the file. */
const ANDROID_METADATA_SQL = 'CREATE TABLE IF NOT EXISTS android_metadata (locale TEXT)';

export function createSchema(db: Db, schema: VersionedSchema): void {
  db.transaction(() => {
    db.exec(ANDROID_METADATA_SQL);
    if (db.prepare('SELECT count(*) FROM android_metadata').pluck().get() === 0) {
      db.prepare('INSERT INTO android_metadata (locale) VALUES (?)').run('zh');
    }
    for (const sql of createSchemaSql(schema, schema.identityHash)) db.exec(sql);
    db.pragma(`user_version = ${schema.version}`);
  }).immediate();
}

/** True for a file SQLite can read but that holds nothing yet (a new or 0-byte file). */
export function isEmptyDatabase(db: Db): boolean {
  return (
    db.pragma('user_version', { simple: true }) === 0 && db.prepare("SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").pluck().get() === 0
  );
}
