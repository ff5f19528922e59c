// The book commands as a user runs them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from './helpers/cli.js';
import { tempDir } from './helpers/files.js';
import { openDb } from './helpers/engine.js';

const dir = tempDir();

test('book add, toc and read, with --json; typed errors store nothing', async () => {
  const db = join(dir, 'a.db');
  assert.equal((await cli('init', db)).code, 0);
  const raw = openDb(db);
  raw.prepare("INSERT INTO txtTocRules (id, name, rule, serialNumber, enable) VALUES (-1, '目录', '^第\\d+章.{0,20}$', 1, 1)").run();
  raw.close();
  const src = join(dir, 'in');
  mkdirSync(src);
  writeFileSync(join(src, '小说 作者：甲.txt'), '序\n第1章 始\n一\n第2章 终\n二\n');
  let r = await cli('book', 'add', db, join(src, '小说 作者：甲.txt'), '--json');
  assert.equal(r.code, 0, r.stderr);
  const [added] = JSON.parse(r.stdout) as { bookUrl: string; name: string; author: string; chapters: number }[];
  assert.deepEqual([added!.name, added!.author, added!.chapters], ['小说', '甲', 3]);
  assert.equal(added!.bookUrl, join(dir, 'books', '小说 作者：甲.txt'));
  r = await cli('book', 'toc', db, '小说', '--json');
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(
    (JSON.parse(r.stdout) as { chapters: { title: string; start: number; end: number }[] }).chapters.map((c) => [c.title, c.start, c.end]),
    [
      ['前言', 0, 4],
      ['第1章 始', 4, 20],
      ['第2章 终', 20, 36],
    ],
  );
  r = await cli('book', 'read', db, '小说', '2');
  assert.equal(r.stdout, '第2章 终\n二\n');
  r = await cli('book', 'read', db, added!.bookUrl, '1', '--json');
  assert.equal((JSON.parse(r.stdout) as { text: string }).text, '第1章 始\n一\n');
  // Raw SQL sees the rows the app reads.
  const check = openDb(db, { readonly: true });
  assert.deepEqual(check.prepare('SELECT origin, type, tocUrl, totalChapterNum FROM books').get(), {
    origin: 'loc_book',
    type: 264,
    tocUrl: '^第\\d+章.{0,20}$',
    totalChapterNum: 3,
  });
  check.close();
  // Bad files: exit 1, a typed error, nothing stored.
  writeFileSync(join(src, 'empty.txt'), '');
  writeFileSync(join(src, 'pic.txt'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
  writeFileSync(join(src, 'x.doc'), 'text');
  for (const [f, problem] of [
    ['empty.txt', 'empty'],
    ['pic.txt', 'binary'],
    ['x.doc', 'extension'],
  ] as const) {
    r = await cli('book', 'add', db, join(src, f), '--json');
    assert.equal(r.code, 1, f);
    const [e] = JSON.parse(r.stdout) as { ok: boolean; error: { code: string; problem: string } }[];
    assert.deepEqual([e!.ok, e!.error.code, e!.error.problem], [false, 'BAD_BOOK_FILE', problem]);
    assert.ok(!existsSync(join(dir, 'books', f)));
  }
  r = await cli('book', 'read', db, 'nothing', '0');
  assert.equal(r.code, 1);
  assert.match(r.stderr, /UNKNOWN_BOOK/);
  assert.equal((await cli('book', 'read', db, '小说', 'x')).code, 2);
  const after = openDb(db, { readonly: true });
  assert.equal((after.prepare('SELECT count(*) AS n FROM books').get() as { n: number }).n, 1);
  after.close();
});
