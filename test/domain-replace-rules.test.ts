// Replace rules: which enabled rules apply to a book's title or content (scope by book name or
// source URL, empty scope = global), in sortOrder; enable all; the editor's next order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NewRow } from 'legado-store';
import { UNSET_ORDER } from 'legado-store/tools';
import { newStore, raw, rawAll } from './helpers/domain.js';

function rule(id: number, fields: Partial<NewRow<'replace_rules'>> = {}): NewRow<'replace_rules'> {
  return { id, name: `r${id}`, pattern: `p${id}`, ...fields };
}

function fill() {
  const s = newStore();
  s.tables.replace_rules.insertMany([
    rule(1, { order: 5, scope: null }),
    rule(2, { order: 1, scope: '' }),
    rule(3, { order: 3, scope: '青山剑客' }),
    rule(4, { order: 2, scope: 'https://books.example.org' }),
    rule(5, { order: 4, scope: '别的书;https://other.example' }),
    rule(6, { order: 0, scope: null, isEnabled: false }),
    rule(7, { order: 6, scope: null, scopeContent: false, scopeTitle: true }),
    rule(8, { order: 7, scope: '青山剑客', scopeTitle: true }),
    rule(9, { order: 8, scope: '100%' }),
    rule(10, { order: 9, scope: '1000本' }),
  ]);
  return s;
}

const ids = (rows: readonly { id: number }[]) => rows.map((r) => r.id);

test('content rules for a book: global ones, its name, its source; enabled; in sortOrder', () => {
  const s = fill();
  assert.deepEqual(ids(s.replaceRules.forContent('青山剑客', 'https://books.example.org')), [2, 4, 3, 1, 8]);
  assert.deepEqual(ids(s.replaceRules.forContent('别的书', 'https://x')), [2, 5, 1]);
  assert.deepEqual(ids(s.replaceRules.forContent('剑客', 'https://x')), [2, 3, 1, 8], 'the scope is free text: a name contained in it matches');
  assert.deepEqual(ids(s.replaceRules.forContent('', '')), [2, 1], 'an empty name or origin names no scope');
  assert.deepEqual(ids(s.replaceRules.forContent('100%', '')), [2, 1, 9], '% in a book name is not a wildcard');
  s.close();
});

test('title rules use scopeTitle', () => {
  const s = fill();
  assert.deepEqual(ids(s.replaceRules.forTitle('青山剑客', 'https://books.example.org')), [7, 8]);
  assert.deepEqual(ids(s.replaceRules.forTitle('别的', 'x')), [7]);
  s.close();
});

test('enableAll, all and enabled in sortOrder', () => {
  const s = fill();
  assert.deepEqual(ids(s.replaceRules.all()), [6, 2, 4, 3, 5, 1, 7, 8, 9, 10]);
  assert.equal(s.replaceRules.enableAll(false), 9);
  assert.equal(raw(s, 'SELECT sum(isEnabled) FROM replace_rules'), 0n);
  assert.deepEqual(s.replaceRules.forContent('青山剑客', ''), []);
  assert.equal(s.replaceRules.enableAll(true), 10);
  assert.equal(s.replaceRules.enabled().length, 10);
  s.close();
});

test('nextOrder is the largest sortOrder plus one; add applies it to a missing or Int.MIN_VALUE order', () => {
  const s = newStore();
  assert.equal(s.replaceRules.nextOrder(), 1, 'empty table');
  const a = s.replaceRules.add({ name: 'a', pattern: 'x' });
  const b = s.replaceRules.add({ name: 'b', pattern: 'y', order: UNSET_ORDER });
  const c = s.replaceRules.add({ name: 'c', pattern: 'z', order: 40 });
  assert.deepEqual(rawAll(s, 'SELECT sortOrder FROM replace_rules ORDER BY id'), [1n, 2n, 40n]);
  assert.equal(s.replaceRules.nextOrder(), 41);
  assert.ok(a < b && b < c, 'ids chosen by SQLite when not given');
  s.close();
});

test('search in group or name; the comma-aware group match', () => {
  const s = newStore();
  s.tables.replace_rules.insertMany([
    rule(1, { name: '去广告', group: '净化,广告', order: 2 }),
    rule(2, { name: '标点', group: '排版', order: 1 }),
    rule(3, { name: 'x', group: '广告过滤', order: 3 }),
  ]);
  assert.deepEqual(ids(s.replaceRules.search('广告')), [1, 3]);
  assert.deepEqual(ids(s.replaceRules.search('标')), [2]);
  assert.deepEqual(ids(s.replaceRules.byGroup('广告')), [1]);
  s.close();
});
