// One source's sandbox: a QuickJS runtime and context of its own, its jsLib evaluated once and
// sealed, and one call at a time under the call's limits.
import type { QuickJSAsyncContext, QuickJSAsyncRuntime, QuickJSAsyncWASMModule, QuickJSHandle } from 'quickjs-emscripten-core';
import { type ScriptPlace, ScriptFailedError, ScriptMemoryError, ScriptTimeoutError, type SourceScriptError } from './errors.js';
import { type HostCaller, toGuest, toHost } from './marshal.js';
import type { HostFunction, JsBindings, JsLimits } from './types.js';

/** Where the rule's code waits for the runner, for the instant between the two. */
const CODE_SLOT = '__legadoCode__';
/**
 * The runner: a direct eval inside a function, so the script's `var`s and functions stay local to
 * this call (the app gives every call a fresh scope over the shared jsLib one), while the
 * bindings, set on the global object, are seen by jsLib's functions too (and as `this`).
 */
const RUNNER = `(function () { var c = globalThis.${CODE_SLOT}; delete globalThis.${CODE_SLOT}; return eval(c); })()`;
const CLEAR = '(function (names) { for (var i = 0; i < names.length; i++) { try { delete globalThis[names[i]]; } catch (e) {} } })';
const NAMES = 'Object.getOwnPropertyNames(globalThis)';
/** jsLib's globals become read-only, as the app seals its shared scope. */
const SEAL = `(function (before) {
  for (const name of Object.getOwnPropertyNames(globalThis)) {
    if (before.includes(name)) continue;
    const d = Object.getOwnPropertyDescriptor(globalThis, name);
    Object.defineProperty(globalThis, name, 'value' in d ? { writable: false, configurable: false } : { configurable: false });
  }
})`;

/** What a failure spoilt: nothing, this sandbox (made anew next call), or the whole WASM instance. */
export type Poison = 'none' | 'sandbox' | 'module';

/** The WASM instance's linear memory, which every sandbox of the instance shares. */
export interface Heap {
  bytes(): number;
  /** Grown to its maximum: an allocation failure there is the memory limit, not the script. */
  full(): boolean;
}

/**
 * Interrupt checks allowed per ms of `timeMs` while the clock stands still (workerd's Date.now()
 * moves only with I/O): there the count stops a script. Checks are counted only since the clock
 * last moved, so where it moves (Node, Bun: QuickJS checks up to some 2,500 times a second on
 * Bun) the clock alone decides, and a script gets its whole `timeMs`.
 */
const CHECKS_PER_MS = 1;

interface Call {
  cpuDeadline: number;
  /** Interrupt checks since the clock last moved, and the time it showed then. */
  checks: number;
  clock: number;
  readonly wallDeadline: number;
  readonly memoryStart: number;
  readonly limits: JsLimits;
  stop?: 'time' | 'wall' | 'memory';
}

export class Sandbox {
  readonly key: string;
  readonly jsLib: string;
  private readonly runtime: QuickJSAsyncRuntime;
  private readonly ctx: QuickJSAsyncContext;
  private readonly clear: QuickJSHandle;
  private readonly heap: Heap;
  private call: Call | null = null;
  private ready = false;
  /** Set by a failed run: what the caller must throw away before the next call. */
  poison: Poison = 'none';

  /** Told when the running call starts (+1) and stops (-1) waiting for a host Promise. */
  private readonly waits: (delta: number) => void;

  constructor(module: QuickJSAsyncWASMModule, heap: Heap, key: string, jsLib: string, waits: (delta: number) => void = () => undefined) {
    this.key = key;
    this.jsLib = jsLib;
    this.heap = heap;
    this.waits = waits;
    this.runtime = module.newRuntime();
    this.runtime.setInterruptHandler(() => this.interrupt());
    this.ctx = this.runtime.newContext();
    this.clear = this.ctx.unwrapResult(this.ctx.evalCode(CLEAR, 'clear'));
  }

  /** Runs one script; jsLib first if this sandbox has not run it yet. */
  async run(code: string, bindings: JsBindings, place: ScriptPlace, limits: JsLimits): Promise<unknown> {
    const now = Date.now();
    this.call = { cpuDeadline: now + limits.timeMs, checks: 0, clock: now, wallDeadline: now + limits.wallMs, memoryStart: this.heap.bytes(), limits };
    // QuickJS's own limit counts allocations, not bytes, in this build (see docs/sandbox.md): it
    // refuses any single allocation past the limit; the interrupt handler watches the rest.
    this.runtime.setMemoryLimit(limits.memoryBytes);
    this.runtime.setMaxStackSize(limits.stackBytes);
    const names = Object.keys(bindings);
    try {
      this.bind(bindings);
      if (!this.ready) await this.loadJsLib(names, { ...place, rule: 'jsLib' });
      this.setCode(code);
      return await this.evaluate(RUNNER, 'runner', place);
    } finally {
      this.unbind(names);
      this.call = null;
    }
  }

  /** Bytes the runtime holds, by QuickJS's own count of its objects. */
  usedBytes(): number {
    const usage = this.runtime.computeMemoryUsage();
    try {
      return (this.ctx.dump(usage) as { memory_used_size: number }).memory_used_size;
    } finally {
      usage.dispose();
    }
  }

  dispose(): void {
    this.clear.dispose();
    this.ctx.dispose();
    this.runtime.dispose();
  }

  private async loadJsLib(bindingNames: string[], place: ScriptPlace): Promise<void> {
    const before = (await this.evaluate(NAMES, 'names', place)) as string[];
    if (this.jsLib.trim()) await this.evaluate(this.jsLib, 'jsLib', place);
    const seal = this.ctx.unwrapResult(this.ctx.evalCode(SEAL, 'seal'));
    const list = toGuest(this.ctx, [...before, ...bindingNames], this.hostCaller);
    try {
      this.ctx.unwrapResult(this.ctx.callFunction(seal, this.ctx.undefined, list)).dispose();
    } finally {
      list.dispose();
      seal.dispose();
    }
    this.ready = true;
  }

  private async evaluate(code: string, filename: string, place: ScriptPlace): Promise<unknown> {
    let result: Awaited<ReturnType<QuickJSAsyncContext['evalCodeAsync']>>;
    try {
      result = await this.ctx.evalCodeAsync(code, filename);
    } catch (error) {
      throw this.hostFailure(error, place);
    }
    if (result.error) {
      const error = this.scriptFailure(result.error, place);
      result.error.dispose();
      throw error;
    }
    try {
      return this.checked(toHost(this.ctx, result.value), place);
    } catch (error) {
      throw error instanceof Error && 'code' in error ? error : this.hostFailure(error, place);
    } finally {
      result.value.dispose();
    }
  }

  /** A value copied out after the interrupt handler stopped the copy (a getter that loops) is no value. */
  private checked(value: unknown, place: ScriptPlace): unknown {
    const stop = this.call?.stop;
    if (stop) throw this.stopped(stop, place);
    return value;
  }

  private interrupt(): boolean {
    const call = this.call;
    if (!call) return false;
    const now = Date.now();
    if (now !== call.clock) {
      call.clock = now;
      call.checks = 0;
    }
    if (now > call.wallDeadline) call.stop = 'wall';
    else if (now > call.cpuDeadline || ++call.checks > call.limits.timeMs * CHECKS_PER_MS) call.stop = 'time';
    else if (this.heap.bytes() - call.memoryStart > call.limits.memoryBytes) call.stop = 'memory';
    return call.stop !== undefined;
  }

  /** Host functions run outside the script's time; their Promise is cut off at the wall deadline. */
  private readonly hostCaller: HostCaller = (fn: HostFunction, self: unknown, args: unknown[]) => {
    const call = this.call;
    const started = Date.now();
    // Waiting from the start: a script the host function runs at once (nested) must not queue here.
    this.waits(1);
    let out: unknown;
    try {
      out = fn.apply(self, args);
    } catch (error) {
      this.waits(-1);
      throw error;
    }
    if (!call || !(out instanceof Promise)) {
      this.waits(-1);
      if (call) call.cpuDeadline += Date.now() - started;
      return out;
    }
    let waiting = true;
    const resumed = (): void => {
      if (waiting) this.waits(-1);
      waiting = false;
    };
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => {
          call.stop = 'wall';
          resumed();
          reject(new Error('wall time limit reached while waiting for the host'));
        },
        Math.max(0, call.wallDeadline - started),
      );
      out.then(resolve, reject).finally(() => {
        clearTimeout(timer);
        resumed();
        call.cpuDeadline += Date.now() - started;
      });
    });
  };

  private bind(bindings: JsBindings): void {
    for (const [name, value] of Object.entries(bindings)) {
      const handle = toGuest(this.ctx, value, this.hostCaller);
      try {
        this.ctx.setProp(this.ctx.global, name, handle);
      } catch {
        // a sealed jsLib global of the same name keeps its value
      } finally {
        handle.dispose();
      }
    }
  }

  private unbind(names: string[]): void {
    if (names.length === 0 || this.poison === 'module') return;
    const list = toGuest(this.ctx, names, this.hostCaller);
    try {
      const result = this.ctx.callFunction(this.clear, this.ctx.undefined, list);
      (result.error ?? result.value).dispose();
    } finally {
      list.dispose();
    }
  }

  private setCode(code: string): void {
    const handle = this.ctx.newString(code);
    this.ctx.setProp(this.ctx.global, CODE_SLOT, handle);
    handle.dispose();
  }

  private stopped(stop: 'time' | 'wall' | 'memory', place: ScriptPlace): SourceScriptError {
    const limits = this.call!.limits;
    if (stop === 'memory') {
      this.poison = 'module';
      return new ScriptMemoryError(place, limits.memoryBytes, 'memory');
    }
    this.poison = 'sandbox'; // the script stopped half-way: start the source afresh
    return stop === 'time' ? new ScriptTimeoutError(place, limits.timeMs, 'time') : new ScriptTimeoutError(place, limits.wallMs, 'wall time');
  }

  /** The script's exception as a typed error. */
  private scriptFailure(handle: QuickJSHandle, place: ScriptPlace): SourceScriptError {
    const stop = this.call?.stop;
    if (stop) return this.stopped(stop, place);
    let thrown: unknown;
    try {
      thrown = toHost(this.ctx, handle);
    } catch {
      thrown = undefined;
    }
    const error = typeof thrown === 'object' && thrown !== null ? (thrown as { name?: unknown; message?: unknown; stack?: unknown }) : null;
    const name = typeof error?.name === 'string' ? error.name : '';
    const message = typeof error?.message === 'string' ? error.message : '';
    // Out of memory, or an exception that cannot even be copied out: the heap is spent.
    if ((name === 'InternalError' && message === 'out of memory') || ((thrown === '' || thrown === undefined) && this.heap.full())) {
      this.poison = 'module';
      return new ScriptMemoryError(place, this.call!.limits.memoryBytes, 'memory');
    }
    if (name === 'InternalError' && message === 'stack overflow') return new ScriptMemoryError(place, this.call!.limits.stackBytes, 'stack');
    if (!error) return new ScriptFailedError(place, String(thrown));
    const line = /(?:<input>|jsLib):(\d+)/.exec(typeof error.stack === 'string' ? error.stack : '')?.[1];
    return new ScriptFailedError(place, name ? `${name}: ${message}` : String(message || thrown), line === undefined ? undefined : Number(line));
  }

  /** The WASM instance itself failed (the host's stack overflowed inside it, a trap): it cannot be trusted again. */
  private hostFailure(error: unknown, place: ScriptPlace): SourceScriptError {
    this.poison = 'module';
    const limits = this.call!.limits;
    if (error instanceof RangeError) return new ScriptMemoryError(place, limits.stackBytes, 'stack');
    if (this.call?.stop) return this.stopped(this.call.stop, place);
    if (this.heap.full()) return new ScriptMemoryError(place, limits.memoryBytes, 'memory');
    return new ScriptFailedError(place, `the sandbox failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
