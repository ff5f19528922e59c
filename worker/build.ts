// SQLite WASM makes a tiny WebAssembly module at start-up for each JavaScript function it puts
// in its function table (jsFuncToWasm: import a function of one signature, export it again).
// Workers compile no WebAssembly at run time, so these modules are written here as files the
// Worker bundles (wrangler's CompiledWasm rule) and handed out by their bytes
// (src/engine/drivers/wasm-modules.ts). `npm run worker:build` (after tsc) writes them and the
// Worker's entry, dist/worker/entry.js, which hands them and SQLite's own module to the Worker.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The signatures SQLite WASM installs at start-up: result letter, then parameter letters (i: i32, j: i64). */
export const SIGNATURES = ['i:iiii', 'i:iii', 'i:ii', 'i:iiiii', 'i:i', 'i:iiij', 'i:ij'] as const;

const TYPE: Readonly<Record<string, number>> = { i: 0x7f, j: 0x7e, f: 0x7d, d: 0x7c };

/** The module's bytes, laid out as sqlite-wasm's jsFuncToWasm lays them (import "e" "f", export "f"). */
export function trampoline(signature: string): Uint8Array {
  const [result, params] = signature.split(':') as [string, string];
  const type = [0x60, params.length, ...[...params].map((p) => TYPE[p]!), ...(result === 'v' ? [0] : [1, TYPE[result]!])];
  const types = [1, ...type]; // the type section: one type
  const header = [0, 0x61, 0x73, 0x6d, 1, 0, 0, 0];
  const imports = [2, 7, 1, 1, 0x65, 1, 0x66, 0, 0]; // import "e" "f": function of type 0
  const exports = [7, 5, 1, 1, 0x66, 0, 0]; // export "f": function 0
  return Uint8Array.from([...header, 1, types.length, ...types, ...imports, ...exports]);
}

const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

/**
 * Writes dist/worker/: one .wasm per signature in wasm/, and entry.js, the module wrangler
 * bundles: it gives the Worker (`main`, dist/src/worker/worker.js) SQLite's module and the
 * trampolines by their bytes (hex) and QuickJS's module, then re-exports it.
 */
export function writeWorkerEntry(root: string): void {
  const out = join(root, 'dist', 'worker');
  const lines = wasmEntryLines(root, out);
  lines.push(
    // QuickJS's module, for the sandbox the users' replace rules run in (src/worker/sandbox-rules.ts).
    "import quickjsWasm from '@jitl/quickjs-wasmfile-release-asyncify/wasm';",
    "import { provideQuickJsWasm } from '../src/worker/sandbox-rules.js';",
    'provideQuickJsWasm(quickjsWasm);',
    "export * from '../src/worker/worker.js';",
    "export { default } from '../src/worker/worker.js';",
  );
  writeFileSync(join(out, 'entry.js'), `// Written by worker/build.ts.\n${lines.join('\n')}\n`);
}

/**
 * Writes the trampolines to dist/worker/wasm/ and returns the lines of an entry module in
 * folder `from` that give them and SQLite's module to the Worker (provideWasm).
 */
export function wasmEntryLines(root: string, from: string): string[] {
  const dir = join(root, 'dist', 'worker', 'wasm');
  mkdirSync(dir, { recursive: true });
  const rel = (p: string): string => {
    const r = relative(from, p).split(sep).join('/');
    return r.startsWith('.') ? r : `./${r}`;
  };
  const lines = [
    "import sqlite from '@sqlite.org/sqlite-wasm/sqlite3.wasm';",
    `import { provideWasm } from '${rel(join(root, 'dist', 'src', 'engine', 'drivers', 'wasm-modules.js'))}';`,
  ];
  const entries: string[] = [];
  SIGNATURES.forEach((sig, i) => {
    const bytes = trampoline(sig);
    writeFileSync(join(dir, `t${i}.wasm`), bytes);
    lines.push(`import t${i} from '${rel(join(dir, `t${i}.wasm`))}';`);
    entries.push(`[${JSON.stringify(hex(bytes))}, t${i}]`);
  });
  lines.push(`provideWasm({ sqlite, trampolines: new Map([${entries.join(', ')}]) });`);
  return lines;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeWorkerEntry(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'));
}
