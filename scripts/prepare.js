// `npm run prepare`: npm runs it on `npm install`/`npm ci` in a clone, in a git dependency's clone
// (after installing its devDependencies) and in a folder installed by path (`npm install <dir>`,
// which links the folder as it is, devDependencies or not). Plain JavaScript: it runs before
// anything is compiled. Builds the package (dist/src and dist/browser) where the build tools are
// installed; otherwise a built dist/ is used as it is, and an unbuilt folder is refused with
// what to do instead of "tsc: not found". `npm pack` and `npm publish` run it as `prepack` with
// --force: a release is always built from scratch.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const require = createRequire(join(root, 'package.json'));
const resolves = (id) => {
  try {
    return require.resolve(id);
  } catch {
    return undefined;
  }
};

const tsc = resolves('typescript/bin/tsc');
const canBuild = tsc && existsSync(join(root, 'tsconfig.json')) && resolves('esbuild') && resolves('@sqlite.org/sqlite-wasm/package.json');
const built = ['dist/src/index.js', 'dist/src/index.d.ts', 'dist/browser/legado-store.js'].every((f) => existsSync(join(root, f)));

// The build's inputs, and a stamp written after a build: a folder linked again (`npm install
// <dir>` runs prepare each time) is not rebuilt when nothing changed since.
const STAMP = join(root, 'dist', '.package-built');
// Only where it can build: a packed copy has this file without build.js (and runs neither).
const buildStep = canBuild ? await import('./build.js') : undefined;
const upToDate = () =>
  built && existsSync(STAMP) && statSync(STAMP).mtimeMs >= buildStep.newestMtime(root, ['src', 'web', 'scripts', 'tsconfig.json', 'package.json']);

const run = (args) => {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

if (canBuild && !process.argv.includes('--force') && upToDate()) {
  process.stdout.write('legado-store: dist/ is up to date\n');
} else if (canBuild) {
  // From scratch, so that nothing a removed source left behind is packed.
  for (const d of ['dist/src', 'dist/browser']) rmSync(join(root, d), { recursive: true, force: true });
  const started = new Date();
  run([tsc, '-p', 'tsconfig.json']);
  // The npm scripts' build step (scripts/build.js) then finds dist/ up to date.
  buildStep.markBuilt(started);
  run([tsc, '-p', 'web/page']);
  run([join(root, 'dist', 'web', 'build.js')]);
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
} else if (built) {
  process.stdout.write('legado-store: no build tools here (devDependencies not installed); using the built dist/\n');
} else {
  process.stderr.write(
    `legado-store: ${root} is not built and has no build tools (devDependencies not installed).\n` +
      `Run \`npm ci\` in that folder first (it installs them and builds dist/), or install a packed\n` +
      `tarball (\`npm pack\` there, then \`npm install <the .tgz>\`) or the git URL, which npm builds itself.\n`,
  );
  process.exit(1);
}
