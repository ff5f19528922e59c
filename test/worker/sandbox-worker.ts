// A test Worker (run by wrangler dev from test/worker/sandbox.test.ts): book sources' scripts in
// the QuickJS sandbox inside workerd, with the .wasm imported as a module (workerd compiles no
// WebAssembly from bytes). One engine for the isolate, so a call after a failure meets what the
// failure left. It answers the value or the typed error; the test asserts.
import quickjsWasm from '@jitl/quickjs-wasmfile-release-asyncify/wasm';
import { QuickJsEngine } from '../../src/sources/js/index.js';

const engine = new QuickJsEngine({ lanes: 1, heapBytes: 16 * 1024 * 1024, wasmModule: quickjsWasm, limits: { memoryBytes: 8 * 1024 * 1024 } });

interface Input {
  readonly code: string;
  readonly bindings?: Record<string, unknown>;
  readonly limits?: Record<string, number>;
}

/** java.ajax as the rule engine gives it: a host Promise, here a timer, so the script must wait. */
const java = {
  ajax: (url: unknown) => new Promise((resolve) => setTimeout(() => resolve(`got ${String(url)}`), 1)),
};

export default {
  async fetch(request: Request): Promise<Response> {
    const input = (await request.json()) as Input;
    try {
      const value = await engine.run(input.code, { java, ...input.bindings }, { source: { key: 'worker' }, limits: input.limits ?? {} });
      return Response.json({ value: value ?? null });
    } catch (e) {
      const err = e as Error & { code?: string };
      return Response.json({ code: err.code ?? null, message: err.message });
    }
  },
};
