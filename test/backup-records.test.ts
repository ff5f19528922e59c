// How one JSON record becomes a row: lenient coercion, defaults, keys, 2.0 conversions.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { coerce } from '../src/backup/coerce.js';
import { convertLegacyBookSource, isLegacyBookSource, toNewRule, toNewUrl, toNewUrls } from '../src/backup/legacy-book-source.js';
import { convertLegacyReplaceRule } from '../src/backup/legacy-replace-rule.js';
import { toBitmaskType, toOldType } from '../src/backup/book-type.js';
import { Clock, RowBuilder, type Built } from '../src/backup/record.js';
import { newKindReport } from '../src/backup/report.js';
import { schemas } from '../src/schema/index.js';

const col = (table: string, field: string, v = 62 as 62 | 49) => schemas[v].table(table)!.column(field)!;
const build = (table: string, value: unknown, version: 62 | 49 = 62) => {
  const report = newKindReport(table, table);
  const out = RowBuilder.of(schemas[version].table(table)!, version).build(value, report, { clock: new Clock(1_000_000) });
  return { out, report, row: (out as Built).row };
};

test('integers: numbers as strings are read, non-numbers are unusable, fractions truncate but never for a key', () => {
  assert.deepEqual(coerce('book_sources', col('book_sources', 'lastUpdateTime'), '1727159199184'), { value: 1727159199184, changed: true });
  assert.ok('invalid' in coerce('book_sources', col('book_sources', 'bookSourceType'), 'AUDIO'));
  assert.ok('invalid' in coerce('book_sources', col('book_sources', 'weight'), {}));
  assert.deepEqual(coerce('httpTTS', col('httpTTS', 'lastUpdateTime'), 1.9), { value: 1, changed: true, lossy: 'not an integer: 1.9' });
  const { out } = build('httpTTS', { id: 1702154033416.5159, name: 'n', url: 'u' });
  assert.equal((out as { category: string }).category, 'invalid key id');
});

test('booleans from numbers (0.0 too) and from "true"/"false" strings; strings from numbers; objects as compact JSON text', () => {
  assert.deepEqual(coerce('book_sources', col('book_sources', 'enabledReview'), 0.0), { value: false, changed: true });
  assert.deepEqual(coerce('book_sources', col('book_sources', 'enabled'), 'TRUE'), { value: true, changed: true });
  assert.deepEqual(coerce('book_sources', col('book_sources', 'bookSourceName'), 12), { value: '12', changed: true });
  assert.deepEqual(coerce('book_sources', col('book_sources', 'header'), { 'User-Agent': 'a' }), { value: '{"User-Agent":"a"}', changed: true });
  assert.deepEqual(coerce('book_sources', col('book_sources', 'loginUi'), [{ name: 'u' }]), { value: '[{"name":"u"}]', changed: true });
});

test('rule columns: objects pretty-printed, JSON strings parsed, [] and other non-objects mean no rule', () => {
  const c = col('book_sources', 'ruleSearch');
  assert.deepEqual(coerce('book_sources', c, { name: 'a<b>&c' }), { value: '{\n  "name": "a<b>&c"\n}' });
  assert.deepEqual(coerce('book_sources', c, '{"name":"x"}'), { value: '{\n  "name": "x"\n}', changed: true });
  for (const v of [[], 'not json', 3, true]) assert.deepEqual(coerce('book_sources', c, v), { value: 'null', changed: true });
});

test('a record: defaults as the app gives them, nulls and unknown keys tolerated, counted', () => {
  const { row, report } = build('book_sources', {
    bookSourceUrl: 'https://s',
    bookSourceName: null,
    customOrder: 'abc',
    lastUpdateTime: '17',
    exploreScreen: 'x',
    ruleExplore: [],
    noSuchField: 1,
  });
  assert.equal(row.bookSourceName, '');
  assert.equal(row.customOrder, 0);
  assert.equal(row.lastUpdateTime, 17);
  assert.equal(row.enabled, true);
  assert.equal(row.enabledCookieJar, true);
  assert.equal(row.respondTime, 180000);
  assert.equal(row.ruleExplore, 'null');
  assert.equal(row.ruleReview, 'null');
  // exploreScreen is a column from 64 on: a field of the app this 62 store lacks, so dropped, not unknown.
  assert.deepEqual(report.droppedFields, { exploreScreen: 1 });
  assert.deepEqual(report.unknownFields, { noSuchField: 1 });
  assert.deepEqual(report.defaultedFields, { customOrder: 1 });
  assert.equal(report.coercedFields.lastUpdateTime, 1);
});

test('keys: missing, blank or not an object means skipped with a reason; generated time keys are unique', () => {
  assert.equal((build('book_sources', { bookSourceName: 'n' }).out as { category: string }).category, 'missing key bookSourceUrl');
  assert.equal((build('book_sources', { bookSourceUrl: '  ' }).out as { category: string }).category, 'blank key bookSourceUrl');
  assert.equal((build('book_sources', ['x']).out as { category: string }).category, 'not an object');
  // readRecord's device id may be '' (the app writes '').
  assert.equal(build('readRecord', { bookName: 'b', readTime: 1 }).row.deviceId, '');
  const clock = new Clock(5);
  const b = RowBuilder.of(schemas[62].table('txtTocRules')!, 62);
  const ids = [0, 1, 2].map(() => (b.build({ name: 'n', rule: 'r' }, newKindReport('t', 't'), { clock }) as Built).row.id);
  assert.deepEqual(ids, [5, 6, 7]);
  // A key field with a column default takes it (the app's keyboardAssists.json has no type) ...
  assert.equal(build('keyboardAssists', { key: '@css:', value: '@css:', serialNo: 0 }).row.type, 0);
  // ... unless that default is blank.
  assert.equal((build('keyboardAssists', { value: 'v' }).out as { category: string }).category, 'missing key key');
  assert.equal((build('books', { name: 'n' }).out as { category: string }).category, 'missing key bookUrl');
});

test('books: old type codes become the bitmask at 62 (local books get 256) and go back down at 49; useReplaceRule moves into readConfig', () => {
  assert.equal(toBitmaskType(0, 'https://x'), 8);
  assert.equal(toBitmaskType(0, 'loc_book'), 264);
  assert.equal(toBitmaskType(1, 'webDav::x'), 288);
  assert.equal(toBitmaskType(2, ''), 64);
  assert.equal(toBitmaskType(3, ''), 128);
  assert.equal(toBitmaskType(264, 'loc_book'), 264);
  assert.equal(toOldType(264), 0);
  assert.equal(toOldType(32 | 256), 1);
  const { row } = build('books', { bookUrl: 'u', name: 'n', author: 'a', type: 1, useReplaceRule: false, readConfig: { pageAnim: 2 } });
  assert.equal(row.type, 32);
  assert.equal(row.readConfig, '{\n  "pageAnim": 2,\n  "useReplaceRule": false\n}');
  assert.equal(build('books', { bookUrl: 'u', type: 8 }, 49).row.type, 0);
  // 64-bit group bitmasks stay exact.
  assert.equal(build('books', { bookUrl: 'u', group: -9223372036854775807n }).row.group, -9223372036854775807n);
});

test('a 49 store keeps its own columns and counts the fields only 62 has as dropped', () => {
  const { row, report } = build('readRecord', { deviceId: 'd', bookName: 'b', readTime: 3, lastRead: 4 }, 49);
  assert.deepEqual(row, { deviceId: 'd', bookName: 'b', readTime: 3 });
  assert.deepEqual(report.droppedFields, { lastRead: 1 });
  assert.deepEqual(report.unknownFields, {});
});

test('2.0 book sources: the reference mapping, rule and URL rewriting', () => {
  const legacy = {
    bookSourceUrl: 'http://old.example',
    bookSourceName: 'Old',
    bookSourceType: 'AUDIO',
    enable: false,
    serialNumber: 12,
    weight: 5,
    httpUserAgent: 'UA/1',
    ruleSearchUrl: 'http://old.example/s?k=searchKey&p=searchPage|char=gbk',
    ruleFindUrl: '玄幻::http://old.example/c/searchPage&&都市::http://old.example/d',
    ruleSearchList: 'class.list@tag.li',
    ruleSearchName: 'tag.a#广告',
    ruleBookContent: '$id.content@textNodes',
    ruleChapterUrl: 'id.toc@href',
    ruleContentUrlNext: '-text.下一页@href',
    bookSourceCacheEnabled: true,
  };
  assert.ok(isLegacyBookSource(legacy));
  assert.ok(!isLegacyBookSource({ bookSourceUrl: 'x', ruleToc: { chapterList: 'a' }, enable: true }));
  assert.ok(!isLegacyBookSource({ bookSourceUrl: 'x', enabled: true }), 'a current source without rules stays current');
  const s = convertLegacyBookSource(legacy, (f) => f === 'weight');
  assert.equal(s.bookSourceType, 1);
  assert.equal(s.enabled, false);
  assert.equal(s.customOrder, 12);
  assert.equal(s.weight, 5);
  assert.equal(s.header, '{\n  "User-Agent": "UA/1"\n}');
  assert.equal(s.searchUrl, 'http://old.example/s?k={{key}}&p={{page}},{\n  "charset": "gbk"\n}');
  assert.equal(s.exploreUrl, '玄幻::http://old.example/c/{{page}}\n都市::http://old.example/d');
  assert.equal(s.enabledExplore, undefined);
  assert.deepEqual(s.ruleSearch, { bookList: 'class.list@tag.li', name: 'tag.a##广告' });
  assert.deepEqual(s.ruleBookInfo, { tocUrl: 'id.toc@href' });
  assert.deepEqual(s.ruleContent, { content: 'id.content@textNodes', nextContentUrl: '-text.下一页@href' });
  assert.equal(convertLegacyBookSource({ bookSourceUrl: 'x' }, () => false).enabledExplore, false);
});

test('toNewRule and toNewUrl follow the app', () => {
  assert.equal(toNewRule('a|b#c'), 'a||b##c');
  assert.equal(toNewRule('a&b'), 'a&&b');
  assert.equal(toNewRule('a&b http'), 'a&b http');
  assert.equal(toNewRule('@CSS:div#x'), '@CSS:div#x');
  assert.equal(toNewRule('-+a|b'), '-+a||b');
  assert.equal(toNewRule('  '), undefined);
  assert.equal(toNewUrl('<js>u=searchKey&p=searchPage</js>'), '<js>u={{key}}&p={{page}}</js>');
  assert.equal(toNewUrl('http://x/s@k=searchKey'), 'http://x/s,{\n  "method": "POST",\n  "body": "k={{key}}"\n}');
  assert.equal(toNewUrl('http://x/p{{searchPage-1}}/searchPage+1'), 'http://x/p{{page-1}}/{{page+1}}');
  assert.equal(toNewUrls('@js:1'), '@js:1');
});

test('2.0 replace rules: regex/replaceSummary/useTo/enable/serialNumber; no regex is no rule', () => {
  assert.deepEqual(convertLegacyReplaceRule({ id: 3, regex: 'a+', replaceSummary: 's', useTo: 'book', enable: true, serialNumber: 4, isRegex: true }), {
    id: 3,
    pattern: 'a+',
    name: 's',
    replacement: '',
    isRegex: true,
    scope: 'book',
    isEnabled: true,
    order: 4,
  });
  assert.equal(convertLegacyReplaceRule({ regex: '', replaceSummary: 'header' }), undefined);
  const { out, report } = build('replace_rules', { regex: 'x', replaceSummary: 'r' });
  assert.equal((out as Built).row.pattern, 'x');
  assert.equal((out as Built).row.isEnabled, false);
  assert.equal(report.legacyConverted, 1);
  assert.deepEqual(report.unknownFields, {});
  assert.equal((build('replace_rules', { name: 'no pattern' }).out as { category: string }).category, 'no pattern');
});

test('one builder per table model and version, shared by every import; what differs per import comes in its context', () => {
  const books62 = schemas[62].table('books')!;
  assert.equal(RowBuilder.of(books62, 62), RowBuilder.of(books62, 62));
  assert.notEqual(RowBuilder.of(schemas[49].table('books')!, 49), RowBuilder.of(books62, 62));
  const b = RowBuilder.of(books62, 62);
  const book = { bookUrl: 'https://x/1', origin: 'https://x', type: 0 };
  // A type below 8 is an old code whatever else the file holds (Book.upType()): 0 is text, 8.
  assert.equal((b.build(book, newKindReport('t', 't'), { clock: new Clock(1) }) as Built).row.type, 8);
  // Two clocks: each import's time defaults come from its own.
  const rules = RowBuilder.of(schemas[62].table('txtTocRules')!, 62);
  const idOf = (clock: Clock) => (rules.build({ name: 'n', rule: 'r' }, newKindReport('t', 't'), { clock }) as Built).row.id;
  const c1 = new Clock(100);
  const c2 = new Clock(900);
  assert.deepEqual([idOf(c1), idOf(c2), idOf(c1)], [100, 900, 101]);
});

test('a wide record becomes a row with its fields in column order, left-out ones absent', () => {
  const table = schemas[62].table('book_sources')!;
  // Every column given, some as null (absent from the row), some coerced, a rule as an object.
  const given = (field: string, js: string): unknown => (/^rule[A-Z]/.test(field) ? {} : js === 'string' ? `v-${field}` : js === 'boolean' ? true : 7);
  const record: Record<string, unknown> = Object.fromEntries(table.columns.map((c) => [c.field, given(c.field, c.js)]));
  Object.assign(record, { bookSourceGroup: null, header: null, customOrder: '12', enabledExplore: 'false', ruleSearch: { bookList: 'a' } });
  const { out, report } = build('book_sources', record);
  const row = (out as Built).row;
  const expected = table.columns.map((c) => c.field).filter((f) => f !== 'bookSourceGroup' && f !== 'header');
  assert.deepEqual(Object.keys(row), expected);
  assert.equal(row.customOrder, 12);
  assert.equal(row.enabledExplore, false);
  assert.equal(row.ruleSearch, '{\n  "bookList": "a"\n}');
  assert.deepEqual(report.coercedFields, { customOrder: 1, enabledExplore: 1 });
});
