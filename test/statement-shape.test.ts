// A statement the change tracker watches (its run, get, all and iterate replaced: store/changes.ts)
// keeps the hidden class every other statement of its engine has (driver.ts, ownReplaceable).
// With a class of their own, the watched statements took it with them whenever a garbage
// collection took the last of them, and V8 dropped the code it had optimized for statements: on
// SQLite WASM, whose binding is JavaScript, the next bulk insert ran unoptimized. Checked with
// V8's own %HaveSameMap, on every engine of this runtime whose statements are JavaScript objects.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import v8 from 'node:v8';
import { join } from 'node:path';
import type { Driver, Statement } from '../src/engine/driver.js';
import { driverNamed } from '../src/engine/drivers/index.js';
import { loadWasmDriver } from '../src/engine/drivers/wasm.js';
import { openStore } from '../src/index.js';
import { tempDir } from './helpers/files.js';

const onV8 = typeof (globalThis as { Bun?: unknown }).Bun === 'undefined';

/** V8's %HaveSameMap, compiled once natives syntax is allowed. */
function sameMapCheck(): (a: object, b: object) => boolean {
  v8.setFlagsFromString('--allow-natives-syntax');
  return new Function('a', 'b', 'return %HaveSameMap(a, b);') as (a: object, b: object) => boolean;
}

/** The engines of this runtime whose statements are objects of a JavaScript class (not better-sqlite3's native ones). */
async function jsStatementEngines(): Promise<{ name: string; driver: Driver; path: (file: string) => string }[]> {
  const dir = tempDir();
  const out: { name: string; driver: Driver; path: (file: string) => string }[] = [
    { name: 'wasm', driver: await loadWasmDriver({ storage: 'memory' }), path: (file) => `/${file}` },
  ];
  try {
    out.push({ name: 'node:sqlite', driver: driverNamed('node:sqlite'), path: (file) => join(dir, file) });
  } catch {
    // Not on this runtime (Node before 22.13): the WASM engine is checked alone.
  }
  return out;
}

test('statements the change tracker watches keep the hidden class of all the others (V8)', {
  skip: onV8 ? false : 'JavaScriptCore (Bun) has no %HaveSameMap',
}, async () => {
  const haveSameMap = sameMapCheck();
  for (const { name, driver, path } of await jsStatementEngines()) {
    const store = openStore(path('shape.db'), { driver, create: true });
    const plain = driver.open(path('plain.db'));
    plain.exec('CREATE TABLE t (x)');
    store.db.exec('CREATE TABLE t (x)');
    const pairs: [string, Statement, Statement][] = [
      ['writing', store.db.prepare('INSERT INTO t VALUES (?)'), plain.prepare('INSERT INTO t VALUES (?)')],
      ['reading', store.db.prepare('SELECT x FROM t'), plain.prepare('SELECT x FROM t')],
    ];
    for (const [kind, watched, other] of pairs) {
      // The store's connection does watch it: its run is the tracker's, not the class's.
      assert.notEqual(watched.run, Object.getPrototypeOf(watched).run, `${name} ${kind}: watched`);
      assert.equal(other.run, Object.getPrototypeOf(other).run, `${name} ${kind}: not watched`);
      assert.ok(haveSameMap(watched, other), `${name} ${kind}: a watched statement has a hidden class of its own`);
    }
    pairs[0]![1].run(1);
    assert.deepEqual(pairs[1]![1].raw().all(), [[1]]);
    plain.close();
    store.close();
  }
});
