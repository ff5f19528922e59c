// New files, read back through PRAGMA, equal what the app's Room code creates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openDb } from './helpers/engine.js';
import { openStore, schemas } from 'legado-store';
import { room62Statements } from './fixtures/room-62-ddl.js';
import { tempDir } from './helpers/files.js';
import { masterSql, pragmaStructure, tableNames } from './helpers/pragma.js';

const dir = tempDir();

test('a new schema-62 file has, table by table, the structure Room creates', () => {
  const path = join(dir, 'new62.db');
  openStore(path, { schema: 62 }).close();
  const ours = openDb(path, { readonly: true });
  const room = openDb(':memory:');
  for (const sql of room62Statements()) room.exec(sql);
  const roomTables = tableNames(room).filter((n) => n !== 'room_master_table' && n !== 'sqlite_sequence');
  assert.equal(roomTables.length, 21);
  for (const t of roomTables) {
    assert.deepEqual(pragmaStructure(ours, t), pragmaStructure(room, t), t);
    assert.equal(masterSql(ours, t), masterSql(room, t), `${t} DDL text`);
  }
  assert.deepEqual(tableNames(ours), [...roomTables, 'android_metadata', 'room_master_table', 'sqlite_sequence'].sort());
  ours.close();
  room.close();
});

test('a new file carries room_master_table row 42, user_version, android_metadata and WAL', () => {
  for (const v of [62, 49] as const) {
    const path = join(dir, `meta${v}.db`);
    openStore(path, { schema: v }).close();
    const db = openDb(path, { readonly: true });
    assert.equal(db.pragma('user_version', { simple: true }), v);
    assert.deepEqual(db.prepare('SELECT id, identity_hash FROM room_master_table').all(), [{ id: 42, identity_hash: schemas[v].identityHash }]);
    assert.deepEqual(db.prepare('SELECT locale FROM android_metadata').all(), [{ locale: 'zh' }]);
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    db.close();
  }
});

test('defaults as PRAGMA reports them: the literals the spec gives', () => {
  const path = join(dir, 'defaults.db');
  openStore(path, { schema: 62 }).close();
  const db = openDb(path, { readonly: true });
  const dflt = (t: string, c: string) =>
    (db.prepare(`PRAGMA table_xinfo(\`${t}\`)`).all() as { name: string; dflt_value: string | null }[]).find((x) => x.name === c)?.dflt_value;
  assert.equal(dflt('books', 'bookUrl'), "''");
  assert.equal(dflt('books', 'origin'), "'loc_book'");
  assert.equal(dflt('httpTTS', 'concurrentRate'), "'0'");
  assert.equal(dflt('book_groups', 'bookSort'), '-1');
  assert.equal(dflt('replace_rules', 'timeoutMillisecond'), '3000');
  assert.equal(dflt('book_sources', 'enabledCookieJar'), '0');
  assert.equal(dflt('book_sources', 'bookSourceName'), null);
  db.close();
});

test('replace_rules is AUTOINCREMENT: SQLite keeps sqlite_sequence for it', () => {
  const path = join(dir, 'autoinc.db');
  const store = openStore(path);
  store.tables.replace_rules.insert({ name: 'r' });
  assert.match(masterSql(store.db, 'replace_rules')!, /`id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL/);
  assert.deepEqual(store.db.prepare('SELECT name, seq FROM sqlite_sequence').all(), [{ name: 'replace_rules', seq: 1 }]);
  store.close();
});

test('a new schema-49 file has 19 tables, no dictRules or servers, and the 49 differences', () => {
  const path = join(dir, 'new49.db');
  openStore(path, { schema: 49 }).close();
  const db = openDb(path, { readonly: true });
  const tables = tableNames(db).filter((n) => !['android_metadata', 'room_master_table', 'sqlite_sequence'].includes(n));
  assert.equal(tables.length, 19);
  assert.ok(!tables.includes('dictRules') && !tables.includes('servers'));
  const cols = (t: string) => pragmaStructure(db, t).columns as { name: string; notnull: number; dflt_value: string | null }[];
  assert.equal(cols('books').find((c) => c.name === 'origin')?.dflt_value, "''");
  assert.equal(
    cols('book_groups').some((c) => c.name === 'bookSort'),
    false,
  );
  assert.equal(
    cols('readRecord').some((c) => c.name === 'lastRead'),
    false,
  );
  assert.deepEqual(
    cols('readRecord').find((c) => c.name === 'readTime'),
    { cid: 2, name: 'readTime', type: 'INTEGER', notnull: 1, dflt_value: null, pk: 0, hidden: 0 },
  );
  assert.equal(cols('rssSources').length, 27);
  assert.equal(cols('rssSources').find((c) => c.name === 'articleStyle')?.dflt_value, null);
  assert.equal(
    cols('txtTocRules').some((c) => c.name === 'example'),
    false,
  );
  assert.equal(cols('book_sources').length, 25);
  db.close();
});

test('every connection enforces foreign keys, uses WAL and a busy timeout', () => {
  const store = openStore(join(dir, 'pragmas.db'), { busyTimeout: 1234 });
  assert.equal(store.db.pragma('foreign_keys', { simple: true }), 1);
  assert.equal(store.db.pragma('journal_mode', { simple: true }), 'wal');
  assert.equal(store.db.pragma('busy_timeout', { simple: true }), 1234);
  store.close();
  const again = openStore(join(dir, 'pragmas.db'));
  assert.equal(again.db.pragma('foreign_keys', { simple: true }), 1);
  assert.equal(again.db.pragma('busy_timeout', { simple: true }), 5000);
  again.close();
  assert.equal(again.isOpen, false);
});

test('close checkpoints the WAL into the file and removes -wal and -shm', async () => {
  const { existsSync } = await import('node:fs');
  const path = join(dir, 'close.db');
  const store = openStore(path);
  store.tables.books.insert({ bookUrl: 'b', name: 'kept after close' });
  assert.ok(existsSync(path + '-wal'));
  store.close();
  store.close(); // a second close is harmless
  assert.equal(existsSync(path + '-wal'), false);
  assert.equal(existsSync(path + '-shm'), false);
  const db = openDb(path, { readonly: true });
  assert.equal(db.prepare('SELECT name FROM books').pluck().get(), 'kept after close');
  assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
  db.close();
});
