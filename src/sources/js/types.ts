// The seam between the rule engine and the JavaScript sandbox: what a rule's script is given
// (plain values and host functions) and what it may spend. The grammar calls only this.

/** A function of the host the script may call: sync, or async (the script still sees a plain call). */
export type HostFunction = (...args: unknown[]) => unknown;

/**
 * A value handed to a script. Strings, numbers, booleans, null/undefined, arrays and plain objects
 * are copied in; a function becomes a callable that runs on the host, its Promise awaited while
 * the script waits. Of a class instance only its methods (bound to it) and function-valued
 * properties come along, not its fields: `java: this` gives the script the methods, not the state.
 */
export type JsValue = unknown;

/** The names a script sees for one call: `result`, `baseUrl`, `key`, `page`, `book`, `java`, `source`... */
export type JsBindings = Readonly<Record<string, JsValue>>;

export interface JsLimits {
  /** Time the script itself may run, host calls not counted (ms). Default 2,000. */
  readonly timeMs: number;
  /** Time the whole call may take, host calls included (ms). Default 30,000 (the app's search timeout). */
  readonly wallMs: number;
  /** Heap the call may add, and the largest single allocation (bytes). Default 32 MiB. */
  readonly memoryBytes: number;
  /** The interpreter's stack (bytes); deeper recursion fails. Default 128 KiB (about 680 plain frames; docs/sandbox.md). */
  readonly stackBytes: number;
}

export const DEFAULT_LIMITS: JsLimits = {
  timeMs: 2_000,
  wallMs: 30_000,
  memoryBytes: 32 * 1024 * 1024,
  stackBytes: 128 * 1024,
};

/** Which source a call belongs to: its scripts share one sandbox, where its jsLib was evaluated once. */
export interface JsSource {
  /** The source's identity (its bookSourceUrl); sandboxes are kept per key. */
  readonly key: string;
  /** The source's name, for error messages. */
  readonly name?: string;
  /** The jsLib text (a JSON map of URLs must be fetched and joined by the caller first). */
  readonly jsLib?: string;
}

export interface JsRunOptions {
  readonly source?: JsSource;
  /** The rule the script comes from (`ruleSearch.bookList`, `searchUrl`...), for error messages. */
  readonly rule?: string;
  readonly limits?: Partial<JsLimits>;
}

export interface JsEngine {
  /** Runs a script and gives back the completion value of its last statement, converted to host values. */
  run(code: string, bindings?: JsBindings, options?: JsRunOptions): Promise<unknown>;
  /** Frees every sandbox; the engine can still run (it starts fresh). */
  dispose(): void;
}
