// The package as an outside project gets it. A copy of this checkout (what `git clone` and
// `npm ci` leave: the working tree's files, with this checkout's node_modules) is packed with
// `npm pack` (its prepack builds dist/ there, never in the checkout the other suites run from);
// the tarball is read, installed into a fresh project and compiled against under the strictest
// settings for each module system, and the consumer runs. The copy is also installed by path.
// Installing from a git URL is left out: npm installs a git dependency's devDependencies in a
// clone first (better-sqlite3's native build included), minutes here; README (Install) says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { driverNamed } from '../src/engine/drivers/index.js';
import './helpers/engine.js'; // Node's engines, as the package's entry installs them

const repo = fileURLToPath(new URL('../../', import.meta.url));
const fixtures = join(repo, 'test', 'fixtures');
const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');

interface Run {
  status: number | null;
  out: string;
}

// Without npm's variables of the outer `npm test`, which would point npm at this checkout.
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));

function run(cmd: string, args: readonly string[], cwd: string): Run {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
}

/** The same, in the background (the type checks run side by side). */
function started(cmd: string, args: readonly string[], cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', (e) => resolve({ status: null, out: out + String(e) }));
    child.on('close', (status) => resolve({ status, out }));
  });
}
const ok = (r: Run, what: string): Run => {
  assert.equal(r.status, 0, `${what} failed:\n${r.out}`);
  return r;
};
const npm = (args: readonly string[], cwd: string) => run('npm', args, cwd);
const INSTALL = ['install', '--prefer-offline', '--no-audit', '--no-fund'];

/** The checkout's files as a clone has them: tracked and new ones, not the ignored ones (node_modules, dist). */
function copyCheckout(to: string): void {
  const listed = ok(run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], repo), 'git ls-files').out;
  for (const f of listed.split('\0').filter(Boolean)) {
    const from = join(repo, f);
    if (!existsSync(from)) continue; // deleted in the working tree
    mkdirSync(dirname(join(to, f)), { recursive: true });
    copyFileSync(from, join(to, f));
  }
}

function filesUnder(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? filesUnder(p, base) : [relative(base, p).split('\\').join('/')];
  });
}

function project(dir: string, pkg: Record<string, unknown>): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, ...pkg }));
}

/** The strictest settings a consumer may use; Node's types from this checkout (the consumer's own would be the same). */
const STRICT = {
  strict: true,
  skipLibCheck: false,
  exactOptionalPropertyTypes: true,
  target: 'ES2022',
  noEmit: true,
  typeRoots: [join(repo, 'node_modules', '@types')],
  types: ['node'],
};

function compile(dir: string, name: string, options: Record<string, unknown>, files: readonly string[]): Promise<Run> {
  writeFileSync(join(dir, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions: { ...STRICT, ...options }, files }));
  return started(process.execPath, [tsc, '-p', `tsconfig.${name}.json`], dir);
}

const canRunNodeSqlite = (() => {
  try {
    driverNamed('node:sqlite');
    return true;
  } catch {
    return false;
  }
})();

test('the packed package installs and type-checks for strict consumers, and runs', {
  skip: process.versions.bun ? 'npm pack and npm install are Node tooling' : false,
}, async (t) => {
  const work = mkdtempSync(join(tmpdir(), 'legado-pack-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  const clone = join(work, 'clone');
  copyCheckout(clone);
  symlinkSync(join(repo, 'node_modules'), join(clone, 'node_modules'), 'dir');
  ok(npm(['pack', '--pack-destination', work], clone), 'npm pack');
  const tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz'))!);
  const unpacked = join(work, 'unpacked');
  mkdirSync(unpacked);
  ok(run('tar', ['-xzf', tarball, '-C', unpacked], work), 'tar');
  const pkg = join(unpacked, 'package');
  const files = new Set(filesUnder(pkg));

  await t.test('the tarball holds the built package, its sources, the licence, and nothing of the development', () => {
    for (const f of [
      'package.json',
      'README.md',
      'LICENSE',
      'scripts/prepare.js',
      'dist/src/index.js',
      'dist/src/index.d.ts',
      'dist/src/cli/bin.js',
      'dist/src/browser/index.d.ts',
      'dist/browser/legado-store.js',
      'dist/browser/sqlite3.wasm',
      'src/index.ts',
    ]) {
      assert.ok(files.has(f), `${f} is packed`);
    }
    assert.match(readFileSync(join(pkg, 'LICENSE'), 'utf8'), /^MIT License\n\nCopyright \(c\) \d{4} legado-store contributors\n/);
    const stray = [...files].filter((f) => /^(dist\/(test|bench|web|page)|test|bench|web|node_modules)\//.test(f) || f.endsWith('.tgz'));
    assert.deepEqual(stray, []);
    // Everything package.json points at is there.
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as {
      exports: Record<string, string | Record<string, string>>;
      bin: Record<string, string>;
    };
    const targets = [...Object.values(manifest.exports).flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e))), ...Object.values(manifest.bin)];
    for (const target of targets) assert.ok(files.has(posix.normalize(target)), `${target} is packed`);
  });

  await t.test('every source map points at files in the tarball (or carries their text)', () => {
    const maps = [...files].filter((f) => f.endsWith('.js.map'));
    assert.ok(maps.length > 100, `${maps.length} maps`);
    const missing: string[] = [];
    for (const m of maps) {
      const map = JSON.parse(readFileSync(join(pkg, m), 'utf8')) as { sources: string[]; sourceRoot?: string; sourcesContent?: (string | null)[] };
      map.sources.forEach((s, i) => {
        const at = posix.normalize(posix.join(posix.dirname(m), map.sourceRoot ?? '', s));
        if (!files.has(at) && typeof map.sourcesContent?.[i] !== 'string') missing.push(`${m} -> ${s}`);
      });
    }
    assert.deepEqual(missing, []);
    // And every module's sourceMappingURL names a map that is packed.
    for (const f of [...files].filter((f) => f.endsWith('.js'))) {
      const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(join(pkg, f), 'utf8'))?.[1];
      if (url) assert.ok(files.has(posix.join(posix.dirname(f), url)), `${f} -> ${url}`);
    }
  });

  await t.test('no declaration imports a package a consumer does not get', () => {
    const { dependencies } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const found: string[] = [];
    for (const f of [...files].filter((f) => f.endsWith('.d.ts'))) {
      const text = readFileSync(join(pkg, f), 'utf8');
      for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)) {
        const spec = m[1]!;
        if (spec.startsWith('.') || spec.startsWith('node:')) continue;
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        if (name in dependencies) continue;
        found.push(`${f}: ${spec}`);
      }
    }
    // The WASM adapter's own declarations (drivers/wasm/, and drivers/wasm-modules: SQLite WASM
    // started in a Worker) name the WASM build, which the browser bundle and the Worker carry
    // inside them; no entry's declarations reach them (the browser consumer below compiles without it).
    const outside = found.filter((f) => !/^dist\/src\/engine\/drivers\/wasm(\/[\w-]+|-modules)\.d\.ts: @sqlite\.org\/sqlite-wasm$/.test(f));
    assert.deepEqual(outside, []);
    assert.ok(found.length > 0, 'the WASM adapter names its build');
  });

  // One project with the tarball installed; without optional dependencies, so no native build.
  const consumer = join(work, 'consumer');
  project(consumer, { type: 'module' });
  const installed = ok(npm([...INSTALL, '--omit=optional', tarball], consumer), 'npm install <tarball>');
  // npm 11 lists a packed `prepare` as an install script not covered by allowScripts; the packed
  // manifest has none (scripts/pack-manifest.js), so installing the package asks nothing of anyone.
  assert.doesNotMatch(installed.out, /legado-store@[^\n]*\(prepare/, installed.out);
  for (const f of ['typed-consumer.ts', 'consumer-main.ts', 'consumer-browser.ts']) copyFileSync(join(fixtures, f), join(consumer, f));
  project(join(consumer, 'cjs'), { type: 'commonjs' });
  copyFileSync(join(fixtures, 'consumer-cjs.cts'), join(consumer, 'cjs', 'consumer.ts'));
  const esm = ['consumer-main.ts', 'typed-consumer.ts'];

  const checks = {
    nodenext: compile(consumer, 'nodenext', { module: 'nodenext', moduleResolution: 'nodenext', noEmit: false, outDir: 'out' }, esm),
    cjs: compile(consumer, 'node16-cjs', { module: 'node16', moduleResolution: 'node16' }, ['cjs/consumer.ts']),
    bundler: compile(consumer, 'bundler', { module: 'preserve', moduleResolution: 'bundler' }, esm),
    browser: compile(consumer, 'browser', { module: 'preserve', moduleResolution: 'bundler', lib: ['ES2022', 'DOM'], types: [] }, ['consumer-browser.ts']),
  };
  await t.test('an ESM consumer compiles under strict, skipLibCheck: false, exactOptionalPropertyTypes (nodenext)', async () => {
    ok(await checks.nodenext, 'tsc (nodenext)');
  });
  await t.test('a CommonJS consumer compiles (node16, "type": "commonjs": import type and import())', async () => {
    ok(await checks.cjs, 'tsc (node16, CommonJS)');
  });
  await t.test('a bundler consumer compiles (moduleResolution bundler)', async () => {
    ok(await checks.bundler, 'tsc (bundler)');
  });
  await t.test('a page using legado-store/browser compiles with the DOM library and no Node types', async () => {
    ok(await checks.browser, 'tsc (browser)');
  });

  const expectRun = (out: string): void => {
    const result = JSON.parse(out.trim().split('\n').pop()!) as Record<string, unknown>;
    assert.equal(typeof result.driver, 'string', out);
    assert.equal(result.jsLib, 'x');
    assert.equal(result.mismatch, 'VERSION_MISMATCH');
    const book = JSON.parse(result.book as string) as Record<string, unknown>;
    assert.equal(book.group, '-9223372036854775808');
    assert.equal(book.canUpdate, false);
    assert.equal('kind' in book, false);
    assert.deepEqual(result.subpaths, { csv: '"a,""b"""', busy: 'BUSY', webdav: 'function' });
  };

  await t.test('the compiled consumer runs against the installed package', () => {
    // Installed without optional dependencies there is no better-sqlite3: the store runs on
    // node:sqlite where the runtime has it (Node 22.13+), and on Node 20, which has no other
    // engine, the package still loads and openStore says so with a typed error. (The linked
    // install below has better-sqlite3 and runs the same program on Node 20.)
    const r = ok(run(process.execPath, ['out/consumer-main.js'], consumer), 'node out/consumer-main.js');
    if (canRunNodeSqlite) expectRun(r.out);
    else {
      const result = JSON.parse(r.out.trim().split('\n').pop()!) as Record<string, unknown>;
      assert.equal(result.unavailable, 'DRIVER_UNAVAILABLE', r.out);
      assert.equal(result.isStoreError, true);
      assert.match(result.message as string, /better-sqlite3.*node:sqlite/);
      assert.deepEqual(result.subpaths, { csv: '"a,""b"""', busy: 'BUSY', webdav: 'function' });
    }
  });

  await t.test('npm install <folder> links a clone that has had npm ci, and the consumer runs on it', () => {
    const linked = join(work, 'linked');
    project(linked, { type: 'module' });
    const r = ok(npm([...INSTALL, clone], linked), 'npm install <clone>');
    // prepare ran in the clone and found dist/ as the pack left it.
    assert.match(r.out, /up to date|added/);
    mkdirSync(join(linked, 'out'));
    for (const f of readdirSync(join(consumer, 'out'))) copyFileSync(join(consumer, 'out', f), join(linked, 'out', f));
    expectRun(ok(run(process.execPath, ['out/consumer-main.js'], linked), 'node out/consumer-main.js (linked)').out);
  });

  await t.test('npm install <folder> of a clone without npm ci fails saying what to do, not "tsc: not found"', () => {
    const fresh = join(work, 'fresh');
    copyCheckout(fresh);
    const linked = join(work, 'linked-fresh');
    project(linked, { type: 'module' });
    const r = npm([...INSTALL, '--foreground-scripts', fresh], linked);
    assert.notEqual(r.status, 0);
    assert.match(r.out, /is not built and has no build tools/);
    assert.match(r.out, /npm ci/);
    assert.doesNotMatch(r.out, /tsc: not found/);
  });
});
