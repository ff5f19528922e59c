// SQLite WASM started from modules a host compiled ahead (a Worker: wrangler bundles .wasm
// files as compiled modules, and workerd refuses to compile WebAssembly at run time).
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';

export type Sqlite3 = Awaited<ReturnType<typeof sqlite3InitModule>>;

/** WebAssembly as workerd has it (the project's lib settings do not declare it). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => unknown;
  instantiate(module: unknown, imports: object): Promise<unknown>;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** SQLite's compiled module and the trampolines it makes at start-up, by their bytes in hex (worker/build.ts). */
export interface WasmModules {
  readonly sqlite: unknown;
  readonly trampolines: ReadonlyMap<string, unknown>;
}

let modules: WasmModules | undefined;

/** Called by the Worker's entry (dist/worker/entry.js) with the modules wrangler bundled. */
export function provideWasm(given: WasmModules): void {
  modules = given;
}

const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

let loading: Promise<Sqlite3> | undefined;

/**
 * SQLite WASM from the bundled modules. While it starts, `new WebAssembly.Module(bytes)` finds
 * the trampoline of those bytes instead of compiling (Workers refuse code generation).
 */
export function sqliteFromModules(): Promise<Sqlite3> {
  const given = modules;
  if (!given) return Promise.reject(new Error('SQLite WASM was not bundled: run the Worker from dist/worker/entry.js (npm run worker:build)'));
  const init = sqlite3InitModule as unknown as (config: object) => Promise<Sqlite3>;
  const compile = wasm.Module;
  const precompiled = function Module(bytes: Uint8Array): unknown {
    return given.trampolines.get(hex(new Uint8Array(bytes))) ?? new compile(bytes);
  } as unknown as WasmApi['Module'];
  loading ??= (async () => {
    wasm.Module = precompiled;
    try {
      return await init({
        instantiateWasm(imports: object, done: (instance: unknown, module: unknown) => void) {
          void wasm.instantiate(given.sqlite, imports).then((instance) => done(instance, given.sqlite));
          return {};
        },
        print: () => {},
        printErr: () => {},
      });
    } finally {
      wasm.Module = compile;
    }
  })();
  return loading;
}

