// A file written through any engine opens through any other: the same structure check
// passes, every row reads the same, and it works as a store. In this process: every pair of
// the engines that load here. Across runtimes: the files npm run test:runtimes had each
// runtime write into LEGADO_STORE_CROSS_DIR.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { driverNamed } from '../src/engine/drivers/index.js';
import type { Driver, DriverName } from '../src/engine/driver.js';
import { checkFile, runtime, writeFiles, writtenIn } from './helpers/cross-engine.js';
import { tempDir } from './helpers/files.js';
import { testDriver } from './helpers/engine.js';

const loadable = (['better-sqlite3', 'node:sqlite', 'bun:sqlite'] as DriverName[]).flatMap((n): Driver[] => {
  try {
    return [driverNamed(n)];
  } catch {
    return [];
  }
});

test(`files written by each engine that loads here (${loadable.map((d) => d.name).join(', ')}) open on each`, () => {
  const dir = tempDir('legado-cross-');
  const written = loadable.flatMap((d) => writeFiles(dir, d));
  assert.equal(written.length, 2 * loadable.length);
  for (const w of written) for (const reader of loadable) checkFile(w, reader, dir);
  // The same fixture upgraded by each engine: the same rows, whichever engine upgraded it.
  assert.equal(new Set(written.filter((w) => w.file.endsWith('-49up.db')).map((w) => w.fingerprint)).size, 1);
});

const crossDir = process.env['LEGADO_STORE_CROSS_DIR'];

test(
  `files written on the other runtimes open here (${testDriver.name} on ${runtime()})`,
  { skip: crossDir ? false : 'LEGADO_STORE_CROSS_DIR is not set: npm run test:runtimes sets it, after every runtime wrote its files' },
  () => {
    const written = writtenIn(crossDir!);
    const others = written.filter((w) => w.engine !== testDriver.name || w.runtime !== runtime());
    assert.ok(others.length > 0, `files from other runtimes in ${crossDir}`);
    const scratch = tempDir('legado-cross-check-');
    for (const w of written) checkFile(w, testDriver, scratch);
    console.log(`checked ${written.length} files from: ${[...new Set(written.map((w) => `${w.engine} on ${w.runtime}`))].join('; ')}`);
  },
);
