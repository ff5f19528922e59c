// The engine seam: nothing above src/engine/drivers/ names an engine, and the driver option
// picks the engine (or says plainly that it cannot).
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DriverUnavailableError, inspectFile, openStore, type Driver } from '../src/index.js';
import { testDriver } from './helpers/engine.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
/** import/export ... from, require(), import(), getBuiltinModule() of an engine module. */
const ENGINE_IMPORT = /(\bfrom|\brequire\(|\bimport\(|getBuiltinModule\()\s*(['"])(better-sqlite3|node:sqlite|bun:sqlite|@sqlite\.org\/sqlite-wasm)\2/;
const dir = mkdtempSync(join(tmpdir(), 'legado-seam-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function sources(d: string): string[] {
  return readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(d, e.name)) : e.name.endsWith('.ts') ? [join(d, e.name)] : []));
}

test('only src/engine/drivers/ names an engine module', () => {
  const files = sources(SRC);
  assert.ok(files.length > 50, `read ${files.length} source files`);
  const offenders = files
    .filter((f) => !relative(SRC, f).startsWith(join('engine', 'drivers')))
    .filter((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .some((l) => ENGINE_IMPORT.test(l)),
    );
  assert.deepEqual(
    offenders.map((f) => relative(SRC, f)),
    [],
  );
  // The check sees an engine import where there is one.
  assert.ok(
    files.some((f) => ENGINE_IMPORT.test(readFileSync(f, 'utf8'))),
    'the drivers import their engines',
  );
});

test('a store runs on the engine under test, and says which', () => {
  const store = openStore(join(dir, 'which.db'));
  assert.equal(store.db.driver, testDriver.name);
  store.close();
});

test('driver: a Driver object is used as given, for openStore and inspectFile', () => {
  const opened: string[] = [];
  const spy: Driver = {
    name: testDriver.name,
    capabilities: testDriver.capabilities,
    files: testDriver.files,
    open: (p, o) => (opened.push(p), testDriver.open(p, o)),
    fileSize: (p) => testDriver.fileSize(p),
  };
  const path = join(dir, 'given.db');
  openStore(path, { driver: spy }).close();
  assert.equal(inspectFile(path, { driver: spy }).version, 75);
  assert.ok(opened.length >= 2 && opened.every((p) => p === path), String(opened));
});

test('driver: an unknown or unavailable engine is a DriverUnavailableError naming it, and no file is made', () => {
  const path = join(dir, 'never.db');
  assert.throws(
    () => openStore(path, { driver: 'no-such-engine' as never }),
    (e: unknown) => {
      assert.ok(e instanceof DriverUnavailableError);
      assert.equal(e.code, 'DRIVER_UNAVAILABLE');
      assert.equal(e.driver, 'no-such-engine');
      assert.match(e.message, /no-such-engine/);
      return true;
    },
  );
  assert.deepEqual(
    readdirSync(dir).filter((n) => n.startsWith('never')),
    [],
  );
});
