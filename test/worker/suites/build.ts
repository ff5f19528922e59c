// Bundles the engine suites (dist/test/*.test.js as tsc compiled them, unchanged) into one
// module for workerd with esbuild, each file kept lazy (loaded on its first request):
// - `node:test` is our collector (collector.ts);
// - test/helpers/engine.js is its workerd stand-in (engine.ts: the Durable Object driver);
// - node:fs, in the suites and their helpers, is fs.ts (their temporary folders last);
// - `legado-store` (the package's own name) is the package's entry points in dist/src;
// - `import.meta.url` is the compiled file's own URL (the suites locate fixtures by it).
// Everything else is bundled as it is; wrangler then bundles the result for workerd.
import { builtinModules } from 'node:module';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { wasmEntryLines } from '../../../worker/build.js';

const here = dirname(fileURLToPath(import.meta.url)); // dist/test/worker/suites
const distTest = resolve(here, '..', '..');
const distSrc = resolve(distTest, '..', 'src');
const root = resolve(distTest, '..', '..');

/** The engine suites: seam, tables, domain-*, backup-(import|export|exact|versions|records). */
export const isEngineSuite = (f: string): boolean =>
  f === 'seam.test.js' || f === 'tables.test.js' || /^domain-.*\.test\.js$/.test(f) || /^backup-(import|export|exact|versions|records)\.test\.js$/.test(f);

export function engineSuites(): string[] {
  return readdirSync(distTest).filter(isEngineSuite).sort();
}

const ENTRY_POINTS: Readonly<Record<string, string>> = {
  'legado-store': join(distSrc, 'index.js'),
  'legado-store/tools': join(distSrc, 'tools', 'index.js'),
  'legado-store/errors': join(distSrc, 'error-classes.js'),
};

const redirect: Plugin = {
  name: 'engine-suites',
  setup(b) {
    b.onResolve({ filter: /^node:test$/ }, () => ({ path: join(here, 'collector.js') }));
    // The suites' and their helpers' node:fs (not the package's own code, which gets workerd's).
    b.onResolve({ filter: /^(node:)?fs$/ }, (a) =>
      a.importer.startsWith(distTest) && !a.importer.startsWith(here) ? { path: join(here, 'fs.js') } : undefined,
    );
    b.onResolve({ filter: /^legado-store(\/.*)?$/ }, (a) => (ENTRY_POINTS[a.path] ? { path: ENTRY_POINTS[a.path]! } : undefined));
    b.onResolve({ filter: /engine\.js$/ }, (a) =>
      resolve(a.resolveDir, a.path) === join(distTest, 'helpers', 'engine.js') ? { path: join(here, 'engine.js') } : undefined,
    );
    b.onLoad({ filter: /\.js$/ }, (a) => {
      if (!a.path.startsWith(resolve(distTest, '..'))) return undefined;
      const text = readFileSync(a.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      return { contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(a.path).href)), loader: 'js', resolveDir: dirname(a.path) };
    });
  },
};

/** Writes dist/test/worker/suites/bundle.js; returns the suite files in it. */
export async function buildSuites(): Promise<string[]> {
  const files = engineSuites();
  const entry = join(here, 'entry.js');
  const loaders = files.map((f) => `  ${JSON.stringify(f)}: () => import(${JSON.stringify(relative(here, join(distTest, f)))}),`);
  writeFileSync(
    entry,
    [
      '// Written by test/worker/suites/build.ts.',
      // SQLite WASM, for the suites' in-memory oracle databases (engine.ts).
      ...wasmEntryLines(root, here),
      "import { provideSuites } from './worker.js';",
      `provideSuites({\n${loaders.join('\n')}\n});`,
      "export { SuiteObject, default } from './worker.js';\n",
    ].join('\n'),
  );
  await build({
    entryPoints: [entry],
    outfile: join(here, 'bundle.js'),
    bundle: true,
    format: 'esm',
    // As wrangler resolves packages for workerd (sqlite-wasm's "node" build would not run there);
    // Node's built-ins are workerd's (nodejs_compat).
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    external: ['*.wasm', ...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
    plugins: [redirect],
    logLevel: 'error',
  });
  return files;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) console.log((await buildSuites()).join('\n'));
