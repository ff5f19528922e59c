// A LIKE pattern longer than the engine takes (a Durable Object: 50 bytes) is written another way
// with LIKE's meaning (src/table/like.ts). The truth is SQLite's own LIKE on the same rows, run
// on a plain connection of the suite's engine, which takes the long pattern; the rewritten term
// runs on a connection that refuses any `LIKE ?` pattern past the limit, as the engine would.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError } from '../src/errors.js';
import { openStore } from '../src/store/open.js';
import { likeTerm } from '../src/table/like.js';
import { openDb } from './helpers/engine.js';
import { source } from './helpers/builders.js';
import { likeLimited } from './helpers/like-limit.js';

const dir = mkdtempSync(join(tmpdir(), 'legado-like-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const LONG = 'Ab%_\\書'.repeat(20); // 120 characters, 200 bytes
const TEXTS: (string | number | null)[] = [
  'abc',
  'ABC',
  'xAbCx',
  'ab',
  'a',
  '',
  null,
  123,
  1234,
  'Ä',
  'ä',
  'Äpfel',
  'äpfel',
  'ÄPFEL',
  '中文书名',
  '书名中文',
  '中文',
  '%',
  '_',
  '\\',
  'a%b',
  'a_b',
  'axb',
  'a\\b',
  'Ab_\\書'.repeat(8) + 'xyz',
  'AB!\\書'.repeat(8) + 'X',
  'a\nb',
  'x,g,y',
  'g',
  'g,h',
  'h,g',
  'G,H',
  'v_https://a_b.example/x_y_k',
  'vXhttps://aYb.example/xZyWk',
  'v_https://a_b.example/x_y',
  'V_HTTPS://A_B.EXAMPLE/X_Y_',
  LONG,
  LONG.toLowerCase(),
  LONG.toUpperCase(),
  `x${LONG}y`,
  `${LONG}y`,
  `x${LONG}`,
  LONG.slice(1),
  '😀a😀',
];

/** LIKE's escape of a text: `%`, `_` and `\` match themselves. */
const esc = (t: string): string => t.replace(/[\\%_]/g, (c) => `\\${c}`);

// Patterns with ESCAPE '\' (as the domain writes them) and without (as the app and list() do).
const ESCAPED = [
  ...['abc', 'Ä', 'ä', '中文', '%', '_', '\\', 'a%b', 'a_b', ',g,', 'g,', ',g', LONG, LONG.slice(7, 90), '😀', ''].flatMap((t) => [
    `%${esc(t)}%`,
    `${esc(t)}%`,
    `%${esc(t)}`,
    esc(t),
  ]),
  `${esc(LONG.slice(0, 30))}_${esc(LONG.slice(31))}%`,
];
const PLAIN = [
  'v_https://a_b.example/x_y_%',
  '%bc',
  '%_bc',
  'a_c',
  'A_B',
  '__%',
  '%__%',
  '%',
  '',
  '%%abc%%',
  `v_${'x'.repeat(60)}_%`,
  `${'Ab_\\書'.repeat(8)}_%`,
  `%_${'書'.repeat(30)}`,
];

interface Case {
  readonly pattern: string;
  readonly escape?: string;
}
const CASES: Case[] = [...ESCAPED.map((pattern) => ({ pattern, escape: '\\' })), ...PLAIN.map((pattern) => ({ pattern }))];

const LIMITS = [4, 5, 8, 13, 50];

function fill(path: string): void {
  const db = openDb(path);
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v)');
  const insert = db.prepare('INSERT INTO t (id, v) VALUES (?, ?)');
  TEXTS.forEach((v, i) => insert.run(i + 1, v));
  db.close();
}

test('each shape gives exactly the rows and values LIKE gives, within every limit', () => {
  const path = join(dir, 'shapes.db');
  fill(path);
  const truth = openDb(path);
  const connections = LIMITS.map((n) => ({ n, db: likeLimited(n).open(path) }));
  let rewritten = 0;
  for (const c of CASES) {
    const clause = c.escape === undefined ? '' : ` ESCAPE '${c.escape}'`;
    // The whole answer, NULL included: LIKE's 1, 0 or NULL for every row.
    const want = truth.prepare(`SELECT id, v LIKE ?${clause} AS m FROM t ORDER BY id`).raw().all(c.pattern);
    for (const { n, db } of connections) {
      const term = likeTerm('v', c.pattern, { escape: c.escape, maxBytes: n, name: 't.v like' });
      if (!term.sql.startsWith('v LIKE')) rewritten++;
      const got = db
        .prepare(`SELECT id, (${term.sql}) AS m FROM t ORDER BY id`)
        .raw()
        .all(...term.params);
      assert.deepEqual(got, want, `${JSON.stringify(c.pattern)} at ${n} bytes: ${term.sql}`);
    }
  }
  assert.ok(rewritten > CASES.length, `rewritten terms: ${rewritten}`);
  for (const { db } of connections) db.close();
  truth.close();
});

test('a pattern of another shape past the limit is refused, naming what and the limit', () => {
  for (const pattern of [`%${'a'.repeat(60)}_b%`, `a%${'b'.repeat(60)}`, `${'a'.repeat(60)}%b%`, `${'a'.repeat(60)}\\`]) {
    assert.throws(
      () => likeTerm('v', pattern, { escape: '\\', maxBytes: 50, name: 'books.name like' }),
      (e: unknown) =>
        e instanceof InvalidArgumentError &&
        e.code === 'INVALID_ARGUMENT' &&
        /^books\.name like: a pattern of \d+ bytes, longer than the engine takes \(50\)/.test(e.message),
    );
  }
  // Within the limit any pattern is LIKE itself.
  assert.deepEqual(likeTerm('v', 'a%b_c', { maxBytes: 50, name: 'x' }), { sql: 'v LIKE ?', params: ['a%b_c'] });
});

test('list() filters with a long LIKE pattern on an engine that takes 50 bytes', () => {
  const store = openStore(join(dir, 'list.db'), { driver: likeLimited(50), schema: 75 });
  const names = ['短', `${'长'.repeat(40)}书`, `前${'长'.repeat(40)}书`, `${'長'.repeat(40)}书`];
  names.forEach((name, i) => store.tables.books.insert({ bookUrl: `b${i}`, origin: 'local', name, author: 'A' }));
  const by = (like: string): string[] => store.tables.books.list({ where: { name: { like } }, orderBy: 'bookUrl' }).map((b) => b.bookUrl);
  assert.deepEqual(by(`%${'长'.repeat(40)}%`), ['b1', 'b2']);
  assert.deepEqual(by(`${'长'.repeat(40)}%`), ['b1']);
  assert.deepEqual(by(`%${'长'.repeat(39)}_书`), ['b1', 'b2']);
  assert.throws(() => by(`%${'长'.repeat(20)}%书%`), /books\.name like: a pattern of 66 bytes, longer than the engine takes \(50\)/);
  store.close();
});

// The domain's searches on an engine that takes 50 bytes, rows spelled out by hand.
test('domain searches, group matches and deleteSourceVariables with long texts on a 50-byte engine', () => {
  const store = openStore(join(dir, 'domain.db'), { driver: likeLimited(50), schema: 62 });
  const key = `${'Ab%_\\'.repeat(10)}${'Ä书'.repeat(25)}`; // 100 characters, `%`, `_` and `\` meant literally
  const lower = key.replace(/[A-Z]/g, (c) => c.toLowerCase());
  // b0 contains it; b1 is it in ASCII lower case; b2 and b3 miss a character; b4 has ä for Ä
  // (LIKE folds ASCII only); b5 matches by its author.
  const books = [`前${key}后`, lower, key.slice(1), `${key.slice(0, 50)}x${key.slice(51)}`, key.toLowerCase(), '书'];
  books.forEach((name, i) => store.tables.books.insert({ bookUrl: `b${i}`, origin: 'local', name, author: i === 5 ? `作者${key.toUpperCase()}` : 'A' }));
  assert.deepEqual(
    store.books
      .search(key)
      .map((b) => b.bookUrl)
      .sort(),
    ['b0', 'b1', 'b5'],
  );

  store.tables.chapters.insertMany(
    books.map((title, i) => ({ bookUrl: 'b0', url: `c${i}`, title, index: i, isVolume: false, baseUrl: '', isVip: false, isPay: false })),
  );
  assert.deepEqual(
    store.chapters.search('b0', key).map((c) => c.url),
    ['c0', 'c1'],
  );

  for (const [i, word] of [key, `${key}尾`, `头${key}`, lower.toUpperCase()].entries())
    store.tables.search_keywords.insert({ word, usage: 10 - i, lastUseTime: 0 });
  for (const [i, word] of [`${key.slice(0, -1)}a`, key.toLowerCase()].entries()) store.tables.search_keywords.insert({ word, usage: 5 - i, lastUseTime: 0 });
  const upper = lower.toUpperCase(); // ASCII upper case: Ä stays
  assert.deepEqual(
    store.searchKeywords.search(key, { prefix: true }).map((k) => k.word),
    [key, `${key}尾`, upper],
  );
  assert.deepEqual(
    store.searchKeywords.search(key).map((k) => k.word),
    [key, `${key}尾`, `头${key}`, upper],
  );

  const group = `分组${'g_%'.repeat(20)}`;
  const groups = [group, `${group},x`, `x,${group}`, `x,${group},y`, `x${group}`, `${group}x,y`, `X,${group.toUpperCase()}`];
  groups.forEach((g, i) => store.tables.book_sources.insert(source(`s${i}`, { bookSourceGroup: g, customOrder: i, respondTime: 0 })));
  // s6: LIKE folds ASCII case, as the app's query does.
  assert.deepEqual(
    store.bookSources.byGroup(group).map((s) => s.bookSourceUrl),
    ['s0', 's1', 's2', 's3', 's6'],
  );
  assert.deepEqual(
    store.bookSources.search(`${'g_%'.repeat(20)},y`).map((s) => s.bookSourceUrl),
    ['s3'],
  );

  // The app's own pattern, `_` matching any character: v_<url>_% for a 200-character URL.
  const url = `https://Source_${'a'.repeat(173)}.example/x_y`;
  assert.equal(url.length, 200);
  const keys = [
    `v_${url}_k`, // its variable
    `vX${url}Yk`, // `_` matches any character
    `V_${url.toUpperCase()}_`, // ASCII case folded, nothing after the last `_` needed
    `v_${url}`, // too short: the last `_` needs a character
    `v_${url.replace('Source_', 'Source')}_k`, // one character short in the middle
    `userInfo_${url}`,
    `loginHeader_${url}`,
    `sourceVariable_${url}`,
    `userInfo_${url}x`,
    'v_other_k',
  ];
  for (const k of keys) store.cache.put(k, 'v');
  assert.equal(store.cache.deleteSourceVariables(url), 6);
  assert.deepEqual(
    store.tables.caches.list({ orderBy: 'key' }).map((c) => c.key),
    [`userInfo_${url}x`, `v_${url}`, `v_${url.replace('Source_', 'Source')}_k`, 'v_other_k'].sort(),
  );
  // A `%` in the URL is a wildcard of the app's pattern too; past the limit it is matched in JS.
  const pct = `https://x.example/${'b'.repeat(40)}%E4_`;
  for (const k of [`v_${pct}_k`, `v_https://x.example/${'b'.repeat(40)}ANYTHINGE4x_k`, `v_${pct}`]) store.cache.put(k, 'v');
  assert.equal(store.cache.deleteSourceVariables(pct), 2);
  assert.equal(store.cache.get(`v_${pct}`), 'v');
  store.close();
});
