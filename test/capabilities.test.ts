// Shared code honours what a driver says it cannot do, not what its name suggests. A driver of
// the test's own declares a Durable Object's limits (100 bound parameters, transactions only
// through transaction(fn), no PRAGMA user_version as SQL, LIKE patterns of 50 bytes) and its
// connections enforce them: BEGIN, SAVEPOINT or user_version run as SQL throw, and so does a
// statement bound with more than 100 values. The store must create, fill, query and upgrade
// through it; the file is then read with a plain connection.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Connection, Driver, DriverCapabilities, Statement } from '../src/engine/driver.js';
import { InvalidArgumentError, UnsupportedError } from '../src/errors.js';
import { migrate } from '../src/migrate/migrate.js';
import { openStore } from '../src/store/open.js';
import { checkedStatement, wrappedConnection } from './helpers/checked-connection.js';
import { openDb, testDriver } from './helpers/engine.js';

const dir = mkdtempSync(join(tmpdir(), 'legado-capabilities-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const LIMIT = 100;
const CONTROL = /^\s*(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE)\b/i;

/** What the tight engine refused, and every statement it ran. */
interface Seen {
  refused: string[];
  mostBound: number;
  /** The engine refuses TEMP tables and triggers (capabilities.tempTriggers false), as a Durable Object does. */
  noTemp: boolean;
}

const refuse = (seen: Seen, why: string): never => {
  seen.refused.push(why);
  throw Object.assign(new Error(`refused by the engine: ${why}`), { code: 'SQLITE_AUTH' });
};

function checkSql(seen: Seen, sql: string): void {
  if (CONTROL.test(sql)) refuse(seen, `transaction statement ${sql.trim().split(/\s+/)[0]}`);
  if (/user_version/i.test(sql)) refuse(seen, 'user_version as SQL');
  if (seen.noTemp && /\bCREATE\s+TEMP(ORARY)?\b/i.test(sql)) refuse(seen, 'a TEMP table or trigger');
}

function bound(params: unknown[]): number {
  const flat = params.flat();
  return flat.length === 1 && flat[0] !== null && typeof flat[0] === 'object' && !(flat[0] instanceof Uint8Array) ? Object.keys(flat[0]).length : flat.length;
}

/** A statement that refuses more than LIMIT bound values, as the engine would. */
function tightStatement(seen: Seen, inner: Statement): Statement {
  const check = (params: unknown[]) => {
    const n = bound(params);
    seen.mostBound = Math.max(seen.mostBound, n);
    if (n > LIMIT) refuse(seen, `${n} bound values`);
  };
  return checkedStatement(inner, check);
}

/** The user_version the engine keeps outside SQL (a Durable Object's own storage), by file. */
const versions = new Map<string, number>();

function tightConnection(seen: Seen, path: string, inner: Connection, capabilities: DriverCapabilities): Connection {
  return wrappedConnection(inner, {
    driver: 'tight',
    capabilities,
    prepare: (sql) => (checkSql(seen, sql), tightStatement(seen, inner.prepare(sql))),
    exec: (sql) => {
      for (const part of sql.split(';')) checkSql(seen, part);
      inner.exec(sql);
    },
    pragma(source, options) {
      const m = /^\s*user_version\s*(?:=\s*(\d+))?\s*$/i.exec(source);
      if (!m) return inner.pragma(source, options);
      if (m[1] !== undefined) {
        if (!inner.inTransaction) refuse(seen, 'user_version outside a transaction');
        versions.set(path, Number(m[1]));
        return [];
      }
      // Until the engine has its own record, the file's (written by another engine).
      const v = versions.get(path) ?? (inner.pragma('user_version', { simple: true }) as number);
      return options?.simple ? v : [{ user_version: v }];
    },
  });
}

function tightDriver(claims: Partial<DriverCapabilities> = {}): { driver: Driver; seen: Seen } {
  const seen: Seen = { refused: [], mostBound: 0, noTemp: claims.tempTriggers === false };
  const capabilities: DriverCapabilities = {
    ...testDriver.capabilities,
    maxParameters: LIMIT,
    transactions: 'callback',
    userVersion: false,
    maxLikePatternBytes: 50,
    ...claims,
  };
  const driver: Driver = {
    name: 'tight',
    capabilities,
    files: testDriver.files,
    fileSize: (p) => testDriver.fileSize(p),
    open: (p, o) => tightConnection(seen, p, testDriver.open(p, o), capabilities),
  };
  return { driver, seen };
}

const chapter = (i: number) => ({ bookUrl: 'b', url: `c${i}`, title: `第${i}章`, index: i, isVolume: false, baseUrl: '', isVip: false, isPay: false });
const book = { bookUrl: 'b', origin: 'local', name: '书', author: '作者' };

test('a store is created, filled in batches of at most maxParameters values, and read through a tight engine', () => {
  const { driver, seen } = tightDriver();
  const path = join(dir, 'tight.db');
  const store = openStore(path, { driver, schema: 75 });
  store.tables.books.insert(book);
  assert.equal(store.tables.chapters.insertMany(Array.from({ length: 250 }, (_, i) => chapter(i))), 250);
  // An IN list longer than the engine binds: one JSON array instead of 150 values.
  const wanted = Array.from({ length: 150 }, (_, i) => `c${i * 2}`);
  assert.equal(store.tables.chapters.count({ url: { in: wanted } }), 125);
  assert.deepEqual(
    store.tables.chapters.list({ where: { url: { in: wanted } }, orderBy: 'index', limit: 3 }).map((c) => c.url),
    ['c0', 'c2', 'c4'],
  );
  assert.equal(store.tables.chapters.count({ url: { notIn: wanted } }), 125);
  // A LIKE pattern longer than the engine takes is written another way (table/like.ts) or, of
  // a shape with no other way, refused by name before the engine sees it.
  assert.equal(store.tables.chapters.count({ title: { like: `%${'章'.repeat(20)}%` } }), 0);
  assert.throws(
    () => store.tables.chapters.list({ where: { title: { like: `%${'章'.repeat(10)}%${'章'.repeat(10)}%` } } }),
    (e: unknown) => e instanceof InvalidArgumentError && /like.*63 bytes.*\(50\)/.test(e.message),
  );
  store.close();
  assert.deepEqual(seen.refused, []);
  assert.ok(seen.mostBound > 0 && seen.mostBound <= LIMIT, `most values bound in one statement: ${seen.mostBound}`);
  assert.equal(versions.get(path), 75);

  // The file itself: the rows are there; user_version was never written as SQL.
  const db = openDb(path, { readonly: true });
  assert.equal(db.prepare('SELECT count(*) FROM chapters').pluck().get(), 250);
  assert.equal(db.prepare("SELECT count(*) FROM chapters WHERE url IN ('c0', 'c2', 'c298')").pluck().get(), 2);
  assert.equal(db.pragma('user_version', { simple: true }), 0);
  db.close();

  // Reopened on the tight engine, it is the store it made (its version from the engine's record).
  const again = openStore(path, { driver });
  assert.equal(again.version, 75);
  assert.equal(again.tables.chapters.count(), 250);
  again.close();
  assert.deepEqual(seen.refused, []);
});

test('an upgrade runs in the connection’s own transaction, never BEGIN as SQL', () => {
  const path = join(dir, 'old.db');
  openStore(path, { schema: 62 }).close(); // written by the suite's engine, user_version 62
  const { driver, seen } = tightDriver();
  const result = migrate(path, { to: 75, driver });
  assert.equal(result.status, 'upgraded');
  assert.deepEqual(seen.refused, []);
  assert.equal(versions.get(path), 75);
  const db = openDb(path, { readonly: true });
  const hash = db.prepare('SELECT identity_hash FROM room_master_table WHERE id = 42').pluck().get();
  db.close();
  const store = openStore(path, { driver });
  assert.equal(store.version, 75);
  assert.equal(hash, store.schema.identityHash);
  store.close();
});

test('the engine really refuses: a driver that claims SQLite’s limits fails on the same work', () => {
  const { driver, seen } = tightDriver({ maxParameters: 32766, maxLikePatternBytes: 50000 });
  const store = openStore(join(dir, 'claims.db'), { driver, schema: 75 });
  store.tables.books.insert(book);
  assert.throws(() => store.tables.chapters.insertMany(Array.from({ length: 250 }, (_, i) => chapter(i))), /refused by the engine: \d+ bound values/);
  assert.throws(() => store.tables.chapters.count({ url: { in: Array.from({ length: 150 }, (_, i) => `c${i}`) } }), /refused by the engine: \d+ bound values/);
  store.close();
  assert.ok(seen.refused.length >= 2);
  // And BEGIN as SQL is refused by it too.
  const conn = driver.open(join(dir, 'claims.db'));
  assert.throws(() => conn.exec('BEGIN IMMEDIATE'), /transaction statement BEGIN/);
  assert.throws(() => conn.prepare('PRAGMA user_version = 3'), /user_version as SQL/);
  conn.close();
});

test('an engine without TEMP triggers: onChange is an UnsupportedError before anything is created; with them, listeners run', () => {
  const { driver, seen } = tightDriver({ tempTriggers: false });
  const store = openStore(join(dir, 'no-temp.db'), { driver, schema: 75 });
  assert.throws(
    () => store.onChange('books', () => {}),
    (e: unknown) =>
      e instanceof UnsupportedError &&
      e.code === 'UNSUPPORTED' &&
      e.driver === 'tight' &&
      e.message === "store.onChange is not available on the tight engine: change listeners are TEMP triggers (as Room's are), which this engine refuses",
  );
  store.tables.books.insert(book);
  assert.deepEqual(seen.refused, [], 'no TEMP table or trigger was tried');
  store.close();
  assert.equal(openDb(join(dir, 'no-temp.db')).prepare('SELECT count(*) FROM books').pluck().get(), 1);

  // The suite's engine says nothing of TEMP triggers (left out: true): listeners run.
  assert.equal(testDriver.capabilities.tempTriggers, undefined);
  const other = openStore(join(dir, 'temp.db'), { driver: testDriver, schema: 75 });
  const reports: string[][] = [];
  other.onChange('books', (changed) => reports.push([...changed]));
  other.tables.books.insert(book);
  assert.deepEqual(reports, [['books']]);
  other.close();
});
