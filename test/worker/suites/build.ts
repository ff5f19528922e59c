// Bundles the engine suites (dist/test/*.test.js as tsc compiled them, unchanged) into one
// module for workerd with esbuild, each file kept lazy (loaded on its first request):
// - `node:test` is our collector (collector.ts);
// - test/helpers/engine.js is its workerd stand-in (engine.ts: the Durable Object driver);
// - node:fs, in the suites and their helpers, is fs.ts (their temporary folders last);
// - `legado-store` (the package's own name) is the package's entry points in dist/src;
// - `import.meta.url` is the compiled file's own URL (the suites locate fixtures by it);
// - the domain suites are in it again at later versions (DOMAIN_VERSIONS).
// Everything else is bundled as it is; wrangler then bundles the result for workerd.
import { builtinModules } from 'node:module';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type OnLoadResult, type Plugin } from 'esbuild';
import { wasmEntryLines } from '../../../worker/build.js';

const here = dirname(fileURLToPath(import.meta.url)); // dist/test/worker/suites
const distTest = resolve(here, '..', '..');
const distSrc = resolve(distTest, '..', 'src');
const root = resolve(distTest, '..', '..');

/** The engine suites: seam, tables, integer-widths, domain-*, backup-(import|export|exact|versions|records). */
export const isEngineSuite = (f: string): boolean =>
  f === 'seam.test.js' ||
  f === 'tables.test.js' ||
  f === 'integer-widths.test.js' ||
  /^domain-.*\.test\.js$/.test(f) ||
  /^backup-(import|export|exact|versions|records)\.test\.js$/.test(f);

export function engineSuites(): string[] {
  return readdirSync(distTest).filter(isEngineSuite).sort();
}

/**
 * The later versions the domain suites run at again (test/domain-versions.test.js runs them so
 * in child processes): each a second copy of the suite and its test helpers (`<file>@<version>`),
 * whose LEGADO_TEST_SCHEMA reads that version; the package's code is shared.
 */
export const DOMAIN_VERSIONS = [63, 71, 75] as const;

/** The suite files and their copies at DOMAIN_VERSIONS, by the name the Worker knows them. */
export function suiteNames(): string[] {
  const files = engineSuites();
  const domain = files.filter((f) => /^domain-(?!versions)/.test(f));
  return [...files, ...DOMAIN_VERSIONS.flatMap((v) => domain.map((f) => `${f}@${v}`))];
}

const ENTRY_POINTS: Readonly<Record<string, string>> = {
  'legado-store': join(distSrc, 'index.js'),
  'legado-store/tools': join(distSrc, 'tools', 'index.js'),
  'legado-store/errors': join(distSrc, 'error-classes.js'),
};

const redirect: Plugin = {
  name: 'engine-suites',
  setup(b) {
    // A suite at a later version: its module and the test helpers it imports, in a namespace
    // per version (a module of their own), the schema read from the version.
    b.onResolve({ filter: /^schema\d+:/ }, (a) => {
      const [, v, path] = /^schema(\d+):(.*)$/.exec(a.path)!;
      return { path: resolve(a.resolveDir, path!), namespace: `schema${v}` };
    });
    b.onLoad({ filter: /\.js$/, namespace: 'file' }, (a) => load(a.path));
    b.onLoad({ filter: /\.js$/ }, (a) => (a.namespace.startsWith('schema') ? load(a.path, a.namespace.slice('schema'.length)) : undefined));
    b.onResolve({ filter: /^node:test$/ }, () => ({ path: join(here, 'collector.js') }));
    // The suites' and their helpers' node:fs (not the package's own code, which gets workerd's).
    b.onResolve({ filter: /^(node:)?fs$/ }, (a) =>
      a.importer.startsWith(distTest) && !a.importer.startsWith(here) ? { path: join(here, 'fs.js') } : undefined,
    );
    b.onResolve({ filter: /^legado-store(\/.*)?$/ }, (a) => (ENTRY_POINTS[a.path] ? { path: ENTRY_POINTS[a.path]! } : undefined));
    b.onResolve({ filter: /engine\.js$/ }, (a) =>
      resolve(a.resolveDir, a.path) === join(distTest, 'helpers', 'engine.js') ? { path: join(here, 'engine.js') } : undefined,
    );
    // Relative imports of a versioned copy stay in its namespace within dist/test (its helpers).
    b.onResolve({ filter: /^\./ }, (a) => {
      if (!a.namespace.startsWith('schema')) return undefined;
      const path = resolve(a.resolveDir, a.path);
      return path.startsWith(distTest) && !path.startsWith(here) ? { path, namespace: a.namespace } : { path };
    });
  },
};

/** A compiled file with its own URL for import.meta.url, and at a version, that version for LEGADO_TEST_SCHEMA. */
function load(path: string, version?: string): OnLoadResult | undefined {
  if (!path.startsWith(resolve(distTest, '..'))) return undefined;
  let text = readFileSync(path, 'utf8');
  if (version === undefined && !text.includes('import.meta.url')) return undefined;
  text = text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href));
  if (version !== undefined) text = text.replaceAll('process.env.LEGADO_TEST_SCHEMA', JSON.stringify(version));
  return { contents: text, loader: 'js', resolveDir: dirname(path) };
}

/** Writes dist/test/worker/suites/bundle.js; returns the suite names in it (suiteNames). */
export async function buildSuites(): Promise<string[]> {
  const files = suiteNames();
  const entry = join(here, 'entry.js');
  const loaders = files.map((name) => {
    const [f, v] = name.split('@') as [string, string | undefined];
    const path = relative(here, join(distTest, f));
    return `  ${JSON.stringify(name)}: () => import(${JSON.stringify(v ? `schema${v}:${path}` : path)}),`;
  });
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
