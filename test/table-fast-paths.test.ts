// The generated per-table encoders and decoders give exactly what the general codec paths give
// (or leave the row to them), LIMIT/OFFSET written into the SQL page correctly, and the
// per-table statement caches stay bounded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openStore, schemas } from 'legado-store';
import type { Table } from 'legado-store/tools';
import { Codec } from '../src/table/codec.js';
import { fullRow, minimalRow } from './helpers/rows.js';

type General = { encodeRowChecked(row: Record<string, unknown>): unknown[] };
const general = (codec: Codec, row: Record<string, unknown>): unknown => {
  try {
    return (codec as unknown as General).encodeRowChecked(row);
  } catch (e) {
    return e;
  }
};
const encode = (codec: Codec, row: Record<string, unknown>): unknown => {
  try {
    return codec.encodeRow(row);
  } catch (e) {
    return e;
  }
};

/** Rows of every kind: valid, with nulls, wrong types, missing, unknown and undefined-valued fields. */
function variants(t: Table): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [fullRow(t, 1), fullRow(t, 2), minimalRow(t, 3)];
  for (const c of t.columns) {
    for (const v of [null, undefined, 'text', 1.5, 7, -3, true, false, 0, 2n ** 63n, -(2n ** 63n), 2n ** 64n, 2 ** 60, {}]) {
      out.push({ ...fullRow(t, 4), [c.field]: v });
    }
    const { [c.field]: _omitted, ...rest } = fullRow(t, 5);
    out.push(rest);
  }
  out.push({ ...fullRow(t, 6), notAField: 1 }, { ...fullRow(t, 7), notAField: undefined });
  return out;
}

test('the generated encoder and the general path agree on every table, at 62 and 49', () => {
  for (const version of [62, 49] as const) {
    for (const t of schemas[version].tables) {
      const codec = new Codec(t, version);
      for (const row of variants(t)) {
        const a = encode(codec, row);
        const b = general(codec, row);
        if (a instanceof Error || b instanceof Error) {
          assert.ok(a instanceof Error && b instanceof Error, `${t.name}: one path threw for ${String(Object.keys(row))}`);
          assert.equal(a.constructor, b.constructor);
          assert.equal(a.message, b.message);
        } else {
          assert.deepEqual(a, b, `${t.name} ${version}`);
        }
      }
    }
  }
});

/** False where code generation is forbidden (codegen-fallback.test runs this suite so): the generated paths are then not made. */
const generates = ((): boolean => {
  try {
    return typeof new Function('return 1') === 'function';
  } catch {
    return false;
  }
})();

test("a bulk write's split encoder agrees with the general path on the columns it writes and the values it compares, or leaves the row to it", () => {
  for (const version of [62, 49] as const) {
    for (const t of schemas[version].tables) {
      const codec = new Codec(t, version);
      // Every other column shared, with the values a full row gives them.
      const shared = t.columns.map((_, i) => i).filter((i) => i % 2 === 0);
      const varying = t.columns.map((_, i) => i).filter((i) => i % 2 === 1);
      const made = codec.splitEncoder(shared);
      if (!generates) {
        // Bulk writes then copy the values of every row of a batch (bindShared), as they did.
        assert.equal(made, undefined);
        continue;
      }
      const split = made!;
      const front = (general(codec, fullRow(t, 4)) as unknown[]).filter((_, i) => i % 2 === 0);
      let taken = 0;
      for (const row of variants(t)) {
        const out: unknown[] = [...front, 'before'];
        if (!split(row, out as never, front.length + 1)) continue;
        taken++;
        const want = general(codec, row);
        assert.ok(Array.isArray(want), `${t.name}: the split encoder took a row the general path refuses (${String(Object.keys(row))})`);
        assert.deepEqual(
          shared.map((c) => want[c]),
          front,
          `${t.name}: a shared value differs`,
        );
        assert.deepEqual(
          out.slice(front.length + 1),
          varying.map((c) => want[c]),
          `${t.name} ${version}`,
        );
        assert.equal(out[front.length], 'before', 'nothing written before `at`');
      }
      assert.ok(taken > 0, `${t.name}: the split encoder took no row`);
      // The row the shared values come from, at least.
      assert.equal(split(fullRow(t, 4), [...front] as never, front.length), true, t.name);
    }
  }
});

test('the generated encoder takes a field given as undefined as left out, without the general path', () => {
  for (const t of schemas[62].tables) {
    const codec = new Codec(t, 62);
    const fast = (row: Record<string, unknown>) =>
      (codec as unknown as { fastEncode?: (r: object, o: unknown[], a: number) => boolean }).fastEncode!(row, [], 0);
    codec.encodeRow(fullRow(t, 1));
    // Without code generation the fast path takes no row (the first test holds the general path to account).
    if (!generates) {
      assert.equal(fast(fullRow(t, 1)), false);
      continue;
    }
    for (const c of t.columns) {
      const { [c.field]: _omitted, ...rest } = fullRow(t, 5);
      const left = general(codec, rest);
      // A field the general path lets one leave out is taken by the fast path as undefined too.
      if (Array.isArray(left)) assert.equal(fast({ ...rest, [c.field]: undefined }), true, `${t.name}.${c.field}`);
    }
    assert.equal(fast({ ...fullRow(t, 6), notAField: undefined }), false, `${t.name}: a key that is not a field`);
  }
});

test('rows read as arrays: booleans from 0/1, bitmasks as bigints from a number or decimal text, null stays null', () => {
  const table = schemas[62].tables.find((t) => t.name === 'books')!;
  const books = new Codec(table, 62);
  const row = (group: unknown): Record<string, unknown> =>
    books.fromRaw(
      table.columns.map((c) =>
        c.field === 'canUpdate' ? 0 : c.field === 'kind' || c.field === 'durChapterIndex' ? null : c.js === 'string' ? 's' : c.js === 'bigint' ? group : 7,
      ),
    );
  const out = row(5);
  assert.deepEqual(
    Object.keys(out),
    table.columns.map((c) => c.field),
  );
  for (const c of table.columns) {
    const want =
      c.field === 'canUpdate' ? false : c.field === 'kind' || c.field === 'durChapterIndex' ? null : c.js === 'string' ? 's' : c.js === 'bigint' ? 5n : 7;
    assert.equal(out[c.field], want, c.field);
  }
  // selectList reads a bitmask beyond 2^53 as decimal text; what the app never writes stays as read.
  assert.equal(row('-9223372036854775808').group, -(2n ** 63n));
  assert.equal(row('9007199254740993').group, 2n ** 53n + 1n);
  assert.equal(row(2.5).group, 2.5);
  assert.equal(row(1e300).group, 1e300);
  assert.equal(row('12 apples').group, '12 apples');
  const chapters = schemas[62].tables.find((t) => t.name === 'chapters')!;
  const ch = new Codec(chapters, 62).fromRaw<Record<string, unknown>>(
    chapters.columns.map((c) => (c.field === 'isVolume' ? 1 : c.field === 'isVip' ? 0 : c.field === 'isPay' ? null : 3)),
  );
  assert.deepEqual([ch.isVolume, ch.isVip, ch.isPay, ch.index], [true, false, null, 3]);
  const rules = schemas[62].tables.find((t) => t.name === 'replace_rules')!;
  assert.ok('order' in new Codec(rules, 62).fromRaw<Record<string, unknown>>(rules.columns.map(() => 1)), 'renamed columns are read as their field');
});

test('limit and offset page through a table, with more distinct pages than statements kept', () => {
  const store = openStore(':memory:');
  try {
    const rows = Array.from({ length: 600 }, (_, i) => ({ word: `w${String(i).padStart(4, '0')}`, usage: i, lastUseTime: i }));
    store.tables.search_keywords.insertMany(rows);
    for (let offset = 0; offset < 600; offset++) {
      const page = store.tables.search_keywords.list({ orderBy: 'word', limit: 1, offset });
      assert.deepEqual(page, [rows[offset]]);
    }
    assert.equal(store.tables.search_keywords.list({ orderBy: 'word', offset: 590 }).length, 10);
    assert.equal(store.tables.search_keywords.list({ orderBy: 'word', limit: 2 ** 60 }).length, 600);
    assert.throws(() => store.tables.search_keywords.list({ limit: 1.5 }), /limit/);
    for (let i = 0; i < 300; i++) assert.equal(store.tables.search_keywords.count({ usage: { gte: i } }), 600 - i);
  } finally {
    store.close();
  }
});

test('update: any fields in any order, more distinct field lists than statements kept', () => {
  const store = openStore(':memory:');
  try {
    const books = store.tables.books;
    books.insert({ bookUrl: 'b', name: 'n', author: 'a' });
    const fields = ['durChapterIndex', 'durChapterPos', 'durChapterTime', 'lastCheckCount', 'totalChapterNum', 'order', 'originOrder', 'type'] as const;
    // From 100: books.type takes no value below 8 (the kind bit) at the default schema, 75.
    let n = 100;
    // Every ordered pair and triple of distinct fields: 8*7 + 8*7*6 = 392 field lists.
    for (const a of fields) {
      for (const b of fields) {
        if (b === a) continue;
        assert.equal(books.update('b', { [a]: ++n, [b]: n + 1 }), true);
        assert.deepEqual([books.get('b')![a], books.get('b')![b]], [n, n + 1]);
        for (const c of fields) {
          if (c === a || c === b) continue;
          books.update('b', { [c]: ++n, [a]: n + 1, [b]: n + 2 });
          assert.deepEqual([books.get('b')![c], books.get('b')![a], books.get('b')![b]], [n, n + 1, n + 2]);
        }
      }
    }
    assert.equal(books.update('nope', { durChapterPos: 1 }), false);
    // A JavaScript caller may pass undefined, which the types (exactOptionalPropertyTypes) refuse.
    assert.equal(books.update('b', { durChapterPos: undefined } as unknown as { durChapterPos?: number }), true);
  } finally {
    store.close();
  }
});

test('finder and updater: prepared lookups and updates as objects (get, set), checked as list and update are', async () => {
  const store = await openStore(':memory:');
  try {
    const chapters = store.tables.chapters;
    store.tables.books.insert({ ...minimalRow(schemas[62].table('books')!, 1), bookUrl: 'b', durChapterTitle: null } as never);
    const chapter = minimalRow(schemas[62].table('chapters')!, 1);
    chapters.insertMany([0, 1, 2].map((i) => ({ ...chapter, url: `c${i}`, bookUrl: 'b', index: i, isVolume: i === 1 })) as never);
    const byIndex = chapters.finder(['bookUrl', 'index']);
    assert.equal(byIndex.get('b', 1)?.url, 'c1');
    assert.equal(byIndex.get('b', 9), undefined);
    // A null value is matched IS NULL (list's way): no chapter has a null bookUrl.
    assert.equal(byIndex.get(null, 1), undefined);
    assert.throws(() => byIndex.get('b', 'one'), { code: 'WRONG_TYPE' });
    assert.throws(() => byIndex.get('b', 1.5), { code: 'WRONG_TYPE' });
    // Values not bound as given are encoded: a bigint index, a boolean as 0/1, three fields.
    assert.equal(byIndex.get('b', 2n)?.url, 'c2');
    const byKind = chapters.finder(['bookUrl', 'isVolume', 'index']);
    assert.equal(byKind.get('b', true, 1)?.url, 'c1');
    assert.equal(byKind.get('b', false, 1), undefined);
    assert.equal(byKind.get('b', false, 2)?.url, 'c2');
    assert.throws(() => byKind.get('b', 1, 1), { code: 'WRONG_TYPE' });
    // A null after a value that needs encoding: list's way gets the values as given.
    assert.equal(chapters.finder(['isVolume', 'bookUrl']).get(true, null), undefined);
    assert.equal(chapters.finder(['isVolume', 'bookUrl']).get(true, 'b')?.url, 'c1');
    const books = store.tables.books;
    const progress = books.updater(['durChapterIndex', 'durChapterTitle']);
    assert.equal(progress.set('b', [2, undefined]), true);
    assert.equal(progress.set('nope', [2, 'x']), false);
    const row = store.db.prepare('SELECT durChapterIndex, durChapterTitle FROM books WHERE bookUrl = ?').get('b');
    assert.deepEqual({ ...(row as object) }, { durChapterIndex: 2, durChapterTitle: null });
    // Nothing given: answers whether the row is there, as update does.
    assert.equal(progress.set('b', [undefined, undefined]), true);
    assert.throws(() => books.updater(['bookUrl' as never]), { code: 'WRONG_TYPE' });
  } finally {
    store.close();
  }
});

test('the domain areas are made with the store: one per store, and one whose table the version lacks fails on use', async () => {
  const s62 = await openStore(':memory:');
  const s49 = await openStore(':memory:', { schema: 49 });
  try {
    assert.equal(s62.books, s62.books);
    assert.notEqual(s62.books, s49.books);
    assert.equal(s62.chapters.get('none', 0), undefined);
    assert.throws(() => s49.dictRules, { code: 'UNKNOWN_TABLE' });
    assert.throws(() => s49.servers, { code: 'UNKNOWN_TABLE' });
    assert.deepEqual(s49.replaceRules.all(), []);
  } finally {
    s62.close();
    s49.close();
  }
});
