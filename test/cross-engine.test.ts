// A file written through any engine opens through any other: the same structure check
// passes, every row reads the same, and it works as a store. In this process: every pair of
// the engines that load here. Across runtimes: test/runtimes/cross-runtime.test.ts, run by
// npm run test:runtimes after each runtime wrote its files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { driverNamed } from '../src/engine/drivers/index.js';
import type { Driver, DriverName } from '../src/engine/driver.js';
import { checkFile, writeFiles } from './helpers/cross-engine.js';
import { tempDir } from './helpers/files.js';

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
