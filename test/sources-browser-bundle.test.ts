// The book-source engine bundles for a browser as it is: esbuild (as web/build.ts bundles the
// browser entry) with the browser's package conditions and no stubs, from the legado-store/sources
// entry and the QuickJS sandbox's. A Node built-in anywhere in the graph fails the build; the
// packages with a Node and a browser build give their browser build (jsonpath-plus's Node build
// runs JSONPath scripts with `vm`; QuickJS's Node loader reads the .wasm with `fs`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

test('src/sources and its QuickJS sandbox bundle for the browser with nothing of Node', async () => {
  const out = await build({
    absWorkingDir: root,
    entryPoints: ['src/sources/index.ts', 'src/sources/js/index.ts'],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outdir: 'dist/sources-browser-check',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const inputs = Object.keys(out.metafile.inputs);
  // The graph is the engine's: the flows, the HTTP client, the java helpers and the sandbox are in it.
  for (const f of ['src/sources/engine/session.ts', 'src/sources/http/client.ts', 'src/sources/java/index.ts', 'src/sources/js/engine.ts'])
    assert.ok(inputs.includes(f), `${f} in the bundle`);
  assert.deepEqual(
    inputs.filter((f) => f.startsWith('node:') || f.startsWith('bun:')),
    [],
  );
  const external = Object.values(out.metafile.inputs).flatMap((i) => i.imports.filter((x) => x.external).map((x) => x.path));
  assert.deepEqual(external, [], 'nothing left for the platform to supply');
  const builds = inputs.filter((f) => f.includes('/jsonpath-plus/') || f.includes('emscripten-module'));
  assert.deepEqual(builds.sort(), [
    'node_modules/@jitl/quickjs-wasmfile-release-asyncify/dist/emscripten-module.browser.mjs',
    'node_modules/jsonpath-plus/dist/index-browser-esm.js',
  ]);
});
