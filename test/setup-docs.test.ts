// The setup notes say what an install does here: the time `npm ci` takes, and why npm warns
// about @sqlite.org/sqlite-wasm's engines on Node 20 (checked against the installed package).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (p: string) => readFileSync(root + p, 'utf8');

test("the install notes' times and the sqlite-wasm engines warning match what installs", () => {
  // What a user reads before installing: the README, docs/install.md and CONTRIBUTING.md.
  const readme = ['README.md', 'docs/install.md', 'CONTRIBUTING.md'].map(read).join('\n');
  assert.doesNotMatch(readme, /about a minute/, 'npm ci was measured at 1.5 minutes warm, 4 cold');
  assert.match(readme, /a few minutes/);
  const wasm = JSON.parse(readFileSync(createRequire(root + 'package.json').resolve('@sqlite.org/sqlite-wasm/package.json'), 'utf8')) as {
    version: string;
    engines?: { node?: string };
  };
  const setup = read('docs/setup.md');
  const declared = wasm.engines?.node;
  if (declared !== undefined) {
    // npm warns EBADENGINE on Node 20 for it: the notes say so, with the range it declares.
    assert.ok(setup.includes(`"engines": { "node": "${declared}" }`), `docs/setup.md explains ${declared}`);
    assert.match(readme, /EBADENGINE/);
  }
  assert.match(setup, /npm 11 and `prepare`/);
});
