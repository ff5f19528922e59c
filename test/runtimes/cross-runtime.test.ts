// The files npm run test:runtimes had every runtime (and the machine's Node) write into
// LEGADO_STORE_CROSS_DIR open here, on this runtime's engine: the same structure check passes,
// every row reads the same, and each works as a store. Only that script runs this file; run
// alone, without the folder, it fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFile, runtime, writtenIn } from '../helpers/cross-engine.js';
import { tempDir } from '../helpers/files.js';
import { testDriver } from '../helpers/engine.js';

test(`files written on the other runtimes open here (${testDriver.name} on ${runtime()})`, () => {
  const crossDir = process.env['LEGADO_STORE_CROSS_DIR'];
  assert.ok(crossDir, 'LEGADO_STORE_CROSS_DIR is not set: npm run test:runtimes sets it, after every runtime wrote its files');
  const written = writtenIn(crossDir);
  const others = written.filter((w) => w.engine !== testDriver.name || w.runtime !== runtime());
  assert.ok(others.length > 0, `files from other runtimes in ${crossDir}`);
  const scratch = tempDir('legado-cross-check-');
  for (const w of written) checkFile(w, testDriver, scratch);
  console.log(`checked ${written.length} files from: ${[...new Set(written.map((w) => `${w.engine} on ${w.runtime}`))].join('; ')}`);
});
