// One WASM instance of QuickJS and the sandboxes in it. Asyncify lets an instance have only one
// suspended call at a time, so a lane runs its calls one after another; the engine spreads
// sources over several lanes. The instance's linear memory is ours, with a hard maximum.
import { newQuickJSAsyncWASMModuleFromVariant, newVariant, type QuickJSAsyncVariant, type QuickJSAsyncWASMModule } from 'quickjs-emscripten-core';
import { type Heap, Sandbox } from './sandbox.js';

/** WebAssembly's memory as every host has it (the project's lib settings do not declare WebAssembly). */
interface LinearMemory {
  readonly buffer: ArrayBuffer;
}
const { Memory } = (globalThis as unknown as { WebAssembly: { Memory: new (d: { initial: number; maximum: number }) => LinearMemory } }).WebAssembly;

const PAGE = 65536;
/** The linear memory the build starts with (its INITIAL_MEMORY). */
const INITIAL_BYTES = 16 * 1024 * 1024;

export interface LaneOptions {
  /** The hard maximum of the instance's linear memory (bytes), all its sandboxes together. */
  readonly heapBytes: number;
  /** Sandboxes kept per lane, the least recently used dropped first. */
  readonly sandboxes: number;
  /** The compiled QuickJS WASM, where the host cannot compile bytes (workerd imports it as a module). */
  readonly wasmModule?: object | (() => Promise<object>) | undefined;
}

const { compile } = (globalThis as unknown as { WebAssembly: { compile(bytes: ArrayBuffer): Promise<object> } }).WebAssembly;

let compiled: Promise<object | undefined> | undefined;

/**
 * The WASM compiled once for every instance, where the host fetches the package's file (Bun,
 * Deno): a new instance then compiles nothing. Bun compiled a fresh copy only after its optimiser
 * had finished with the old instance's code, minutes after a script had worked it hard (a lane
 * renewed after a memory failure waited 140 to 285 s; docs/sandbox.md). Undefined where fetch
 * reads no file: URL (Node, whose compile is quick): the variant's loader reads the file each time.
 */
function compiledOnce(): Promise<object | undefined> {
  compiled ??= (async () => {
    try {
      const response = await fetch(import.meta.resolve('@jitl/quickjs-wasmfile-release-asyncify/wasm'));
      return response.ok ? await compile(await response.arrayBuffer()) : undefined;
    } catch {
      return undefined;
    }
  })();
  return compiled;
}

async function loadModule(memory: LinearMemory, options: LaneOptions): Promise<QuickJSAsyncWASMModule> {
  // Loaded on first use: the package's export conditions pick the file loader for Node, Bun,
  // browsers and workerd (docs/sandbox.md).
  const base = (await import('@jitl/quickjs-wasmfile-release-asyncify')).default as unknown as QuickJSAsyncVariant;
  const given = options.wasmModule ?? (await compiledOnce());
  const variant = newVariant(base, (given ? { wasmMemory: memory, wasmModule: given } : { wasmMemory: memory }) as never);
  return newQuickJSAsyncWASMModuleFromVariant(variant);
}

export class Lane {
  private memory!: LinearMemory;
  private module!: Promise<QuickJSAsyncWASMModule>;
  private readonly options: LaneOptions;
  /** By source key, in order of use (the first is the least recently used). */
  private sandboxes = new Map<string, Sandbox>();
  private tail: Promise<unknown> = Promise.resolve();
  /** Calls queued or running here. */
  pending = 0;
  /**
   * Host Promises the running call waits for: its stack is unwound into the instance, which can
   * run nothing else until it resumes. A script the host runs meanwhile (nested evaluation, a
   * script's `java.getString("@js:…")`) must go to another lane, or it waits for itself.
   */
  waiting = 0;
  readonly heap: Heap;

  constructor(options: LaneOptions) {
    this.options = options;
    this.heap = {
      bytes: () => this.memory.buffer.byteLength,
      full: () => this.memory.buffer.byteLength + 2 * PAGE * 16 >= this.maxBytes(),
    };
    this.renew();
  }

  has(key: string): boolean {
    return this.sandboxes.has(key);
  }

  /** Runs `task` after the lane's earlier calls. */
  enqueue<T>(task: () => Promise<T>): Promise<T> {
    this.pending++;
    const run = this.tail.then(task).finally(() => this.pending--);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** The source's sandbox, made (or made anew for a changed jsLib) when needed. Call inside a task. */
  async sandbox(key: string, jsLib: string): Promise<Sandbox> {
    const module = await this.module;
    let sandbox = this.sandboxes.get(key);
    if (sandbox) this.sandboxes.delete(key);
    if (sandbox && sandbox.jsLib !== jsLib) {
      sandbox.dispose();
      sandbox = undefined;
    }
    sandbox ??= new Sandbox(module, this.heap, key, jsLib, (delta) => (this.waiting += delta));
    this.sandboxes.set(key, sandbox);
    for (const [oldKey, old] of this.sandboxes) {
      if (this.sandboxes.size <= this.options.sandboxes) break;
      this.sandboxes.delete(oldKey);
      old.dispose();
    }
    return sandbox;
  }

  /** Drops what a failed call spoilt. Call inside the task that failed. */
  recover(sandbox: Sandbox): void {
    if (sandbox.poison === 'sandbox') {
      this.sandboxes.delete(sandbox.key);
      sandbox.dispose();
    } else if (sandbox.poison === 'module') {
      this.renew();
    }
  }

  /** Bytes of linear memory, and each sandbox's own count. Call inside a task. */
  measure(): { linearBytes: number; sandboxes: { key: string; usedBytes: number }[] } {
    return {
      linearBytes: this.memory.buffer.byteLength,
      sandboxes: [...this.sandboxes.values()].map((s) => ({ key: s.key, usedBytes: s.usedBytes() })),
    };
  }

  /** Frees the sandboxes; the lane can run again afterwards. */
  dispose(): void {
    for (const sandbox of this.sandboxes.values()) {
      try {
        sandbox.dispose();
      } catch {
        // an instance that failed is dropped whole by renew(); nothing more to free here
      }
    }
    this.sandboxes.clear();
  }

  private maxBytes(): number {
    return Math.ceil((INITIAL_BYTES + this.options.heapBytes) / PAGE) * PAGE;
  }

  /**
   * A fresh instance with fresh memory. The old one is dropped without a call into it (a trapped
   * or exhausted instance may fail again); the garbage collector frees its memory.
   */
  private renew(): void {
    this.sandboxes = new Map();
    this.memory = new Memory({ initial: INITIAL_BYTES / PAGE, maximum: this.maxBytes() / PAGE });
    this.module = loadModule(this.memory, this.options);
    this.module.catch(() => undefined); // reported by the call that awaits it
  }
}
