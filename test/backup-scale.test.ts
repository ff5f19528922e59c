// Collections are read as streams: importing a 40 MB collection grows the importing process's
// peak memory by less than twice the file's size (about 1× is typical: SQLite, V8's young
// generation, the key set). Reading it whole would not fit: JSON.parse of the text alone grows
// it by ~2.7× (about 100 MB), before anything is stored.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { tempDir } from './helpers/files.js';
import { writeCollection } from './helpers/synth.js';

const BENCH = fileURLToPath(new URL('../bench/import.js', import.meta.url));

test('a 40 MB collection imports with peak memory growing by less than twice the file size', { timeout: 120_000 }, () => {
  const dir = tempDir();
  const input = join(dir, 'big.json');
  const bytes = writeCollection(input, 16000);
  assert.ok(bytes > 35e6, `input is ${bytes} bytes`);
  const run = spawnSync(process.execPath, [BENCH, '--child', input, join(dir, 'big.db')], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const r = JSON.parse(run.stdout) as { peakRssMB: number; baselineRssMB: number; stored: number };
  assert.equal(r.stored, 16000);
  const growthMB = r.peakRssMB - r.baselineRssMB;
  assert.ok(growthMB < (2 * bytes) / 1024 / 1024, `peak RSS grew by ${growthMB} MB for a ${Math.round(bytes / 1048576)} MB file`);
});
