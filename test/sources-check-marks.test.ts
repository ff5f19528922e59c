// What `sources check` writes on a source's row, as the app's 校验书源 marks it
// (CheckSourceService, BookSource.addGroup/removeGroup/addErrorComment/removeErrorComment,
// Debug.getRespondTime), spelled out case by case, and read back from the file with raw SQL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openStore, type Store } from 'legado-store';
import {
  addErrorComment,
  addGroup,
  checkVerdict,
  invalidGroupNames,
  removeErrorComment,
  removeGroup,
  type CheckOutcome,
} from '../src/sources/checker/marks.js';
import { checkedRow, writeCheckedRow } from '../src/sources/checker/store.js';
import { source } from './helpers/builders.js';
import { tempDir } from './helpers/files.js';

const T = 180_000;
const row = (bookSourceGroup: string | null, bookSourceComment: string | null = null) => ({ bookSourceGroup, bookSourceComment });
const done = (steps: CheckOutcome['steps'], elapsedMs = 1234): CheckOutcome => ({ steps, end: { end: 'done' }, elapsedMs });

test('groups go through a java.util.HashSet and come back joined with "," in its order (outputs of OpenJDK 17 for the same calls)', () => {
  // split on , ; ， ； trimmed, blanks dropped, duplicates once; HashSet sized by Kotlin's toHashSet.
  assert.equal(addGroup('精品,优', '搜索失效'), '精品,优,搜索失效');
  assert.equal(addGroup('起点;笔趣阁，男频', '校验超时'), '起点,男频,笔趣阁,校验超时');
  assert.equal(addGroup('x9,x8,x7,x6,x5,x4', 'js失效'), 'x8,x9,x4,x5,js失效,x6,x7');
  assert.equal(removeGroup('搜索失效, 精品 ,发现失效,优', '搜索失效, 发现失效'), '优,精品');
  assert.equal(removeGroup('zz,b,A', ''), 'zz,A,b');
  assert.equal(removeGroup('校验超时,js失效,精品', 'js失效'), '精品,校验超时');
  // No group at all: addGroup sets the text as given; removeGroup leaves null alone.
  assert.equal(addGroup(null, '网站失效'), '网站失效');
  assert.equal(addGroup('  ', '网站失效'), '网站失效');
  assert.equal(removeGroup(null, '搜索失效'), null);
  assert.equal(removeGroup('', '搜索失效'), '');
});

test('invalid groups: every group holding 失效, and 校验超时, joined with ", " in HashSet order', () => {
  // The HashSet orders of these two (OpenJDK 17): 超时,精品,失效了,搜索失效,校验超时 and 失效了,精品,校验超时,搜索失效.
  assert.equal(invalidGroupNames('精品,搜索失效,校验超时,超时,失效了'), '失效了, 搜索失效, 校验超时');
  assert.equal(invalidGroupNames('失效了,校验超时,搜索失效,精品'), '失效了, 校验超时, 搜索失效');
  assert.equal(invalidGroupNames('精品'), '');
  assert.equal(invalidGroupNames(null), '');
});

test('error comments: "// Error: " in front with a blank line; removal drops those paragraphs and joins the rest with one newline', () => {
  assert.equal(addErrorComment(null, 'boom'), '// Error: boom');
  assert.equal(addErrorComment(' ', 'boom'), '// Error: boom');
  assert.equal(addErrorComment('by 某人', 'boom'), '// Error: boom\n\nby 某人');
  assert.equal(removeErrorComment('// Error: boom\n\nby 某人'), 'by 某人');
  // The app joins what is left with "\n", not "\n\n".
  assert.equal(removeErrorComment('a\n\n// Error: x\n\nb'), 'a\nb');
  assert.equal(removeErrorComment(null), null);
  assert.equal(removeErrorComment('// Error: only'), '');
});

test('a passing check: old invalid groups and error comments cleared, respondTime the time taken', () => {
  const v = checkVerdict(
    row('精品,搜索失效,校验超时', '// Error: old\n\n作者 x'),
    done(
      [
        { step: 'search', result: 'found' },
        { step: 'book', of: 'search', result: 'ok' },
      ],
      2500,
    ),
    T,
  );
  assert.deepEqual(v, { bookSourceGroup: '精品', bookSourceComment: '作者 x', respondTime: 2500, ok: true, message: null });
});

test("search finds nothing: 搜索失效, and the check fails with the invalid names as its message (the app's NoStackTraceException)", () => {
  const v = checkVerdict(row('精品'), done([{ step: 'search', result: 'empty' }], 300), T);
  assert.equal(v?.bookSourceGroup, '精品,搜索失效');
  assert.equal(v?.bookSourceComment, '// Error: 搜索失效');
  assert.equal(v?.respondTime, T + 300);
  assert.equal(v?.ok, false);
});

test('no search URL: 搜索链接规则为空 is a group but not a failure; explore without an entry URL: 发现规则为空', () => {
  const v = checkVerdict(row(null), done([{ step: 'search', result: 'no-url' }]), T);
  assert.deepEqual([v?.bookSourceGroup, v?.bookSourceComment, v?.ok], ['搜索链接规则为空', null, true]);
  const w = checkVerdict(
    row('搜索链接规则为空'),
    done([
      { step: 'search', result: 'found' },
      { step: 'book', of: 'search', result: 'ok' },
      { step: 'explore', result: 'no-url' },
    ]),
    T,
  );
  assert.deepEqual([w?.bookSourceGroup, w?.ok], ['发现规则为空', true]);
});

test('empty TOC or content of the search hit and of the explore hit: 搜索目录失效, 发现正文失效; both named in the comment', () => {
  const v = checkVerdict(
    row(''),
    done([
      { step: 'search', result: 'found' },
      { step: 'book', of: 'search', result: 'toc-empty' },
      { step: 'explore', result: 'found' },
      { step: 'book', of: 'explore', result: 'content-empty' },
    ]),
    T,
  );
  assert.deepEqual(v?.bookSourceGroup?.split(',').sort(), ['发现正文失效', '搜索目录失效']);
  assert.equal(v?.bookSourceComment, `// Error: ${invalidGroupNames(v!.bookSourceGroup)}`);
  assert.equal(v?.ok, false);
});

test('errors: the time limit adds 校验超时, a script js失效, another failure 网站失效, the quiet kind no group; each its comment', () => {
  const failed = (kind: 'timeout' | 'js' | 'site' | 'quiet', message: string): CheckOutcome => ({
    steps: [{ step: 'search', result: 'empty' }],
    end: { end: 'failed', kind, message },
    elapsedMs: 50,
  });
  const cases = [
    ['timeout', '校验超时'],
    ['js', 'js失效'],
    ['site', '网站失效'],
  ] as const;
  for (const [kind, group] of cases) {
    const v = checkVerdict(row('优'), failed(kind, `why ${kind}`), T);
    // Steps before the failure keep their marks (the app mutates the source as it goes).
    assert.deepEqual(v?.bookSourceGroup?.split(',').sort(), ['优', group, '搜索失效'].sort(), kind);
    assert.equal(v?.bookSourceComment, `// Error: why ${kind}`);
    assert.equal(v?.respondTime, T + 50);
  }
  const q = checkVerdict(row('优'), failed('quiet', 'empty body'), T);
  assert.deepEqual([q?.bookSourceGroup, q?.bookSourceComment], ['优,搜索失效', '// Error: empty body']);
});

test('a cancelled check writes nothing', () => {
  assert.equal(checkVerdict(row('搜索失效'), { steps: [{ step: 'search', result: 'found' }], end: { end: 'cancelled' }, elapsedMs: 9 }, T), null);
});

test('the verdict goes on the row in one write; raw SQL reads the three columns and finds the other columns as they were', () => {
  const path = join(tempDir('legado-check-marks-'), 'store.db');
  const url = 'https://a.example#1';
  const store = openStore(path) as Store<62>;
  try {
    store.tables.book_sources.insert(source(url, { bookSourceGroup: '精品,发现失效', bookSourceComment: '// Error: old\n\nkeep me', customOrder: 7 }));
    const before = checkedRow(store, url)!;
    const v = checkVerdict(before, done([{ step: 'search', result: 'empty' }], 42), T)!;
    assert.equal(writeCheckedRow(store, url, v), true);
    assert.equal(writeCheckedRow(store, 'https://gone.example', v), false);
  } finally {
    store.close();
  }
  const db = new Database(path, { readonly: true });
  try {
    const r = db
      .prepare('SELECT bookSourceGroup g, bookSourceComment c, respondTime t, customOrder o, bookSourceName n FROM book_sources WHERE bookSourceUrl = ?')
      .get(url);
    assert.deepEqual({ ...(r as object) }, { g: '精品,搜索失效', c: '// Error: 搜索失效\n\nkeep me', t: T + 42, o: 7, n: url });
  } finally {
    db.close();
  }
});
