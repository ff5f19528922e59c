// The docs' example Driver (docs/engines.md, kept as test/example/my-driver.ts) is a real one:
// the table, domain and backup suites pass on it, run as they run on the shipped engines
// (LEGADO_STORE_DRIVER names it; the preload registers it, in child processes too).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '../src/store/open.js';
import { myDriver } from './example/my-driver.js';
import { openDb } from './helpers/engine.js';

const here = dirname(fileURLToPath(import.meta.url)); // dist/test
const root = join(here, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'legado-example-driver-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('docs/engines.md shows the example driver exactly as it is tested', () => {
  const doc = readFileSync(join(root, 'docs', 'engines.md'), 'utf8');
  const source = readFileSync(join(root, 'test', 'example', 'my-driver.ts'), 'utf8');
  assert.ok(doc.includes('```ts\n' + source + '```'), 'docs/engines.md holds test/example/my-driver.ts verbatim in a ts block');
});

test('a store on the example driver: the connection is its own, and its capabilities are honoured (no WAL)', () => {
  const path = join(dir, 'mine.db');
  const store = openStore(path, { driver: myDriver, schema: 75 });
  assert.equal(store.db.driver, 'my-driver');
  store.tables.book_groups.upsert({ groupId: 8, groupName: 'mine', order: 1, show: true });
  store.close();
  const db = openDb(path, { readonly: true });
  assert.equal(db.pragma('journal_mode', { simple: true }), 'delete');
  assert.equal(db.pragma('user_version', { simple: true }), 75);
  assert.equal(db.prepare('SELECT groupName FROM book_groups WHERE groupId = 8').pluck().get(), 'mine');
  db.close();
});

test('the table, domain and backup suites pass on the example driver', () => {
  const suites = readdirSync(here)
    .filter((f) => f === 'tables.test.js' || /^domain-.*\.test\.js$/.test(f) || /^backup-(import|export|exact|versions|records)\.test\.js$/.test(f))
    .map((f) => join(here, f));
  assert.ok(suites.length >= 15, `suites found: ${suites.length}`);
  const preload = join(here, 'example', 'preload.js');
  // A runner of its own (not a child of this one, which would report to this runner instead).
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const run = spawnSync(process.execPath, ['--test', '--test-reporter=tap', ...suites], {
    encoding: 'utf8',
    env: { ...env, LEGADO_STORE_DRIVER: myDriver.name, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --import ${preload}`.trim() },
    maxBuffer: 64 * 1024 * 1024,
  });
  const count = (what: string) => Number(new RegExp(`^# ${what} (\\d+)$`, 'm').exec(run.stdout)?.[1]);
  const failed = run.stdout.split('\n').filter((l) => /^\s*not ok/.test(l));
  assert.equal(run.status, 0, `failed:\n${failed.join('\n')}\n${run.stderr.slice(-2000)}`);
  assert.equal(count('fail'), 0);
  assert.equal(count('skipped'), 0);
  assert.ok(count('pass') > 250, `tests passed: ${count('pass')}`);
});
