// The engine suites themselves (seam, tables, domain-* also at 63, 71 and 75, backup-(import|
// export|exact|versions|records): the compiled test files, unchanged) run inside workerd on the Durable Object engine,
// offline: bundled by test/worker/suites/build.ts, run by wrangler dev, each unit (a top-level
// test, or a describe with its tests) in a Durable Object of its own, each test reported here
// by name. What cannot run on an engine without files or with one database per object is an
// explicit exclusion below, each with its reason and the error it must fail with: an excluded
// test that passes, or fails otherwise, fails here (so no exclusion outlives its reason).
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ROOT } from '../../worker/dev.js';
import { startWorker, stateDir } from './helpers.js';
import { buildSuites } from './suites/build.js';

/** Whole files left out, with why. */
const EXCLUDED_FILES: Readonly<Record<string, string>> = {
  'domain-versions.test.js':
    'runs the domain suites again in Node child processes at later versions: here the domain files run again at those versions themselves (<file>@<version>, suites/build.ts)',
};

interface Exclusion {
  readonly reason: string;
  /** What the test must fail with here. */
  readonly error: RegExp;
}

const TWO_DATABASES = /ONE_DATABASE_PER_OBJECT/;
const twoDatabases = (what: string): Exclusion => ({ reason: `opens two databases at once (${what}); an object has one`, error: TWO_DATABASES });

/** Tests left out, by file and full name, with why and the error they fail with here. */
const EXCLUDED: Readonly<Record<string, Exclusion>> = {
  'seam.test.js > only src/engine/drivers/ names an engine module': {
    reason: "reads the repository's source files, which are not inside workerd",
    error: /ENOENT.*readdir/,
  },
  'domain-book-groups.test.js > openStore inserts the v62 special groups into a file it creates; ensureSpecial fills only missing ids':
    twoDatabases('a new file and an existing one'),
  'domain-book-groups.test.js > an existing file is left untouched unless specialGroups: true is asked': {
    reason: "copies the store's file and compares its bytes: an object has no file",
    error: /ENOENT.*copy/,
  },
  'domain-chapters.test.js > replaceToc inside a transaction of the caller: a failure undoes the refresh only; a large refresh is reported once': {
    reason:
      "listens for changes (store.onChange), which Room's TEMP triggers report: the host refuses TEMP tables and triggers, and the engine says so (tempTriggers: false)",
    error: /\[UNSUPPORTED\]: store\.onChange is not available on the durable-object engine/,
  },
  'backup-exact.test.js > round trips over generated records: import, export, import again changes no stored value; a second export is byte-identical':
    twoDatabases('two :memory: stores'),
  'backup-exact.test.js > nesting is counted the same whether records are read together or one by one: 256 levels stored, 257 refused':
    twoDatabases('two :memory: stores'),
  'backup-export.test.js > 64-bit group bitmasks are written exactly': twoDatabases('the exported store and one it is imported into'),
  'backup-export.test.js > round trip: importing an export (zip and folder) into an empty store gives the same rows': twoDatabases(
    'the exported store and one it is imported into',
  ),
  'backup-export.test.js > rows whose text is longer than the write buffer, and characters at its edges, are written whole (zip and folder)': twoDatabases(
    'the exported store and one it is imported into',
  ),
  'backup-import.test.js > a backup folder and the same backup zipped import every table file; other files are reported, empty files are empty sections':
    twoDatabases('one store per form of the backup'),
  'backup-versions.test.js > a store of an older version reports each field it lacks as dropped, per version': twoDatabases('one store per version'),
};

interface Outcome {
  readonly name: string;
  readonly ok: boolean;
  readonly error?: string;
}

const files = (await buildSuites()).filter((f) => !(f in EXCLUDED_FILES));
const state = stateDir('legado-worker-suites-');
const worker = await startWorker(['--persist-to', state], join(ROOT, 'test', 'worker', 'suites', 'wrangler.jsonc'));
after(async () => {
  await worker.stop();
  rmSync(state, { recursive: true, force: true });
});

let objects = 0;
/** One request, in the object `object` (a fresh name: a fresh database). */
async function ask<T>(route: string, file: string, extra = '', object = `${route}-${file}-${++objects}`): Promise<T> {
  const res = await fetch(`${worker.url}${route}?file=${encodeURIComponent(file)}${extra}&object=${encodeURIComponent(object)}`);
  const text = await res.text();
  assert.equal(res.status, 200, `${route} ${file}${extra}: ${text.slice(0, 3000)}\n${worker.output().slice(-2000)}`);
  return JSON.parse(text) as T;
}

/** Figures per file: tests run, passed, excluded (printed by the last test). */
const figures = new Map<string, { run: number; passed: number; excluded: number }>();
const seen = new Set<string>();

function judge(file: string, o: Outcome): void {
  // An exclusion holds for a domain file at every version it runs at (<file>@<version>).
  const key = `${file.replace(/@\d+$/, '')} > ${o.name}`;
  seen.add(key);
  const f = figures.get(file)!;
  const excluded = EXCLUDED[key];
  if (excluded) {
    f.excluded++;
    assert.ok(!o.ok, `${key} is excluded (${excluded.reason}) but passes: remove the exclusion`);
    assert.match(o.error ?? '', excluded.error, `${key} is excluded (${excluded.reason}) but fails otherwise:\n${o.error}`);
    return;
  }
  f.run++;
  assert.ok(o.ok, `${key}\n${o.error}`);
  f.passed++;
}

type Unit = { kind: 'test' | 'describe'; name: string };
// Listed before any test is registered: if a file cannot load, wrangler is stopped before the error ends this file.
const listed = new Map<string, Unit[]>();
try {
  for (const file of files) listed.set(file, await ask<Unit[]>('units', file));
} catch (e) {
  await worker.stop();
  throw e;
}

for (const [file, units] of listed) {
  figures.set(file, { run: 0, passed: 0, excluded: 0 });
  units.forEach((unit, i) => {
    test(`${file} > ${unit.name}`, async (t) => {
      const outcomes = await ask<Outcome[]>('run', file, `&unit=${i}`);
      assert.ok(outcomes.length > 0, 'the unit ran tests');
      if (unit.kind === 'test' && outcomes.length === 1) return judge(file, outcomes[0]!);
      for (const o of outcomes) await t.test(o.name, () => judge(file, o));
    });
  });
  test(`${file}: its after() hooks`, async () => {
    await ask('finish', file);
  });
}

test('every exclusion names a test that ran here, or a suite file', () => {
  assert.deepEqual(
    Object.keys(EXCLUDED).filter((k) => !seen.has(k)),
    [],
  );
  const all = new Set([...files, ...Object.keys(EXCLUDED_FILES)]);
  for (const f of Object.keys(EXCLUDED_FILES)) assert.ok(all.has(f));
  assert.ok(files.length >= 19 + 3 * 12, `suite files run: ${files.length}`);
});

test('figures: tests run, passed and excluded per file', (t) => {
  let run = 0;
  let excluded = 0;
  for (const [file, f] of figures) {
    t.diagnostic(`${file}: run ${f.run}, passed ${f.passed}, excluded ${f.excluded}`);
    run += f.run;
    excluded += f.excluded;
  }
  t.diagnostic(`all: run ${run}, excluded ${excluded}, files excluded ${Object.keys(EXCLUDED_FILES).length}`);
  // The large majority runs.
  assert.ok(run >= 450 && excluded * 10 < run, `run ${run}, excluded ${excluded}`);
});
