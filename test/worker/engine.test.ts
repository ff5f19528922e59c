// What the engine suites (run inside workerd by suites.test.ts) do not have, on the Durable
// Object driver inside workerd (wrangler dev, offline), by test/worker/checks-worker.ts: the
// seam's raw behaviour on the host, the version kept and told from the identity hash (55/56),
// the upgrade chain on an object, a backup past 100 parameters. Each check runs in an object of
// its own; what is expected is SQLite's and the app's behaviour, spelled out here.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { rmSync } from 'node:fs';
import { ROOT } from '../../worker/dev.js';
import { startWorker, stateDir, type RunningWorker } from './helpers.js';

let worker: RunningWorker;
const state = stateDir('legado-worker-checks-');
before(async () => {
  worker = await startWorker(['--persist-to', state], join(ROOT, 'test', 'worker', 'wrangler.jsonc'));
});
after(async () => {
  await worker?.stop();
  rmSync(state, { recursive: true, force: true });
});

let objects = 0;
async function check(name: string, query = '', object = `${name}-${++objects}`): Promise<Record<string, unknown>> {
  const res = await fetch(`${worker.url}${name}?object=${object}${query}`);
  const text = await res.text();
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(`${res.status}: ${worker.output().slice(-3000)}`);
  }
  assert.equal(res.status, 200, JSON.stringify(body));
  return body;
}

test('seam: statements, named parameters, blobs, nested transactions, error codes, capabilities', async () => {
  const r = await check('seam');
  assert.deepEqual(r.first, { changes: 1, lastInsertRowid: 1 });
  assert.deepEqual(r.named, { changes: 1, lastInsertRowid: 2 });
  // 3 committed by the outer transaction; 4 rolled back with the nested one that threw; 5 with the outer that threw.
  assert.deepEqual(r.ids, [1, 2, 3]);
  assert.deepEqual(r.objects, [
    { id: 1, name: 'one' },
    { id: 2, name: 'two' },
  ]);
  assert.deepEqual(r.raw, [
    [1, 'one'],
    [2, 'two'],
    [3, 'three'],
  ]);
  assert.deepEqual(r.iterate, ['three', 'two', 'one']);
  assert.equal(r.bigint, 'bigint');
  assert.deepEqual(r.blob, [0, 1, 255]);
  assert.equal(r.inside, true);
  assert.equal(r.outside, false);
  assert.deepEqual(r.readonly, [true, false]);
  assert.deepEqual(r.errors, {
    unique: 'SQLITE_CONSTRAINT_UNIQUE',
    primaryKey: 'SQLITE_CONSTRAINT_PRIMARYKEY',
    notNull: 'SQLITE_CONSTRAINT_NOTNULL',
    foreignKey: 'SQLITE_CONSTRAINT_FOREIGNKEY',
    syntax: 'SQLITE_ERROR',
    begin: 'Error', // the host refuses BEGIN with its own message, no SQLite code
    tooManyParameters: 'SQLITE_ERROR', // "too many SQL variables": 101 > 100
    twoStatements: 'RangeError', // as better-sqlite3 refuses it
    indexCheck: 'SQLITE_AUTH', // integrity_check of a table: "not authorized" (capabilities.indexCheck false)
  });
  // An empty object reads version 0; a written version reads back (kept in the object's KV).
  assert.deepEqual(r.userVersion, [0, 3]);
  assert.deepEqual(r.capabilities, {
    files: false,
    wal: false,
    mmap: false,
    transactions: 'callback',
    maxParameters: 100,
    userVersion: false,
    maxLikePatternBytes: 50,
    tempTriggers: false,
    indexCheck: false,
  });
});

test('openStore and inspectFile on the driver: an empty object is a new store (size 0, no -wal or -journal), reopened as it was left', async () => {
  const r = await check('open-store');
  assert.deepEqual(r.sizes, { before: 0, wal: 'none', journal: 'none', after: true });
  assert.equal(r.version, 62);
  assert.equal(r.group, '八');
  assert.equal(r.inspected, 62);
});

test('version: a new store is created at 75 with its identity hash; 55 and 56 (one hash) are told apart by the kept number', async () => {
  const newest = await check('version');
  assert.deepEqual(newest.created, { version: 75, kept: 75 });
  assert.equal(newest.reopened, 75);
  assert.equal(newest.byHash, 75);
  assert.equal(newest.identityHash, 'e22b36ff0280a224a30d08dd6e9bd7be');
  assert.deepEqual(newest.specialGroups, [-11, -5, -4, -3, -2, -1]);
  for (const v of [55, 56]) {
    const r = await check('version', `&schema=${v}`);
    assert.deepEqual(r.created, { version: v, kept: v });
    assert.equal(r.reopened, v);
    assert.equal(r.identityHash, '7dc698b0bf395df06befb13d41df87b9');
    // Without the kept number the hash alone names the later of the pair.
    assert.equal(r.byHash, 56);
  }
});

test("domain: a group's bit cleared from books when it goes; the app's v_<url>_% deletion past the 50-byte LIKE limit", async () => {
  const r = await check('domain');
  assert.deepEqual(r.groups, ['1', '2']);
  assert.equal(r.groupAfterDelete, '1');
  assert.equal(r.deletedGroup, true);
  // LIKE 'v_' || url || '_%': `_` is any character and ASCII letters match either case, so
  // v_<url>_token, v_<URL>_k and vX<url>Yz go; v_<url> (nothing after) stays; plus the three exact keys.
  assert.equal(r.removed, 6);
  assert.deepEqual(r.cacheLeft, ['keep', `v_https://www.example-book-source.com/very/long/path/of/a/source/${'x'.repeat(40)}`, 'v_other_k']);
});

test("upgrade: the app's chain from 49 to 75 on the object (books rebuilt, its chapters kept); refused after a write in the same request", async () => {
  const setup = await check('upgrade-setup', '', 'upgraded');
  // Foreign keys cannot be turned off in the request's implicit transaction: refused, nothing changed.
  assert.deepEqual(setup, { refused: 'MigrationFailedError', version: 49, chapters: 3 });
  const run = await check('upgrade', '', 'upgraded');
  assert.deepEqual(run, { steps: 26, rebuilt: true, kept: 75 });
  const after = await check('upgrade-after', '', 'upgraded');
  // Migration_54_55 rewrote type 0 (text) as the bit 8; the identity hash is 75's.
  assert.deepEqual(after, { version: 75, identityHash: 'e22b36ff0280a224a30d08dd6e9bd7be', book: { name: '旧书', type: 8 }, chapters: 3, foreignKeys: 1 });
});

test('backup: a zip imported (120 sources: more rows than one 100-parameter statement takes), then exported', async () => {
  const r = await check('backup');
  assert.deepEqual(r.totals, { read: 122, stored: 122, updated: 0, unchanged: 0, notNewer: 0, duplicates: 0, conflicts: 0, skipped: 0 });
  assert.deepEqual(r.rows, { books: [{ name: '书九', durChapterIndex: 2 }], sources: 120, enabled: 60, rules: [{ id: 7, name: '去广告' }] });
  assert.deepEqual(r.exported, { shelf: [['书九', 2]], sources: 120 });
});
