// The schema model: identity hashes, Room-exact DDL, and version 49 as the differences of spec section 9.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { schemas } from 'legado-store';
import { createIndexSql, createSchemaSql, createTableSql } from 'legado-store/tools';
import { ROOM_62_INDICES, ROOM_62_TABLES, ROOM_SETUP } from './fixtures/room-62-ddl.js';

test("identity hashes computed from the model equal the app's", () => {
  assert.equal(schemas[62].identityHash, '965c5f1d4c60d25b4b46efb17c575c85');
  assert.equal(schemas[49].identityHash, '2a6f5ee3d0ed9ac13f15183a04a4af45');
});

test('schema 62 has 21 tables, schema 49 has 19 without dictRules and servers', () => {
  assert.equal(schemas[62].tables.length, 21);
  assert.equal(schemas[49].tables.length, 19);
  assert.deepEqual(
    schemas[62].tables.map((t) => t.name).filter((n) => !schemas[49].table(n)),
    ['dictRules', 'servers'],
  );
});

test('every CREATE TABLE and CREATE INDEX is the text Room writes for schema 62', () => {
  assert.deepEqual(Object.keys(ROOM_62_TABLES).sort(), schemas[62].tables.map((t) => t.name).sort());
  for (const t of schemas[62].tables) {
    assert.equal(createTableSql(t), ROOM_62_TABLES[t.name]!.replace('${TABLE_NAME}', t.name), t.name);
    assert.deepEqual(
      createIndexSql(t),
      (ROOM_62_INDICES[t.name] ?? []).map((s) => s.replace('${TABLE_NAME}', t.name)),
      t.name,
    );
  }
  assert.deepEqual(createSchemaSql(schemas[62], schemas[62].identityHash).slice(-2), ROOM_SETUP);
});

test('replace_rules.order is stored in column sortOrder', () => {
  const c = schemas[62].table('replace_rules')!.column('order')!;
  assert.equal(c.name, 'sortOrder');
  assert.equal(c.field, 'order');
});

/** A column's structure (what the DDL and the spec say), without the app's rules on its values. */
const structure = <C extends { min?: unknown; entityDefault?: unknown }>(c: C): Omit<C, 'min' | 'entityDefault'> => {
  const { min: _min, entityDefault: _entity, ...rest } = c;
  return rest;
};

test("books.type: from 55 a bitmask whose kind bit the app always sets (at least 8, the entity's default 8); before 55 neither", () => {
  for (const v of [55, 62, 75] as const) {
    const c = schemas[v].table('books')!.column('type')!;
    assert.deepEqual([c.default, c.min, c.entityDefault], ['0', 8, '8'], String(v));
  }
  for (const v of [49, 54] as const) {
    const c = schemas[v].table('books')!.column('type')!;
    assert.deepEqual([c.min, c.entityDefault], [undefined, undefined], String(v));
  }
});

test('schema 49 is schema 62 with exactly the differences of spec section 9', () => {
  const diff: string[] = [];
  for (const t62 of schemas[62].tables) {
    const t49 = schemas[49].table(t62.name);
    if (!t49) {
      diff.push(`${t62.name}: absent`);
      continue;
    }
    for (const c of t62.columns) {
      const c49 = t49.column(c.field);
      if (!c49) diff.push(`${t62.name}.${c.field}: absent`);
      else if (c49.default !== c.default) diff.push(`${t62.name}.${c.field}: default ${c49.default ?? 'none'}`);
      else assert.deepEqual(structure(c49), structure(c), `${t62.name}.${c.field}`);
    }
    assert.deepEqual(t49.indices, t62.indices);
    assert.deepEqual(t49.foreignKeys, t62.foreignKeys);
    assert.deepEqual(
      t49.primaryKey.map((c) => c.name),
      t62.primaryKey.map((c) => c.name),
    );
  }
  assert.deepEqual(
    diff.sort(),
    [
      "books.origin: default ''",
      'book_groups.bookSort: absent',
      'book_sources.coverDecodeJs: absent',
      'book_sources.enabledReview: absent',
      'book_sources.ruleReview: absent',
      'book_sources.variableComment: absent',
      'dictRules: absent',
      'readRecord.lastRead: absent',
      'readRecord.readTime: default none',
      'rssSources.articleStyle: default none',
      'rssSources.contentBlacklist: absent',
      'rssSources.contentWhitelist: absent',
      'rssSources.coverDecodeJs: absent',
      'rssSources.customOrder: default none',
      'rssSources.enableJs: default none',
      'rssSources.injectJs: absent',
      'rssSources.lastUpdateTime: absent',
      'rssSources.loadWithBaseUrl: default none',
      'rssSources.variableComment: absent',
      'servers: absent',
      'txtTocRules.example: absent',
    ].sort(),
  );
});
