// `legado-store sources check` and `sources debug` on the command line: the arguments as the
// app's check settings allow them (CheckSourceConfig: search or explore, TOC needs info, content
// needs TOC), bounds on the numbers, unknown sources named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openStore, type Store } from 'legado-store';
import { parseSteps } from '../src/cli/commands/sources-check.js';
import { UsageError } from '../src/cli/exit.js';
import { cli } from './helpers/cli.js';
import { source } from './helpers/builders.js';
import { snapshot, tempDir } from './helpers/files.js';

const dir = tempDir('legado-check-cli-');

function store(name: string): string {
  const path = join(dir, name);
  const s = openStore(path) as Store<62>;
  try {
    s.tables.book_sources.insert(source('https://a.example', { searchUrl: '/s?q={{key}}' }));
  } finally {
    s.close();
  }
  return path;
}

test("--steps: the app's settings rules", () => {
  assert.deepEqual(parseSteps(undefined), { search: true, explore: true, info: true, toc: true, content: true });
  assert.deepEqual(parseSteps('search, info'), { search: true, explore: false, info: true, toc: false, content: false });
  assert.deepEqual(parseSteps('explore,info,toc'), { search: false, explore: true, info: true, toc: true, content: false });
  assert.throws(
    () => parseSteps('info,toc'),
    (e: unknown) => e instanceof UsageError && /search or explore/.test(e.message),
  );
  assert.throws(
    () => parseSteps('search,toc'),
    (e: unknown) => e instanceof UsageError && /toc needs info/.test(e.message),
  );
  assert.throws(
    () => parseSteps('search,info,content'),
    (e: unknown) => e instanceof UsageError && /content needs toc/.test(e.message),
  );
  assert.throws(
    () => parseSteps('search,detail'),
    (e: unknown) => e instanceof UsageError && /unknown step "detail"/.test(e.message),
  );
});

test('bad numbers and an empty keyword are usage errors; an unknown --source is UNKNOWN_SOURCE; the store is left as it was', async () => {
  const path = store('args.db');
  const before = snapshot(path);
  for (const args of [
    ['--concurrency', '0'],
    ['--concurrency', '2.5'],
    ['--timeout', '-1'],
    ['--timeout', 'soon'],
    ['--keyword', ' '],
    ['--steps', 'toc'],
  ]) {
    const r = await cli('sources', 'check', path, ...args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(args[0]!.replace(/-/g, '\\-')));
  }
  const r = await cli('sources', 'check', path, '--source', 'https://nope.example');
  assert.equal(r.code, 1);
  assert.match(r.stderr, /UNKNOWN_SOURCE.*https:\/\/nope\.example/);
  const d = await cli('sources', 'debug', path, 'https://nope.example', '我的');
  assert.equal(d.code, 1);
  assert.match(d.stderr, /UNKNOWN_SOURCE/);
  assert.deepEqual(snapshot(path), before);
});
