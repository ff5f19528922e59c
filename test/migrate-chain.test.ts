// migrate() along the app's whole chain, 49 to 75, checked against the replay of Room's generated
// AutoMigrations built from the app's exported schemas (helpers/room-oracle.ts): every single
// step, every start to 75, 49 to every target, row for row and PRAGMA for PRAGMA; the result is
// the file the app creates at that version, structurally. Then the chain's refusals, its
// backup and -wal handling, and openStore's upgrade on open.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  LegadoStoreError,
  SchemaMismatchError,
  UnsupportedVersionError,
  VersionMismatchError,
  inspectFile,
  migrate,
  openStore,
  type SchemaVersion,
} from 'legado-store';
import { withDb } from './helpers/dump.js';
import { snapshot, tempDir } from './helpers/files.js';
import { createRoomFile, fillRoomRows, replayRoomUpgrade, roomDump, roomSchema, roomStructure } from './helpers/room-oracle.js';
import { WAL_BOOK, copyWithLiveWal, createV49 } from './helpers/v49-fixture.js';

const dir = tempDir('legado-chain-');
let n = 0;
const fresh = (name = 'f'): string => join(dir, `${name}${n++}.db`);
const VERSIONS = Array.from({ length: 75 - 49 + 1 }, (_, i) => 49 + i) as SchemaVersion[];

/** A file the app creates at `version` (from its exported schema), with rows in every table. */
function appFile(version: number): string {
  const p = fresh(`app${version}-`);
  createRoomFile(p, roomSchema(version));
  withDb(p, (db) => fillRoomRows(db, roomSchema(version)));
  return p;
}

/** The file upgraded by migrate() and a copy upgraded by the oracle's replay of the app's steps. */
function both(source: string, to: SchemaVersion): { ours: string; app: string } {
  const ours = fresh('ours');
  const app = fresh('app');
  copyFileSync(source, ours);
  copyFileSync(source, app);
  const from = withDb(source, (db) => db.pragma('user_version', { simple: true }) as number);
  const r = migrate(ours, { to });
  assert.equal(r.status, 'upgraded');
  assert.deepEqual([r.from, r.to, r.changes!.steps.length], [from, to, to - from]);
  withDb(app, (db) => replayRoomUpgrade(db, to));
  return { ours, app };
}

/** Same rows, same structure as the app's own upgrade, and the structure of a file the app creates at `to`. */
function assertLikeTheApp(ours: string, app: string, to: number, label: string): void {
  const s = roomSchema(to);
  withDb(ours, (a) =>
    withDb(app, (b) => {
      assert.deepEqual(roomDump(a, s), roomDump(b, s), `${label}: rows`);
      assert.deepEqual(roomStructure(a, s), roomStructure(b, s), `${label}: structure`);
      assert.equal(a.pragma('integrity_check', { simple: true }), 'ok');
      assert.deepEqual(a.prepare('PRAGMA foreign_key_check').all(), []);
    }),
  );
  const created = fresh('created');
  createRoomFile(created, s);
  assert.deepEqual(
    withDb(ours, (db) => roomStructure(db, s)),
    withDb(created, (db) => roomStructure(db, s)),
    `${label}: as the app creates ${to}`,
  );
  const report = inspectFile(ours);
  assert.deepEqual([report.version, report.ok, report.extraTables], [to, true, []], label);
}

test('every single step N-1 -> N, 49 -> 75, equals the app’s AutoMigration row for row', () => {
  for (const to of VERSIONS.slice(1)) {
    const { ours, app } = both(appFile(to - 1), to);
    assertLikeTheApp(ours, app, to, `${to - 1} -> ${to}`);
  }
});

test('the whole chain from every version to 75, and from 49 to every version, equals the app’s', () => {
  for (const from of VERSIONS.slice(0, -1)) {
    const { ours, app } = both(appFile(from), 75);
    assertLikeTheApp(ours, app, 75, `${from} -> 75`);
  }
  const start = appFile(49);
  for (const to of VERSIONS.slice(2)) {
    const { ours, app } = both(start, to);
    assertLikeTheApp(ours, app, to, `49 -> ${to}`);
  }
});

test('a realistic 49 file (all 19 tables, odd origins, 64-bit groups) goes to 75 exactly as the app takes it', () => {
  const source = fresh('v49');
  createV49(source);
  const { ours, app } = both(source, 75);
  assertLikeTheApp(ours, app, 75, '49 -> 75');
  // The kinds of step the chain holds, as the summary tells them.
  const again = fresh('again');
  copyFileSync(source, again);
  const r = migrate(again, { to: 75 });
  const steps = r.changes!.steps;
  const at = (v: number) => steps.find((s) => s.to === v)!;
  assert.deepEqual(at(50).addedColumns, ['book_sources.variableComment', 'rssSources.variableComment']);
  assert.deepEqual(at(55).rebuiltTables, ['books']);
  assert.deepEqual(
    at(55).dataSteps.map((d) => d.name),
    ['Migration_54_55'],
  );
  assert.deepEqual(at(56).addedColumns.length + at(56).rebuiltTables.length + at(56).createdTables.length, 0);
  assert.deepEqual(at(60).createdTables, ['dictRules']);
  assert.ok(at(65).rebuiltTables.includes('book_sources') && at(65).addedColumns.includes('rssSources.jsLib'));
  assert.deepEqual(at(75).createdViews, ['book_sources_part']);
  assert.equal(r.changes!.rebuiltTables.includes('chapters'), false, 'chapters is never rebuilt');
  withDb(again, (db) => {
    const sql = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'view' AND name = 'book_sources_part'").pluck().get();
    assert.equal(sql, roomSchema(75).views![0]!.createSql.replace('${VIEW_NAME}', 'book_sources_part'), 'the view text letter for letter');
    assert.equal(db.prepare('SELECT count(*) FROM book_sources_part').pluck().get(), db.prepare('SELECT count(*) FROM book_sources').pluck().get());
  });
});

test('refused, file untouched: a downgrade, a target the store does not know, a forked file, a view in the way', () => {
  const refused = (path: string, to: SchemaVersion | undefined, check: (e: unknown) => boolean) => {
    const before = snapshot(path);
    assert.throws(() => migrate(path, to === undefined ? {} : { to }), check);
    const after = snapshot(path);
    assert.deepEqual([after.main, after['-wal']], [before.main, before['-wal']]);
  };
  const f70 = appFile(70);
  refused(f70, 63, (e) => e instanceof VersionMismatchError);
  refused(f70, 76 as SchemaVersion, (e) => e instanceof UnsupportedVersionError);
  const r70 = migrate(f70);
  assert.deepEqual([r70.status, r70.from, r70.to], ['upgraded', 70, 75], 'without --to: the newest, as the app upgrades its file');
  assert.equal(migrate(f70).status, 'current', 'then left alone');
  const team = fresh('team');
  createRoomFile(team, roomSchema(104));
  refused(team, 75, (e) => e instanceof LegadoStoreError && e.code === 'UNSUPPORTED_VERSION' && /104/.test(e.message));
  const f74 = appFile(74);
  withDb(f74, (db) => db.exec('CREATE VIEW book_sources_part AS SELECT 1'));
  refused(f74, 75, (e) => e instanceof SchemaMismatchError && e.differences.some((d) => d.kind === 'table-in-the-way' && d.table === 'book_sources_part'));
});

test('the rows only in the -wal are upgraded, a backup holds the original, and openStore upgrades on open', () => {
  const source = fresh('v49');
  createV49(source);
  const wal = fresh('wal');
  copyWithLiveWal(source, wal);
  const backup = fresh('backup');
  const r = migrate(wal, { to: 75, backup });
  assert.equal(r.backup, backup);
  assert.equal(inspectFile(backup).version, 49);
  withDb(wal, (db) => assert.equal(db.prepare('SELECT type FROM books WHERE bookUrl = ?').pluck().get(WAL_BOOK.bookUrl), 32));
  withDb(backup, (db) => assert.equal(db.prepare('SELECT type FROM books WHERE bookUrl = ?').pluck().get(WAL_BOOK.bookUrl), 1));

  const p = fresh('open');
  copyFileSync(source, p);
  const store = openStore(p, { upgrade: true, schema: 71 });
  try {
    assert.equal(store.version, 71);
    assert.ok(store.tables.books.count() > 0);
  } finally {
    store.close();
  }
  const later = openStore(p, { upgrade: true, schema: 75 });
  assert.equal(later.version, 75);
  later.close();
  assert.equal(inspectFile(p).version, 75);
});
