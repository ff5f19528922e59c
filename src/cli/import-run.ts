// Runs the CLI's import in a worker (import-worker.ts) and answers Ctrl-C and SIGTERM meanwhile:
// the worker is told to stop, rolls its one transaction back, and the command ends with
// "interrupted: nothing stored" and the signal's exit code (130, 143), the terminal restored.
import { Worker } from 'node:worker_threads';
import { LegadoStoreError, type ErrorCode } from '../errors.js';
import type { ImportProgress } from '../backup/import.js';
import { SIGNALS } from './exit.js';
import type { ErrorData, ImportRequest, WorkerMessage } from './import-worker.js';

export type ImportOutcome<R> =
  | { readonly kind: 'done'; readonly created: boolean; readonly version: number; readonly result: R; readonly signal?: NodeJS.Signals }
  | { readonly kind: 'interrupted'; readonly created: boolean; readonly signal: NodeJS.Signals }
  | { readonly kind: 'failed'; readonly created: boolean; readonly error: Error };

/**
 * The import of `request` (without its stop flag), with progress reported as it goes. A failure
 * in the worker comes back as the error it was (code, message, details).
 */
export function importInWorker<R>(request: Omit<ImportRequest, 'stop'>, onProgress: (p: ImportProgress) => void): Promise<ImportOutcome<R>> {
  const stop = new SharedArrayBuffer(4);
  const flag = new Int32Array(stop);
  let signal: NodeJS.Signals | undefined;
  const onSignal = (s: NodeJS.Signals): void => {
    signal ??= s;
    Atomics.store(flag, 0, 1);
  };
  for (const s of SIGNALS) process.on(s, onSignal);
  const worker = new Worker(new URL('./import-worker.js', import.meta.url), { workerData: { ...request, stop } satisfies ImportRequest });
  return new Promise<ImportOutcome<R>>((resolve, reject) => {
    let settled = false;
    const settle = (f: () => void): void => {
      if (settled) return;
      settled = true;
      for (const s of SIGNALS) process.off(s, onSignal);
      f();
    };
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'progress') onProgress(m.progress);
      else if (m.type === 'done')
        settle(() => resolve({ kind: 'done', created: m.created, version: m.version, result: m.result as R, ...(signal ? { signal } : {}) }));
      else if (m.type === 'interrupted') settle(() => resolve({ kind: 'interrupted', created: m.created, signal: signal ?? 'SIGINT' }));
      else settle(() => resolve({ kind: 'failed', created: m.created, error: rebuilt(m.error) }));
    });
    worker.on('error', (e) => settle(() => reject(e)));
    worker.on('exit', (code) => settle(() => reject(new Error(`the import stopped without an answer (worker exit ${code})`))));
  });
}

/** The worker's error as an error of the same code, message and details, as printError reads them. */
function rebuilt(data: ErrorData): Error {
  const e = data.typed ? new LegadoStoreError(data.code as ErrorCode, data.message) : new Error(data.message);
  Object.defineProperty(e, 'name', { value: data.name });
  if (!data.typed && data.code !== undefined) Object.assign(e, { code: data.code });
  return Object.assign(e, data.details);
}
