// Books: save keeps chapters, the special bookshelf tabs and user-group bits, the four
// orderings, search, progress and the refresh list, checked against the file with raw SQL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BookType, BookshelfSort, UniqueViolationError } from 'legado-store';
import { sortBooks } from 'legado-store/tools';
import { ValueTypeError } from 'legado-store/errors';
import { FakeClock, T0, book, chapter, newStore, newStore49, raw, rawAll } from './helpers/domain.js';

const LOCAL = BookType.local | BookType.text;
const AUDIO = BookType.audio;

test('save updates an existing bookUrl in place: its chapters survive', () => {
  const s = newStore();
  assert.equal(s.books.save(book('b1', { name: '青山', durChapterPos: 1 })), 'inserted');
  s.chapters.replaceToc('b1', [chapter('b1', 0), chapter('b1', 1), chapter('b1', 2)]);
  assert.equal(s.books.save(book('b1', { name: '青山', durChapterPos: 7, intro: '简介' })), 'updated');
  assert.equal(raw(s, 'SELECT count(*) FROM chapters WHERE bookUrl = ?', 'b1'), 3n, 'no delete-and-reinsert, so no cascade');
  assert.equal(raw(s, 'SELECT durChapterPos FROM books WHERE bookUrl = ?', 'b1'), 7n);
  assert.equal(raw(s, 'SELECT intro FROM books WHERE bookUrl = ?', 'b1'), '简介');
  // Fields left out of a save keep their stored values.
  s.books.save({ bookUrl: 'b1', durChapterIndex: 2 });
  assert.equal(raw(s, 'SELECT intro FROM books WHERE bookUrl = ?', 'b1'), '简介');
  s.close();
});

test('save never deletes another book with the same name and author (REPLACE would)', () => {
  const s = newStore();
  s.books.save(book('b1', { name: 'n', author: 'a' }));
  s.chapters.replaceToc('b1', [chapter('b1', 0)]);
  assert.throws(() => s.books.save(book('b2', { name: 'n', author: 'a' })), UniqueViolationError);
  assert.deepEqual(rawAll(s, 'SELECT bookUrl FROM books'), ['b1']);
  assert.equal(raw(s, 'SELECT count(*) FROM chapters'), 1n);
  s.close();
});

test('get by url and by (name, author)', () => {
  const s = newStore();
  s.books.save(book('b1', { name: '星海', author: '周航' }));
  assert.equal(s.books.get('b1')?.name, '星海');
  assert.equal(s.books.getByNameAuthor('星海', '周航')?.bookUrl, 'b1');
  assert.equal(s.books.getByNameAuthor('星海', '别人'), undefined);
  assert.equal(s.books.get('nope'), undefined);
  s.close();
});

/** A shelf: net books in groups 1 and 2, local books, audio, an update failure, ungrouped ones. */
function shelfStore() {
  const s = newStore();
  const g1 = s.bookGroups.create('武侠').groupId;
  const g2 = s.bookGroups.create('科幻').groupId;
  const g64 = -(2n ** 63n);
  s.tables.book_groups.insert({ groupId: g64, groupName: '第64组', order: 64, show: true });
  const rows = [
    book('net-g1', { group: g1, durChapterTime: 5 }),
    book('net-g1g2', { group: g1 | g2, durChapterTime: 4 }),
    book('net-none', { group: 0, durChapterTime: 3 }),
    book('net-g64', { group: g64, durChapterTime: 2 }),
    book('local-none', { type: LOCAL, origin: 'loc_book', durChapterTime: 9 }),
    book('local-g2', { type: LOCAL, origin: 'loc_book', group: g2, durChapterTime: 1 }),
    book('audio-none', { type: AUDIO, durChapterTime: 8 }),
    book('failed', { type: BookType.text | BookType.updateError, group: g1, durChapterTime: 7 }),
    // A group bit whose group was deleted elsewhere does not count as a group.
    book('stale-bit', { group: 1n << 40n, durChapterTime: 6 }),
  ];
  for (const b of rows) s.books.save(b);
  return { s, g1, g2, g64 };
}

const urls = (books: readonly { bookUrl: string }[]) => books.map((b) => b.bookUrl);

test('the special bookshelf tabs select the app’s books', () => {
  const { s } = shelfStore();
  const sorted = (id: number) => urls(s.books.shelf(id)).sort();
  assert.deepEqual(sorted(-1), ['audio-none', 'failed', 'local-g2', 'local-none', 'net-g1', 'net-g1g2', 'net-g64', 'net-none', 'stale-bit']);
  assert.deepEqual(sorted(-2), ['local-g2', 'local-none']);
  assert.deepEqual(sorted(-3), ['audio-none']);
  assert.deepEqual(sorted(-4), ['net-none', 'stale-bit'], 'net books with no bit of an existing user group (the 64th counts as one)');
  assert.deepEqual(sorted(-5), ['local-none']);
  assert.deepEqual(sorted(-11), ['failed']);
  s.close();
});

test('a user group is one bit of books.group, the 64th (negative) included', () => {
  const { s, g1, g2, g64 } = shelfStore();
  assert.equal(g1, 1n);
  assert.equal(g2, 2n);
  assert.deepEqual(urls(s.books.shelf(g1)).sort(), ['failed', 'net-g1', 'net-g1g2']);
  assert.deepEqual(urls(s.books.shelf(2)).sort(), ['local-g2', 'net-g1g2']);
  assert.deepEqual(urls(s.books.shelf(g64)), ['net-g64']);
  assert.deepEqual(urls(s.books.shelf(2n ** 63n)), ['net-g64'], 'bit 63 may be given unsigned');
  assert.deepEqual(urls(s.books.shelf(4)), []);
  assert.throws(() => s.books.shelf(3), ValueTypeError, 'not a power of two');
  assert.throws(() => s.books.shelf(-6), ValueTypeError, 'not a special id');
  s.close();
});

test('the four bookshelf orderings; the group’s own bookSort wins over the default, an explicit sort over both', () => {
  const s = newStore();
  const g = s.bookGroups.create('g').groupId;
  s.books.save(book('u1', { group: g, name: '中国', durChapterTime: 1, latestChapterTime: 30, order: 2 }));
  s.books.save(book('u2', { group: g, name: '阿明', durChapterTime: 3, latestChapterTime: 10, order: 3 }));
  s.books.save(book('u3', { group: g, name: '波波', durChapterTime: 2, latestChapterTime: 20, order: 1 }));
  assert.deepEqual(urls(s.books.shelf(g)), ['u2', 'u3', 'u1'], 'group bookSort -1 and no default: 0, last read first');
  assert.deepEqual(urls(s.books.shelf(g, { defaultSort: BookshelfSort.latestChapter })), ['u1', 'u3', 'u2']);
  assert.deepEqual(urls(s.books.shelf(g, { defaultSort: BookshelfSort.name })), ['u2', 'u3', 'u1'], '阿 a, 波 b, 中 z: pinyin');
  assert.deepEqual(urls(s.books.shelf(g, { defaultSort: BookshelfSort.manual })), ['u3', 'u1', 'u2']);
  s.bookGroups.setBookSort(g, BookshelfSort.manual);
  assert.deepEqual(urls(s.books.shelf(g, { defaultSort: BookshelfSort.name })), ['u3', 'u1', 'u2'], 'the group’s own sort');
  assert.deepEqual(urls(s.books.shelf(g, { sort: BookshelfSort.lastRead })), ['u2', 'u3', 'u1']);
  assert.deepEqual(urls(s.books.shelf(-1, { defaultSort: 1 })), ['u1', 'u3', 'u2'], 'special groups use their row’s bookSort (-1) too');
  assert.throws(() => sortBooks([], 7 as never), RangeError);
  s.close();
});

test('search matches name or author, with % and _ taken literally', () => {
  const s = newStore();
  s.books.save(book('b1', { name: '青山剑客', author: '林远' }));
  s.books.save(book('b2', { name: '星海', author: '青木' }));
  s.books.save(book('b3', { name: '100% 完成', author: 'x' }));
  s.books.save(book('b4', { name: '1000 完成', author: 'y' }));
  assert.deepEqual(urls(s.books.search('青')).sort(), ['b1', 'b2']);
  assert.deepEqual(urls(s.books.search('100%')), ['b3']);
  assert.deepEqual(urls(s.books.search('林远')), ['b1']);
  s.close();
});

test('progress: by bookUrl and by (name, author); the time defaults to the store clock', () => {
  const clock = new FakeClock();
  const s = newStore({ clock: clock.read });
  s.books.save(book('b1', { name: 'n', author: 'a' }));
  assert.equal(s.books.updateProgress('b1', { durChapterIndex: 4, durChapterPos: 120, durChapterTitle: '第5章' }), true);
  const row = s.db.prepare('SELECT durChapterIndex, durChapterPos, durChapterTitle, durChapterTime FROM books').get();
  assert.deepEqual(row, { durChapterIndex: 4, durChapterPos: 120, durChapterTitle: '第5章', durChapterTime: T0 });
  assert.equal(s.books.updateProgressByNameAuthor('n', 'a', { durChapterIndex: 5, durChapterPos: 0, durChapterTime: 42 }), true);
  assert.equal(raw(s, 'SELECT durChapterTime FROM books'), 42n);
  assert.equal(raw(s, 'SELECT durChapterTitle FROM books'), '第5章', 'a title left out stays');
  assert.equal(s.books.updateProgress('nope', { durChapterIndex: 0, durChapterPos: 0 }), false);
  assert.equal(s.books.updateProgressByNameAuthor('n', 'other', { durChapterIndex: 0, durChapterPos: 0 }), false);
  // Checked as any update is: nothing written on a bad value.
  assert.throws(() => s.books.updateProgress('b1', { durChapterIndex: 1.5, durChapterPos: 0 }), ValueTypeError);
  assert.equal(raw(s, 'SELECT durChapterIndex FROM books'), 5n);
  // With and without a title, in turn: each its own statement, each setting only what it names.
  assert.equal(s.books.updateProgress('b1', { durChapterIndex: 6, durChapterPos: 1, durChapterTitle: '第7章', durChapterTime: 50 }), true);
  assert.equal(s.books.updateProgress('b1', { durChapterIndex: 7, durChapterPos: 2, durChapterTime: 60 }), true);
  assert.deepEqual(s.db.prepare('SELECT durChapterIndex, durChapterPos, durChapterTitle, durChapterTime FROM books').get(), {
    durChapterIndex: 7,
    durChapterPos: 2,
    durChapterTitle: '第7章',
    durChapterTime: 60,
  });
  s.close();
});

test('books to refresh: canUpdate and not local; last read text book', () => {
  const s = newStore();
  s.books.save(book('net', { durChapterTime: 1 }));
  s.books.save(book('net-off', { canUpdate: false, durChapterTime: 5 }));
  s.books.save(book('local', { type: LOCAL, durChapterTime: 3 }));
  s.books.save(book('audio', { type: AUDIO, durChapterTime: 9 }));
  assert.deepEqual(urls(s.books.toRefresh()).sort(), ['audio', 'net']);
  assert.equal(s.books.lastRead()?.bookUrl, 'net-off', 'the newest text book (audio is not text)');
  s.db.exec("UPDATE books SET canUpdate = 0 WHERE bookUrl = 'audio'");
  assert.deepEqual(urls(s.books.toRefresh()), ['net']);
  s.close();
});

test('setGroups writes the bitmask the app reads', () => {
  const s = newStore();
  s.books.save(book('b1'));
  assert.equal(s.books.setGroups('b1', (2n ** 63n) | 1n), true);
  assert.equal(raw(s, 'SELECT `group` FROM books'), -(2n ** 63n) + 1n);
  s.close();
});

test('schema 49: local is origin loc_book and audio is type 1, as the v49 app read them', () => {
  const s = newStore49();
  const g = s.bookGroups.create('g').groupId;
  s.books.save(book('net', { type: 0, durChapterTime: 3 }));
  s.books.save(book('net-g', { type: 0, group: g, durChapterTime: 4 }));
  s.books.save(book('local', { type: 0, origin: 'loc_book', durChapterTime: 2 }));
  s.books.save(book('audio', { type: 1, durChapterTime: 9 }));
  const sorted = (id: number | bigint) => urls(s.books.shelf(id)).sort();
  assert.deepEqual(sorted(-2), ['local']);
  assert.deepEqual(sorted(-3), ['audio']);
  assert.deepEqual(sorted(-4), ['net']);
  assert.deepEqual(sorted(-11), []);
  assert.deepEqual(sorted(g), ['net-g']);
  assert.deepEqual(urls(s.books.toRefresh()).sort(), ['audio', 'net', 'net-g']);
  assert.equal(s.books.lastRead()?.bookUrl, 'net-g');
  assert.deepEqual(
    s.bookGroups.visible().map((x) => x.groupId),
    [-1n, -2n, -3n, -4n, g],
  );
  s.close();
});
