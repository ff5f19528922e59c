// Prepared lookups and updates (TableApi.finder and updater, chapters.get, books.updateProgress):
// every set of fields given writes exactly those columns, read back with raw SQL; every value the
// app cannot read is refused with the typed error naming the field, and the row is left as it was;
// a lookup gives the row SQLite holds. The codegen-fallback suite runs this file again with code
// generation disallowed, where every call takes the checked path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openStore, type Store } from 'legado-store';
import { MissingFieldError, UniqueViolationError, ValueTypeError } from 'legado-store/errors';
import { schemas } from '../src/schema/index.js';
import { compileFinder, compileUpdateSetter } from '../src/table/compiled.js';

const FIELDS = ['durChapterIndex', 'durChapterPos', 'durChapterTitle', 'durChapterTime'] as const;

function store(): Store<62> {
  const s = openStore(':memory:', { schema: 62 });
  s.db.prepare("INSERT INTO books (bookUrl, name, author, origin, durChapterTitle, durChapterTime) VALUES ('b', 'n', 'a', 'o', 't0', 1)").run();
  s.db.prepare("INSERT INTO books (bookUrl, name, author, origin) VALUES ('b2', 'n2', 'a', 'o')").run();
  return s;
}

/** The progress columns of book `url`, as SQLite holds them. */
const row = (s: Store<62>, url = 'b') =>
  ({ ...(s.db.prepare(`SELECT ${FIELDS.join(', ')} FROM books WHERE bookUrl = ?`).get(url) as object) }) as Record<string, unknown>;

const generationAllowed = !process.execArgv
  .concat(process.env.NODE_OPTIONS ?? '')
  .join(' ')
  .includes('--disallow-code-generation-from-strings');

test('the update setter is generated where code generation is allowed, and left to the checked path where it is not', () => {
  const books = schemas[62].tables.find((t) => t.name === 'books')!;
  const cols = FIELDS.map((f) => books.column(f)!);
  assert.equal(typeof compileUpdateSetter(books, cols), generationAllowed ? 'function' : 'undefined');
  // Five fields, or a two-column key: never generated.
  assert.equal(compileUpdateSetter(books, [...cols, books.column('name')!]), undefined);
});

test('each of the sixteen sets of progress fields writes those columns and keeps the others', () => {
  const s = store();
  try {
    const u = s.tables.books.updater([...FIELDS]);
    let expected = row(s);
    for (let mask = 0; mask < 16; mask++) {
      const values = [10 + mask, 20 + mask, `t${mask}`, 1000 + mask].map((v, i) => (mask & (1 << i) ? v : undefined));
      // set() and setArgs() in turn: the same update.
      const changed = mask % 2 ? u.set('b', values) : u.setArgs('b', ...values);
      assert.equal(changed, true, `mask ${mask}`);
      expected = { ...expected, ...Object.fromEntries(FIELDS.flatMap((f, i) => (values[i] === undefined ? [] : [[f, values[i]]]))) };
      assert.deepEqual(row(s), expected, `mask ${mask}`);
    }
    // No such book: false, whatever is given; nothing written anywhere.
    assert.equal(u.setArgs('nope', 1, 2, 'x', 3), false);
    assert.equal(u.setArgs('nope'), false);
    assert.deepEqual(row(s), expected);
    assert.deepEqual(row(s, 'b2'), { durChapterIndex: 0, durChapterPos: 0, durChapterTitle: null, durChapterTime: 0 });
    // A nullable field given null is set to NULL; bigints within range are taken.
    assert.equal(u.setArgs('b', 2147483647n, -2147483648, null, 2n ** 62n), true);
    assert.deepEqual(
      {
        ...(s.db
          .prepare(`SELECT ${FIELDS.join(', ')} FROM books WHERE bookUrl = 'b'`)
          .safeIntegers(true)
          .get() as object),
      },
      {
        durChapterIndex: 2147483647n,
        durChapterPos: -2147483648n,
        durChapterTitle: null,
        durChapterTime: 2n ** 62n,
      },
    );
  } finally {
    s.close();
  }
});

test('a bad progress value is refused with the typed error naming it, and the book is unchanged', () => {
  const s = store();
  try {
    const before = row(s);
    const INT = "a 32-bit integer (the app's Int: -2147483648 to 2147483647)";
    const LONG = "an integer within ±(2^53-1), or a bigint within 64 bits (the app's Long)";
    const cases: [Record<string, unknown>, string, unknown, string][] = [
      [{ durChapterIndex: 1.5 }, 'durChapterIndex', 1.5, `books.durChapterIndex: expected ${INT}, got non-integer number 1.5`],
      [{ durChapterIndex: 2 ** 31 }, 'durChapterIndex', 2 ** 31, `books.durChapterIndex: expected ${INT}, got number 2147483648`],
      [{ durChapterPos: -(2 ** 31) - 1 }, 'durChapterPos', -(2 ** 31) - 1, `books.durChapterPos: expected ${INT}, got number -2147483649`],
      [{ durChapterPos: 2n ** 31n }, 'durChapterPos', 2n ** 31n, `books.durChapterPos: expected ${INT}, got bigint 2147483648n`],
      [{ durChapterPos: '3' }, 'durChapterPos', '3', `books.durChapterPos: expected ${INT}, got string "3"`],
      [{ durChapterTitle: 5 }, 'durChapterTitle', 5, 'books.durChapterTitle: expected a string, got number 5'],
      [{ durChapterTime: 2 ** 53 }, 'durChapterTime', 2 ** 53, `books.durChapterTime: expected ${LONG}, got number 9007199254740992`],
      [{ durChapterTime: 2n ** 63n }, 'durChapterTime', 2n ** 63n, `books.durChapterTime: expected ${LONG}, got bigint 9223372036854775808n`],
      [{ durChapterTime: NaN }, 'durChapterTime', NaN, `books.durChapterTime: expected ${LONG}, got non-integer number NaN`],
    ];
    for (const [bad, field, value, message] of cases) {
      const progress = { durChapterIndex: 3, durChapterPos: 4, durChapterTime: 5, ...bad } as Parameters<typeof s.books.updateProgress>[1];
      assert.throws(
        () => s.books.updateProgress('b', progress),
        (e: unknown) =>
          e instanceof ValueTypeError &&
          e.code === 'WRONG_TYPE' &&
          e.table === 'books' &&
          e.fields[0] === field &&
          Object.is(e.value, value) &&
          e.message.endsWith(message),
        JSON.stringify(bad, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)),
      );
    }
    // A required field given null, and a missing or null key.
    const u = s.tables.books.updater([...FIELDS]);
    assert.throws(
      () => u.setArgs('b', null, 1),
      (e: unknown) =>
        e instanceof MissingFieldError && e.fields[0] === 'durChapterIndex' && e.message.endsWith('books.durChapterIndex: required field is null'),
    );
    assert.throws(
      () => u.setArgs(null as unknown as string, 1, 1),
      (e: unknown) => e instanceof MissingFieldError && e.fields[0] === 'bookUrl',
    );
    assert.throws(
      () => u.setArgs(undefined as unknown as string, 1, 1),
      (e: unknown) => e instanceof MissingFieldError && e.fields[0] === 'bookUrl',
    );
    assert.throws(
      () => u.setArgs(7 as unknown as string, 1, 1),
      (e: unknown) => e instanceof ValueTypeError && e.fields[0] === 'bookUrl',
    );
    assert.deepEqual(row(s), before);
  } finally {
    s.close();
  }
});

test("an updater's failed write is the typed error naming the row as it would have been; more than four fields take set()", () => {
  const s = store();
  try {
    // n2 by a is b2: renaming b to it breaks the (name, author) index.
    const rename = s.tables.books.updater(['name', 'durChapterPos']);
    assert.throws(
      () => rename.setArgs('b', 'n2', 9),
      (e: unknown) =>
        e instanceof UniqueViolationError && e.code === 'UNIQUE_VIOLATION' && e.fields.join() === 'name,author' && (e.value as unknown[]).join() === 'n2,a',
    );
    assert.equal((s.db.prepare("SELECT name, durChapterPos FROM books WHERE bookUrl = 'b'").get() as { name: string }).name, 'n');
    const five = s.tables.books.updater([...FIELDS, 'name']);
    assert.throws(() => five.setArgs('b', 1), RangeError);
    assert.equal(five.set('b', [1, 2, undefined, 3, 'n3']), true);
    assert.deepEqual(
      { ...(s.db.prepare("SELECT durChapterIndex, durChapterPos, durChapterTime, name FROM books WHERE bookUrl = 'b'").get() as object) },
      {
        durChapterIndex: 1,
        durChapterPos: 2,
        durChapterTime: 3,
        name: 'n3',
      },
    );
  } finally {
    s.close();
  }
});

test('a progress save with a listener watching books is reported once, and one without none', () => {
  const s = store();
  try {
    const heard: string[][] = [];
    s.books.updateProgress('b', { durChapterIndex: 1, durChapterPos: 1, durChapterTime: 1 });
    const off = s.onChange('books', (tables) => heard.push([...tables]));
    assert.equal(s.books.updateProgress('b', { durChapterIndex: 2, durChapterPos: 2, durChapterTime: 2 }), true);
    assert.deepEqual(heard, [['books']]);
    off();
    s.books.updateProgress('b', { durChapterIndex: 3, durChapterPos: 3, durChapterTime: 3 });
    assert.deepEqual(heard, [['books']]);
    assert.deepEqual(row(s), { durChapterIndex: 3, durChapterPos: 3, durChapterTitle: 't0', durChapterTime: 3 });
  } finally {
    s.close();
  }
});

test('a lookup by text and integer fields gives the row SQLite holds, generated where allowed; other values take the checked path', () => {
  const chapters = schemas[62].tables.find((t) => t.name === 'chapters')!;
  const col = (f: string) => chapters.column(f)!;
  assert.equal(typeof compileFinder(chapters, [col('bookUrl'), col('index')]), generationAllowed ? 'function' : 'undefined');
  // A boolean field, or five fields: never generated.
  assert.equal(compileFinder(chapters, [col('bookUrl'), col('isVolume')]), undefined);
  const s = store();
  try {
    s.db.exec(
      "INSERT INTO chapters (url, title, isVolume, baseUrl, bookUrl, `index`, isVip, isPay, start, `end`) VALUES ('c0', 'T0', 1, 'base', 'b', 0, 0, 1, NULL, 9), ('c1', 'T1', 0, 'base', 'b', 1, 1, 0, 5, NULL)",
    );
    const byIndex = s.tables.chapters.finder(['bookUrl', 'index']);
    const c1 = {
      url: 'c1',
      title: 'T1',
      isVolume: false,
      baseUrl: 'base',
      bookUrl: 'b',
      index: 1,
      isVip: true,
      isPay: false,
      resourceUrl: null,
      tag: null,
      start: 5,
      end: null,
      startFragmentId: null,
      endFragmentId: null,
      variable: null,
    };
    assert.deepEqual({ ...byIndex.get('b', 1) }, c1);
    assert.deepEqual({ ...s.chapters.get('b', 1) }, c1);
    assert.deepEqual(
      { ...s.chapters.get('b', 0) },
      { ...c1, url: 'c0', title: 'T0', isVolume: true, index: 0, isVip: false, isPay: true, start: null, end: 9 },
    );
    assert.equal(s.chapters.get('b', 2), undefined);
    assert.equal(s.chapters.get('nope', 1), undefined);
    // A bigint index is encoded by the checked path; a fractional one refused there; null is IS NULL.
    assert.equal(byIndex.get('b', 1n)?.url, 'c1');
    assert.throws(
      () => byIndex.get('b', 1.5),
      (e: unknown) => e instanceof ValueTypeError && e.fields[0] === 'index',
    );
    assert.equal(byIndex.get(null, 1), undefined);
    // Five values to a three-field finder: the first three are the lookup's.
    const three = s.tables.chapters.finder(['bookUrl', 'index', 'title']);
    assert.equal((three.get as (...v: unknown[]) => unknown)('b', 0, 'T0', 'x', 'y') !== undefined, true);
    // A Long past 2^53 comes back exact: the row read again with safeIntegers.
    s.db.prepare("UPDATE chapters SET start = ? WHERE url = 'c1'").run(2n ** 60n + 1n);
    assert.equal(s.chapters.get('b', 1)?.start, 2n ** 60n + 1n);
  } finally {
    s.close();
  }
});
