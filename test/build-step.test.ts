// scripts/build.js, the npm scripts' build step: tsc is left out only when the last successful
// build started after every input's last change and every .ts input's .js is in dist/.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { upToDate, markBuilt } = (await import(pathToFileURL(join(repo, 'scripts', 'build.js')).href)) as {
  upToDate(dir: string): boolean;
  markBuilt(started: Date, dir: string): void;
};

const dir = mkdtempSync(join(tmpdir(), 'legado-build-step-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const past = new Date(Date.now() - 60_000);
function file(rel: string, when = past): void {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), '');
  utimesSync(join(dir, rel), when, when);
}

test('the build step leaves tsc out only for a tree built since its last change, every output present', () => {
  for (const f of ['tsconfig.json', 'package.json', 'src/a.ts', 'src/types.d.ts', 'test/b.test.ts', 'web/page/main.ts', 'dist/src/a.js', 'dist/test/b.test.js'])
    file(f);
  assert.equal(upToDate(dir), false, 'never built: no stamp');

  const started = new Date(Date.now() - 30_000);
  markBuilt(started, dir);
  // web/page is tsconfig.json's exclude, a .d.ts makes no .js: neither needs an output.
  assert.equal(upToDate(dir), true, 'built after every change');

  const later = new Date(Date.now() - 10_000);
  file('src/a.ts', later);
  assert.equal(upToDate(dir), false, 'a source changed after the build started');
  file('src/a.ts');
  file('tsconfig.json', later);
  assert.equal(upToDate(dir), false, 'the configuration changed after the build started');
  file('tsconfig.json');
  assert.equal(upToDate(dir), true);

  rmSync(join(dir, 'dist/test/b.test.js'));
  assert.equal(upToDate(dir), false, "an input's output was removed (tsc --incremental would not write it again)");
  file('dist/test/b.test.js');
  file('src/new.ts');
  assert.equal(upToDate(dir), false, 'a new input without its output');
});

test("wrangler's files under .wrangler/ (beside worker/ and test/worker/ configs) do not make the build stale", () => {
  const d = mkdtempSync(join(tmpdir(), 'legado-build-step-'));
  after(() => rmSync(d, { recursive: true, force: true }));
  const at = (rel: string, when: Date): void => {
    mkdirSync(dirname(join(d, rel)), { recursive: true });
    writeFileSync(join(d, rel), '');
    utimesSync(join(d, rel), when, when);
  };
  for (const f of ['tsconfig.json', 'package.json', 'worker/dev.ts', 'dist/worker/dev.js', 'test/worker/helpers.ts', 'dist/test/worker/helpers.js'])
    at(f, past);
  markBuilt(new Date(Date.now() - 30_000), d);
  assert.equal(upToDate(d), true);
  // What `wrangler dev` writes while it runs: a bundle entry in TypeScript (no .js in dist/, as
  // tsc leaves dot-folders out) and state files, all newer than the build.
  const now = new Date();
  at('worker/.wrangler/tmp/dev-x/middleware-loader.entry.ts', now);
  at('worker/.wrangler/state/v3/do/db.sqlite', now);
  at('test/worker/suites/.wrangler/tmp/bundle/index.js', now);
  assert.equal(upToDate(d), true, 'wrangler output is no input');
  at('worker/worker.ts', now);
  assert.equal(upToDate(d), false, 'a real input beside it still counts');
});
