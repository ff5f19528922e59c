// Builds the browser entry and the page with esbuild:
//   dist/browser/legado-store.js  the library as one ES module (a Worker can import() it), with
//   dist/browser/sqlite3.wasm     SQLite's WASM build beside it, where the module looks for it;
//   dist/page/                    the page (index.html, app.js, worker.js) that uses the library.
import { build, type Plugin } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = join(root, 'dist');
const require = createRequire(import.meta.url);

const drivers = join(root, 'src', 'engine', 'drivers');

/**
 * The engine list for Node (better-sqlite3, node:sqlite, bun:sqlite) is replaced by the
 * browser's (SQLite WASM only), as a package.json "browser" field would: the Node engines and
 * their built-ins stay out of the bundle.
 */
const browserDrivers: Plugin = {
  name: 'browser-drivers',
  setup(b) {
    b.onResolve({ filter: /drivers\/index\.js$/ }, (args) =>
      resolve(args.resolveDir, args.path) === join(drivers, 'index.js') ? { path: join(drivers, 'browser.ts') } : undefined,
    );
  },
};

/**
 * Node built-ins that code in the bundle imports only for work the browser entry never asks for,
 * by importer: they become modules whose functions throw, so the bundle loads and a call says
 * plainly what is missing. Any other Node import fails the build.
 */
const FILE_ONLY: Readonly<Record<string, string>> = {
  // migrate's `backup` option (a copy beside the file); the browser upgrades without one.
  'src/migrate/backup.ts': 'a backup file beside the database needs a file system',
  // Writing a file through a temporary one renamed into place (migrate's backup, the CLI's files).
  'src/io/safe-write.ts': 'writing a file through a temporary one needs a file system',
  // Reading files on read-only media through a copy (never asked of the WASM driver).
  'src/engine/read-only.ts': 'reading a file on read-only media needs a file system',
  // The -wal's page check reads the file and its -wal directly (never asked of the WASM driver).
  'src/engine/wal-check.ts': "checking a -wal's pages reads files directly",
};

const fileOnlyBuiltins: Plugin = {
  name: 'file-only-builtins',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => {
      const importer = relative(root, args.importer).split(sep).join('/');
      const why = FILE_ONLY[importer];
      if (why === undefined) return undefined;
      return { path: `${args.path} for ${importer}`, namespace: 'file-only', pluginData: { importer: args.importer, why } };
    });
    b.onLoad({ filter: /.*/, namespace: 'file-only' }, (args) => {
      const { importer, why } = args.pluginData as { importer: string; why: string };
      const module = args.path.split(' ')[0]!;
      // The names the importer takes from the module: `import { a, b as c } from 'node:x'`.
      const clause = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*['"]${module}['"]`).exec(readFileSync(importer, 'utf8'));
      const names = (clause?.[1] ?? '').split(',').map((n) => n.trim().split(/\s+as\s+/)[0]!).filter(Boolean);
      const fail = `() => { throw new Error(${JSON.stringify(`${module} is not available in the browser: ${why}`)}); }`;
      return { contents: names.map((n) => `export const ${n} = ${fail};`).join('\n'), loader: 'js' };
    });
  },
};

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
    plugins: [browserDrivers, fileOnlyBuiltins],
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
