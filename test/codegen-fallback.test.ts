// Where code generation is forbidden (a page's Content Security Policy, or Node's
// --disallow-code-generation-from-strings), the table layer falls back to plain code: the
// per-table, constraint and object-row suites must pass there unchanged.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

// The switch is Node's command-line flag, and the check runs Node's test runner: Node only.
const notNode = 'Bun' in globalThis ? 'Node’s --disallow-code-generation-from-strings does not exist under Bun' : false;

test('the table and constraint suites pass with code generation disallowed', { skip: notNode }, () => {
  const files = [
    'tables.test.js',
    'constraints.test.js',
    'table-fast-paths.test.js',
    'prepared.test.js',
    'object-rows.test.js',
    'backup-records.test.js',
    'backup-merge-batch.test.js',
  ].map((f) => fileURLToPath(new URL(f, import.meta.url)));
  // A test runner of its own: without NODE_TEST_CONTEXT, which marks a child of this runner.
  const { NODE_TEST_CONTEXT: _child, ...env } = process.env;
  const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', ...files], {
    encoding: 'utf8',
    env: { ...env, NODE_OPTIONS: '--disallow-code-generation-from-strings' },
  });
  const summary = /# pass (\d+)\n# fail (\d+)/.exec(r.stdout);
  assert.ok(summary, r.stdout.slice(-2000) + r.stderr);
  assert.equal(summary[2], '0', r.stdout.slice(-4000));
  assert.ok(Number(summary[1]) > 200);
  assert.equal(r.status, 0);
});
