// The change vocabulary the versions are declared in (src/schema/changes.ts), on a small schema:
// every kind of change, where added columns and tables land, and the mistakes it refuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyChanges, applyViewChanges } from '../src/schema/changes.js';
import { opt, req } from '../src/schema/column.js';

const base = {
  a: { columns: { id: req.int(), x: opt.text(), y: req.int('0') }, primaryKey: ['id'] },
  b: { columns: { k: req.text() }, primaryKey: ['k'] },
} as const;

test('columns are added after their anchor (or first), dropped, re-defaulted and re-nulled', () => {
  const s = applyChanges(base, {
    a: { addAfter: { '': { first: opt.int() }, x: { x2: req.text("''"), x3: opt.text() } }, drop: ['y'], defaults: { x: "'d'" }, notNull: { x: true } },
  });
  assert.deepEqual(Object.keys(s.a.columns), ['first', 'id', 'x', 'x2', 'x3']);
  assert.deepEqual(s.a.columns.x, { affinity: 'TEXT', js: 'string', notNull: true, default: "'d'" });
  assert.equal(s.b, base.b, 'an unchanged table is the same object');
  // The types follow the values.
  const x2: "''" = s.a.columns.x2.default;
  const nn: true = s.a.columns.x.notNull;
  assert.ok(x2 === "''" && nn);
  // @ts-expect-error y is dropped
  assert.equal(s.a.columns.y, undefined);
  const removed = applyChanges(base, { a: { defaults: { y: null } } });
  assert.equal('default' in removed.a.columns.y, false);
});

test('tables are created (after a named table or last) or absent; keys and indices are replaced', () => {
  const c = { create: { columns: { z: req.text() }, primaryKey: ['z'] } };
  const s = applyChanges(base, { c: { ...c, after: 'a' }, b: 'absent' });
  assert.deepEqual(Object.keys(s), ['a', 'c']);
  assert.deepEqual(Object.keys(applyChanges(base, { c })), ['a', 'b', 'c']);
  const k = applyChanges(base, { a: { primaryKey: ['id', 'x'], indices: [{ fields: ['x'], unique: true }] } });
  assert.deepEqual(k.a.primaryKey, ['id', 'x']);
  assert.deepEqual(k.a.indices, [{ fields: ['x'], unique: true }]);
});

test('views are created, replaced and removed by name', () => {
  const v = applyViewChanges({}, { v1: 'select 1', v2: 'select 2' });
  assert.deepEqual(applyViewChanges(v, { v1: null, v2: 'select 3' }), { v2: 'select 3' });
  assert.throws(() => applyViewChanges({}, { nope: null }), /unknown view nope/);
});

test('a change naming what is not there, or adding what is, is refused', () => {
  assert.throws(() => applyChanges(base, { zz: { drop: ['x'] } } as never), /unknown table zz/);
  assert.throws(() => applyChanges(base, { a: { drop: ['nope'] } }), /unknown field a.nope/);
  assert.throws(() => applyChanges(base, { a: { addAfter: { nope: { q: opt.int() } } } }), /unknown field a.nope/);
  assert.throws(() => applyChanges(base, { a: { addAfter: { x: { y: opt.int() } } } }), /a.y is added but exists/);
  assert.throws(() => applyChanges(base, { a: { create: base.b } } as never), /table a is created but exists/);
  assert.throws(() => applyChanges(base, { a: { drop: ['id'] } }), /key field id is not a column/);
});
