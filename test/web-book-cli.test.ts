// The web-book commands' arguments and the answers they give before anything is fetched:
// usage errors, unknown sources and books, a book already on the shelf, a chapter the cache
// beside the store already holds. Nothing here reaches a network.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from './helpers/cli.js';
import { openDb } from './helpers/engine.js';
import { snapshot, tempDir } from './helpers/files.js';

const dir = tempDir();
const md5_16 = (s: string): string => createHash('md5').update(Buffer.from(s, 'utf8')).digest('hex').slice(8, 24);
let n = 0;

/** A store with one source, and a web book with two chapters on the shelf. */
async function store(): Promise<string> {
  const db = join(dir, `s${n++}.db`);
  assert.equal((await cli('init', db)).code, 0);
  const raw = openDb(db);
  raw
    .prepare(
      "INSERT INTO book_sources (bookSourceUrl, bookSourceName, bookSourceType, customOrder, enabled, enabledExplore, lastUpdateTime, respondTime, weight, searchUrl) VALUES ('https://src.example', '源', 0, 0, 1, 1, 0, 0, 0, '/s?k={{key}}')",
    )
    .run();
  raw
    .prepare(
      "INSERT INTO books (bookUrl, tocUrl, origin, originName, name, author, type) VALUES ('https://src.example/b/1', 'https://src.example/b/1/toc', 'https://src.example', '源', '网书', '某', 8)",
    )
    .run();
  for (const i of [0, 1])
    raw
      .prepare('INSERT INTO chapters (url, title, isVolume, baseUrl, bookUrl, `index`, isVip, isPay) VALUES (?, ?, 0, ?, ?, ?, 0, 0)')
      .run(`https://src.example/b/1/${i}`, `第${i + 1}章`, 'https://src.example/b/1/toc', 'https://src.example/b/1', i);
  raw.close();
  return db;
}

test('search: usage errors and unknown sources, the store untouched', async () => {
  const db = await store();
  const before = snapshot(db);
  let r = await cli('search', db, ' ');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /<keyword> must not be empty/);
  r = await cli('search', db, '三体', '--concurrency', '0');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--concurrency must be a positive whole number/);
  r = await cli('search', db, '三体', '--source', 'https://nowhere.example', '--json');
  assert.equal(r.code, 1);
  assert.equal((JSON.parse(r.stdout) as { error: { code: string } }).error.code, 'UNKNOWN_SOURCE');
  assert.deepEqual(snapshot(db), before);
});

test('book add: a web URL alone, a bookUrl no search found needs --source, a book on the shelf needs --force', async () => {
  const db = await store();
  const before = snapshot(db);
  let r = await cli('book', 'add', db, 'https://src.example/b/2', join(dir, 'x.txt'));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /a web book is added alone/);
  r = await cli('book', 'add', db, join(dir, 'x.txt'), '--source', 'https://src.example');
  assert.equal(r.code, 2);
  r = await cli('book', 'add', db, 'https://src.example/b/2', '--json');
  assert.equal(r.code, 1);
  const e = (JSON.parse(r.stdout) as { error: { code: string; message: string } }).error;
  assert.equal(e.code, 'UNKNOWN_BOOK');
  assert.match(e.message, /--source/);
  r = await cli('book', 'add', db, 'https://src.example/b/1', '--source', 'https://src.example');
  assert.equal(r.code, 1);
  assert.match(r.stderr, /BOOK_EXISTS: "https:\/\/src\.example\/b\/1" \(网书, 某\) is on the shelf: --force/);
  r = await cli('book', 'add', db, 'https://src.example/b/3', '--source', 'https://other.example');
  assert.equal(r.code, 1);
  assert.match(r.stderr, /UNKNOWN_SOURCE/);
  assert.deepEqual(snapshot(db), before);
});

test('book read: a web chapter the cache beside the store holds is read from it, replace rules applied; a missing chapter is UNKNOWN_BOOK', async () => {
  const db = await store();
  const folder = join(`${db}.cache`, 'book_cache', `网书${md5_16('https://src.example/b/1')}`);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `00001-${md5_16('第2章')}.nb`), '　　缓存的正文');
  let r = await cli('book', 'read', db, '网书', '1', '--json');
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    bookUrl: 'https://src.example/b/1',
    name: '网书',
    index: 1,
    title: '第2章',
    text: '　　缓存的正文',
    cached: true,
    notes: [],
  });
  // The book's replace rules apply to what is shown (ContentProcessor), not to what is kept.
  const raw = openDb(db);
  raw
    .prepare(
      "INSERT INTO replace_rules (id, name, pattern, replacement, scope, scopeTitle, scopeContent, isEnabled, isRegex, timeoutMillisecond, sortOrder) VALUES (1, 'r', '缓存(的)', '换$1', NULL, 0, 1, 1, 1, 3000, 0), (2, 't', '第2章', '第二章', '网书', 1, 0, 1, 0, 3000, 1)",
    )
    .run();
  raw.close();
  r = await cli('book', 'read', db, 'https://src.example/b/1', '1');
  assert.equal(r.stdout, '第二章\n　　换的正文\n');
  assert.equal(readFileSync(join(folder, `00001-${md5_16('第2章')}.nb`), 'utf8'), '　　缓存的正文');
  r = await cli('book', 'read', db, '网书', '7');
  assert.equal(r.code, 1);
  assert.match(r.stderr, /UNKNOWN_BOOK: "网书" has no chapter 7 \(chapters are 0 to 1\)/);
});
