// The oracle checked against the app's own facts before anything is checked against it: every
// replayed step lands on exactly the structure of the app's exported schema of the next version
// (so the replay's rules are Room's), rows survive each step, and the replay of 49 -> 62 equals
// the hand-written replay of legado-data-layer.md 5.2 row for row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { appUpgrade } from './helpers/app-upgrade.js';
import { dumpTables, withDb } from './helpers/dump.js';
import { tempDir } from './helpers/files.js';
import { autoMigrationStatements, createRoomFile, fillRoomRows, replayRoomUpgrade, roomDump, roomSchema, roomStructure } from './helpers/room-oracle.js';
import { createV49 } from './helpers/v49-fixture.js';
import { checkStructure, sameDdl } from '../src/engine/structure.js';
import { schemas, type SchemaVersion } from '../src/schema/index.js';

const dir = tempDir('legado-oracle-');
let n = 0;
const fresh = (): string => join(dir, `o${n++}.db`);

/** A file the app creates at `version`, with rows. */
function created(version: number, rows = true): string {
  const p = fresh();
  createRoomFile(p, roomSchema(version));
  if (rows) withDb(p, (db) => fillRoomRows(db, roomSchema(version)));
  return p;
}

const VERSIONS = Array.from({ length: 75 - 49 + 1 }, (_, i) => 49 + i);

test('a file built from N.json has the version, row 42, and the createSql of every table and view', () => {
  for (const v of VERSIONS) {
    const s = roomSchema(v);
    withDb(created(v, false), (db) => {
      assert.equal(db.pragma('user_version', { simple: true }), v);
      assert.equal(db.prepare('SELECT identity_hash FROM room_master_table WHERE id = 42').pluck().get(), s.identityHash);
      for (const e of s.entities) {
        const sql = db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').pluck().get(e.tableName);
        assert.equal(sql, e.createSql.replace('${TABLE_NAME}', e.tableName).replace(' IF NOT EXISTS', ''), `${v} ${e.tableName}`);
      }
      assert.equal(db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'view'").pluck().get(), (s.views ?? []).length);
    });
  }
});

test('every replayed step N-1 -> N gives the structure of a file the app creates at N, rows kept', () => {
  for (const v of VERSIONS.slice(1)) {
    const path = created(v - 1);
    const before = withDb(path, (db) => roomDump(db, roomSchema(v - 1)));
    withDb(path, (db) => replayRoomUpgrade(db, v));
    const expected = withDb(created(v, false), (db) => roomStructure(db, roomSchema(v)));
    withDb(path, (db) => {
      assert.deepEqual(roomStructure(db, roomSchema(v)), expected, `step ${v - 1} -> ${v}`);
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
      assert.deepEqual(db.pragma('foreign_key_check'), []);
      const after = roomDump(db, roomSchema(v));
      for (const [table, rows] of Object.entries(before)) assert.equal(after[table]!.length, rows.length, `${v}: ${table} rows`);
    });
  }
});

test('the steps are the kinds the app documents: ALTER, rebuild, 64->65 delete, 54->55 data, the 75 view', () => {
  const sql = (v: number) => autoMigrationStatements(roomSchema(v - 1), roomSchema(v)).map((s) => ('sql' in s ? s.sql : `check ${s.foreignKeyCheck}`));
  assert.deepEqual(sql(50), [
    'ALTER TABLE `book_sources` ADD COLUMN `variableComment` TEXT DEFAULT NULL',
    'ALTER TABLE `rssSources` ADD COLUMN `variableComment` TEXT DEFAULT NULL',
  ]);
  assert.ok(sql(51).includes('INSERT INTO `_new_readRecord` (`deviceId`,`bookName`,`readTime`) SELECT `deviceId`,`bookName`,`readTime` FROM `readRecord`'));
  assert.deepEqual(sql(56), []);
  assert.ok(sql(55).at(-1)!.startsWith('update books set type = type | 256'));
  const s65 = sql(65);
  assert.ok(
    s65.some((s) => s.startsWith('INSERT INTO `_new_book_sources`') && !s.includes('enabledReview')),
    s65.join('\n'),
  );
  assert.ok(s65.includes('ALTER TABLE `rssSources` ADD COLUMN `jsLib` TEXT DEFAULT NULL'));
  assert.deepEqual(sql(75).slice(-1), [roomSchema(75).views![0]!.createSql.replace('${VIEW_NAME}', 'book_sources_part')]);
  assert.ok(sql(74).every((s) => s.startsWith('ALTER TABLE')));
});

test('the replay of 49 -> 62 equals the hand-written replay of the reference, row for row', () => {
  const a = fresh();
  createV49(a);
  const b = fresh();
  copyFileSync(a, b);
  withDb(a, (db) => appUpgrade(db));
  withDb(b, (db) => replayRoomUpgrade(db, 62));
  assert.deepEqual(withDb(b, dumpTables), withDb(a, dumpTables));
  const books = withDb(b, (db) => db.prepare('SELECT type, count(*) n FROM books GROUP BY type ORDER BY type').all());
  assert.ok(books.length >= 4, 'books.type holds the bitmask of several kinds');
});

test('the whole chain 49 -> 75 in one replay equals the 75 file the app creates, structurally', () => {
  const path = created(49);
  withDb(path, (db) => replayRoomUpgrade(db, 75));
  const expected = withDb(created(75, false), (db) => roomStructure(db, roomSchema(75)));
  withDb(path, (db) => assert.deepEqual(roomStructure(db, roomSchema(75)), expected));
});

test('a file the app creates at every version matches the schema by its DDL text alone (the open fast path), and fully', () => {
  for (const v of VERSIONS) {
    withDb(created(v, false), (db) => {
      const schema = schemas[v as SchemaVersion];
      assert.equal(sameDdl(db, schema), true, `${v}: sqlite_master text`);
      assert.deepEqual(checkStructure(db, schema), [], `${v}: structure`);
    });
  }
});
