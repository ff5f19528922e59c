// The core knows no platform: no file of src/ outside the shells imports a Node built-in, a
// Node-only package, or a shell file (an engine adapter, the CLI, the Node or browser entry).
// Read from the sources (import, export-from, import type, dynamic import and require), so a
// type-only import counts too. The shells are listed here, and nowhere else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinModules } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Files and folders (ending in /) of src/ that are host shells: they may use Node, and the core may not import them. */
export const SHELLS = [
  'src/index.ts', // the Node and Bun entry: installs their engines
  'src/tools/index.ts', // the legado-store/tools entry: the CLI's helpers, Node's files among them
  'src/webdav/index.ts', // the legado-store/webdav entry
  'src/engine/drivers/', // the engine adapters
  'src/cli/',
  'src/browser/', // the browser entry: installs SQLite WASM
  'src/worker/', // the Cloudflare Worker and its Durable Object: the Durable Object and WASM engines
  'src/node/', // Node's host shell: backups on files, local books, the HTTP server, streams
  'src/fs/', // Node's file system: safe writes, byte sources over files
  // WebDAV sync: downloads to and uploads from local files through Node streams, keeps its
  // marks in a file (its names, progress files and errors are core).
  'src/webdav/client.ts',
  'src/webdav/marks.ts',
  'src/webdav/progress.ts',
  'src/webdav/sync.ts',
] as const;

/** Packages that run only on Node, or are an engine: the core reaches them through a shell. */
const NODE_ONLY_PACKAGES = ['better-sqlite3', '@hono/node-server', 'ws', '@sqlite.org/sqlite-wasm'];

const isShell = (file: string): boolean => SHELLS.some((s) => (s.endsWith('/') ? file.startsWith(s) : file === s));

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(`${dir}/${e.name}`) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [`${dir}/${e.name}`] : [],
  );
}

/** Every module specifier the file names: static, type-only, re-exports, import() and require(). */
function specifiers(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
  return info.importedFiles.map((f) => f.fileName);
}

const builtins = new Set(builtinModules.flatMap((m) => [m, m.split('/')[0]!]));

/** Why the core may not import it, or undefined when it may. */
export function forbidden(file: string, spec: string): string | undefined {
  if (spec.startsWith('node:') || spec.startsWith('bun:')) return 'a runtime built-in';
  if (spec.startsWith('.')) {
    const target = relative(root, join(root, dirname(file), spec))
      .split(sep)
      .join('/')
      .replace(/\.js$/, '.ts');
    return isShell(target) ? `a shell file (${target})` : undefined;
  }
  if (builtins.has(spec) || builtins.has(spec.split('/')[0]!)) return 'a Node built-in';
  if (NODE_ONLY_PACKAGES.some((p) => spec === p || spec.startsWith(`${p}/`))) return 'a Node-only package or an engine';
  return undefined;
}

/** "file: specifier (why)" for every import of the core that breaks the rule. */
export function violations(files: readonly string[]): string[] {
  return files.flatMap((file) =>
    specifiers(file).flatMap((spec) => {
      const why = forbidden(file, spec);
      return why === undefined ? [] : [`${file}: '${spec}' (${why})`];
    }),
  );
}

test('the core imports no Node built-in, no Node-only package and no shell file', () => {
  const core = sourceFiles('src').filter((f) => !isShell(f));
  assert.ok(core.length > 100, `the core's files were found (${core.length})`);
  const found = violations(core);
  assert.deepEqual(found, [], `the core must not import these:\n${found.join('\n')}`);
});

test('the book-source engine (src/sources) is core, so both rules here check every file of it', () => {
  // It runs on Node, Bun, Workers and the browser with fetch passed in (issue 53): no shell in it.
  const files = sourceFiles('src/sources');
  assert.ok(files.length > 40, `src/sources' files were found (${files.length})`);
  assert.deepEqual(files.filter(isShell), []);
});

/** Node's globals: the core runs where there are none (a browser, a Worker). */
const NODE_GLOBALS = new Set(['process', 'Buffer', '__dirname', '__filename', 'require', 'NodeJS', 'setImmediate']);

/** "file:line: name" for every use of a Node global in the source text (names of properties and declarations aside). */
export function nodeGlobals(file: string, text = readFileSync(join(root, file), 'utf8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && NODE_GLOBALS.has(node.text)) {
      const p = node.parent;
      const isName =
        (ts.isPropertyAccessExpression(p) && p.name === node) ||
        (ts.isQualifiedName(p) && p.right === node) ||
        ((ts.isPropertyAssignment(p) ||
          ts.isPropertyDeclaration(p) ||
          ts.isPropertySignature(p) ||
          ts.isMethodDeclaration(p) ||
          ts.isVariableDeclaration(p) ||
          ts.isParameter(p)) &&
          p.name === node);
      if (!isName) found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test('the core uses no Node global (process, Buffer, require...)', () => {
  const found = sourceFiles('src')
    .filter((f) => !isShell(f))
    .flatMap((f) => nodeGlobals(f));
  assert.deepEqual(found, [], `the core must not use these:\n${found.join('\n')}`);
  // The same check finds them where they are, and not in names or comments.
  assert.deepEqual(nodeGlobals('x.ts', 'const a = Buffer.from(b);\nprocess.nextTick(f);\nlet t: NodeJS.Signals;\n// process.exit'), [
    'x.ts:1: Buffer',
    'x.ts:2: process',
    'x.ts:3: NodeJS',
  ]);
  assert.deepEqual(nodeGlobals('x.ts', 'const o = { process: 1 };\no.process = 2;\nconst Buffer2 = 3;'), []);
});

test('the rule catches each kind of import it forbids', () => {
  // Specifiers spelled as a core file would write them, checked by the same function.
  assert.equal(forbidden('src/store/open.ts', 'node:fs'), 'a runtime built-in');
  assert.equal(forbidden('src/store/open.ts', 'fs'), 'a Node built-in');
  assert.equal(forbidden('src/store/open.ts', 'path'), 'a Node built-in');
  assert.equal(forbidden('src/store/open.ts', 'fs/promises'), 'a Node built-in');
  assert.equal(forbidden('src/store/open.ts', 'better-sqlite3'), 'a Node-only package or an engine');
  assert.equal(forbidden('src/store/open.ts', '../engine/drivers/index.js'), 'a shell file (src/engine/drivers/index.ts)');
  assert.equal(forbidden('src/engine/connection.ts', './drivers/node-files.js'), 'a shell file (src/engine/drivers/node-files.ts)');
  assert.equal(forbidden('src/store/open.ts', '../index.js'), 'a shell file (src/index.ts)');
  assert.equal(forbidden('src/store/open.ts', '../engine/registry.js'), undefined);
  assert.equal(forbidden('src/store/open.ts', 'fflate'), undefined);
  // Every form of import is read, type-only and dynamic ones too.
  const text = [
    "import type { Stats } from 'node:fs';",
    "export { x } from 'path';",
    "export * from '../engine/drivers/wasm.js';",
    "const m = await import('node:os');",
    "import 'ws';",
  ].join('\n');
  assert.deepEqual(
    ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName),
    ['node:fs', 'path', '../engine/drivers/wasm.js', 'node:os', 'ws'],
  );
});
