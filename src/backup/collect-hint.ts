// A hint to the runtime's garbage collector during a long streamed read. JavaScriptCore (Bun)
// collects late when the heap is already large: in the benchmark's process, importing 10,000
// sources (29 MB) peaked 60 MB above its start, twice the input, though each record is garbage
// once stored. V8 (Node, Chromium) keeps pace by itself, so elsewhere this does nothing.

/** Bytes read between two hints: 2 MiB kept Bun's peak at 0.4–0.7× the input for 2–5% of the time (bench/README.md). */
export const COLLECT_EVERY = 2 << 20;

/** Asks Bun for a collection without waiting for it (`Bun.gc(false)`); nothing on other runtimes. */
export function collectHint(): void {
  (globalThis as { Bun?: { gc?(force: boolean): unknown } }).Bun?.gc?.(false);
}
