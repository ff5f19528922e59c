// Rows read as the engine's objects (Connection.objectRows, which bun:sqlite declares) give the
// same API rows as rows read as arrays, through every reading method of every table, and the
// store reads objects only where it says it does: never in a table read with safeIntegers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { openStore, schemas, type Driver, type Store } from 'legado-store';
import type { Table } from 'legado-store/tools';
import type { Connection, Statement } from '../src/engine/driver.js';
import { testDriver } from './helpers/engine.js';
import { fullRow, keyOf, minimalRow } from './helpers/rows.js';

const dir = mkdtempSync(join(tmpdir(), 'legado-object-rows-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The suite's engine, its connections saying `objectRows` as given, and the SQL of every statement switched to arrays. */
function engineWith(objectRows: boolean, rawSql: string[]): Driver {
  return {
    name: testDriver.name,
    capabilities: testDriver.capabilities,
    files: testDriver.files,
    fileSize: (p) => testDriver.fileSize(p),
    open(path, options) {
      const conn = testDriver.open(path, options);
      Object.defineProperty(conn, 'objectRows', { value: objectRows, configurable: true });
      const prepare = conn.prepare.bind(conn);
      (conn as { prepare: Connection['prepare'] }).prepare = (sql: string): Statement => {
        const s = prepare(sql);
        const raw = s.raw.bind(s);
        (s as { raw: Statement['raw'] }).raw = (on?: boolean) => {
          if (on !== false) rawSql.push(sql);
          return raw(on);
        };
        return s;
      };
      return conn;
    },
  };
}

type AnyTable = {
  insert(row: object): unknown;
  get(key: unknown): unknown;
  list(q?: object): unknown[];
  iterate(q?: object): Iterable<unknown>;
  finder(fields: string[]): { get(...values: unknown[]): unknown };
};
const tableOf = (s: Store<62>, t: Table) => s.table(t.name as never) as unknown as AnyTable;

/** Everything the reading methods give for a table's rows. */
function readAll(s: Store<62>, t: Table, rows: Record<string, unknown>[]): unknown {
  const api = tableOf(s, t);
  const first = t.columns.find((c) => c.pk === 0) ?? t.columns[0]!;
  return {
    list: api.list(),
    iterate: [...api.iterate()],
    get: rows.map((r) => api.get(keyOf(t, r))),
    missing: api.get(keyOf(t, { ...fullRow(t, 99) })),
    finder: rows.map((r) => api.finder([first.field]).get(r[first.field])),
  };
}

test('object rows and array rows give the same API rows in every table, booleans and nulls included', () => {
  for (const objectRows of [true, false]) {
    const path = join(dir, `store-${objectRows}.db`);
    const plain = openStore(path, { schema: 62 });
    // Rows of every table, without the books or sources the foreign keys ask for: reading is what is tested.
    plain.db.pragma('foreign_keys = OFF');
    const rowsOf = new Map<string, Record<string, unknown>[]>();
    for (const t of schemas[62].tables) {
      const rows = [fullRow(t, 1), fullRow(t, 2), minimalRow(t, 3)];
      for (const r of rows) tableOf(plain, t).insert(r);
      rowsOf.set(t.name, rows);
    }
    const rawSql: string[] = [];
    const other = openStore(path, { schema: 62, driver: engineWith(objectRows, rawSql) });
    try {
      for (const t of schemas[62].tables) {
        // As stored (an auto-generated key filled in; book_groups has the special groups too).
        const rows = tableOf(plain, t).list() as Record<string, unknown>[];
        assert.ok(rows.length >= rowsOf.get(t.name)!.length, t.name);
        const read = readAll(other, t, rows);
        assert.deepEqual(read, readAll(plain, t, rows), `${t.name} read with objectRows ${objectRows}`);
        // A row is an ordinary object, its booleans booleans.
        const row = (read as { list: Record<string, unknown>[] }).list[0]!;
        assert.equal(Object.getPrototypeOf(row), Object.prototype, t.name);
        for (const c of t.columns) if (c.js === 'boolean' && row[c.field] !== null) assert.equal(typeof row[c.field], 'boolean', `${t.name}.${c.field}`);
      }
      // Which lists (list() and iterate(): no WHERE) read arrays: every table's with objectRows
      // off; with it on, only those of the tables with 64-bit bitmasks (books, book_groups),
      // which read every integer exactly. Point reads (get, finder) read arrays either way.
      const names = new Set(schemas[62].tables.map((t) => t.name));
      const lists = rawSql.filter((sql) => !sql.includes('WHERE'));
      const tablesRead = new Set(lists.map((sql) => /FROM `?(\w+)`?/.exec(sql)?.[1]).filter((n) => n !== undefined && names.has(n)));
      const points = new Set(rawSql.filter((sql) => sql.includes('WHERE')).map((sql) => /FROM `?(\w+)`?/.exec(sql)?.[1]));
      for (const t of schemas[62].tables) assert.ok(points.has(t.name), `${t.name}: point reads as arrays`);
      const exact = schemas[62].tables.filter((t) => t.columns.some((c) => c.js === 'bigint')).map((t) => t.name);
      assert.deepEqual([...tablesRead].sort(), objectRows ? [...exact].sort() : schemas[62].tables.map((t) => t.name).sort());
    } finally {
      other.close();
      plain.close();
    }
  }
});
