// The build step of the npm scripts (`npm test`, `npm run test:slow`, ...): `tsc -p tsconfig.json`,
// left out when dist/ already holds what it would write. CI runs six of those scripts in a row on
// one unchanged tree, and each full build took ~20 s on a 2-core machine. Plain JavaScript: it
// runs before anything is compiled. `--force` (`npm run build`) always builds.
//
// Up to date means: a stamp written by the last build that succeeded, no input changed since that
// build started, and every .ts input's .js present in dist/ (tsc's own --incremental would not
// write a deleted output again, so it is not used).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const stamp = (dir) => join(dir, 'dist', '.tsc-built');
/** tsconfig.json's include (and its one exclude), and the files that change what tsc makes of them. */
const INCLUDE = ['src', 'test', 'bench', 'web', 'scripts', 'worker'];
const EXCLUDE = new Set(['web/page']);
const CONFIG = ['tsconfig.json', 'package.json', 'package-lock.json'];

/**
 * The newest mtime of the files under `rels` (folders walked, `exclude` left out); Infinity when
 * `outputs` is set and a .ts file's .js is missing from dist/. prepare.js uses it too. Names that
 * start with a dot are left out below the top, as tsc's include leaves them out: wrangler writes
 * its bundles and state into `.wrangler/` beside each config (worker/, test/worker/).
 */
export function newestMtime(dir, rels, { exclude = new Set(), outputs = false } = {}) {
  let newest = 0;
  const walk = (rel) => {
    if (exclude.has(rel) || (rel.includes('/') && rel.slice(rel.lastIndexOf('/') + 1).startsWith('.'))) return;
    const p = join(dir, rel);
    const st = statSync(p, { throwIfNoEntry: false });
    if (!st) return;
    if (st.isDirectory()) {
      for (const e of readdirSync(p)) walk(`${rel}/${e}`);
      return;
    }
    newest = Math.max(newest, st.mtimeMs);
    if (outputs && rel.endsWith('.ts') && !rel.endsWith('.d.ts') && !existsSync(join(dir, 'dist', rel.replace(/\.ts$/, '.js'))))
      newest = Number.POSITIVE_INFINITY;
  };
  for (const rel of rels) walk(rel);
  return newest;
}

/** True when the last successful build started after every input's last change and left every output. */
export function upToDate(dir = root) {
  const st = statSync(stamp(dir), { throwIfNoEntry: false });
  return st !== undefined && st.mtimeMs >= newestMtime(dir, [...INCLUDE, ...CONFIG], { exclude: EXCLUDE, outputs: true });
}

/** Records a build that succeeded; `started` is when it began (a file changed while it ran is built next time). */
export function markBuilt(started, dir = root) {
  writeFileSync(stamp(dir), `${started.toISOString()}\n`);
  utimesSync(stamp(dir), started, started);
}

/** Runs tsc -p tsconfig.json (whatever the stamp says) and records it when it succeeds; returns its exit code. */
export function build() {
  const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  const started = new Date();
  const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: root, stdio: 'inherit' });
  if (r.status === 0) markBuilt(started);
  return r.status ?? 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (!process.argv.includes('--force') && upToDate())
    process.stdout.write(`legado-store: ${relative(process.cwd(), join(root, 'dist')) || 'dist'} is up to date (tsc left out)\n`);
  else process.exitCode = build();
}
