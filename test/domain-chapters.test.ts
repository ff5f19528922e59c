// Chapters: a whole table of contents replaced in one transaction, lists in index order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DuplicateKeyError, ForeignKeyError, ValueTypeError } from 'legado-store/errors';
import { book, chapter, newStore, raw, rawAll } from './helpers/domain.js';

test('replaceToc replaces the whole list, other books untouched', () => {
  const s = newStore();
  s.books.save(book('b1'));
  s.books.save(book('b2', { name: 'b2' }));
  s.chapters.replaceToc('b2', [chapter('b2', 0)]);
  assert.equal(s.chapters.replaceToc('b1', [chapter('b1', 0), chapter('b1', 1), chapter('b1', 2)]), 3);
  // The new list reuses indexes and urls of the old one: no unique clash, no leftovers.
  const { bookUrl: _ignored, ...entry } = chapter('b1', 1, { url: 'b1/new', title: '新' });
  assert.equal(s.chapters.replaceToc('b1', [{ ...chapter('b1', 0), title: '序' }, entry]), 2);
  assert.deepEqual(rawAll(s, 'SELECT title FROM chapters WHERE bookUrl = ? ORDER BY `index`', 'b1'), ['序', '新']);
  assert.equal(raw(s, 'SELECT count(*) FROM chapters WHERE bookUrl = ?', 'b2'), 1n);
  s.close();
});

test('replaceToc is all or nothing: a bad chapter or a missing book keeps the old list', () => {
  const s = newStore();
  s.books.save(book('b1'));
  s.chapters.replaceToc('b1', [chapter('b1', 0), chapter('b1', 1)]);
  assert.throws(() => s.chapters.replaceToc('b1', [chapter('b1', 0), chapter('b1', 0, { url: 'other' })]));
  assert.throws(() => s.chapters.replaceToc('b1', [chapter('b1', 5), chapter('b1', 5)]), DuplicateKeyError);
  assert.deepEqual(rawAll(s, 'SELECT url FROM chapters ORDER BY `index`'), ['b1/c0', 'b1/c1']);
  assert.throws(() => s.chapters.replaceToc('ghost', [chapter('ghost', 0)]), ForeignKeyError);
  s.close();
});

test('replaceToc inside a transaction of the caller: a failure undoes the refresh only; a large refresh is reported once', () => {
  const s = newStore();
  s.books.save(book('b1'));
  const toc = (n: number, from = 0) => Array.from({ length: n }, (_, i) => chapter('b1', from + i));
  s.chapters.replaceToc('b1', toc(3));
  const heard: string[][] = [];
  s.onChange('chapters', (tables) => heard.push([...tables]));
  s.transaction(() => {
    s.books.updateProgress('b1', { durChapterIndex: 2, durChapterPos: 0, durChapterTime: 1 });
    // 1,000 chapters and then a duplicate: the refresh fails as a whole, the caller goes on.
    assert.throws(() => s.chapters.replaceToc('b1', [...toc(1000, 10), chapter('b1', 10)]), DuplicateKeyError);
    assert.equal(raw(s, 'SELECT count(*) FROM chapters'), 3n);
  });
  assert.deepEqual(rawAll(s, 'SELECT url FROM chapters ORDER BY `index`'), ['b1/c0', 'b1/c1', 'b1/c2']);
  assert.equal(raw(s, 'SELECT durChapterIndex FROM books'), 2n);
  assert.deepEqual(heard, []);
  assert.equal(s.chapters.replaceToc('b1', toc(1000, 10)), 1000);
  assert.equal(raw(s, 'SELECT count(*) FROM chapters'), 1000n);
  assert.deepEqual(heard, [['chapters']]);
  s.close();
});

test('list, range, one by index, by title, search, count', () => {
  const s = newStore();
  s.books.save(book('b1'));
  // Inserted out of order: every list comes back by index.
  s.chapters.replaceToc(
    'b1',
    [3, 0, 2, 1, 4].map((i) => chapter('b1', i, { title: i === 2 ? '第三章 风起' : `第${i + 1}章` })),
  );
  assert.deepEqual(
    s.chapters.list('b1').map((c) => c.index),
    [0, 1, 2, 3, 4],
  );
  assert.deepEqual(
    s.chapters.range('b1', 1, 3).map((c) => c.index),
    [1, 2, 3],
  );
  assert.equal(s.chapters.get('b1', 2)?.title, '第三章 风起');
  assert.equal(s.chapters.get('b1', 9), undefined);
  assert.equal(s.chapters.getByTitle('b1', '第4章')?.index, 3);
  // The point reads are prepared once: the same rows as the list query, values checked alike.
  assert.deepEqual(s.chapters.get('b1', 2), s.tables.chapters.list({ where: { bookUrl: 'b1', index: 2 } })[0]);
  assert.throws(() => s.chapters.get('b1', '2' as unknown as number), ValueTypeError);
  assert.equal(s.chapters.get(null as unknown as string, 2), undefined);
  s.tables.chapters.insert(chapter('b1', 9, { title: '第4章' }));
  assert.equal(s.chapters.getByTitle('b1', '第4章')?.index, 3, 'the first by index');
  s.tables.chapters.delete({ url: 'b1/c9', bookUrl: 'b1' });
  assert.deepEqual(
    s.chapters.search('b1', '风').map((c) => c.index),
    [2],
  );
  assert.deepEqual(
    s.chapters.search('b1', '章').map((c) => c.index),
    [0, 1, 2, 3, 4],
  );
  assert.equal(s.chapters.count('b1'), 5);
  assert.equal(s.chapters.count('nope'), 0);
  assert.equal(s.chapters.list('b1')[0]?.isVolume, false, 'booleans as booleans');
  assert.equal(s.chapters.deleteByBook('b1'), 5);
  s.close();
});
