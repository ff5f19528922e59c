// Builds the browser entry and the page with esbuild:
//   dist/browser/legado-store.js  the library as one ES module (a Worker can import() it), with
//   dist/browser/sqlite3.wasm     SQLite's WASM build beside it, where the module looks for it;
//   dist/page/                    the page (index.html, app.js, worker.js) that uses the library.
// No plugin swaps or stubs modules: the core imports nothing of Node (test/core-platform-free),
// and the browser entry installs SQLite WASM as its engine; a Node built-in in the bundle fails
// the build.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = join(root, 'dist');
const require = createRequire(import.meta.url);

/** ES modules for current browsers, minified, with source maps. */
const common = { bundle: true, format: 'esm', platform: 'browser', target: 'es2022', minify: true, sourcemap: true, logLevel: 'warning' } as const;

export async function buildBrowser(): Promise<void> {
  mkdirSync(join(out, 'browser'), { recursive: true });
  const lib = await build({
    ...common,
    entryPoints: [join(root, 'src', 'browser', 'index.ts')],
    outfile: join(out, 'browser', 'legado-store.js'),
    legalComments: 'linked',
    // Error classes name themselves after their class (LegadoStoreError's name); keep the names.
    keepNames: true,
    metafile: true,
  });
  const wasm = join(dirname(require.resolve('@sqlite.org/sqlite-wasm/package.json')), 'dist', 'sqlite3.wasm');
  copyFileSync(wasm, join(out, 'browser', 'sqlite3.wasm'));

  const page = join(root, 'web', 'page');
  mkdirSync(join(out, 'page'), { recursive: true });
  await build({
    ...common,
    entryPoints: [join(page, 'app.ts'), join(page, 'worker.ts')],
    outdir: join(out, 'page'),
    // The worker loads the library as users do: the built module, by URL.
    external: ['../browser/legado-store.js'],
  });
  copyFileSync(join(page, 'index.html'), join(out, 'page', 'index.html'));
  const bytes = readFileSync(join(out, 'browser', 'legado-store.js')).length;
  const inputs = Object.keys(lib.metafile.inputs).filter((f) => f.startsWith('node:'));
  if (inputs.length > 0) throw new Error(`the browser bundle pulls in Node built-ins: ${inputs.join(', ')}`);
  process.stdout.write(`built dist/browser/legado-store.js (${Math.round(bytes / 1024)} KiB) + sqlite3.wasm, and dist/page/\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildBrowser();
}
