// No user rule holds a command or the server: a TOC rule and a replace rule that backtrack
// catastrophically (`(a|aa)+`: overlapping alternation, which the pattern check lets through)
// are stopped inside their one match at their time limit, named in a typed error, through the
// CLI (`book add`, `book read`) and through `serve` (/api/import, /addLocalBook,
// /getBookContent, /testReplaceRule) while another client reads the shelf.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from './helpers/cli.js';
import { tempDir } from './helpers/files.js';
import { openDb } from './helpers/engine.js';
import { served, type Served } from './helpers/serve.js';
import { openStore, addLocalBook } from 'legado-store';
import { BookFileError } from 'legado-store/errors';

const dir = tempDir();
const RUNAWAY_TOC = '^(a|aa)+$';
const RUNAWAY_REPLACE = '(a|aa)+c';
// A line of 60 a's and a b: 2^40-odd ways to fail `^(a|aa)+$`, so one match never ends on its own.
const runawayLine = `${'a'.repeat(60)}b`;
const TXT = `第1章 始\n${'山'.repeat(1200)}\n${runawayLine}\n第2章 终\n${'a'.repeat(60)}\n`;
const LIMIT = 400;

test('CLI: book add with a runaway TOC rule and book read with a runaway replace rule end at their limits with RULE_TIMEOUT', {
  timeout: 120_000,
}, async () => {
  const db = join(dir, 'cli.db');
  assert.equal((await cli('init', db)).code, 0);
  // The runaway TOC rule comes in a rule file, as a user imports one.
  const rules = join(dir, 'txtTocRule.json');
  writeFileSync(rules, JSON.stringify([{ id: 7, name: '失控', rule: RUNAWAY_TOC, serialNumber: 1, enable: true, example: '' }]));
  const imported = await cli('import', db, rules);
  assert.equal(imported.code, 0, imported.stderr);
  const file = join(dir, '书 作者：某.txt');
  writeFileSync(file, TXT);
  let began = Date.now();
  let r = await cli('book', 'add', db, file, '--time-limit', String(LIMIT));
  const addMs = Date.now() - began;
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /RULE_TIMEOUT/);
  assert.ok(r.stderr.includes('TOC rule "失控" (id 7)') && r.stderr.includes(JSON.stringify(RUNAWAY_TOC)) && r.stderr.includes(`${LIMIT} ms`), r.stderr);
  assert.ok(addMs < 10 * LIMIT + 5000, `book add ended after ${addMs} ms`);
  const check = openDb(db);
  assert.equal((check.prepare('SELECT count(*) AS n FROM books').get() as { n: number }).n, 0, 'nothing stored');

  // The rule disabled, the book goes in (cut without a rule); then a replace rule that runs away.
  check.prepare('UPDATE txtTocRules SET enable = 0').run();
  check.close();
  r = await cli('book', 'add', db, file);
  assert.equal(r.code, 0, r.stderr);
  const raw = openDb(db);
  raw
    .prepare(
      'INSERT INTO replace_rules (id, name, pattern, replacement, isRegex, isEnabled, scopeContent, scopeTitle, sortOrder, timeoutMillisecond) VALUES (9, ?, ?, ?, 1, 1, 1, 0, 0, ?)',
    )
    .run('回溯', RUNAWAY_REPLACE, 'x', 300);
  raw.close();
  began = Date.now();
  r = await cli('book', 'read', db, '书', '0');
  const readMs = Date.now() - began;
  assert.notEqual(r.code, 0);
  assert.ok(r.stderr.includes('replace rule "回溯" (id 9)') && r.stderr.includes(JSON.stringify(RUNAWAY_REPLACE)) && r.stderr.includes('300 ms'), r.stderr);
  assert.ok(readMs < 10 * 300 + 5000, `book read ended after ${readMs} ms`);
  // The host's limit bounds a rule's own: --time-limit below its timeoutMillisecond.
  r = await cli('book', 'read', db, '书', '0', '--time-limit', '200');
  assert.ok(r.stderr.includes('limit of 200 ms'), r.stderr);
});

test('a failure on the rule thread keeps its class and fields (a binary file, split there because a TOC rule is enabled)', () => {
  const store = openStore(join(dir, 'api.db'));
  store.tables.txtTocRules.insert({ id: -1, name: '目录', rule: '^第\\d+章', serialNumber: 1, enable: true });
  assert.throws(
    () => addLocalBook(store, { fileName: 'bin.txt', bytes: new Uint8Array([0, 1, 2, 0, 0, 0, 3, 4]) }),
    (e: unknown) => e instanceof BookFileError && e.code === 'BAD_BOOK_FILE' && e.problem === 'binary' && e.fileName === 'bin.txt',
  );
  assert.equal(store.tables.books.count(), 0);
  store.close();
});

/** Reads the shelf one request after another until `done` settles (at most 400 reads); the latencies. */
async function readShelfUntil(s: Served, done: Promise<unknown>): Promise<number[]> {
  let over = false;
  void done.finally(() => (over = true));
  const times: number[] = [];
  while (!over && times.length < 400) {
    const t = performance.now();
    const a = await s.get('/getBookshelf');
    times.push(performance.now() - t);
    assert.equal(a.status, 200);
  }
  return times;
}

const p99 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))]!;

async function upload(s: Served, fileName: string, text: string): Promise<{ isSuccess: boolean; errorMsg: string }> {
  const form = new FormData();
  form.append('fileData', new Blob([new TextEncoder().encode(text)]), fileName);
  const res = await fetch(`${s.server.url}addLocalBook?fileName=${encodeURIComponent(fileName)}`, { method: 'POST', body: form });
  return (await res.json()) as { isSuccess: boolean; errorMsg: string };
}

test('serve: runaway TOC and replace rules answer envelope errors at their limit while another client reads the shelf (p99 < 1 s)', {
  timeout: 120_000,
}, async () => {
  const s = await served({ ruleTimeLimitMs: LIMIT });
  // A book on the shelf for the other client, then the runaway rules through the import endpoint.
  assert.equal((await upload(s, '架上 作者：甲.txt', TXT)).isSuccess, true);
  const tocRules = JSON.stringify([{ id: 11, name: '失控', rule: RUNAWAY_TOC, serialNumber: 0, enable: true, example: '' }]);
  let a = await s.post('/api/import', tocRules);
  assert.equal(a.status, 200, a.text);
  assert.equal(s.sql('SELECT rule FROM txtTocRules WHERE name = ?', '失控'), RUNAWAY_TOC);

  let began = performance.now();
  const adding = upload(s, '新书 作者：乙.txt', TXT);
  let shelf = await readShelfUntil(s, adding);
  const added = await adding;
  let took = performance.now() - began;
  assert.equal(added.isSuccess, false);
  assert.ok(added.errorMsg.includes(`TOC rule "失控" (id 11) ${JSON.stringify(RUNAWAY_TOC)}`), added.errorMsg);
  assert.ok(added.errorMsg.includes(`${LIMIT} ms`), added.errorMsg);
  assert.ok(took < 10 * LIMIT + 5000, `the upload ended after ${took} ms`);
  assert.ok(shelf.length > 3, `the shelf was read ${shelf.length} times meanwhile`);
  assert.ok(p99(shelf) < 1000, `shelf p99 ${p99(shelf)} ms`);
  assert.equal(s.sql("SELECT count(*) FROM books WHERE name = '新书'"), 0, 'nothing stored');

  const replaceRules = JSON.stringify([
    {
      id: 12,
      name: '回溯',
      pattern: RUNAWAY_REPLACE,
      replacement: 'x',
      isRegex: true,
      isEnabled: true,
      scopeContent: true,
      scopeTitle: false,
      order: 0,
      timeoutMillisecond: 300,
    },
  ]);
  a = await s.post('/api/import', replaceRules);
  assert.equal(a.status, 200, a.text);
  const bookUrl = String(s.sql("SELECT bookUrl FROM books WHERE name = '架上'"));
  began = performance.now();
  const reading = s.get(`/getBookContent?url=${encodeURIComponent(bookUrl)}&index=0`);
  shelf = await readShelfUntil(s, reading);
  const read = (await reading).json() as { isSuccess: boolean; errorMsg: string };
  took = performance.now() - began;
  assert.equal(read.isSuccess, false);
  assert.ok(read.errorMsg.includes(`replace rule "回溯" (id 12) ${JSON.stringify(RUNAWAY_REPLACE)}`) && read.errorMsg.includes('300 ms'), read.errorMsg);
  assert.ok(took < 10 * 300 + 5000, `the read ended after ${took} ms`);
  assert.ok(p99(shelf) < 1000, `shelf p99 ${p99(shelf)} ms`);

  // The app's rule tester takes a user's pattern too.
  const tested = (await s.post('/testReplaceRule', JSON.stringify({ rule: { pattern: RUNAWAY_REPLACE, replacement: 'x' }, text: 'a'.repeat(60) }))).json() as {
    isSuccess: boolean;
    errorMsg: string;
  };
  assert.equal(tested.isSuccess, false);
  assert.ok(tested.errorMsg.includes('replace rule "testReplaceRule"'), tested.errorMsg);
  // And the server still answers.
  assert.equal((await s.get('/getBookshelf')).status, 200);
});

test('a blocking caller gives up on a rule thread silent outside a rule (RULE_THREAD_FAILED), and the next job runs', async () => {
  // A thread that dies outside a rule's stretch (out of memory) sends nothing, and a caller
  // blocked in Atomics.wait cannot see it end: a silence longer than quietMs ends the wait. Here
  // the silence is the thread's own work on 20 MB before its first rule, longer than 1 ms.
  const { ruleThreads } = await import('../src/node/rule-thread.js');
  const { bytesFile } = await import('../src/localbook/api.js');
  const { RuleThreadError } = await import('legado-store/errors');
  let txt = '';
  for (let i = 1; i <= 400; i++) txt += `第${i}章 题\n${'山水'.repeat(8000)}\n`;
  const file = bytesFile('书.txt', new TextEncoder().encode(txt));
  const options = { tocRules: [{ name: '章', rule: '^第\\d+章.*$', serialNumber: 1, enable: true }] };
  assert.throws(
    () => ruleThreads({ quietMs: 1 }).parse(file, options),
    (e: unknown) => e instanceof RuleThreadError && e.code === 'RULE_THREAD_FAILED' && /sent nothing for 1 ms/.test(e.message),
  );
  // A patient runner splits the same file: the 400 chapters the headings make.
  assert.equal(ruleThreads({ quietMs: 60_000 }).parse(file, options).chapters.length, 400);
});
