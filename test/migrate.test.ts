// migrate(): a schema-49 file becomes the file the app's own upgrade would make, row for row;
// refused files are left byte-for-byte as they were; a failure at any step rolls everything back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDb, type Connection } from './helpers/engine.js';
import {
  FileExistsError,
  MigrationFailedError,
  NotADatabaseError,
  SchemaMismatchError,
  UnsupportedVersionError,
  VersionMismatchError,
  inspectFile,
  migrate as migrateFile,
  openStore,
  schemas,
  type MigrateOptions,
} from 'legado-store';
import { FileNotFoundError } from 'legado-store/errors';
import { planUpgrade } from '../src/migrate/plan.js';
import { addColumnSql } from '../src/migrate/sql.js';
import { foreignKeyViolations } from '../src/migrate/checks.js';
import { appUpgrade } from './helpers/app-upgrade.js';
import { dumpTables, fingerprint, type Dump } from './helpers/dump.js';
import { snapshot, tempDir } from './helpers/files.js';
import { masterSql, pragmaStructure } from './helpers/pragma.js';

/** This file's subject is the spec's upgrade, 49 to 62 (migrate-chain.test.ts goes on to 75). */
const migrate = (path: string, options: MigrateOptions = {}) => migrateFile(path, { to: 62, ...options });
import { ODD_BOOKS, SMALL, WAL_BOOK, copyWithLiveWal, createV49, createV49AppShaped } from './helpers/v49-fixture.js';

const dir = tempDir('legado-migrate-');
let n = 0;
const fresh = (name = 'f'): string => join(dir, `${name}${n++}.db`);

const BASE = fresh('base');
createV49(BASE, SMALL);
/** A copy of the closed, checkpointed 49 fixture. */
function base49(): string {
  const p = fresh();
  copyFileSync(BASE, p);
  return p;
}

function withDb<T>(path: string, fn: (db: Connection) => T): T {
  const db = openDb(path);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}
const dump = (path: string): Dump => withDb(path, dumpTables);
const print = (path: string): string => withDb(path, fingerprint);
const integrity = (path: string): string => withDb(path, (db) => db.pragma('integrity_check', { simple: true }) as string);

// What spec section 9 and reference 5.3 say the new columns hold in rows that existed before.
const NEW_COLUMNS: Record<string, Record<string, unknown>> = {
  book_groups: { bookSort: -1n },
  book_sources: { enabledReview: null, coverDecodeJs: null, variableComment: null, ruleReview: null },
  rssSources: { variableComment: null, coverDecodeJs: null, contentWhitelist: null, contentBlacklist: null, injectJs: null, lastUpdateTime: 0n },
  txtTocRules: { example: null },
  readRecord: { lastRead: 0n },
};

/** Migration_54_55 in plain terms: old kind -> bit, then 256 for local/WebDAV (SQL LIKE: ASCII case-insensitive, `_` any character). */
function appType(type: bigint, origin: string): bigint {
  const kind = ({ '0': 8n, '1': 32n, '2': 64n, '3': 128n } as Record<string, bigint>)[String(type)] ?? type;
  return /^loc.book/is.test(origin) || /^webdav::/i.test(origin) ? kind | 256n : kind;
}

function expected62(d49: Dump): Dump {
  const out: Dump = { dictRules: [], servers: [] };
  for (const [table, rows] of Object.entries(d49)) {
    out[table] = rows.map((r) => ({
      ...r,
      ...NEW_COLUMNS[table],
      ...(table === 'books' ? { type: appType(r['type'] as bigint, r['origin'] as string) } : {}),
    }));
  }
  return out;
}

test('the plan is the app’s chain 49 -> 50 -> ... -> 62, each step derived from two neighbouring schemas (reference 5.2)', () => {
  const plan = planUpgrade(schemas[49], schemas[62]);
  assert.deepEqual(
    plan.steps.map((s) => `${s.from.version}->${s.to.version}`),
    Array.from({ length: 13 }, (_, i) => `${49 + i}->${50 + i}`),
  );
  const at = (v: number) => plan.steps.find((s) => s.to.version === v)!;
  const added = (v: number) => at(v).addedColumns.map((a) => `${a.table.name}.${a.column.name}`);
  const rebuilt = (v: number) => at(v).rebuiltTables.map((r) => r.to.name);
  assert.deepEqual(added(50), ['book_sources.variableComment', 'rssSources.variableComment']);
  assert.deepEqual([rebuilt(51), at(51).rebuiltTables[0]!.copied], [['readRecord'], ['deviceId', 'bookName', 'readTime']]);
  assert.deepEqual(added(53).sort(), ['book_sources.enabledReview', 'book_sources.ruleReview']);
  assert.deepEqual([rebuilt(54), rebuilt(55)], [['books'], ['books']], 'books twice, as the app does (53->54 and 54->55)');
  assert.deepEqual(
    at(55).dataSteps.map((d) => d.name),
    ['Migration_54_55'],
  );
  assert.equal(at(56).addedColumns.length + at(56).rebuiltTables.length + at(56).createdTables.length, 0, '55 and 56 share one hash');
  assert.deepEqual([rebuilt(59), at(59).rebuiltTables[0]!.copied.length], [['rssSources'], 31]);
  assert.deepEqual(
    [at(60).createdTables.map((t) => t.name), rebuilt(61), at(62).createdTables.map((t) => t.name)],
    [['dictRules'], ['dictRules'], ['servers']],
  );
  assert.deepEqual(
    plan.steps.flatMap((s) => s.dataSteps.map((d) => d.name)),
    ['Migration_54_55'],
  );
  // Room's ALTER text (reference 5.2).
  const bookSort = at(58).addedColumns[0]!;
  assert.equal(addColumnSql(bookSort.table, bookSort.column), 'ALTER TABLE `book_groups` ADD COLUMN `bookSort` INTEGER NOT NULL DEFAULT -1');
  const example = at(52).addedColumns[0]!;
  assert.equal(addColumnSql(example.table, example.column), 'ALTER TABLE `txtTocRules` ADD COLUMN `example` TEXT DEFAULT NULL');
  assert.throws(() => planUpgrade(schemas[62], schemas[49]), /no upgrade from schema 62 to 49/);
});

test('every row of every table is kept; only books.type and the new columns change', () => {
  const path = base49();
  const before = dump(path);
  assert.equal(Object.keys(before).length, 19);
  for (const [table, rows] of Object.entries(before)) assert.ok(rows.length > 0, `fixture fills ${table}`);
  assert.equal(before['chapters']!.length, 2 * 300 + (SMALL.books + ODD_BOOKS.length - 2) * SMALL.chaptersPerBook);

  const r = migrate(path);
  assert.equal(r.status, 'upgraded');
  assert.equal(r.from, 49);
  assert.equal(r.to, 62);
  assert.deepEqual(r.changes?.rebuiltTables, ['readRecord', 'books', 'rssSources', 'dictRules']);
  assert.deepEqual(r.changes?.createdTables, ['dictRules', 'servers']);
  assert.equal(r.changes?.steps.length, 13);

  assert.deepEqual(dump(path), expected62(before));
  assert.equal(integrity(path), 'ok');
  // Nothing cascaded and nothing dangles: the full check over every table is clean.
  withDb(path, (db) => assert.deepEqual(db.prepare('PRAGMA foreign_key_check').all(), []));
});

test('books.type: kinds 0-3 become 8/32/64/128, local and WebDAV books get 256, with the app’s LIKE', () => {
  const path = base49();
  migrate(path);
  const typeOf = (i: number) => withDb(path, (db) => db.prepare('SELECT type FROM books WHERE name = ?').pluck().get(`书名${i}`));
  // Ordinary books: i % 4 is the old kind, i % 3 says online (0), loc_book (1) or webDav:: (2).
  assert.deepEqual([0, 1, 2, 3, 4, 5].map(typeOf), [8, 32 | 256, 64 | 256, 128, 8 | 256, 32 | 256]);
  // LOC_BOOK and locXbook match `loc_book%` (case, `_`); webdav:: matches; one colon, a later
  // loc_book and an empty origin do not; an unknown kind 5 keeps its value.
  const odd = ODD_BOOKS.map((_, k) => typeOf(SMALL.books + k));
  assert.deepEqual(odd, [264, 288, 320, 128, 8, 261, 128]);
});

test('the result is the app’s own upgrade, row for row and table for table', () => {
  const ours = base49();
  const app = base49();
  migrate(ours);
  withDb(app, appUpgrade);
  assert.equal(print(ours), print(app));
  withDb(ours, (o) =>
    withDb(app, (a) => {
      for (const t of schemas[62].tables) {
        // Same columns, types, defaults, keys, indices and foreign keys. Column *order* may differ
        // where the app appended columns step by step (book_sources); Room never checks order.
        const norm = (db: Connection) => {
          const s = pragmaStructure(db, t.name) as { columns: { name: string; cid?: number }[]; indices: { columns: { cid?: number }[] }[] };
          return {
            ...s,
            columns: s.columns.map(({ cid: _c, ...c }) => c).sort((x, y) => x.name.localeCompare(y.name)),
            indices: s.indices.map((ix) => ({ ...ix, columns: ix.columns.map(({ cid: _c, ...c }) => c) })),
          };
        };
        assert.deepEqual(norm(o), norm(a), t.name);
      }
      // The rebuilt tables carry the app's DDL to the letter.
      for (const t of ['books', 'rssSources', 'readRecord']) assert.equal(masterSql(o, t), masterSql(a, t), t);
      assert.equal(o.prepare('SELECT identity_hash FROM room_master_table WHERE id = 42').pluck().get(), '965c5f1d4c60d25b4b46efb17c575c85');
    }),
  );
});

test('afterwards the structure is exactly 62 (as verify checks it) and the store opens it', () => {
  const path = base49();
  migrate(path);
  const r = inspectFile(path);
  assert.equal(r.version, 62);
  assert.equal(r.identityHash, '965c5f1d4c60d25b4b46efb17c575c85');
  assert.deepEqual(r.differences, []);
  assert.deepEqual(r.extraTables, []);
  assert.equal(r.ok, true);
  const s = openStore(path, { schema: 62 });
  assert.equal(s.tables.book_groups.get(1n)?.bookSort, -1);
  assert.equal(s.tables.dictRules.count(), 0);
  s.tables.servers.insert({ id: 1, name: 'dav', type: 'WEBDAV', sortNumber: 0 });
  s.close();
  assert.ok(!existsSync(path + '-wal'), 'closed cleanly, nothing left in a -wal');
});

test('a file shaped by years of app updates (android_metadata, other column order, old ALTER default) upgrades', () => {
  const path = fresh('app');
  createV49AppShaped(path, SMALL);
  assert.equal(inspectFile(path).ok, true);
  const before = dump(path);
  const chaptersDdl = withDb(path, (db) => masterSql(db, 'chapters'));
  migrate(path);
  assert.deepEqual(dump(path), expected62(before));
  assert.equal(inspectFile(path).ok, true);
  withDb(path, (db) => {
    assert.deepEqual(db.prepare('SELECT locale FROM android_metadata').pluck().all(), ['zh_CN']);
    // Rows that took the old ALTER's DEFAULT 0 keep it; the rebuilt table now declares 62's default.
    assert.deepEqual(db.prepare("SELECT articleStyle FROM rssSources WHERE sourceUrl LIKE 'https://old%' ORDER BY sourceUrl").pluck().all(), [0, 0]);
    assert.equal(masterSql(db, 'chapters'), chaptersDdl, 'a table the upgrade does not change is not touched');
  });
});

test('rows still only in the -wal (with or without its -shm) are seen by the store and upgraded with the rest', () => {
  for (const shm of [true, false]) {
    const src = base49();
    const path = fresh('wal');
    copyWithLiveWal(src, path, shm);
    // The main file alone does not have the newest book: it is in the -wal.
    const mainOnly = fresh('mainonly');
    copyFileSync(path, mainOnly);
    assert.equal(
      withDb(mainOnly, (db) => db.prepare('SELECT count(*) FROM books WHERE bookUrl = ?').pluck().get(WAL_BOOK.bookUrl)),
      0,
    );
    // Our store sees it at 49 (read-only, so nothing is checkpointed yet).
    const ro = openStore(path, { readonly: true });
    assert.equal(ro.version, 49);
    assert.equal(ro.tables.books.get(WAL_BOOK.bookUrl)?.type, 1);
    ro.close();
    assert.ok(existsSync(path + '-wal'));

    // Upgraded by migrate, or by openStore's upgrade option.
    if (shm) assert.equal(migrate(path).status, 'upgraded');
    else openStore(path, { upgrade: true }).close();
    withDb(path, (db) => {
      const b = db.prepare('SELECT type FROM books WHERE bookUrl = ?').get(WAL_BOOK.bookUrl) as { type: number };
      assert.equal(b.type, 32);
      assert.equal(db.prepare('SELECT count(*) FROM chapters WHERE bookUrl = ?').pluck().get(WAL_BOOK.bookUrl), 40);
      assert.deepEqual(db.prepare('SELECT readTime, lastRead FROM readRecord WHERE bookName = ?').get(WAL_BOOK.name), { readTime: 42, lastRead: 0 });
    });
    assert.equal(inspectFile(path).ok, true);
  }
});

test('openStore: a 49 file opens at 49 unless upgrade: true, which upgrades it first', () => {
  const path = base49();
  const s49 = openStore(path);
  assert.equal(s49.version, 49);
  s49.close();
  assert.equal(inspectFile(path).version, 49);

  const s = openStore(path, { upgrade: true });
  assert.equal(s.version, 62);
  assert.equal(s.tables.readRecord.get({ deviceId: '', bookName: '书名0' })?.lastRead, 0);
  s.close();

  // On a 62 file upgrade: true changes nothing; with schema: 49 it does not apply.
  const before = snapshot(path).main;
  openStore(path, { upgrade: true }).close();
  assert.equal(snapshot(path).main, before);
  const other = base49();
  const keep = openStore(other, { schema: 49, upgrade: true });
  assert.equal(keep.version, 49);
  keep.close();
  // A read-only store cannot upgrade: refused, file untouched.
  const ro = base49();
  const roBefore = snapshot(ro);
  assert.throws(
    () => openStore(ro, { readonly: true, upgrade: true }),
    (e: unknown) => e instanceof VersionMismatchError && /read-only/.test(e.message),
  );
  assert.deepEqual(snapshot(ro), roBefore);
});

/** Runs raw SQL with a plain connection (closed, so no -wal stays). */
function tamper(path: string, sql: string): void {
  withDb(path, (db) => db.exec(sql));
}

function assertRefused(path: string, check: (e: unknown) => boolean, options: Parameters<typeof migrate>[1] = {}): void {
  const before = snapshot(path);
  assert.throws(
    () => migrate(path, options),
    (e: unknown) => {
      assert.ok(check(e), `unexpected error: ${String(e)}`);
      return true;
    },
  );
  assert.deepEqual(snapshot(path), before, 'a refused file is left byte-for-byte as it was');
}

test('a 49 file that does not match schema 49 is refused before anything changes, with the differences', () => {
  const path = base49();
  tamper(path, 'ALTER TABLE chapters ADD COLUMN wordCount TEXT; DROP INDEX index_books_name_author');
  assertRefused(path, (e) => {
    assert.ok(e instanceof SchemaMismatchError);
    assert.equal(e.code, 'SCHEMA_MISMATCH');
    assert.equal(e.version, 49);
    assert.deepEqual(e.differences.map((d) => `${d.kind} ${d.table} ${d.item}`).sort(), [
      'extra-column chapters wordCount',
      'missing-index books index_books_name_author',
    ]);
    return true;
  });
  const hash = base49();
  tamper(hash, "UPDATE room_master_table SET identity_hash = '09020e77cffa237f9a98c62eed0a01f2'");
  assertRefused(hash, (e) => e instanceof SchemaMismatchError && e.differences[0]?.kind === 'identity-hash');

  // With its newest rows in a live -wal: the main file and the -wal stay byte-for-byte as they
  // were (the -shm is SQLite's shared-memory index, where every reader notes what it reads).
  const src = base49();
  tamper(src, 'ALTER TABLE chapters ADD COLUMN wordCount TEXT');
  const wal = fresh('walrefused');
  copyWithLiveWal(src, wal);
  const before = snapshot(wal);
  assert.throws(() => migrate(wal), SchemaMismatchError);
  const after = snapshot(wal);
  assert.deepEqual([after.main, after['-wal']], [before.main, before['-wal']]);
});

test('a 49 file with a table where the upgrade would create one is refused, not merged', () => {
  for (const name of ['servers', '_new_books']) {
    const path = base49();
    tamper(path, `CREATE TABLE \`${name}\` (id INTEGER PRIMARY KEY, note TEXT); INSERT INTO \`${name}\` VALUES (1, 'mine')`);
    assert.equal(inspectFile(path).ok, true, 'at 49 an extra table is fine');
    assertRefused(
      path,
      (e) =>
        e instanceof SchemaMismatchError && e.differences.length === 1 && e.differences[0]?.kind === 'table-in-the-way' && e.differences[0]?.table === name,
    );
  }
});

test('other versions, non-stores and missing files are refused with what was found; no downgrade', () => {
  for (const [version, hint] of [
    [76, /newer than 75, and there is no downgrade/],
    [48, /schema 48 /],
    [0, /schema 0 /],
  ] as const) {
    const path = base49();
    tamper(path, `PRAGMA user_version = ${version}`);
    assertRefused(
      path,
      (e) =>
        e instanceof UnsupportedVersionError &&
        e.found === version &&
        hint.test(e.message) &&
        /is not supported as a store .*legado-store import/.test(e.message),
    );
  }
  const text = fresh('text');
  writeFileSync(text, 'not a database, just text\n'.repeat(100));
  assertRefused(text, (e) => e instanceof NotADatabaseError);
  const missing = fresh('missing');
  assert.throws(() => migrate(missing), FileNotFoundError);
  assert.ok(!existsSync(missing));
  // A target below the file's version, or one the store does not know, is refused whatever the file.
  const p62 = base49();
  migrate(p62);
  assertRefused(p62, (e) => e instanceof VersionMismatchError && /no downgrade/.test(e.message), { to: 49 });
  assertRefused(p62, (e) => e instanceof UnsupportedVersionError && /target asked for/.test(e.message), { to: 76 as 75 });
});

test('a file already at 62 is left alone and says so; a broken 62 file is refused', () => {
  const path = base49();
  migrate(path);
  const before = snapshot(path);
  const r = migrate(path, { backup: fresh('unused-backup') });
  assert.equal(r.status, 'current');
  assert.equal(r.from, 62);
  assert.equal(r.changes, null);
  assert.equal(r.backup, null);
  assert.deepEqual(snapshot(path), before);
  tamper(path, 'ALTER TABLE servers ADD COLUMN extra TEXT');
  assertRefused(path, (e) => e instanceof SchemaMismatchError && e.version === 62);
});

test('--backup writes a consistent copy of the original first, -wal rows included; never over a file', () => {
  const src = base49();
  const path = fresh('walbk');
  copyWithLiveWal(src, path);
  const original = print(src); // src got the same rows, checkpointed
  const backup = fresh('backup');
  const r = migrate(path, { backup });
  assert.equal(r.backup, backup);
  const b = inspectFile(backup);
  assert.equal(b.version, 49);
  assert.equal(b.ok, true);
  assert.equal(print(backup), original);
  assert.equal(integrity(backup), 'ok');

  const again = base49();
  const taken = fresh('taken');
  writeFileSync(taken, 'someone else’s file');
  const takenBefore = snapshot(taken);
  assertRefused(again, (e) => e instanceof FileExistsError && e.code === 'FILE_EXISTS' && e.path === taken, { backup: taken });
  assert.deepEqual(snapshot(taken), takenBefore);
});

test('a failure at any step rolls everything back: the file is the 49 file it was', () => {
  const steps: string[] = [];
  migrate(base49(), { backup: fresh('bk'), onStep: (s) => steps.push(s) });
  assert.deepEqual(steps.slice(0, 2), ['backup', 'begin']);
  assert.deepEqual(steps.slice(-3), ['identity hash', 'check', 'commit']);
  assert.ok(steps.includes('55: rebuild books') && steps.includes('Migration_54_55') && steps.includes('62: create servers'));
  const original = print(BASE);
  for (const step of steps) {
    const path = base49();
    const boom = new Error(`stop at ${step}`);
    assert.throws(
      () =>
        migrate(path, {
          onStep: (s) => {
            if (s === step) throw boom;
          },
          ...(step === 'backup' && { backup: fresh('bk') }),
        }),
      (e: unknown) =>
        e instanceof MigrationFailedError && e.code === 'MIGRATION_FAILED' && e.step === step && e.cause === boom && /rolled back/.test(e.message),
    );
    assert.equal(print(path), original, `after a failure at ${step}`);
    assert.equal(integrity(path), 'ok');
    const r = inspectFile(path);
    assert.equal(r.version, 49);
    assert.equal(r.ok, true);
    assert.deepEqual(r.extraTables, [], 'no _new_ table is left behind');
  }
});

test('foreign keys: a chapter that already pointed nowhere is kept, as the app keeps it; the check covers rebuilt tables', () => {
  const path = base49();
  tamper(
    path,
    "PRAGMA foreign_keys = OFF; INSERT INTO chapters (url, title, isVolume, baseUrl, bookUrl, `index`, isVip, isPay) VALUES ('x', 'orphan', 0, '', 'no-such-book', 0, 0, 0)",
  );
  const orphans = (p: string) => withDb(p, (db) => db.prepare('PRAGMA foreign_key_check(chapters)').all().length);
  assert.equal(orphans(path), 1);
  migrate(path);
  assert.equal(orphans(path), 1, 'kept, neither deleted nor reported as the upgrade’s fault');
  // The check itself reports violations of the tables it is given.
  withDb(path, (db) => {
    assert.deepEqual(foreignKeyViolations(db, [schemas[62].table('chapters')!]), [
      { table: 'chapters', rowid: 1 + (db.prepare("SELECT rowid FROM chapters WHERE url = 'x'").pluck().get() as number) - 1, parent: 'books' },
    ]);
    assert.deepEqual(foreignKeyViolations(db, [schemas[62].table('books')!]), []);
  });
});
