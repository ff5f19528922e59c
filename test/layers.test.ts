// The folders of src/ are layers: a folder imports only from the layers below it (type-only
// imports, export-from and dynamic import() included), so no two folders import each other,
// directly or around a circle. Imports are read with TypeScript's own pre-processor, not a
// regular expression. CONTRIBUTING.md ("Layout") draws the same order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const src = fileURLToPath(new URL('../../src/', import.meta.url));

/**
 * The layers from the bottom up. A layer may import from the rows before its own, never from
 * its own row's other folders or from a later row. `errors` is src/errors.ts, a leaf every layer
 * may use. Other files at the top of src/ (index.ts) are entry points: nothing in src/ imports them.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['errors'],
  // text/: Java regexes and replacements, shared by local books and sources; net/: the network
  // policy every fetch a server makes goes through
  ['schema', 'io', 'text', 'net'],
  ['engine'],
  ['table'],
  ['domain', 'migrate'],
  ['store'],
  ['backup'],
  ['fs'], // Node's file system: safe writes, byte sources over files (for the shells above)
  ['inspect', 'curate', 'localbook', 'webdav', 'sources'],
  ['sample', 'server'],
  ['node'], // Node's host shell: files, temporary copies, the HTTP server, streams
  ['drivers'], // engine/drivers/: the engine adapters (the Node ones use node/)
  ['surface', 'tools'], // the names the entries share; the legado-store/tools entry
  ['browser', 'cli', 'worker'],
];
const RANK = new Map(LAYERS.flatMap((row, i) => row.map((name) => [name, i] as const)));

/** Every .ts file under dir, as paths relative to src/ with `/`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') ? [relative(src, p).split(sep).join('/')] : [];
  });
}

/** The module specifiers a file names: import, import type, export ... from, import(), require(). */
function specifiers(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/** The layer a file (relative to src/) belongs to: its top folder; `errors`; null for an entry point. */
function layerOf(file: string): string | null {
  if (file.startsWith('engine/drivers/')) return 'drivers'; // adapters, not the seam: a shell
  if (file === 'surface.ts') return 'surface';
  const slash = file.indexOf('/');
  if (slash >= 0) return file.slice(0, slash);
  return file === 'errors.ts' ? 'errors' : null;
}

interface Edge {
  readonly from: string;
  readonly to: string;
  /** `file imports specifier`, for each import that makes the edge. */
  readonly because: string[];
}

/** The imports between layers, keyed `from -> to`. */
function layerEdges(files: readonly string[], read: (file: string) => string): Map<string, Edge> {
  const edges = new Map<string, Edge>();
  for (const file of files) {
    const from = layerOf(file);
    for (const spec of specifiers(read(file))) {
      if (!spec.startsWith('.')) continue;
      const target = relative(src, resolve(src, dirname(file), spec))
        .split(sep)
        .join('/');
      if (target.startsWith('..')) continue; // outside src/ (package.json)
      const to = layerOf(target.replace(/\.js$/, '.ts'));
      if (from === to) continue;
      const key = `${from ?? '(entry)'} -> ${to ?? '(entry)'}`;
      let e = edges.get(key);
      if (!e) edges.set(key, (e = { from: from ?? '(entry)', to: to ?? '(entry)', because: [] }));
      e.because.push(`${file} imports ${spec}`);
    }
  }
  return edges;
}

/** The circles in the graph (one per strongly connected group of two or more), each as a closed path. */
function cycles(edges: Map<string, Edge>): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges.values()) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const found: string[][] = [];
  const done = new Set<string>();
  // A depth-first walk; a node met again on the current path closes a circle.
  const walk = (node: string, path: string[]): void => {
    if (done.has(node)) return;
    const at = path.indexOf(node);
    if (at >= 0) {
      found.push([...path.slice(at), node]);
      return;
    }
    path.push(node);
    for (const n of next.get(node) ?? []) walk(n, path);
    path.pop();
    done.add(node);
  };
  for (const node of [...next.keys()].sort()) walk(node, []);
  return found;
}

/** A circle with the imports that make each of its steps. */
function describe(cycle: readonly string[], edges: Map<string, Edge>): string {
  const steps = cycle.slice(1).map((to, i) => {
    const e = edges.get(`${cycle[i]} -> ${to}`)!;
    return `  ${e.from} -> ${e.to}:\n${e.because.map((b) => `    ${b}`).join('\n')}`;
  });
  return `${cycle.join(' -> ')}\n${steps.join('\n')}`;
}

const files = sources(src);
const edges = layerEdges(files, (f) => readFileSync(join(src, f), 'utf8'));

test('the import reader sees every form of import', () => {
  const text = [
    "import { a } from './static.js';",
    "import type { T } from './type-only.js';",
    "export { b } from './export-from.js';",
    "export * from './export-star.js';",
    "const m = await import('./dynamic.js');",
    "import './side-effect.js';",
  ].join('\n');
  assert.deepEqual(specifiers(text).sort(), ['./dynamic.js', './export-from.js', './export-star.js', './side-effect.js', './static.js', './type-only.js']);
});

test('the cycle finder finds a circle and names the imports that make it', () => {
  const made = layerEdges(
    ['a/x.ts', 'b/y.ts', 'c/z.ts'],
    (f) => ({ 'a/x.ts': "import type { Y } from '../b/y.js';", 'b/y.ts': "export * from '../c/z.js';", 'c/z.ts': "await import('../a/x.js');" })[f]!,
  );
  const found = cycles(made);
  assert.deepEqual(found, [['a', 'b', 'c', 'a']]);
  assert.match(describe(found[0]!, made), /c -> a:\n {4}c\/z\.ts imports \.\.\/a\/x\.js/);
});

test('no two folders of src/ import each other, directly or around a circle', () => {
  assert.ok(files.length > 100, `found only ${files.length} files under ${src}`);
  const found = cycles(edges);
  assert.equal(found.length, 0, `import cycles between folders of src/:\n${found.map((c) => describe(c, edges)).join('\n')}`);
});

test('every folder of src/ imports only from the layers below it', () => {
  const wrong: string[] = [];
  for (const folder of new Set(files.map(layerOf))) {
    if (folder !== null && !RANK.has(folder))
      wrong.push(`src/${folder}/ is in no layer: add it to LAYERS in test/layers.test.ts and to CONTRIBUTING.md's picture`);
  }
  for (const e of edges.values()) {
    if (e.from === '(entry)') continue;
    const from = RANK.get(e.from);
    const to = e.to === '(entry)' ? undefined : RANK.get(e.to);
    if (from === undefined) continue; // reported above
    if (to === undefined || to >= from) {
      const why =
        e.to === '(entry)' ? 'an entry point' : to === undefined ? 'a folder in no layer' : to === from ? 'a folder of the same layer' : 'a higher layer';
      wrong.push(`${e.from} imports ${e.to} (${why}):\n${e.because.map((b) => `    ${b}`).join('\n')}`);
    }
  }
  assert.deepEqual(wrong, [], `layer order broken:\n${wrong.join('\n')}`);
});
