// Rows as JSON for programs (toJsonRow / fromJsonRow): the backup export's record of a row, safe
// for JSON.stringify with every integer exact, and the import's reading of it back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportBackup } from '../src/node/backup-export.js';
import { fromJsonRow, openStore, toJsonRow } from 'legado-store';
import { InvalidArgumentError, UnknownTableError } from 'legado-store/errors';

const RULE = '{\n  "bookList": "class.list",\n  "name": "tag.h3@text"\n}';

function store() {
  const s = openStore(':memory:', { schema: 75 });
  s.tables.books.insert({
    bookUrl: 'b1',
    name: '三体',
    author: '刘慈欣',
    type: 8 | 256,
    group: -(2n ** 63n),
    canUpdate: false,
    durChapterTime: 1_700_000_000_123,
    syncTime: 5,
  });
  s.tables.books.insert({ bookUrl: 'b2', name: 'n', type: 8, group: 2n ** 53n + 1n, readConfig: '{"reverseToc":true}' });
  s.tables.books.insert({ bookUrl: 'b3', name: 'small', type: 8, group: 6n });
  s.tables.book_sources.insert({
    bookSourceUrl: 'https://s.example',
    bookSourceName: 's',
    bookSourceType: 0,
    lastUpdateTime: 0,
    respondTime: 0,
    weight: 0,
    ruleSearch: RULE,
    enabled: false,
  });
  return s;
}

test('toJsonRow: JSON.stringify takes it, integers beyond 2^53 exact as text, booleans as true/false, nulls left out', () => {
  const s = store();
  const b1 = s.tables.books.get('b1')!;
  assert.throws(() => JSON.stringify(b1), /BigInt/); // why it exists
  const j1 = toJsonRow('books', b1, 75);
  const text = JSON.stringify(j1);
  assert.equal((JSON.parse(text) as { group: unknown }).group, '-9223372036854775808');
  assert.equal(j1.group, '-9223372036854775808');
  assert.equal(j1.canUpdate, false);
  assert.equal(j1.durChapterTime, 1_700_000_000_123);
  assert.equal(j1.syncTime, 5, 'a field of 75');
  assert.equal('kind' in j1, false, 'null fields are left out, as the app writes them');
  assert.equal(toJsonRow('books', s.tables.books.get('b2')!, 75).group, '9007199254740993');
  assert.equal(toJsonRow('books', s.tables.books.get('b3')!, 75).group, 6, 'a bigint that fits is a number');
  assert.deepEqual(toJsonRow('books', s.tables.books.get('b2')!, 75).readConfig, { reverseToc: true }, 'rule columns as objects');
  // Fields in column order, as the backup writes them.
  assert.deepEqual(Object.keys(j1).slice(0, 3), ['bookUrl', 'tocUrl', 'origin']);
  s.close();
});

test('toJsonRow is the backup export’s record of the row', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'legado-json-row-'));
  try {
    const s = store();
    s.tables.books.delete('b1');
    s.tables.books.delete('b2'); // (the backup writes those integers as numbers JSON.parse would round)
    await exportBackup(s, join(dir, 'out'));
    const shelf = JSON.parse(readFileSync(join(dir, 'out', 'bookshelf.json'), 'utf8')) as unknown[];
    const sources = JSON.parse(readFileSync(join(dir, 'out', 'bookSource.json'), 'utf8')) as unknown[];
    assert.deepEqual(shelf, [toJsonRow('books', s.tables.books.get('b3')!, 75)]);
    assert.deepEqual(sources, [toJsonRow('book_sources', s.tables.book_sources.get('https://s.example')!, 75)]);
    s.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('fromJsonRow reads it back exactly, through JSON text: the row it gives stores the same row', () => {
  const s = store();
  const copy = openStore(':memory:', { schema: 75 });
  for (const url of ['b1', 'b2', 'b3']) {
    const row = s.tables.books.get(url)!;
    copy.tables.books.insert(fromJsonRow('books', JSON.parse(JSON.stringify(toJsonRow('books', row, 75))), 75));
    const back = copy.tables.books.get(url)!;
    const { readConfig, ...rest } = back;
    const { readConfig: stored, ...expected } = row;
    assert.deepEqual(rest, expected);
    // A rule column without a rule comes back as the app's text for none, 'null'; a rule as the
    // app's pretty text of it.
    assert.equal(readConfig, stored === null ? 'null' : '{\n  "reverseToc": true\n}');
  }
  const source = s.tables.book_sources.get('https://s.example')!;
  copy.tables.book_sources.insert(fromJsonRow('book_sources', JSON.parse(JSON.stringify(toJsonRow('book_sources', source, 75))), 75));
  const noRule = (r: object) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k.startsWith('rule') && v === 'null' ? null : v]));
  assert.deepEqual(noRule(copy.tables.book_sources.get('https://s.example')!), source);
  // What the app's JSON allows: numbers as text, 0/1 for booleans; the rest left to the defaults.
  const lenient = fromJsonRow('books', { bookUrl: 'x', group: '9223372036854775807', canUpdate: 0 });
  assert.equal(lenient.group, 2n ** 63n - 1n);
  assert.equal(lenient.canUpdate, false);
  assert.equal('name' in lenient, false);
  copy.close();
  s.close();
});

test('what fromJsonRow cannot read exactly is a typed error', () => {
  assert.throws(
    () => fromJsonRow('books', { bookUrl: 'x', group: 'many' }),
    (e) => e instanceof InvalidArgumentError && e.code === 'INVALID_ARGUMENT' && /group/.test(e.message),
  );
  assert.throws(
    () => fromJsonRow('books', { bookUrl: 'x', grop: 1 }),
    (e) => e instanceof InvalidArgumentError && /grop \(no such field\)/.test(e.message),
  );
  assert.throws(
    () => fromJsonRow('books', { name: 'no key' }),
    (e) => e instanceof InvalidArgumentError && /bookUrl/.test(e.message),
  );
  assert.throws(() => fromJsonRow('books', [1]), InvalidArgumentError);
  assert.throws(
    () => fromJsonRow('chapters', { url: 'u', bookUrl: 'b', index: 2 ** 53 + 2 }),
    (e) => e instanceof InvalidArgumentError && /2\^53/.test(e.message),
  );
  // @ts-expect-error not a table at 49
  assert.throws(() => toJsonRow('dictRules', {}, 49), UnknownTableError);
});
