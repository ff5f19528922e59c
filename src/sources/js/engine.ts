// The QuickJS engine behind the JsEngine seam: lanes of WASM instances, a sandbox per source in
// each, limits per call, typed errors, and what a failure spoilt made anew before the next call.
import { Lane, type LaneOptions } from './lane.js';
import { DEFAULT_LIMITS, type JsBindings, type JsEngine, type JsLimits, type JsRunOptions } from './types.js';

export interface QuickJsEngineOptions {
  /** WASM instances running calls side by side (asyncify allows one suspended call per instance). Default 4. */
  readonly lanes?: number;
  /** Sources' sandboxes kept per lane. Default 32. */
  readonly sandboxesPerLane?: number;
  /** Hard maximum of heap per lane over the build's 16 MiB start (bytes). Default 64 MiB. */
  readonly heapBytes?: number;
  /** Default limits of every call. */
  readonly limits?: Partial<JsLimits>;
  /** The compiled QuickJS WASM, for hosts that import `.wasm` as a module (workerd); see docs/sandbox.md. */
  readonly wasmModule?: LaneOptions['wasmModule'];
}

export interface SandboxMemory {
  /** Linear memory of each lane's WASM instance. */
  readonly lanes: { linearBytes: number; sandboxes: { key: string; usedBytes: number }[] }[];
}

/** Lanes made past `lanes` while every lane's call waits for the host: the app stops nested evaluation at 10 levels. */
const NESTED_LANES = 10;

export class QuickJsEngine implements JsEngine {
  private readonly lanes: Lane[] = [];
  private readonly maxLanes: number;
  private readonly laneOptions: LaneOptions;
  private readonly limits: JsLimits;

  constructor(options: QuickJsEngineOptions = {}) {
    this.maxLanes = Math.max(1, options.lanes ?? 4);
    this.laneOptions = { heapBytes: options.heapBytes ?? 64 * 1024 * 1024, sandboxes: options.sandboxesPerLane ?? 32, wasmModule: options.wasmModule };
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
  }

  run(code: string, bindings: JsBindings = {}, options: JsRunOptions = {}): Promise<unknown> {
    const limits = { ...this.limits, ...options.limits };
    const source = options.source;
    const key = source?.key ?? '';
    const place = { source: source?.name || source?.key, rule: options.rule };
    const lane = this.laneFor(key);
    const done = lane.enqueue(async () => {
      const sandbox = await lane.sandbox(key, source?.jsLib ?? '');
      try {
        return await sandbox.run(code, bindings, place, limits);
      } catch (error) {
        lane.recover(sandbox);
        throw error;
      }
    });
    return done.finally(() => this.trim(lane));
  }

  /** Memory of every lane and sandbox, measured between calls. */
  async memory(): Promise<SandboxMemory> {
    return { lanes: await Promise.all(this.lanes.map((lane) => lane.enqueue(async () => lane.measure()))) };
  }

  dispose(): void {
    for (const lane of this.lanes.splice(0)) lane.dispose();
  }

  /**
   * The lane that holds the source's sandbox, else an idle one, else a new one, else the least
   * busy; never one whose call waits for the host while another lane can take the call (that call
   * may be waiting for this one: nested evaluation). With every lane waiting, up to NESTED_LANES
   * more are made, as deep as the app lets evaluation nest.
   */
  private laneFor(key: string): Lane {
    const open = this.lanes.filter((lane) => lane.waiting === 0);
    const holder = open.find((lane) => lane.has(key));
    if (holder) return holder;
    const idle = open.find((lane) => lane.pending === 0);
    if (idle) return idle;
    if (this.lanes.length < this.maxLanes || (open.length === 0 && this.lanes.length < this.maxLanes + NESTED_LANES)) {
      const lane = new Lane(this.laneOptions);
      this.lanes.push(lane);
      return lane;
    }
    return (open.length > 0 ? open : this.lanes).reduce((a, b) => (b.pending < a.pending ? b : a));
  }

  /** A lane made past `lanes` for nested evaluation is dropped once it has nothing to do. */
  private trim(lane: Lane): void {
    if (this.lanes.length <= this.maxLanes || lane.pending > 0) return;
    const at = this.lanes.indexOf(lane);
    if (at < 0) return;
    this.lanes.splice(at, 1);
    lane.dispose();
  }
}
