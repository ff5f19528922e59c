// Bookmarks and the rule tables, in the app's orders; the v62-only tables refuse a v49 store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UnknownTableError } from 'legado-store/errors';
import { newStore, newStore49, raw } from './helpers/domain.js';

test('bookmarks of a book in chapter order; all by book name and author Chinese-aware; search stays in the book', () => {
  const s = newStore();
  const mark = (time: number, bookName: string, chapterIndex: number, chapterPos: number, content = '', bookAuthor = '作者') =>
    s.tables.bookmarks.insert({ time, bookName, bookAuthor, chapterIndex, chapterPos, chapterName: `第${chapterIndex}章`, bookText: '', content });
  mark(1, '中国', 5, 0);
  mark(2, '中国', 2, 30, '好句');
  mark(3, '中国', 2, 10);
  mark(4, '阿Q', 1, 0, '好句');
  mark(5, '中国', 1, 0, '', '别人');
  assert.deepEqual(
    s.bookmarks.ofBook('中国', '作者').map((b) => b.time),
    [3, 2, 1],
  );
  assert.deepEqual(
    s.bookmarks.all().map((b) => b.time),
    [4, 5, 3, 2, 1],
    '阿Q before 中国; authors 别人 (bie) before 作者 (zuo)',
  );
  assert.deepEqual(
    s.bookmarks.search('中国', '作者', '好句').map((b) => b.time),
    [2],
    'not the 阿Q bookmark (the app’s query would include it)',
  );
  assert.deepEqual(
    s.bookmarks.search('中国', '作者', '第5').map((b) => b.time),
    [1],
  );
  s.close();
});

test('txtTocRules by serialNumber, enabled/disabled, min/max, built-in ones deleted by negative id', () => {
  const s = newStore();
  s.tables.txtTocRules.insertMany([
    { id: -1, name: 'a', rule: 'r', serialNumber: 2, enable: true },
    { id: -2, name: 'b', rule: 'r', serialNumber: 0, enable: false },
    { id: 7, name: 'c', rule: 'r', serialNumber: 1, enable: true },
  ]);
  assert.deepEqual(
    s.txtTocRules.all().map((r) => r.id),
    [-2, 7, -1],
  );
  assert.deepEqual(
    s.txtTocRules.enabled().map((r) => r.id),
    [7, -1],
  );
  assert.deepEqual(
    s.txtTocRules.disabled().map((r) => r.id),
    [-2],
  );
  assert.deepEqual([s.txtTocRules.minOrder(), s.txtTocRules.maxOrder()], [0, 2]);
  assert.equal(s.txtTocRules.deleteDefault(), 2);
  assert.equal(raw(s, 'SELECT count(*) FROM txtTocRules'), 1n);
  s.close();
});

test('httpTTS by name, dictRules by sortNumber, keyboardAssists by serialNo, servers by sortNumber, ruleSubs by customOrder', () => {
  const s = newStore();
  s.tables.httpTTS.insertMany([
    { id: -100, name: '2.阿里云', url: 'u' },
    { id: 1, name: '1.百度', url: 'u' },
  ]);
  assert.deepEqual(
    s.httpTts.all().map((t) => t.id),
    [1, -100],
  );
  assert.equal(s.httpTts.deleteDefault(), 1);
  s.tables.dictRules.insertMany([
    { name: '海词', urlRule: 'u', showRule: 's', sortNumber: 1 },
    { name: '百度', urlRule: 'u', showRule: 's', sortNumber: 0, enabled: false },
  ]);
  assert.deepEqual(
    s.dictRules.all().map((d) => d.name),
    ['百度', '海词'],
  );
  assert.deepEqual(
    s.dictRules.enabled().map((d) => d.name),
    ['海词'],
  );
  s.tables.keyboardAssists.insertMany([
    { key: '{{}}', value: '{{}}', serialNo: 2 },
    { key: '@css:', value: '@css:', serialNo: 1 },
    { type: 1, key: 'x', value: 'x', serialNo: 0 },
  ]);
  assert.deepEqual(
    s.keyboardAssists.all().map((k) => k.key),
    ['x', '@css:', '{{}}'],
  );
  assert.deepEqual(
    s.keyboardAssists.byType(0).map((k) => k.key),
    ['@css:', '{{}}'],
  );
  assert.equal(s.keyboardAssists.maxSerialNo(), 2);
  s.tables.servers.insertMany([
    { id: 2, name: 'b', type: 'WEBDAV', sortNumber: 1 },
    { id: -1, name: 'a', type: 'WEBDAV', sortNumber: 2 },
  ]);
  assert.deepEqual(
    s.servers.all().map((x) => x.id),
    [2, -1],
  );
  assert.equal(s.servers.deleteDefault(), 1);
  s.tables.ruleSubs.insertMany([
    { id: 1, name: 'x', url: 'https://x', type: 0, customOrder: 5, autoUpdate: false, update: 0 },
    { id: 2, name: 'y', url: 'https://y', type: 1, customOrder: 3, autoUpdate: true, update: 0 },
  ]);
  assert.deepEqual(
    s.ruleSubs.all().map((r) => r.id),
    [2, 1],
  );
  assert.equal(s.ruleSubs.findByUrl('https://y')?.autoUpdate, true);
  assert.equal(s.ruleSubs.maxOrder(), 5, 'the real maximum');
  s.close();
});

test('schema 49: dictRules and servers are UnknownTableError; the other rule tables work', () => {
  const s = newStore49();
  assert.throws(
    () => s.dictRules.all(),
    (e: unknown) => e instanceof UnknownTableError && e.table === 'dictRules',
  );
  assert.throws(() => s.servers.all(), UnknownTableError);
  s.tables.txtTocRules.insert({ id: 1, name: 'a', rule: 'r', serialNumber: 0, enable: true });
  assert.deepEqual(s.txtTocRules.all(), [{ id: 1, name: 'a', rule: 'r', serialNumber: 0, enable: true }], 'no example field at 49');
  assert.deepEqual(s.keyboardAssists.all(), []);
  s.close();
});
