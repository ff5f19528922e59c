// Book groups: power-of-two ids up to the 64th (negative), rename/reorder/delete with the bit
// cleared from books, the visible tabs, and the special groups on open.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { openStore } from 'legado-store';
import { SPECIAL_GROUPS, isUserGroupId } from 'legado-store/tools';
import { LimitError, UnknownFieldError } from 'legado-store/errors';
import { snapshot } from './helpers/files.js';
import { book, newStore, newStore49, raw, rawAll } from './helpers/domain.js';

test('create takes the smallest free power of two, up to 64 groups; the 64th is -2^63', () => {
  const s = newStore();
  const ids: bigint[] = [];
  for (let i = 0; i < 64; i++) ids.push(s.bookGroups.create(`g${i}`).groupId);
  assert.deepEqual(ids.slice(0, 4), [1n, 2n, 4n, 8n]);
  assert.equal(ids[62], 2n ** 62n);
  assert.equal(ids[63], -(2n ** 63n));
  assert.equal(raw(s, 'SELECT groupId FROM book_groups WHERE groupName = ?', 'g63'), -(2n ** 63n), 'stored as the signed 64-bit value');
  assert.throws(
    () => s.bookGroups.create('g64'),
    (e: unknown) => e instanceof LimitError && e.code === 'LIMIT_REACHED',
  );
  // A freed bit is reused, the smallest first.
  s.bookGroups.delete(8n);
  s.bookGroups.delete(2n);
  assert.equal(s.bookGroups.create('again').groupId, 2n);
  assert.equal(s.bookGroups.create('again2').groupId, 8n);
  s.close();
});

test('create: order is one more than the user groups’ largest, show defaults to true, bookSort to -1', () => {
  const s = newStore();
  const a = s.bookGroups.create('武侠');
  const b = s.bookGroups.create('科幻', { show: false, bookSort: 2, cover: '/c.jpg' });
  assert.deepEqual([a.order, a.show, a.bookSort], [1, true, -1]);
  assert.deepEqual([b.order, b.show, b.bookSort, b.cover], [2, false, 2, '/c.jpg']);
  assert.equal(s.bookGroups.create('x', { order: 10 }).order, 10);
  assert.equal(raw(s, 'SELECT show FROM book_groups WHERE groupName = ?', '科幻'), 0n, 'a boolean is 0/1 in the file');
  s.close();
});

test('ids written by hand that are not single bits are not taken for groups by nextId', () => {
  const s = newStore();
  s.tables.book_groups.insert({ groupId: 1, groupName: 'a', order: 1, show: true });
  s.tables.book_groups.insert({ groupId: 4, groupName: 'c', order: 2, show: true });
  assert.equal(s.bookGroups.nextId(), 2n);
  assert.equal(s.bookGroups.userMask(), 5n);
  assert.equal(isUserGroupId(2n ** 63n), true);
  assert.equal(isUserGroupId(-(2n ** 63n)), true);
  assert.equal(isUserGroupId(6), false);
  assert.equal(isUserGroupId(-1), false);
  assert.equal(isUserGroupId(0), false);
  assert.equal(isUserGroupId(2n ** 64n), false);
  s.close();
});

test('rename, show, reorder', () => {
  const s = newStore();
  const a = s.bookGroups.create('a').groupId;
  const b = s.bookGroups.create('b').groupId;
  const c = s.bookGroups.create('c').groupId;
  assert.equal(s.bookGroups.rename(a, '甲'), true);
  assert.equal(s.bookGroups.rename(1n << 20n, 'x'), false);
  assert.equal(s.bookGroups.getByName('甲')?.groupId, a);
  assert.equal(s.bookGroups.reorder([c, a, b]), 3);
  assert.deepEqual(
    s.bookGroups.userGroups().map((g) => g.groupName),
    ['c', '甲', 'b'],
  );
  assert.deepEqual(rawAll(s, 'SELECT `order` FROM book_groups WHERE groupId > 0 ORDER BY groupId'), [2n, 3n, 1n]);
  assert.deepEqual(
    s.bookGroups
      .all()
      .slice(0, 2)
      .map((g) => g.groupId),
    [-1n, -2n],
    'all(): special groups first by their negative order',
  );
  s.bookGroups.setShow(b, false);
  assert.equal(s.bookGroups.get(b)?.show, false);
  s.close();
});

test('delete removes the group and clears its bit from every book, and only that bit', () => {
  const s = newStore();
  const g1 = s.bookGroups.create('g1').groupId;
  const g2 = s.bookGroups.create('g2').groupId;
  for (let i = 0; i < 62; i++) s.bookGroups.create(`f${i}`);
  const g64 = s.bookGroups.get(-(2n ** 63n))!.groupId;
  s.books.save(book('b1', { group: g1 | g2 }));
  s.books.save(book('b2', { group: g1 }));
  s.books.save(book('b3', { group: g2 | g64 }));
  assert.equal(s.bookGroups.delete(g1), true);
  assert.deepEqual(rawAll(s, 'SELECT `group` FROM books ORDER BY bookUrl'), [2n, 0n, 2n - 2n ** 63n]);
  assert.equal(s.bookGroups.delete(g64), true);
  assert.deepEqual(rawAll(s, 'SELECT `group` FROM books ORDER BY bookUrl'), [2n, 0n, 2n], 'bit 63 cleared without overflow');
  assert.equal(s.bookGroups.get(g1), undefined);
  // Deleting a special group deletes only its row: special ids are not bits.
  s.books.save(book('b4', { group: -1 }));
  assert.equal(s.bookGroups.delete(-1), true);
  assert.equal(raw(s, "SELECT `group` FROM books WHERE bookUrl = 'b4'"), -1n);
  assert.equal(s.bookGroups.delete(g1), false, 'already gone');
  s.close();
});

test('namesOf: the user groups of a book’s bitmask', () => {
  const s = newStore();
  const a = s.bookGroups.create('武侠').groupId;
  s.bookGroups.create('科幻');
  const c = s.bookGroups.create('都市').groupId;
  assert.deepEqual(s.bookGroups.namesOf(a | c), ['武侠', '都市']);
  assert.deepEqual(s.bookGroups.namesOf(0), []);
  s.close();
});

test('visible tabs follow the v62 rules', () => {
  const s = newStore();
  const tabs = () => s.bookGroups.visible().map((g) => Number(g.groupId));
  assert.deepEqual(tabs(), [-1], 'no books: only 全部 (−5 is hidden by default)');
  const g = s.bookGroups.create('空的').groupId;
  const hidden = s.bookGroups.create('hidden', { show: false }).groupId;
  assert.deepEqual(tabs(), [-1, Number(g)], 'a shown user group appears even when empty');
  s.books.save(book('net-none'));
  assert.deepEqual(tabs(), [-1, -4, Number(g)]);
  s.books.save(book('local', { type: 264, group: g }));
  assert.deepEqual(tabs(), [-1, -2, -4, Number(g)], '−5 stays hidden: its row has show 0');
  s.bookGroups.setShow(-5, true);
  assert.deepEqual(tabs(), [-1, -2, -4, Number(g)], '−5 shown, but no local book is ungrouped');
  s.books.save(book('local2', { type: 264, name: 'l2' }));
  assert.deepEqual(tabs(), [-1, -2, -4, -5, Number(g)]);
  s.books.save(book('audio', { type: 32, group: hidden, name: 'au' }));
  s.books.save(book('fail', { type: 8 | 16, group: g, name: 'f' }));
  assert.deepEqual(tabs(), [-1, -2, -3, -4, -5, -11, Number(g)]);
  s.bookGroups.setShow(-1, false);
  assert.equal(tabs().includes(-1), false);
  s.close();
});

test('openStore inserts the v62 special groups into a file it creates; ensureSpecial fills only missing ids', () => {
  const s = newStore();
  assert.deepEqual(
    s.db.prepare('SELECT groupId, groupName, `order`, show, bookSort FROM book_groups ORDER BY `order`').safeIntegers(true).all(),
    SPECIAL_GROUPS[62].map((g) => ({ groupId: g.groupId, groupName: g.groupName, order: BigInt(g.order), show: g.show ? 1n : 0n, bookSort: -1n })),
  );
  s.bookGroups.rename(-4, '未分组');
  s.db.exec('DELETE FROM book_groups WHERE groupId IN (-5, -11)');
  assert.equal(s.bookGroups.ensureSpecial(), 2);
  assert.equal(s.bookGroups.ensureSpecial(), 0);
  assert.equal(s.bookGroups.get(-4)?.groupName, '未分组', 'an existing row is kept as it is (a v49 name stays)');
  const off = newStore({ specialGroups: false });
  assert.equal(off.tables.book_groups.count(), 0, 'specialGroups: false');
  off.close();
  s.close();
});

test('an existing file is left untouched unless specialGroups: true is asked', () => {
  const created = newStore({ specialGroups: false });
  const path = created.path;
  created.close();
  const copy = `${path}.copy.db`;
  copyFileSync(path, copy);
  const before = snapshot(copy);
  const s = openStore(copy);
  assert.equal(s.tables.book_groups.count(), 0);
  s.close();
  assert.deepEqual(snapshot(copy), before, 'the file was not written');
  const asked = openStore(copy, { specialGroups: true });
  assert.equal(asked.tables.book_groups.count(), 6);
  asked.close();
});

test('schema 49: the v49 special groups, bookSort read as -1, setBookSort refused', () => {
  const s = newStore49();
  assert.deepEqual(
    s.bookGroups.all().map((g) => [g.groupId, g.groupName]),
    [
      [-1n, '全部'],
      [-2n, '本地'],
      [-3n, '音频'],
      [-4n, '未分组'],
    ],
  );
  const g = s.bookGroups.create('武侠').groupId;
  assert.equal(s.bookGroups.bookSortOf(g), -1);
  assert.throws(() => s.bookGroups.setBookSort(g, 2), UnknownFieldError);
  assert.throws(() => s.bookGroups.create('x', { bookSort: 1 }), UnknownFieldError);
  s.books.save(book('b', { name: '乙', group: g, durChapterTime: 1 }));
  s.books.save(book('a', { name: '甲', group: g, durChapterTime: 2 }));
  assert.deepEqual(
    s.books.shelf(g, { defaultSort: 2 }).map((b) => b.name),
    ['甲', '乙'],
    'the default sort applies',
  );
  s.close();
});

test('bitmasks are read exactly by every read path: beyond 2^53, the 64th bit, and ordered by their value', () => {
  const s = newStore();
  const masks = [5n, 2n ** 53n + 1n, -(2n ** 63n), -(2n ** 63n) | 1n, 2n ** 62n, 0n];
  // Written by plain SQL, as the app would have them in the file.
  const put = s.db.prepare('INSERT INTO books (bookUrl, name, author, origin, type, `group`, durChapterTime) VALUES (?, ?, ?, ?, 8, ?, ?)');
  masks.forEach((m, i) => put.run(`u${i}`, `n${i}`, 'a', 'o', m, i));
  s.db.prepare('INSERT INTO book_groups (groupId, groupName, `order`, show) VALUES (?, ?, 64, 1)').run(-(2n ** 63n), 'g64');
  masks.forEach((m, i) => {
    assert.equal(s.tables.books.get(`u${i}`)!.group, m, `get u${i}`);
    assert.equal(s.books.getByNameAuthor(`n${i}`, 'a')!.group, m, `finder u${i}`);
  });
  assert.deepEqual(
    s.tables.books.list({ orderBy: 'group' }).map((b) => b.group),
    [...masks].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    'ordered by value, not as text',
  );
  assert.deepEqual(
    [...s.tables.books.iterate({ where: { bookUrl: 'u2' } })].map((b) => b.group),
    [masks[2]],
  );
  assert.deepEqual(
    s.books
      .shelf(-(2n ** 63n))
      .map((b) => b.bookUrl)
      .sort(),
    ['u2', 'u3'],
  );
  assert.deepEqual(
    s.books
      .shelf(1n)
      .map((b) => b.bookUrl)
      .sort(),
    ['u0', 'u1', 'u3'],
    'bit 1, in 5, 2^53 + 1 and the 64th bit with it',
  );
  assert.equal(s.tables.book_groups.get(-(2n ** 63n))!.groupId, -(2n ** 63n));
  assert.equal(s.bookGroups.userGroups().find((g) => g.groupName === 'g64')!.groupId, -(2n ** 63n));
  assert.equal(s.bookGroups.getByName('g64')!.groupId, -(2n ** 63n));
  // A value the app never writes stays as SQLite holds it.
  s.db.prepare('UPDATE books SET `group` = 2.5 WHERE bookUrl = ?').run('u0');
  assert.equal(s.tables.books.get('u0')!.group as unknown, 2.5);
  s.close();
});

test('a number field beyond 2^53, written by another program, reads exactly (a bigint) beside a bitmask on every engine', () => {
  const s = newStore();
  const big = 2n ** 60n + 1n;
  s.db
    .prepare('INSERT INTO books (bookUrl, name, author, origin, type, `group`, durChapterTime) VALUES (?, ?, ?, ?, 8, ?, ?)')
    .run('u', 'n', 'a', 'o', 2n ** 62n, big);
  assert.equal(s.tables.books.get('u')!.durChapterTime as unknown, big);
  assert.equal(s.books.getByNameAuthor('n', 'a')!.durChapterTime as unknown, big);
  assert.deepEqual(
    s.tables.books.list().map((b) => [b.durChapterTime, b.group]),
    [[big, 2n ** 62n]],
  );
  assert.deepEqual(
    [...s.tables.books.iterate()].map((b) => [b.durChapterTime, b.group]),
    [[big, 2n ** 62n]],
  );
  assert.deepEqual(
    s.books.shelf(2n ** 62n).map((b) => b.durChapterTime),
    [big],
  );
  s.close();
});
