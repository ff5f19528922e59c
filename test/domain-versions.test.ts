// The domain suites again at later versions of the main line (they run at 62 by default): the
// operations must work unchanged where the app added columns (63's enableRefresh, 65's dropped
// enabledReview, 72's RSS groups, 75's view). Each run is a test runner of its own.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const here = fileURLToPath(new URL('.', import.meta.url));
const suites = readdirSync(here)
  .filter((f) => /^domain-(?!versions).*\.test\.js$/.test(f))
  .map((f) => here + f);

/** Runs the suites in a child test runner at that schema: node --test, or under Bun `bun test` a file at a time (Bun's runner shares one process across files). */
function runAt(version: number): { pass: number; fail: number; output: string } {
  // Without NODE_TEST_CONTEXT, which marks a child of this runner.
  const { NODE_TEST_CONTEXT: _child, ...rest } = process.env;
  const env = { ...rest, LEGADO_TEST_SCHEMA: String(version) };
  if (!('Bun' in globalThis)) {
    const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', ...suites], { encoding: 'utf8', env });
    const summary = /# pass (\d+)\n# fail (\d+)/.exec(r.stdout);
    return { pass: Number(summary?.[1] ?? 0), fail: summary ? Number(summary[2]) + (r.status === 0 ? 0 : 1) : 1, output: r.stdout.slice(-4000) + r.stderr };
  }
  let pass = 0;
  let fail = 0;
  let output = '';
  for (const suite of suites) {
    const r = spawnSync(process.execPath, ['test', suite], { encoding: 'utf8', env });
    const text = r.stdout + r.stderr;
    const p = /^\s*(\d+) pass/m.exec(text);
    const f = /^\s*(\d+) fail/m.exec(text);
    pass += Number(p?.[1] ?? 0);
    fail += p ? Number(f?.[1] ?? 0) + (r.status === 0 ? 0 : 1) : 1;
    if (r.status !== 0 || !p) output += text.slice(-2000);
  }
  return { pass, fail, output };
}

for (const version of [63, 71, 75]) {
  test(`the domain suites pass at schema ${version}`, () => {
    const r = runAt(version);
    assert.equal(r.fail, 0, r.output);
    assert.ok(r.pass >= 50, `${r.pass} tests ran\n${r.output}`);
  });
}
