// What the JSON reader does differently on JavaScriptCore (Bun), whose collector and JSON.parse
// behave unlike V8's (Node, Chromium). The runtime is known by its global, as Bun documents it.
//
// A hint to the runtime's garbage collector during a long streamed read: JavaScriptCore collects
// late when the heap is already large (in the benchmark's process, importing 10,000 sources
// (29 MB) peaked 60 MB above its start, twice the input, though each record is garbage once
// stored). V8 keeps pace by itself, so elsewhere the hint does nothing.

/** Bytes read between two hints: 2 MiB kept Bun's peak at 0.4–0.7× the input for 2–5% of the time (bench/README.md). */
export const COLLECT_EVERY = 2 << 20;

/** Asks Bun for a collection without waiting for it (`Bun.gc(false)`); nothing on other runtimes. */
export function collectHint(): void {
  (globalThis as { Bun?: { gc?(force: boolean): unknown } }).Bun?.gc?.(false);
}

/**
 * Whether a small file is best parsed whole (json-stream.ts, WHOLE_FILE_BYTES). On V8 one
 * JSON.parse of the whole file beats the chunked reader by a third; on Bun the harness's
 * 1,000-source import took 65 ms read whole against 42 streamed (its baseline, which parses
 * whole, 60): its collections of one large parsed array cost more than the chunks save.
 */
export const PARSE_WHOLE_FILES = (globalThis as { Bun?: unknown }).Bun === undefined;
