// The node:test stand-in the engine suites use inside workerd (suites/collector.ts), checked in
// Node against what node:test does: units in order, describes run lazily with their hooks and
// nested tests named by path, subtests and a test's own after(), and skip/todo/only refused.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as c from './suites/collector.js';

test('a file: tests and describes as units, hooks around each test, outcomes by full name', async () => {
  const log: string[] = [];
  const file = await c.collect(async () => {
    c.beforeEach(() => void log.push('file beforeEach'));
    c.test('passes', () => void log.push('passes'));
    c.test('fails', () => {
      throw Object.assign(new Error('boom'), { code: 'E_BOOM' });
    });
    c.describe('group', () => {
      log.push('group body');
      c.before(() => void log.push('group before'));
      c.afterEach(() => void log.push('group afterEach'));
      c.after(() => void log.push('group after'));
      c.it('inner', async (t: c.TestContext) => {
        t.after(() => void log.push('inner cleanup'));
        await t.test('sub', () => void log.push('sub'));
      });
      c.describe('nested', () => {
        c.test('deep', () => assert.equal(1, 2));
      });
    });
  });
  assert.deepEqual(c.units(file), [
    { kind: 'test', name: 'passes' },
    { kind: 'test', name: 'fails' },
    { kind: 'describe', name: 'group' },
  ]);
  assert.deepEqual(log, [], 'a describe body runs only when its unit runs');
  const each = { before: file.beforeEach, after: file.afterEach };
  assert.deepEqual(await c.runUnit(file.children[0]!, each), [{ name: 'passes', ok: true }]);
  const [failed] = await c.runUnit(file.children[1]!, each);
  assert.equal(failed!.ok, false);
  assert.match(failed!.error!, /^Error \[E_BOOM\]: boom/);
  log.length = 0;
  const group = await c.runUnit(file.children[2]!, each);
  assert.deepEqual(
    group.map((o) => [o.name, o.ok]),
    [
      ['group > inner', true],
      ['group > nested > deep', false],
    ],
  );
  assert.match(group[1]!.error!, /AssertionError/);
  assert.deepEqual(log, [
    'group body',
    'group before',
    'file beforeEach',
    'sub',
    'inner cleanup',
    'group afterEach',
    'file beforeEach',
    'group afterEach',
    'group after',
  ]);
});

test('skip, todo and only are refused loudly, as registrations and inside a test', async () => {
  const file = await c.collect(async () => {
    c.test.skip('skipped', () => {});
    c.test('todo option', { todo: true }, () => {});
    c.describe.only('only', () => {});
    c.test('t.skip', (t: c.TestContext) => t.skip());
    c.test('t.test skip', async (t: c.TestContext) => t.test('sub', { skip: true }, () => {}));
  });
  for (const unit of file.children) {
    const [o] = await c.runUnit(unit);
    assert.equal(o!.ok, false, unit.name);
    assert.match(o!.error!, /refused/, unit.name);
  }
});

test('outside a file being collected, registering is an error that says so', () => {
  assert.throws(() => c.test('late', () => {}), /outside a suite file's loading/);
});
