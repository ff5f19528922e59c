// The domain suites again at later versions of the main line (they run at 62 by default): the
// operations must work unchanged where the app added columns (63's enableRefresh, 65's dropped
// enabledReview, 72's RSS groups, 75's view). Each run is a test runner of its own.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const here = fileURLToPath(new URL('.', import.meta.url));
const suites = readdirSync(here).filter((f) => /^domain-(?!versions).*\.test\.js$/.test(f)).map((f) => here + f);

for (const version of [63, 71, 75]) {
  // Under Bun the suites cannot be run as a child `--test` run; test:runtimes runs them there directly.
  test(`the domain suites pass at schema ${version}`, { skip: 'Bun' in globalThis && 'a child node --test run does not exist under Bun' }, () => {
    // Without NODE_TEST_CONTEXT, which marks a child of this runner.
    const { NODE_TEST_CONTEXT: _child, ...env } = process.env;
    const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', ...suites], { encoding: 'utf8', env: { ...env, LEGADO_TEST_SCHEMA: String(version) } });
    const summary = /# pass (\d+)\n# fail (\d+)/.exec(r.stdout);
    assert.ok(summary, r.stdout.slice(-2000) + r.stderr);
    assert.equal(summary[2], '0', r.stdout.slice(-4000));
    assert.ok(Number(summary[1]) >= 50);
    assert.equal(r.status, 0);
  });
}
