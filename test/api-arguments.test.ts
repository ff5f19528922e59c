// Wrong argument types at the public API are typed errors naming the method and the argument,
// with nothing written: never a TypeError, SyntaxError or engine error from inside, and never
// accepted silently (a blank book for `[]`, a string number added to a reading time).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LegadoStoreError } from 'legado-store';
import { InvalidArgumentError, MissingFieldError, ValueTypeError } from 'legado-store/errors';
import { schemas } from 'legado-store';
import { book, chapter, newStore, raw, rawAll } from './helpers/domain.js';
import { fullRow, keyOf } from './helpers/rows.js';

const ROW = 'a plain object (not an array, a Map, a Date or a class instance)';

const invalid = (message: string) => (e: unknown) => e instanceof InvalidArgumentError && e.code === 'INVALID_ARGUMENT' && e.message === message;

test('bulk writes, lists and domain calls refuse wrong argument types with INVALID_ARGUMENT', () => {
  const s = newStore();
  s.books.save(book('b1'));
  const any = s as unknown as Record<string, Record<string, (...a: unknown[]) => unknown>> & {
    tables: Record<string, Record<string, (...a: unknown[]) => unknown>>;
  };
  assert.throws(() => any.tables.books!.insertMany!(null), invalid('books.insertMany: rows: expected an array (or another iterable) of row objects, got null'));
  assert.throws(
    () => any.tables.books!.upsertMany!(5),
    invalid('books.upsertMany: rows: expected an array (or another iterable) of row objects, got number 5'),
  );
  assert.throws(
    () => any.tables.books!.insertMany!('ab'),
    invalid('books.insertMany: rows: expected an array (or another iterable) of row objects, got string "ab"'),
  );
  assert.throws(
    () => any.chapters!.replaceToc!('b1', null),
    invalid('chapters.replaceToc: chapters: expected an array (or another iterable) of row objects, got null'),
  );
  assert.throws(
    () => any.readRecords!.addTime!('b1', NaN),
    invalid('readRecords.addTime: ms: expected a whole number of milliseconds, 0 or more, got non-integer number NaN'),
  );
  assert.throws(
    () => any.readRecords!.addTime!('b1', '5'),
    invalid('readRecords.addTime: ms: expected a whole number of milliseconds, 0 or more, got string "5"'),
  );
  assert.throws(
    () => any.readRecords!.addTime!('b1', -1),
    invalid('readRecords.addTime: ms: expected a whole number of milliseconds, 0 or more, got number -1'),
  );
  assert.throws(() => any.bookGroups!.delete!('x'), invalid('book groups: groupId: expected a group id (a bigint, or an integer number), got string "x"'));
  assert.throws(() => any.tables.books!.list!('name'), invalid('books.list: query: expected an object, or nothing, got string "name"'));
  assert.throws(() => any.tables.books!.count!(7), invalid('books.count: where: expected an object, or nothing, got number 7'));
  assert.throws(() => [...(any.tables.books!.iterate!([]) as Iterable<unknown>)], invalid('books.iterate: query: expected an object, or nothing, got array'));
  // Rows that are not objects, and a save without its key.
  assert.throws(
    () => any.tables.books!.insert!([]),
    (e: unknown) => e instanceof ValueTypeError && e.message === `books.(row): expected ${ROW}, got array`,
  );
  assert.throws(
    () => any.tables.books!.insertMany!([[]]),
    (e: unknown) => e instanceof ValueTypeError && e.message === `row 0: books.(row): expected ${ROW}, got array`,
  );
  assert.throws(
    () => any.books!.save!({}),
    (e: unknown) => e instanceof MissingFieldError && e.message === 'books.bookUrl: required field is missing',
  );
  assert.throws(
    () => any.books!.save!(null),
    (e: unknown) => e instanceof ValueTypeError && e.message === `books.(row): expected ${ROW}, got null`,
  );
  // Nothing was written by any of them.
  assert.equal(raw(s, 'SELECT count(*) FROM books'), 1n);
  assert.equal(raw(s, "SELECT count(*) FROM books WHERE bookUrl = ''"), 0n);
  assert.equal(raw(s, 'SELECT count(*) FROM readRecord'), 0n);
  assert.equal(raw(s, 'SELECT count(*) FROM chapters'), 0n);
  // The right types still work.
  s.readRecords.addTime('b1', 5);
  assert.equal(raw(s, 'SELECT readTime FROM readRecord'), 5n);
  s.close();
});

test('a string longer than SQLite stores is INVALID_ARGUMENT naming the field; nothing written', () => {
  const s = newStore();
  let huge: string | undefined = 'é'.repeat(510_000_000); // 1.02 GB of UTF-8
  assert.throws(
    () => s.books.save(book('big', { intro: huge as string })),
    (e: unknown) =>
      e instanceof LegadoStoreError &&
      e.code === 'INVALID_ARGUMENT' &&
      e.message === 'books.intro: a value of 510000000 characters or bytes is longer than SQLite stores (at most 1,000,000,000 bytes); nothing was written',
  );
  huge = undefined;
  assert.equal(raw(s, 'SELECT count(*) FROM books'), 0n);
  s.close();
});

test('a Map, a Date, a class instance or an array is no row: every table refuses it on insert, upsert, update and bulk writes', () => {
  const s = newStore();
  // Rows of every table without their parents: what is tested is the row argument.
  s.db.pragma('foreign_keys = OFF');
  class BookRow {}
  for (const t of schemas[62].tables) {
    const api = s.table(t.name) as unknown as Record<string, (...a: unknown[]) => unknown>;
    const row = fullRow(t, 1);
    api.insert!(row);
    const dump = (): unknown => s.db.prepare(`SELECT * FROM "${t.name}"`).raw(true).safeIntegers(true).all();
    const before = dump();
    const other = fullRow(t, 2);
    const shapes: [unknown, string][] = [
      [new Map(Object.entries(other)), 'Map object'],
      [Object.assign(new Date(0), other), 'Date object'],
      [Object.assign(new BookRow(), other), 'BookRow object'],
      [Object.values(other), 'array'],
    ];
    for (const [given, what] of shapes) {
      for (const method of ['insert', 'upsert']) {
        assert.throws(
          () => api[method]!(given),
          (e: unknown) => e instanceof ValueTypeError && e.table === t.name && e.message === `${t.name}.(row): expected ${ROW}, got ${what}`,
          `${t.name}.${method}(${what})`,
        );
      }
      for (const method of ['insertMany', 'upsertMany']) {
        assert.throws(
          () => api[method]!([given]),
          (e: unknown) => e instanceof ValueTypeError && e.message === `row 0: ${t.name}.(row): expected ${ROW}, got ${what}`,
          `${t.name}.${method}([${what}])`,
        );
      }
      const { [t.primaryKey[0]!.field]: _key, ...patch } = other;
      const patchShape =
        given instanceof Map
          ? new Map(Object.entries(patch))
          : Array.isArray(given)
            ? Object.values(patch)
            : Object.assign(Object.create(Object.getPrototypeOf(given) as object) as object, patch);
      assert.throws(
        () => api.update!(keyOf(t, row), patchShape),
        (e: unknown) => e instanceof ValueTypeError && e.table === t.name && e.message === `${t.name}.(patch): expected ${ROW}, got ${what}`,
        `${t.name}.update(${what})`,
      );
    }
    // The file holds the one row as it was (raw SQL, every column).
    assert.deepEqual(dump(), before, t.name);
  }
  // A row with no prototype is a plain row.
  const plain = Object.assign(Object.create(null) as object, { bookUrl: 'null-proto', name: 'n', author: 'a' });
  s.tables.books.insert(plain as never);
  assert.equal(raw(s, "SELECT name FROM books WHERE bookUrl = 'null-proto'"), 'n');
  s.close();
});

test('every domain call given null or undefined for an argument answers or throws a typed error naming the argument; nothing written', () => {
  const s = newStore();
  s.books.save(book('b1'));
  s.chapters.replaceToc('b1', [chapter('b1', 0)]);
  const g = s.bookGroups.create('g1').groupId;
  const progress = { durChapterIndex: 0, durChapterPos: 0 };
  // One valid call per public method that takes arguments; each argument in turn is replaced.
  const calls: [string, string, unknown[]][] = [
    ['books', 'save', [book('b2')]],
    ['books', 'get', ['b1']],
    ['books', 'getByNameAuthor', ['b1', 'a']],
    ['books', 'shelf', [g, { sort: 0 }]],
    ['books', 'search', ['b']],
    ['books', 'updateProgress', ['b1', progress]],
    ['books', 'updateProgressByNameAuthor', ['b1', 'a', progress]],
    ['books', 'setGroups', ['b1', g]],
    ['bookGroups', 'get', [g]],
    ['bookGroups', 'getByName', ['g1']],
    ['bookGroups', 'create', ['g2', { show: true }]],
    ['bookGroups', 'rename', [g, 'g3']],
    ['bookGroups', 'setShow', [g, true]],
    ['bookGroups', 'setBookSort', [g, 1]],
    ['bookGroups', 'bookSortOf', [g]],
    ['bookGroups', 'reorder', [[g]]],
    ['bookGroups', 'namesOf', [g]],
    ['bookGroups', 'delete', [g]],
    ['cache', 'put', ['k', 'v', 10]],
    ['cache', 'get', ['k']],
    ['cache', 'has', ['k']],
    ['cache', 'entry', ['k']],
    ['cache', 'delete', ['k']],
    ['cache', 'deleteSourceVariables', ['https://s']],
    ['chapters', 'replaceToc', ['b1', [chapter('b1', 0)]]],
    ['chapters', 'list', ['b1']],
    ['chapters', 'range', ['b1', 0, 1]],
    ['chapters', 'get', ['b1', 0]],
    ['chapters', 'getByTitle', ['b1', 't']],
    ['chapters', 'search', ['b1', 't']],
    ['chapters', 'count', ['b1']],
    ['chapters', 'deleteByBook', ['b9']],
    ['cookies', 'get', ['https://u']],
    ['cookies', 'set', ['https://u', 'a=b']],
    ['cookies', 'replace', ['https://u', 'a=b']],
    ['cookies', 'delete', ['https://u']],
    ['readRecords', 'addTime', ['b1', 5, { deviceId: 'd' }]],
    ['readRecords', 'search', ['b']],
    ['readRecords', 'timeOf', ['b1', 'd']],
    ['readRecords', 'lastRead', ['b1']],
    ['readRecords', 'delete', ['b9']],
    ['replaceRules', 'forTitle', ['b1', 'o']],
    ['replaceRules', 'forContent', ['b1', 'o']],
    ['replaceRules', 'enableAll', [true]],
    ['replaceRules', 'add', [{ name: 'r', pattern: 'x' }]],
    ['replaceRules', 'search', ['r']],
    ['replaceRules', 'byGroup', ['g']],
    ['rss', 'articles', ['o', 's']],
    ['rss', 'addArticles', ['o', 's', [{ title: 't', link: 'l' }], 5]],
    ['rss', 'markRead', ['l']],
    ['rss', 'isRead', ['l']],
    ['rss', 'star', [{ origin: 'o', sort: 's', title: 't', link: 'l' }, 5]],
    ['rss', 'unstar', ['o', 'l9']],
    ['rss', 'isStarred', ['o', 'l']],
    ['rss', 'clearOld', ['o9', 's', 1]],
    ['rss', 'deleteArticles', ['o9']],
    ['bookmarks', 'ofBook', ['b1', 'a']],
    ['bookmarks', 'search', ['b1', 'a', 'k']],
    ['keyboardAssists', 'byType', [0]],
    ['ruleSubs', 'findByUrl', ['https://u']],
    ['searchKeywords', 'recordUse', ['w', 5]],
    ['searchKeywords', 'get', ['w']],
    ['searchKeywords', 'byUsage', [5]],
    ['searchKeywords', 'byTime', [5]],
    ['searchKeywords', 'search', ['w', { prefix: true }]],
    ['searchKeywords', 'delete', ['w9']],
    ['bookSources', 'search', ['k', { enabledOnly: true }]],
    ['bookSources', 'byGroup', ['g', { enabledOnly: true }]],
    ['bookSources', 'explore', ['k']],
    ['bookSources', 'setEnabled', [['https://u'], true]],
    ['bookSources', 'remove', [['https://u9']]],
    ['rssSources', 'search', ['k', { enabledOnly: true }]],
    ['rssSources', 'byGroup', ['g', { enabledOnly: true }]],
    ['rssSources', 'setEnabled', [['https://u'], true]],
    ['rssSources', 'remove', [['https://u9']]],
  ];
  const tables = schemas[62].tables.map((t) => t.name);
  const dump = (): unknown => tables.map((t) => s.db.prepare(`SELECT * FROM "${t}"`).raw(true).safeIntegers(true).all());
  const areas = s as unknown as Record<string, Record<string, (...a: unknown[]) => unknown>>;
  const untyped: string[] = [];
  for (const [area, method, args] of calls) {
    for (let i = 0; i < args.length; i++) {
      for (const hole of [null, undefined]) {
        const given = args.map((a, j) => (j === i ? hole : a));
        const before = dump();
        try {
          areas[area]![method]!(...given);
        } catch (e) {
          // Typed; the group-id check names its argument as "book groups: groupId".
          if (!(e instanceof LegadoStoreError)) untyped.push(`${area}.${method} argument ${i} = ${hole}: ${(e as Error).name}: ${(e as Error).message}`);
          assert.deepEqual(dump(), before, `${area}.${method} argument ${i} = ${hole} wrote before it failed`);
        }
      }
    }
  }
  assert.deepEqual(untyped, []);
  // The finding as reported, and a row argument that is no plain object where the area copies it.
  assert.throws(() => areas.rss!.addArticles!('o', 's', null), invalid('rss.addArticles: articles: expected an array of article objects, got null'));
  assert.throws(
    () => areas.rss!.addArticles!('o', 's', [new Map([['link', 'l']])]),
    invalid('rss.addArticles: articles[0]: expected a plain object, got Map object'),
  );
  assert.throws(() => areas.rss!.star!(new Map([['link', 'l']])), invalid('rss.star: article: expected a plain object, got Map object'));
  assert.throws(() => areas.replaceRules!.add!(new Map([['pattern', 'x']])), invalid('replaceRules.add: rule: expected a plain object, got Map object'));
  assert.throws(
    () => areas.chapters!.replaceToc!('b1', [new Map(Object.entries(chapter('b1', 5)))]),
    (e: unknown) => e instanceof ValueTypeError && e.table === 'chapters' && /got Map object$/.test(e.message),
  );
  assert.equal(raw(s, 'SELECT count(*) FROM rssArticles'), 1n);
  assert.equal(raw(s, "SELECT count(*) FROM chapters WHERE bookUrl = 'b1'"), 1n);
  s.close();
});

test('a lone UTF-16 surrogate is refused by every write of the typed API, naming table, field and index; the file holds no U+FFFD', () => {
  const s = newStore();
  s.books.save(book('b1'));
  const lone = (table: string, field: string, index: number) => (e: unknown) =>
    e instanceof ValueTypeError &&
    e.code === 'WRONG_TYPE' &&
    e.table === table &&
    e.fields[0] === field &&
    e.message
      .replace(/^row \d+: /, '')
      .startsWith(`${table}.${field}: expected text without a lone UTF-16 surrogate (one at index ${index}: UTF-8 cannot store it), got string `);
  assert.throws(() => s.tables.books.insert(book('b2', { name: 'a\ud800b' })), lone('books', 'name', 1));
  assert.throws(() => s.tables.books.upsert(book('b1', { author: '\udc00' })), lone('books', 'author', 0));
  assert.throws(() => s.tables.books.insertMany([book('b3'), book('b4', { intro: 'ok 📚 \ud83d' })]), lone('books', 'intro', 6));
  assert.throws(() => s.tables.books.update('b1', { intro: 'x\udfff' }), lone('books', 'intro', 1));
  assert.throws(() => s.books.save(book('b1', { intro: 'x\udfff' })), lone('books', 'intro', 1));
  assert.throws(() => s.books.updateProgress('b1', { durChapterIndex: 1, durChapterPos: 0, durChapterTitle: '\ud800' }), lone('books', 'durChapterTitle', 0));
  assert.throws(() => s.rss.markRead('https://x/\ud800'), lone('rssReadRecords', 'record', 10));
  // A key with one would be bound as U+FFFD and name another row: refused too.
  s.books.save(book('k\ufffd', { name: 'k' }));
  assert.throws(() => s.tables.books.delete('k\ud800'), lone('books', 'bookUrl', 1));
  assert.throws(() => s.tables.books.finder(['bookUrl']).get('k\ud800'), lone('books', 'bookUrl', 1));
  // What the file holds (raw SQL): the two books as saved, no replacement character anywhere.
  assert.deepEqual(rawAll(s, 'SELECT bookUrl FROM books ORDER BY bookUrl'), ['b1', 'k\ufffd']);
  assert.equal(raw(s, "SELECT count(*) FROM books WHERE instr(name || author || ifnull(intro, '') || ifnull(durChapterTitle, ''), char(65533)) > 0"), 0n);
  assert.equal(raw(s, 'SELECT count(*) FROM rssReadRecords'), 0n);
  // A surrogate pair is text like any other.
  s.tables.books.update('b1', { intro: 'ok 📚' });
  assert.equal(raw(s, "SELECT hex(intro) FROM books WHERE bookUrl = 'b1'"), Buffer.from('ok 📚').toString('hex').toUpperCase());
  s.close();
});
