// The rule engine runs where code generation from strings is refused, as on Cloudflare Workers
// (workerd refuses eval and new Function): the model-based rule suite, JSONPath filters
// included, in a Node started with --disallow-code-generation-from-strings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

test('the rule suite passes in a Node that refuses eval and new Function', () => {
  const suite = fileURLToPath(new URL('./sources-rules.test.js', import.meta.url));
  const probe = spawnSync(process.execPath, ['--disallow-code-generation-from-strings', '-e', 'eval("1")'], { encoding: 'utf8' });
  assert.match(probe.stderr, /Code generation from strings disallowed/, 'the flag refuses eval');
  // Without the runner's own context, the child reports in TAP rather than to this runner.
  const env = { ...process.env };
  delete env['NODE_TEST_CONTEXT'];
  const r = spawnSync(process.execPath, ['--disallow-code-generation-from-strings', '--test-reporter=tap', suite], { encoding: 'utf8', timeout: 120_000, env });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^# fail 0$/m);
  assert.match(r.stdout, /^# pass [1-9]/m);
});
