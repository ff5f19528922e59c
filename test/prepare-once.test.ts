// Paths a program calls in a loop prepare no statement per call: counts(), paging with a new
// offset each call, `in` / `notIn` lists of changing lengths (bucketed). Prepares are counted at
// the engine seam: a Driver whose connections' `prepare` records the SQL it is given (the
// documented place where the store meets SQLite), and results are checked against raw SQL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { openStore } from 'legado-store';
import { inListLength } from '../src/table/query.js';
import { openDb, recording } from './helpers/engine.js';

function withStore(fn: (store: ReturnType<typeof openStore>, prepared: string[], path: string) => void): void {
  const dir = mkdtempSync(join(os.tmpdir(), 'prepare-once-'));
  try {
    const { driver, calls: prepared } = recording('prepare');
    const path = join(dir, 'legado.db');
    const store = openStore(path, { driver });
    try {
      fn(store, prepared, path);
    } finally {
      store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const words = Array.from({ length: 300 }, (_, i) => `w${String(i).padStart(3, '0')}`);

test('counts() prepares its statements once, and counts what raw SQL counts', () => {
  withStore((store, prepared, path) => {
    store.tables.search_keywords.insertMany(words.map((word) => ({ word, usage: 1, lastUseTime: 0 })));
    const first = store.counts();
    const before = prepared.length;
    for (let i = 0; i < 5; i++) assert.deepEqual(store.counts(), first);
    assert.deepEqual(prepared.slice(before), [], 'no prepare after the first call');
    const raw = openDb(path, { readonly: true });
    try {
      assert.equal(first['search_keywords'], 300);
      assert.equal(first['books'], raw.prepare('SELECT count(*) FROM books').pluck().get());
      const tables = raw
        .prepare(
          "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN ('android_metadata', 'room_master_table')",
        )
        .pluck()
        .get();
      assert.equal(Object.keys(first).length, tables);
    } finally {
      raw.close();
    }
  });
});

test('paging with a new offset every call prepares one statement per page size', () => {
  withStore((store, prepared, path) => {
    store.tables.search_keywords.insertMany(words.map((word) => ({ word, usage: 1, lastUseTime: 0 })));
    store.tables.search_keywords.list({ orderBy: 'word', limit: 7, offset: 0 });
    const before = prepared.length;
    const raw = openDb(path, { readonly: true });
    try {
      for (let offset = 0; offset < 300; offset += 7) {
        const page = store.tables.search_keywords.list({ orderBy: 'word', limit: 7, offset }).map((r) => r.word);
        // The page as SQLite gives it with the values written into the SQL.
        assert.deepEqual(page, raw.prepare(`SELECT word FROM search_keywords ORDER BY word LIMIT 7 OFFSET ${offset}`).pluck().all());
      }
    } finally {
      raw.close();
    }
    assert.deepEqual(prepared.slice(before), [], 'no prepare for a new offset');
  });
});

test('in / notIn lists of every length from 9 to 16 share one statement, and select what raw SQL does', () => {
  withStore((store, prepared, path) => {
    store.tables.search_keywords.insertMany(words.map((word) => ({ word, usage: 1, lastUseTime: 0 })));
    const raw = openDb(path, { readonly: true });
    try {
      const run = (n: number) => {
        const some = words.slice(10, 10 + n);
        const rawIn = raw.prepare(`SELECT word FROM search_keywords WHERE word IN (${some.map(() => '?').join(', ')}) ORDER BY word`).pluck();
        assert.deepEqual(
          store.tables.search_keywords.list({ where: { word: { in: some } }, orderBy: 'word' }).map((r) => r.word),
          rawIn.all(...some),
        );
        assert.equal(store.tables.search_keywords.count({ word: { in: some } }), n);
        assert.equal(store.tables.search_keywords.count({ word: { notIn: some } }), 300 - n);
      };
      run(9);
      const before = prepared.length;
      for (let n = 10; n <= 16; n++) run(n);
      assert.deepEqual(prepared.slice(before), [], 'lengths 10..16 use the statements of length 9');
      // 17 is the next bucket: its statements once, then none for 18..32.
      run(17);
      const after17 = prepared.length;
      assert.ok(after17 > before);
      for (let n = 18; n <= 32; n++) run(n);
      assert.equal(prepared.length, after17);
    } finally {
      raw.close();
    }
  });
});

test('in-list buckets: exact up to 8, then powers of two, never past the variable limit', () => {
  assert.deepEqual([1, 2, 8, 9, 16, 17, 1000, 16_384].map(inListLength), [1, 2, 8, 16, 16, 32, 1024, 16_384]);
  assert.equal(inListLength(16_385), 16_385);
  assert.equal(inListLength(32_766), 32_766);
});

/** The multi-row INSERTs (several VALUES tuples) among the statements prepared for `table`. */
const multiRow = (prepared: readonly string[], table: string): string[] =>
  prepared.filter((sql) => sql.startsWith(`INSERT INTO \`${table}\``) && sql.includes('), ('));

test('a bulk write whose shared columns change after its first batch prepares one multi-row statement, and writes every value', () => {
  withStore((store, prepared, path) => {
    // bookSourceGroup changes at row 40 and bookSourceType at row 300: after the first batch
    // (34 sources a statement). Guessed from that batch alone, each change made a statement.
    const sources = Array.from({ length: 600 }, (_, i) => ({
      bookSourceUrl: `https://s${i}.example`,
      bookSourceName: `s${i}`,
      bookSourceGroup: i < 40 ? 'early' : 'late',
      bookSourceType: i < 300 ? 0 : 1,
      customOrder: 0,
      enabled: true,
      enabledExplore: true,
      enabledCookieJar: false,
      lastUpdateTime: 0,
      respondTime: 180000,
      weight: 0,
      header: null,
      ruleSearch: '{"bookList":"class.list"}',
    }));
    const before = prepared.length;
    assert.equal(store.tables.book_sources.upsertMany(sources), 600);
    assert.equal(multiRow(prepared.slice(before), 'book_sources').length, 1, 'one multi-row upsert');
    const again = prepared.length;
    assert.equal(store.tables.book_sources.upsertMany(sources.map((s) => ({ ...s, bookSourceName: `${s.bookSourceName}!` }))), 600);
    assert.deepEqual(multiRow(prepared.slice(again), 'book_sources'), [], 'the same statement again');

    const chapters = Array.from({ length: 1000 }, (_, i) => ({
      url: `c${i}`,
      title: `t${i}`,
      bookUrl: 'b',
      index: i,
      isVolume: false,
      baseUrl: 'b',
      tag: i < 100 ? null : 'x',
      isVip: i >= 500,
      isPay: false,
    }));
    store.tables.books.insert({ bookUrl: 'b', name: 'n', author: 'a', origin: 'o' });
    const beforeChapters = prepared.length;
    assert.equal(store.tables.chapters.insertMany(chapters), 1000);
    assert.equal(multiRow(prepared.slice(beforeChapters), 'chapters').length, 1, 'one multi-row insert');

    const raw = openDb(path, { readonly: true });
    try {
      const count = (sql: string) => raw.prepare(sql).pluck().get();
      assert.equal(count("SELECT count(*) FROM book_sources WHERE bookSourceGroup = 'early' AND CAST(substr(bookSourceName, 2) AS INTEGER) < 40"), 40);
      assert.equal(count("SELECT count(*) FROM book_sources WHERE bookSourceGroup = 'late'"), 560);
      assert.equal(count('SELECT count(*) FROM book_sources WHERE bookSourceType = 1 AND CAST(substr(bookSourceUrl, 10) AS INTEGER) >= 300'), 300);
      assert.equal(count('SELECT count(*) FROM book_sources WHERE bookSourceName LIKE \'%!\' AND ruleSearch = \'{"bookList":"class.list"}\''), 600);
      assert.equal(count('SELECT count(*) FROM chapters WHERE tag IS NULL AND `index` < 100'), 100);
      assert.equal(count("SELECT count(*) FROM chapters WHERE tag = 'x' AND `index` >= 100"), 900);
      assert.equal(count('SELECT count(*) FROM chapters WHERE isVip = 1 AND `index` >= 500'), 500);
    } finally {
      raw.close();
    }
  });
});
