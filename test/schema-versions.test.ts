// Every main-line version 49 to 75 from the model: identity hash, Room's DDL letter for letter,
// the structure SQLite reads back, and init/open/verify of a file at that version.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SUPPORTED_VERSIONS, VersionMismatchError, inspectFile, openStore, schemas } from 'legado-store';
import { LEGADO_TEAM_HASHES, createSchemaSql, identifyHash } from 'legado-store/tools';
import { openDb, type Connection } from './helpers/engine.js';
import { tempDir } from './helpers/files.js';
import { pragmaStructure } from './helpers/pragma.js';
import { roomSchema, roomVersions, type RoomSchema } from './helpers/room-oracle.js';

const dir = tempDir();
const ALL = Array.from({ length: 27 }, (_, i) => 49 + i);

/** Every statement Room runs on a new file of that version, names filled in, in its order. */
function roomStatements(j: RoomSchema): string[] {
  const out: string[] = [];
  for (const e of j.entities) {
    out.push(e.createSql.replace('${TABLE_NAME}', e.tableName));
    for (const ix of e.indices ?? []) out.push(ix.createSql.replace('${TABLE_NAME}', e.tableName));
  }
  for (const v of j.views ?? []) out.push(v.createSql.replace('${VIEW_NAME}', v.viewName));
  return [...out, ...j.setupQueries];
}

test('the store supports exactly 49 to 75, one schema each', () => {
  assert.deepEqual([...SUPPORTED_VERSIONS], ALL);
  for (const v of ALL) assert.equal(schemas[v as 62].version, v);
});

test("every identity hash computed from the model equals the app's (55 = 56, 68 = 69)", () => {
  for (const v of ALL) assert.equal(schemas[v as 62].identityHash, roomSchema(v).identityHash, `schema ${v}`);
  assert.equal(schemas[55].identityHash, schemas[56].identityHash);
  assert.equal(schemas[68].identityHash, schemas[69].identityHash);
  assert.equal(new Set(ALL.map((v) => schemas[v as 62].identityHash)).size, 25);
});

test("the LegadoTeam line's hashes kept as data are its exported schemas' (76-104), and name the line", () => {
  assert.deepEqual(
    roomVersions('LegadoTeam-fork'),
    Array.from({ length: 104 - 76 + 1 }, (_, i) => 76 + i),
  );
  for (let v = 76; v <= 104; v++) {
    const hash = roomSchema(v, 'LegadoTeam-fork').identityHash;
    assert.equal(LEGADO_TEAM_HASHES[v], hash, `LegadoTeam ${v}`);
    assert.equal(identifyHash(hash)?.line, 'LegadoTeam');
    assert.ok(identifyHash(hash)?.versions.includes(v));
  }
});

test("every statement, tables, indices, views and setup, is the createSql of the version's exported schema", () => {
  for (const v of ALL) {
    const s = schemas[v as 62];
    assert.deepEqual(createSchemaSql(s, s.identityHash), roomStatements(roomSchema(v)), `schema ${v}`);
  }
  // The view's text keeps its line breaks and trailing spaces.
  assert.match(createSchemaSql(schemas[75], schemas[75].identityHash).find((q) => q.startsWith('CREATE VIEW'))!, /enabledExplore, \n {4}\(loginUrl/);
});

test("a file the store creates reads back through PRAGMA as the file the app's statements make", () => {
  for (const v of ALL) {
    const ours = join(dir, `ours-${v}.db`);
    openStore(ours, { schema: v as 62, specialGroups: false }).close();
    const app = openDb(':memory:');
    for (const q of roomStatements(roomSchema(v))) app.exec(q);
    const db = openDb(ours, { readonly: true });
    const objects = (d: Connection) =>
      d.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name != 'android_metadata' ORDER BY name").all();
    assert.deepEqual(objects(db), objects(app), `schema ${v}: sqlite_master`);
    for (const t of schemas[v as 62].tables) assert.deepEqual(pragmaStructure(db, t.name), pragmaStructure(app, t.name), `schema ${v}: ${t.name}`);
    for (const w of schemas[v as 62].views) {
      assert.deepEqual(db.prepare(`PRAGMA table_info(\`${w.name}\`)`).all(), app.prepare(`PRAGMA table_info(\`${w.name}\`)`).all());
    }
    db.close();
    app.close();
  }
});

test('init, open and verify at every version: user_version, hash, views; a bare open finds the version', () => {
  for (const v of ALL) {
    const path = join(dir, `v${v}.db`);
    const s = openStore(path, { schema: v as 62 });
    assert.equal(s.version, v);
    assert.ok(s.tables.books.insert({ bookUrl: 'u', name: 'n' }));
    s.close();
    const db = openDb(path, { readonly: true });
    assert.equal(db.pragma('user_version', { simple: true }), v);
    assert.equal(db.prepare('SELECT identity_hash FROM room_master_table WHERE id = 42').pluck().get(), roomSchema(v).identityHash);
    assert.equal(db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'view'").pluck().get(), v >= 75 ? 1 : 0);
    db.close();
    const r = inspectFile(path);
    assert.equal(r.ok, true, `${v}: ${r.differences.map((d) => d.message).join('; ')}`);
    assert.equal(r.known?.line, 'legado');
    assert.ok(r.known?.versions.includes(v));
    const again = openStore(path);
    assert.equal(again.version, v);
    assert.equal(again.tables.books.count(), 1);
    again.close();
    const other = v === 75 ? 74 : v + 1;
    assert.throws(() => openStore(path, { schema: other as 62 }), VersionMismatchError);
  }
});

test('a 75 file whose view text differs by one space is a mismatch, named as such', () => {
  const path = join(dir, 'view.db');
  openStore(path, { schema: 75 }).close();
  const db = openDb(path);
  const sql = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'book_sources_part'").pluck().get() as string;
  db.exec('DROP VIEW book_sources_part');
  db.exec(sql.replace('enabledExplore, \n', 'enabledExplore,\n'));
  db.close();
  const r = inspectFile(path);
  assert.deepEqual(
    r.differences.map((d) => [d.kind, d.table]),
    [['view-definition', 'book_sources_part']],
  );
  const db2 = openDb(path);
  db2.exec('DROP VIEW book_sources_part');
  db2.close();
  assert.deepEqual(
    inspectFile(path).differences.map((d) => d.kind),
    ['missing-view'],
  );
});
