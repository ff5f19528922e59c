// Every table of both versions, driven by the model: defaults, keys, required fields, types,
// checked against the file with raw SQL, not only through the store's own API.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openDb, type Connection } from './helpers/engine.js';
import { openStore, schemas } from 'legado-store';
import { createSchemaSql } from 'legado-store/tools';
import { DuplicateKeyError, MissingFieldError, UnknownFieldError, ValueTypeError } from 'legado-store/errors';
import { tempDir } from './helpers/files.js';
import { fullRow, keyOf, minimalRow, parentsFor, requiredFields } from './helpers/rows.js';

const dir = tempDir();

for (const version of [62, 49] as const) {
  const schema = schemas[version];
  describe(`schema ${version}`, () => {
    const store = openStore(join(dir, `tables${version}.db`), { schema: version, specialGroups: false });
    // A plain SQLite database with the same DDL: SQLite itself applies the defaults there.
    const oracle = openDb(':memory:');
    oracle.pragma('foreign_keys = OFF');
    for (const sql of createSchemaSql(schema, schema.identityHash)) oracle.exec(sql);

    for (const t of schema.tables) {
      const api = store.table(t.name);
      const rawAll = (db: Connection) => db.prepare(`SELECT * FROM \`${t.name}\``).all();
      const withParents = (row: Record<string, unknown>) => {
        for (const p of parentsFor(schema, t, row)) if (!store.table(p.table).has(keyOf(schema.table(p.table)!, p.row))) store.table(p.table).insert(p.row);
      };

      test(`${t.name}: omitted fields take exactly the column defaults SQLite would apply (or the app entity's, where it declares another)`, () => {
        const row = minimalRow(t, 1);
        withParents(row);
        const key = api.insert(row);
        const stored = store.db.prepare(`SELECT * FROM \`${t.name}\``).all() as Record<string, unknown>[];
        assert.equal(stored.length, 1);
        // Same insert, same given columns, by raw SQL into the oracle (FKs off there); a field
        // whose app entity sets another value than the DDL default (books.type from 55: 8, the
        // kind bit, where the DDL says 0) is given that value there, as the app writes it.
        const entity = t.columns.filter((c) => c.entityDefault !== undefined && row[c.field] === undefined);
        for (const c of entity) row[c.field] = Number(c.entityDefault);
        const given = requiredFieldsOrKeys(row);
        const cols = given.map((f) => `\`${t.column(f)!.name}\``);
        const vals = given.map((f) => toSql(row[f]));
        for (const c of entity) if (!given.includes(c.field)) cols.push(`\`${c.name}\``), vals.push(toSql(row[c.field]));
        if (t.autoGenerate) cols.push('`id`'), vals.push(Number(key));
        oracle.prepare(`INSERT INTO \`${t.name}\` (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).run(vals);
        assert.deepEqual(stored, rawAll(oracle));
        // And read back through the API: defaults decoded (booleans, bigint), key round-trips.
        const got = api.get(key) as Record<string, unknown>;
        for (const c of t.columns) {
          if (row[c.field] !== undefined) assert.deepEqual(got[c.field], c.js === 'bigint' ? BigInt(row[c.field] as bigint) : row[c.field], c.field);
          else if (c.default === undefined && !(t.autoGenerate && c.pk === 1)) assert.equal(got[c.field], null, c.field);
        }
        api.delete(key);
        oracle.exec(`DELETE FROM \`${t.name}\``);
      });

      test(`${t.name}: a full row round-trips every field`, () => {
        const row = fullRow(t, 2);
        withParents(row);
        const key = api.insert(row);
        assert.deepEqual(api.get(key), Object.fromEntries(t.columns.map((c) => [c.field, c.js === 'bigint' ? BigInt(row[c.field] as bigint) : row[c.field]])));
        assert.ok(api.has(key));
        assert.equal(api.delete(key), true);
        assert.equal(api.delete(key), false);
        assert.equal(api.get(key), undefined);
      });

      test(`${t.name}: a duplicate primary key is a DuplicateKeyError and writes nothing`, () => {
        const row = fullRow(t, 3);
        withParents(row);
        api.insert(row);
        const before = rawAll(store.db);
        const again = { ...fullRow(t, 4), ...Object.fromEntries(t.primaryKey.map((c) => [c.field, row[c.field]])) };
        withParents(again);
        assert.throws(
          () => api.insert(again),
          (e: unknown) => {
            assert.ok(e instanceof DuplicateKeyError, String(e));
            assert.equal(e.code, 'DUPLICATE_KEY');
            assert.equal(e.table, t.name);
            assert.deepEqual(
              e.fields,
              t.primaryKey.map((c) => c.field),
            );
            assert.match(e.message, new RegExp(`^${t.name}: duplicate primary key`));
            return true;
          },
        );
        assert.deepEqual(rawAll(store.db), before);
        api.delete(keyOf(t, row));
      });

      test(`${t.name}: every required field without a default is enforced, null too`, () => {
        for (const c of requiredFields(t)) {
          const row = fullRow(t, 5);
          delete row[c.field];
          assert.throws(
            () => api.insert(row),
            (e: unknown) =>
              e instanceof MissingFieldError && e.fields[0] === c.field && e.code === 'MISSING_FIELD' && /required field is missing/.test(e.message),
          );
          assert.throws(
            () => api.insert({ ...row, [c.field]: null }),
            (e: unknown) => e instanceof MissingFieldError && /required field is null/.test(e.message),
          );
        }
        for (const c of t.columns.filter((x) => x.notNull && x.default !== undefined)) {
          assert.throws(() => api.insert({ ...fullRow(t, 5), [c.field]: null }), MissingFieldError, `${c.field} is NOT NULL even with a default`);
        }
        assert.equal(api.count(), 0);
      });

      test(`${t.name}: values of the wrong type are refused with the field and value`, () => {
        for (const c of t.columns) {
          const bad = c.js === 'string' ? 42 : c.js === 'boolean' ? 1 : c.js === 'number' ? 1.5 : 'x';
          assert.throws(
            () => api.insert({ ...fullRow(t, 6), [c.field]: bad }),
            (e: unknown) => e instanceof ValueTypeError && e.fields[0] === c.field && e.value === bad && e.code === 'WRONG_TYPE',
          );
          if (c.js !== 'string') assert.throws(() => api.insert({ ...fullRow(t, 6), [c.field]: '1' }), ValueTypeError);
        }
        assert.throws(
          () => api.insert({ ...fullRow(t, 6), notAField: 1 }),
          (e: unknown) => e instanceof UnknownFieldError && e.fields[0] === 'notAField',
        );
        assert.equal(api.count(), 0);
      });
    }
    test('the store closes', () => {
      store.close();
      oracle.close();
    });

    function requiredFieldsOrKeys(row: Record<string, unknown>): string[] {
      return Object.keys(row);
    }
  });
}

function toSql(v: unknown): unknown {
  return typeof v === 'boolean' ? (v ? 1 : 0) : v;
}
