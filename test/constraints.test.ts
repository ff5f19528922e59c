// The constraints of spec section 7 and the semantics around them: unique indexes, foreign keys
// and cascades, upsert in place, all-or-nothing bulk writes and transactions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { LegadoStoreError, UniqueViolationError, openStore, type Store } from 'legado-store';
import { ConstraintFailedError, DuplicateKeyError, ForeignKeyError, MissingFieldError, UnknownFieldError, ValueTypeError } from 'legado-store/errors';
import { source as sourceRow } from './helpers/builders.js';
import { tempDir } from './helpers/files.js';

const dir = tempDir();
let n = 0;
const fresh = (): Store => openStore(join(dir, `c${n++}.db`), { specialGroups: false, schema: 62 });

const book = (url: string, name = url, author = 'a') => ({ bookUrl: url, name, author });
const chapter = (bookUrl: string, index: number, url = `${bookUrl}/${index}`) => ({
  url,
  title: `t${index}`,
  isVolume: false,
  baseUrl: bookUrl,
  bookUrl,
  index,
  isVip: false,
  isPay: false,
});
const source = (url: string) => sourceRow(url, { respondTime: 0 });
const searchBook = (bookUrl: string, origin: string) => ({
  bookUrl,
  origin,
  originName: 'o',
  type: 8,
  name: bookUrl,
  author: '',
  tocUrl: '',
  time: 1,
  originOrder: 0,
});
const raw = (s: Store, sql: string, ...p: unknown[]) =>
  s.db
    .prepare(sql)
    .pluck()
    .get(...p);

test('unique index books (name, author): the error names the index and the values', () => {
  const s = fresh();
  s.tables.books.insert(book('u1', '三体', '刘慈欣'));
  assert.throws(
    () => s.tables.books.insert(book('u2', '三体', '刘慈欣')),
    (e: unknown) => {
      assert.ok(e instanceof UniqueViolationError && !(e instanceof DuplicateKeyError));
      assert.equal(e.code, 'UNIQUE_VIOLATION');
      assert.equal(e.index, 'index_books_name_author');
      assert.deepEqual(e.fields, ['name', 'author']);
      assert.deepEqual(e.value, ['三体', '刘慈欣']);
      return true;
    },
  );
  // Upsert must not resolve it by deleting the other book (what INSERT OR REPLACE would do).
  assert.throws(() => s.tables.books.upsert(book('u2', '三体', '刘慈欣')), UniqueViolationError);
  // Upserting an existing book onto another book's name is the index error, not a duplicate key.
  s.tables.books.insert(book('u3', '球状闪电', '刘慈欣'));
  assert.throws(
    () => s.tables.books.upsert(book('u3', '三体', '刘慈欣')),
    (e: unknown) => e instanceof UniqueViolationError && !(e instanceof DuplicateKeyError) && e.index === 'index_books_name_author',
  );
  // A row repeating both the key and the name: the key is what is duplicated.
  assert.throws(() => s.tables.books.insert(book('u1', '三体', '刘慈欣')), DuplicateKeyError);
  assert.equal(raw(s, 'SELECT count(*) FROM books'), 2);
  s.close();
});

test('unique index chapters (bookUrl, index)', () => {
  const s = fresh();
  s.tables.books.insert(book('b'));
  s.tables.chapters.insert(chapter('b', 0, 'c0'));
  assert.throws(
    () => s.tables.chapters.insert(chapter('b', 0, 'other-url')),
    (e: unknown) => e instanceof UniqueViolationError && e.index === 'index_chapters_bookUrl_index' && (e.value as unknown[])[1] === 0,
  );
  s.close();
});

test('unique indexes that are also the primary key: searchBooks, search_keywords, cookies, caches', () => {
  const s = fresh();
  s.tables.book_sources.insert(source('src'));
  const cases: [string, Record<string, unknown>, string][] = [
    ['searchBooks', searchBook('sb', 'src'), 'index_searchBooks_bookUrl'],
    ['search_keywords', { word: 'w', usage: 1, lastUseTime: 0 }, 'index_search_keywords_word'],
    ['cookies', { url: 'example.org', cookie: 'a=1' }, 'index_cookies_url'],
    ['caches', { key: 'k', value: 'v', deadline: 0 }, 'index_caches_key'],
  ];
  for (const [table, row, index] of cases) {
    s.table(table).insert(row);
    assert.throws(
      () => s.table(table).insert(row),
      (e: unknown) => e instanceof DuplicateKeyError && e.index === index && e.table === table,
      table,
    );
  }
  s.close();
});

test('a chapter of an unknown book and a search result of an unknown source are ForeignKeyErrors', () => {
  const s = fresh();
  assert.throws(
    () => s.tables.chapters.insert(chapter('no-such-book', 0)),
    (e: unknown) => {
      assert.ok(e instanceof ForeignKeyError);
      assert.equal(e.code, 'FOREIGN_KEY_VIOLATION');
      assert.equal(e.table, 'chapters');
      assert.deepEqual(e.fields, ['bookUrl']);
      assert.equal(e.value, 'no-such-book');
      assert.equal(e.parent, 'books');
      assert.match(e.message, /chapters: bookUrl = "no-such-book" references a missing books row/);
      return true;
    },
  );
  assert.throws(
    () => s.tables.searchBooks.insert(searchBook('x', 'no-such-source')),
    (e: unknown) => e instanceof ForeignKeyError && e.parent === 'book_sources' && e.value === 'no-such-source',
  );
  assert.equal(raw(s, 'SELECT count(*) FROM chapters'), 0);
  s.close();
});

test("a write the file's own trigger or CHECK refuses is a ConstraintFailedError, one row, many or a delete; nothing of it is left", () => {
  const s = fresh();
  s.db.exec(`CREATE TRIGGER refuse BEFORE INSERT ON book_sources WHEN NEW.bookSourceName = 'no' BEGIN SELECT RAISE(ABORT, 'names may not be no'); END`);
  const refused = (row: string) => (e: unknown) => {
    assert.ok(e instanceof ConstraintFailedError);
    assert.equal(e.code, 'CONSTRAINT_FAILED');
    assert.equal(e.table, 'book_sources');
    assert.equal(e.message, `${row}book_sources: the file refused the write: names may not be no`);
    return true;
  };
  assert.throws(() => s.tables.book_sources.insert(sourceRow('https://a', { bookSourceName: 'no' })), refused(''));
  const many = Array.from({ length: 100 }, (_, i) => sourceRow(`https://s${i}`, { bookSourceName: i === 70 ? 'no' : `s${i}` }));
  assert.throws(() => s.tables.book_sources.insertMany(many), refused('row 70: '));
  assert.equal(raw(s, 'SELECT count(*) FROM book_sources'), 0);
  s.db.exec('DROP TRIGGER refuse');
  s.db.exec('CREATE TABLE t (x INTEGER CHECK (x > 0))');
  s.db.exec(`CREATE TRIGGER via BEFORE INSERT ON book_sources BEGIN INSERT INTO t VALUES (NEW.customOrder); END`);
  assert.throws(
    () => s.tables.book_sources.insert(sourceRow('https://b', { customOrder: -1 })),
    (e: unknown) => e instanceof ConstraintFailedError && /CHECK constraint failed/.test(e.reason),
  );
  assert.equal(raw(s, 'SELECT count(*) FROM book_sources'), 0);
  // A delete, and raw SQL inside store.transaction: no table to name, so the message names the file.
  s.db.exec('DROP TRIGGER via');
  s.tables.book_sources.insert(sourceRow('https://c'));
  s.db.exec(`CREATE TRIGGER keep BEFORE DELETE ON book_sources BEGIN SELECT RAISE(ABORT, 'kept'); END`);
  const kept = (e: unknown) =>
    e instanceof ConstraintFailedError && e.table === '' && e.reason === 'kept' && e.message.endsWith(': the file refused the write: kept');
  assert.throws(() => s.tables.book_sources.delete('https://c'), kept);
  assert.throws(() => s.transaction(() => s.db.prepare('DELETE FROM book_sources').run()), kept);
  assert.equal(raw(s, 'SELECT count(*) FROM book_sources'), 1);
  // Raw SQL inside store.transaction that breaks the app's own constraints: typed too, nothing left.
  s.db.exec('DROP TRIGGER keep');
  const cols = 'bookSourceUrl, bookSourceName, bookSourceType, customOrder, enabled, enabledExplore, lastUpdateTime, respondTime, weight';
  for (const [sql, reason] of [
    [
      `INSERT INTO book_sources (${cols}) VALUES ('https://d', 'd', 0, 0, 1, 1, 0, 0, 0), ('https://c', 'c', 0, 0, 1, 1, 0, 0, 0)`,
      /UNIQUE constraint failed: book_sources\.bookSourceUrl/,
    ],
    [`INSERT INTO book_sources (${cols}) VALUES (NULL, 'n', 0, 0, 1, 1, 0, 0, 0)`, /NOT NULL constraint failed: book_sources\.bookSourceUrl/],
    [
      "INSERT INTO chapters (url, title, isVolume, baseUrl, bookUrl, `index`, isVip, isPay) VALUES ('c', 't', 0, '', 'no-such-book', 0, 0, 0)",
      /FOREIGN KEY constraint failed/,
    ],
  ] as const) {
    assert.throws(
      () => s.transaction(() => s.db.prepare(sql).run()),
      (e: unknown) => e instanceof ConstraintFailedError && e.code === 'CONSTRAINT_FAILED' && e.table === '' && reason.test(e.reason),
    );
  }
  assert.equal(raw(s, 'SELECT count(*) FROM book_sources'), 1);
  assert.equal(raw(s, 'SELECT count(*) FROM chapters'), 0);
  s.close();
});

test('deleting a book deletes its chapters; deleting a source deletes its search results', () => {
  const s = fresh();
  s.tables.books.insertMany([book('b1'), book('b2')]);
  s.tables.chapters.insertMany([chapter('b1', 0), chapter('b1', 1), chapter('b2', 0)]);
  s.tables.book_sources.insertMany([source('s1'), source('s2')]);
  s.tables.searchBooks.insertMany([searchBook('x1', 's1'), searchBook('x2', 's2')]);
  assert.equal(s.tables.books.delete('b1'), true);
  assert.deepEqual(s.db.prepare('SELECT bookUrl FROM chapters').pluck().all(), ['b2']);
  assert.equal(s.tables.book_sources.delete('s2'), true);
  assert.deepEqual(s.db.prepare('SELECT bookUrl FROM searchBooks').pluck().all(), ['x1']);
  s.close();
});

test('upsert updates in place: a book keeps its chapters, a source keeps its search results', () => {
  const s = fresh();
  s.tables.books.insert({ ...book('b'), durChapterIndex: 5 });
  s.tables.chapters.insertMany([chapter('b', 0), chapter('b', 1)]);
  s.tables.book_sources.insert(source('s'));
  s.tables.searchBooks.insert(searchBook('x', 's'));
  const rowid = raw(s, "SELECT rowid FROM books WHERE bookUrl = 'b'");
  s.tables.books.upsert({ ...book('b', 'new name'), durChapterIndex: 7 });
  s.tables.book_sources.upsert({ ...source('s'), bookSourceName: 'renamed' });
  assert.equal(raw(s, 'SELECT count(*) FROM chapters'), 2);
  assert.equal(raw(s, 'SELECT count(*) FROM searchBooks'), 1);
  assert.equal(raw(s, "SELECT rowid FROM books WHERE bookUrl = 'b'"), rowid, 'same row, not deleted and re-inserted');
  assert.equal(s.tables.books.get('b')?.name, 'new name');
  assert.equal(s.tables.books.get('b')?.durChapterIndex, 7);
  assert.equal(s.tables.book_sources.get('s')?.bookSourceName, 'renamed');
  // Upsert of a new key inserts; fields left out take their defaults, as insert would give.
  s.tables.books.upsert(book('c'));
  assert.equal(s.tables.books.get('c')?.origin, 'loc_book');
  s.close();
});

test('replace_rules: field order is column sortOrder; ids are generated like Room (omitted or 0)', () => {
  const s = fresh();
  const id1 = s.tables.replace_rules.insert({ name: 'a', pattern: 'x', order: 7 });
  const id2 = s.tables.replace_rules.insert({ id: 0, name: 'b', order: -3 });
  s.tables.replace_rules.insert({ id: 1700000000000, name: 'c', order: 2 });
  assert.equal(id1, 1);
  assert.equal(id2, 2);
  assert.deepEqual(s.db.prepare('SELECT name, sortOrder FROM replace_rules ORDER BY sortOrder').all(), [
    { name: 'b', sortOrder: -3 },
    { name: 'c', sortOrder: 2 },
    { name: 'a', sortOrder: 7 },
  ]);
  assert.deepEqual(
    s.tables.replace_rules.list({ orderBy: 'order' }).map((r) => [r.name, r.order]),
    [
      ['b', -3],
      ['c', 2],
      ['a', 7],
    ],
  );
  assert.equal(s.tables.replace_rules.count({ order: { gt: 0 } }), 2);
  s.tables.replace_rules.update(1, { order: 100 });
  assert.equal(raw(s, 'SELECT sortOrder FROM replace_rules WHERE id = 1'), 100);
  s.close();
});

test('booleans are true/false in the API and 0/1 in the file; nullable booleans stay null', () => {
  const s = fresh();
  s.tables.book_sources.insert({ ...source('s'), enabled: false, enabledExplore: true });
  assert.deepEqual(s.db.prepare('SELECT enabled, enabledExplore, enabledReview, enabledCookieJar FROM book_sources').get(), {
    enabled: 0,
    enabledExplore: 1,
    enabledReview: null,
    enabledCookieJar: 0,
  });
  const got = s.tables.book_sources.get('s')!;
  assert.equal(got.enabled, false);
  assert.equal(got.enabledExplore, true);
  assert.equal(got.enabledReview, null);
  assert.equal(got.enabledCookieJar, false);
  assert.equal(s.tables.book_sources.count({ enabled: false }), 1);
  s.close();
});

test('64-bit bitmasks round-trip exactly as bigint, up to bit 63', () => {
  const s = fresh();
  const all = (1n << 64n) - 1n; // every one of the 64 group bits
  s.tables.books.insert({ ...book('b'), group: all });
  s.tables.book_groups.insert({ groupId: 1n << 63n, groupName: 'g64', order: 64, show: true });
  s.tables.book_groups.insert({ groupId: (1n << 53n) + 1n, groupName: 'g54+', order: 54, show: true });
  assert.equal(s.tables.books.get('b')?.group, -1n, 'all 64 bits, as the signed value the app stores');
  assert.equal(s.db.prepare('SELECT "group" FROM books').safeIntegers(true).pluck().get(), -1n);
  assert.deepEqual(
    s.tables.book_groups.list({ orderBy: 'order' }).map((g) => g.groupId),
    [(1n << 53n) + 1n, -(1n << 63n)],
  );
  assert.equal(s.tables.book_groups.get(-(1n << 63n))?.groupName, 'g64');
  assert.equal(s.tables.book_groups.get((1n << 53n) + 1n)?.groupName, 'g54+');
  assert.equal(typeof s.tables.book_groups.get(-(1n << 63n))?.order, 'number');
  assert.throws(() => s.tables.books.update('b', { group: 1n << 64n }), ValueTypeError);
  assert.throws(() => s.tables.books.update('b', { group: 2 ** 60 }), ValueTypeError, 'unsafe numbers are refused, not rounded');
  s.close();
});

test('a bulk insert that fails part-way writes nothing and names the row', () => {
  const s = fresh();
  s.tables.books.insert(book('keep'));
  const rows = [book('n1'), book('n2'), book('keep'), book('n3')];
  assert.throws(
    () => s.tables.books.insertMany(rows),
    (e: unknown) => e instanceof DuplicateKeyError && /^row 2: books: duplicate primary key/.test(e.message),
  );
  assert.deepEqual(s.db.prepare('SELECT bookUrl FROM books').pluck().all(), ['keep']);
  s.tables.books.insert(book('x'));
  assert.throws(
    () => s.tables.chapters.upsertMany([chapter('x', 0), chapter('x', 1), chapter('missing', 2)]),
    (e: unknown) => e instanceof ForeignKeyError && /^row 2: /.test(e.message),
  );
  assert.throws(
    () => s.tables.chapters.upsertMany([chapter('x', 0), { ...chapter('x', 1), isVip: 'yes' }] as unknown as ReturnType<typeof chapter>[]),
    (e: unknown) => e instanceof ValueTypeError && /^row 1: /.test(e.message),
  );
  assert.throws(
    () => s.tables.chapters.upsertMany([chapter('x', 0), { ...chapter('x', 1), nope: 1 }] as unknown as ReturnType<typeof chapter>[]),
    (e: unknown) => e instanceof UnknownFieldError && /^row 1: /.test(e.message),
  );
  assert.equal(raw(s, 'SELECT count(*) FROM chapters'), 0);
  assert.equal(s.tables.books.upsertMany([book('x', 'X2'), book('y')]), 2);
  s.close();
});

test('bulk writes go in batches of rows per statement, and a failure is still the first failing row, exactly, with nothing written', () => {
  const s = fresh();
  s.tables.books.insertMany([book('b'), book('keep')]);
  const many = (from: number, n: number) => Array.from({ length: n }, (_, i) => chapter('b', from + i));
  const count = () => raw(s, 'SELECT count(*) FROM chapters');
  // A missing parent deep in a full batch: the row named, no row kept.
  const fk = [...many(0, 700), chapter('missing', 700), ...many(701, 300)];
  assert.throws(
    () => s.tables.chapters.insertMany(fk),
    (e: unknown) => e instanceof ForeignKeyError && /^row 700: /.test(e.message) && e.parent === 'books',
  );
  assert.equal(count(), 0);
  // The same key twice inside one batch: the second one is the duplicate.
  const dup = [...many(0, 10), chapter('b', 3), ...many(10, 600)];
  assert.throws(
    () => s.tables.chapters.insertMany(dup),
    (e: unknown) => e instanceof DuplicateKeyError && /^row 10: /.test(e.message),
  );
  assert.equal(count(), 0);
  // A unique index broken across batches: (bookUrl, index) of row 900 is row 5's.
  const unique = [...many(0, 900), chapter('b', 5, 'other')];
  assert.throws(
    () => s.tables.chapters.insertMany(unique),
    (e: unknown) => e instanceof UniqueViolationError && /^row 900: /.test(e.message),
  );
  assert.equal(count(), 0);
  // A bad value comes after a constraint failure still waiting in its batch: the earlier row is the error.
  const order = [...many(0, 20), chapter('missing', 20), ...many(21, 10), { ...chapter('b', 31), isVip: 'no' as unknown as boolean }];
  assert.throws(
    () => s.tables.chapters.insertMany(order),
    (e: unknown) => e instanceof ForeignKeyError && /^row 20: /.test(e.message),
  );
  assert.throws(
    () => s.tables.chapters.insertMany([...many(0, 20), { ...chapter('b', 20), isVip: 'no' as unknown as boolean }]),
    (e: unknown) => e instanceof ValueTypeError && /^row 20: /.test(e.message),
  );
  assert.equal(count(), 0);
  // Every row of full and partial batches lands, with its values.
  assert.equal(s.tables.chapters.insertMany(many(0, 1001)), 1001);
  assert.equal(count(), 1001);
  assert.deepEqual(s.tables.chapters.get({ url: 'b/1000', bookUrl: 'b' }), {
    ...chapter('b', 1000),
    resourceUrl: null,
    tag: null,
    start: null,
    end: null,
    startFragmentId: null,
    endFragmentId: null,
    variable: null,
  });
  // upsertMany in batches updates in place, a key repeated in one batch taking its last values.
  const again = many(0, 1001).map((c) => ({ ...c, title: `new ${c.index}` }));
  again.push({ ...chapter('b', 7), title: 'last' });
  assert.equal(s.tables.chapters.upsertMany(again), 1002);
  assert.equal(count(), 1001);
  assert.equal(s.tables.chapters.get({ url: 'b/7', bookUrl: 'b' })?.title, 'last');
  assert.equal(s.tables.chapters.get({ url: 'b/999', bookUrl: 'b' })?.title, 'new 999');
  s.close();
});

test('values the rows of a batch share are bound once: every row lands exactly as given, in order, however the shared columns change', () => {
  const s = fresh();
  s.tables.books.insertMany([book('b'), book('c')]);
  // Columns shared for a while, then not: bookUrl switches at 150, tag starts to vary at 100,
  // isVip is true for 200–259, and the nullable positions are set on a few rows only.
  const rows = Array.from({ length: 700 }, (_, i) => ({
    ...chapter(i < 150 ? 'b' : 'c', i),
    tag: i < 100 ? null : `tag${i % 3}`,
    isVip: i >= 200 && i < 260,
    start: i % 97 === 0 ? i * 10 : null,
    variable: i === 333 ? '{"k":1}' : null,
  }));
  assert.equal(s.tables.chapters.insertMany(rows), 700);
  const stored = s.db
    .prepare(
      'SELECT url, title, isVolume, baseUrl, bookUrl, `index`, isVip, isPay, resourceUrl, tag, start, `end`, startFragmentId, endFragmentId, variable FROM chapters ORDER BY rowid',
    )
    .raw(true)
    .all();
  const expected = rows.map((r) => [r.url, r.title, 0, r.baseUrl, r.bookUrl, r.index, r.isVip ? 1 : 0, 0, null, r.tag, r.start, null, null, null, r.variable]);
  assert.deepEqual(stored, expected);
  // upsertMany the same way: each row's last values (a key given twice takes its last ones), the
  // rows it did not name unchanged. First 201 rows (the table's first upserted rows: a statement
  // each), then 601 (in batches, shared columns bound once).
  const titles = () => s.db.prepare('SELECT title FROM chapters ORDER BY rowid').pluck().all();
  const few = rows.slice(100, 300).map((r) => ({ ...r, title: `few ${r.index}` }));
  few.push({ ...rows[150]!, title: 'last few' });
  assert.equal(s.tables.chapters.upsertMany(few), 201);
  assert.deepEqual(
    titles(),
    rows.map((r) => (r.index === 150 ? 'last few' : r.index >= 100 && r.index < 300 ? `few ${r.index}` : r.title)),
  );
  const again = rows.slice(0, 600).map((r) => ({ ...r, title: r.index < 120 ? 'same' : `new ${r.index}` }));
  again.push({ ...rows[5]!, title: 'last' });
  assert.equal(s.tables.chapters.upsertMany(again), 601);
  assert.deepEqual(
    titles(),
    rows.map((r) => (r.index === 5 ? 'last' : r.index < 120 ? 'same' : r.index < 600 ? `new ${r.index}` : r.title)),
  );
  // An auto-generated key left out takes SQLite's next id, in the order given.
  const rules = Array.from({ length: 150 }, (_, i) => ({ name: `r${i}`, pattern: 'p', replacement: '', isEnabled: true, isRegex: false, order: 0 }));
  assert.equal(s.tables.replace_rules.insertMany(rules), 150);
  assert.deepEqual(
    s.db.prepare('SELECT id, name FROM replace_rules ORDER BY id').raw(true).all(),
    rules.map((r, i) => [i + 1, r.name]),
  );
  s.close();
});

test('rows after the first batches, encoded straight into the shared statement, fail and land exactly as the first ones do', () => {
  const s = fresh();
  s.tables.books.insertMany([book('b'), book('c')]);
  // 1,000 rows alike but for url, title and index: from the second batch on (66 chapters a
  // batch) they go through the shared statement's own encoder. Row 700 is far past that.
  const many = (n: number) => Array.from({ length: n }, (_, i) => chapter('b', i));
  const count = () => raw(s, 'SELECT count(*) FROM chapters');
  const at = (i: number, row: object) => {
    const rows: object[] = many(1000);
    rows[i] = row;
    return rows as ReturnType<typeof chapter>[];
  };
  // A constraint failure inside such a batch: the row named, nothing written.
  assert.throws(
    () => s.tables.chapters.insertMany(at(700, chapter('b', 700, 'b/5'))),
    (e: unknown) => e instanceof DuplicateKeyError && /^row 700: /.test(e.message),
  );
  assert.throws(
    () => s.tables.chapters.insertMany(at(700, chapter('missing', 700))),
    (e: unknown) => e instanceof ForeignKeyError && /^row 700: /.test(e.message),
  );
  // A value the encoder cannot take, a field the table does not have, a required field left out.
  assert.throws(
    () => s.tables.chapters.insertMany(at(700, { ...chapter('b', 700), isVip: 'yes' })),
    (e: unknown) => e instanceof ValueTypeError && /^row 700: /.test(e.message),
  );
  assert.throws(
    () => s.tables.chapters.insertMany(at(700, { ...chapter('b', 700), nope: 1 })),
    (e: unknown) => e instanceof UnknownFieldError && /^row 700: /.test(e.message),
  );
  const { title: _, ...untitled } = chapter('b', 700);
  assert.throws(
    () => s.tables.chapters.insertMany(at(700, untitled)),
    (e: unknown) => e instanceof MissingFieldError && /^row 700: /.test(e.message),
  );
  // A constraint failure earlier in the batch than a bad value: the earlier row is the error.
  const both = at(700, chapter('missing', 700));
  both[710] = { ...chapter('b', 710), index: 1.5 };
  assert.throws(
    () => s.tables.chapters.insertMany(both),
    (e: unknown) => e instanceof ForeignKeyError && /^row 700: /.test(e.message),
  );
  assert.equal(count(), 0);
  // Shared values that change inside such a batch and change back; a field left out that has a
  // default; every row lands with its values, in order (read back with plain SQL).
  const rows = many(1000).map((r, i) => ({ ...r, bookUrl: i >= 700 && i < 703 ? 'c' : 'b', isPay: i === 705, ...(i === 706 && { tag: 't' }) }));
  assert.equal(s.tables.chapters.insertMany(rows), 1000);
  const stored = s.db
    .prepare(
      'SELECT url, title, isVolume, baseUrl, bookUrl, `index`, isVip, isPay, resourceUrl, tag, start, `end`, startFragmentId, endFragmentId, variable FROM chapters ORDER BY rowid',
    )
    .raw(true)
    .all();
  assert.deepEqual(
    stored,
    rows.map((r) => [r.url, r.title, 0, r.baseUrl, r.bookUrl, r.index, 0, r.isPay ? 1 : 0, null, 'tag' in r ? r.tag : null, null, null, null, null, null]),
  );
  // Rows from a generator that hands out one object, changed in place: each row is what it
  // held when it was handed out, however its batch goes.
  s.db.prepare('DELETE FROM chapters').run();
  function* reused(): Generator<ReturnType<typeof chapter>> {
    const row = chapter('b', 0);
    for (const r of rows) {
      Object.assign(row, { url: r.url, title: r.title, index: r.index, bookUrl: r.bookUrl, isPay: r.isPay });
      yield row;
    }
  }
  assert.equal(s.tables.chapters.insertMany(reused()), 1000);
  const again = s.db.prepare('SELECT url, title, bookUrl, `index`, isPay FROM chapters ORDER BY rowid').raw(true).all();
  assert.deepEqual(
    again,
    rows.map((r) => [r.url, r.title, r.bookUrl, r.index, r.isPay ? 1 : 0]),
  );
  s.close();
});

test("store.transaction is all or nothing across tables, and returns the function's value", () => {
  const s = fresh();
  assert.throws(
    () =>
      s.transaction(() => {
        s.tables.books.insert(book('t1'));
        s.tables.chapters.insert(chapter('t1', 0));
        s.tables.caches.insert({ key: 'k', deadline: 0 });
        s.tables.chapters.insert(chapter('nope', 0));
      }),
    ForeignKeyError,
  );
  assert.equal(raw(s, 'SELECT (SELECT count(*) FROM books) + (SELECT count(*) FROM chapters) + (SELECT count(*) FROM caches)'), 0);
  assert.throws(
    () =>
      s.transaction(() => {
        s.tables.books.insert(book('t2'));
        throw new Error('caller gave up');
      }),
    /caller gave up/,
  );
  assert.equal(raw(s, 'SELECT count(*) FROM books'), 0);
  assert.equal(
    s.transaction(() => {
      s.tables.books.insert(book('t3'));
      return 'done';
    }),
    'done',
  );
  // Nested: an inner failure that the outer function catches rolls back only the inner part.
  s.transaction(() => {
    s.tables.books.insert(book('outer'));
    try {
      s.transaction(() => {
        s.tables.books.insert(book('inner'));
        throw new Error('inner');
      });
    } catch {
      /* kept going */
    }
  });
  assert.deepEqual(s.db.prepare('SELECT bookUrl FROM books ORDER BY bookUrl').pluck().all(), ['outer', 't3']);
  s.close();
});

test('partial update by key changes only the named fields', () => {
  const s = fresh();
  s.tables.books.insert({ ...book('b', '甲'), intro: 'keep me', durChapterPos: 1 });
  s.tables.books.insert(book('c', '乙'));
  assert.equal(s.tables.books.update('b', { durChapterPos: 42, durChapterTitle: null, canUpdate: false }), true);
  const b = s.tables.books.get('b')!;
  assert.equal(b.durChapterPos, 42);
  assert.equal(b.intro, 'keep me');
  assert.equal(b.canUpdate, false);
  assert.equal(raw(s, "SELECT canUpdate FROM books WHERE bookUrl = 'b'"), 0);
  assert.equal(s.tables.books.update('missing', { durChapterPos: 1 }), false);
  assert.throws(
    () => s.tables.books.update('c', { name: '甲' }),
    (e: unknown) => e instanceof UniqueViolationError && (e.value as unknown[])[1] === 'a',
  );
  assert.throws(() => s.tables.books.update('b', { name: null } as never), /required field is null/);
  assert.throws(() => s.tables.books.update('b', { bookUrl: 'other' } as never), /primary-key/);
  assert.throws(() => s.tables.books.update('b', { nope: 1 } as never), /no field nope/);
  s.tables.readRecord.insert({ deviceId: 'd', bookName: 'n', readTime: 5 });
  assert.equal(s.tables.readRecord.update({ deviceId: 'd', bookName: 'n' }, { readTime: 9 }), true);
  assert.equal(s.tables.readRecord.get({ deviceId: 'd', bookName: 'n' })?.readTime, 9);
  s.close();
});

test('list and count: equality, operators, null, in, like, ordering, limit and offset', () => {
  const s = fresh();
  s.tables.books.insertMany([
    { ...book('a', '甲'), durChapterTime: 30, group: 1, intro: 'x' },
    { ...book('b', '乙'), durChapterTime: 10, group: 2 },
    { ...book('c', '丙'), durChapterTime: 20, group: 1 },
  ]);
  const urls = (rows: { bookUrl: string }[]) => rows.map((r) => r.bookUrl);
  assert.deepEqual(urls(s.tables.books.list({ orderBy: [['durChapterTime', 'desc']] })), ['a', 'c', 'b']);
  assert.deepEqual(urls(s.tables.books.list({ where: { group: 1 }, orderBy: 'durChapterTime' })), ['c', 'a']);
  assert.deepEqual(urls(s.tables.books.list({ where: { intro: null }, orderBy: 'bookUrl' })), ['b', 'c']);
  assert.deepEqual(urls(s.tables.books.list({ where: { intro: { ne: null } } })), ['a']);
  assert.deepEqual(urls(s.tables.books.list({ where: { bookUrl: { in: ['a', 'c', 'z'] } }, orderBy: ['bookUrl', 'desc'] })), ['c', 'a']);
  assert.deepEqual(urls(s.tables.books.list({ where: { durChapterTime: { gte: 20, lt: 30 } } })), ['c']);
  assert.deepEqual(urls(s.tables.books.list({ where: { bookUrl: { like: '%b%' } } })), ['b']);
  assert.deepEqual(urls(s.tables.books.list({ orderBy: 'durChapterTime', limit: 1, offset: 1 })), ['c']);
  assert.deepEqual(urls([...s.tables.books.iterate({ orderBy: 'bookUrl' })]), ['a', 'b', 'c']);
  assert.equal(s.tables.books.count(), 3);
  assert.equal(s.tables.books.count({ group: { in: [] } }), 0);
  assert.throws(() => s.tables.books.list({ where: { nope: 1 } as never }), /no field nope/);
  assert.throws(() => s.tables.books.list({ orderBy: 'nope' as never }), /no field nope/);
  assert.throws(() => s.tables.books.list({ where: { durChapterTime: '1' as never } }), ValueTypeError);
  s.close();
});

test('composite keys: get, has, delete by object; a key with a field missing is an error', () => {
  const s = fresh();
  s.tables.keyboardAssists.insert({ type: 1, key: '@css:', value: 'v' });
  assert.equal(s.tables.keyboardAssists.get({ type: 1, key: '@css:' })?.value, 'v');
  assert.equal(s.tables.keyboardAssists.has({ type: 0, key: '@css:' }), false);
  assert.throws(() => s.tables.keyboardAssists.get({ type: 1 } as never), /keyboardAssists\.key: required field is missing/);
  assert.throws(() => s.tables.keyboardAssists.get('x' as never), /expected an object with type, key/);
  assert.equal(s.tables.keyboardAssists.delete({ type: 1, key: '@css:' }), true);
  s.close();
});

test('statements are prepared once per table and reused', () => {
  const s = fresh();
  let prepared = 0;
  const original = s.db.prepare.bind(s.db);
  (s.db as { prepare: unknown }).prepare = (sql: string) => {
    prepared++;
    return original(sql);
  };
  for (let i = 0; i < 50; i++) {
    s.tables.books.insert(book(`b${i}`));
    s.tables.books.get(`b${i}`);
    s.tables.books.update(`b${i}`, { durChapterPos: i });
    s.tables.books.list({ where: { durChapterPos: i } });
  }
  assert.equal(prepared, 4, 'insert, get, one update shape, one list shape');
  s.close();
});

test('every error is a LegadoStoreError with a stable code', () => {
  const s = fresh();
  const codes = new Set<string>();
  const attempt = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      assert.ok(e instanceof LegadoStoreError);
      codes.add(e.code);
    }
  };
  s.tables.books.insert(book('b'));
  attempt(() => s.tables.books.insert(book('b')));
  attempt(() => s.tables.books.insert(book('c', 'b')));
  attempt(() => s.tables.chapters.insert({ url: 'u' } as never));
  attempt(() => s.tables.chapters.insert(chapter('zz', 1)));
  attempt(() => s.tables.books.insert({ bookUrl: 1 } as never));
  attempt(() => s.tables.books.insert({ bookUrl: 'q', x: 1 } as never));
  attempt(() => s.table('nope'));
  assert.deepEqual([...codes].sort(), [
    'DUPLICATE_KEY',
    'FOREIGN_KEY_VIOLATION',
    'MISSING_FIELD',
    'UNIQUE_VIOLATION',
    'UNKNOWN_FIELD',
    'UNKNOWN_TABLE',
    'WRONG_TYPE',
  ]);
  s.close();
});
