// The CLI's import, in a worker thread. An import is ONE synchronous SQLite transaction, during
// which the thread running it cannot answer a signal; run here, it leaves the main thread free to
// take Ctrl-C and SIGTERM. The main thread raises a shared flag (import-run.ts); this thread sees
// it at its next progress step and throws, which rolls the one transaction back: nothing of the
// import is stored, and the store is closed as on any failure.
import { parentPort, workerData } from 'node:worker_threads';
import { importDatabase } from '../backup/database.js';
import { importInputs } from '../node/backup-import.js';
import { useNodeDrivers } from '../engine/drivers/index.js';
import type { ImportOptions, ImportProgress } from '../backup/import.js';
import { LegadoStoreError, FileExistsError } from '../errors.js';
import type { SchemaVersion } from '../schema/index.js';
import { openOrCreateStore } from './open-store.js';

// A worker has a module registry of its own: the engines main() installed are not installed here.
useNodeDrivers();

/** What the main thread asks for: everything plain data (structured clone). */
export interface ImportRequest {
  readonly storePath: string;
  readonly inputs: readonly string[];
  /** The one database file to import, when the input is one. */
  readonly database?: string;
  readonly schema?: SchemaVersion;
  readonly options: Omit<ImportOptions, 'onProgress'>;
  /** An Int32Array's buffer: its first element is set to 1 by the main thread on a signal. */
  readonly stop: SharedArrayBuffer;
}

/** A thrown error as plain data: its code, message and own details, rebuilt by the main thread. */
export interface ErrorData {
  readonly typed: boolean;
  readonly name: string;
  readonly code?: string;
  readonly message: string;
  readonly details: Record<string, unknown>;
}

export type WorkerMessage =
  | { readonly type: 'progress'; readonly progress: ImportProgress }
  | { readonly type: 'done'; readonly created: boolean; readonly version: number; readonly result: unknown }
  | { readonly type: 'interrupted'; readonly created: boolean }
  | { readonly type: 'error'; readonly created: boolean; readonly error: ErrorData };

/** Thrown from the progress callback: a plain Error, so no import step takes it for a skippable record or file. */
class Interrupted extends Error {}

/** Progress messages at most this often: a message per record would cost more than the import. */
const PROGRESS_MS = 50;

function run(req: ImportRequest, post: (m: WorkerMessage) => void): void {
  const stop = new Int32Array(req.stop);
  const stopped = () => Atomics.load(stop, 0) !== 0;
  if (stopped()) {
    post({ type: 'interrupted', created: false });
    return;
  }
  let last = 0;
  const onProgress = (progress: ImportProgress): void => {
    if (stopped()) throw new Interrupted();
    const now = performance.now();
    if (now - last < PROGRESS_MS) return;
    last = now;
    post({ type: 'progress', progress });
  };
  let created = false;
  try {
    const opened = openOrCreateStore(req.storePath, req.schema === undefined ? {} : { schema: req.schema });
    created = opened.created;
    const store = opened.store;
    let result: Promise<unknown> | unknown;
    try {
      result =
        req.database !== undefined
          ? importDatabase(store, req.database, { strict: req.options.strict, onProgress })
          : importInputs(store, req.inputs, { ...req.options, onProgress });
    } finally {
      // importInputs is synchronous under its promise: the transaction is over here.
      store.close();
    }
    void Promise.resolve(result).then(
      (r) => post({ type: 'done', created, version: store.version, result: r }),
      (e: unknown) => post(failure(e, created)),
    );
  } catch (e) {
    post(failure(e, created));
  }
}

function failure(e: unknown, created: boolean): WorkerMessage {
  if (e instanceof Interrupted) return { type: 'interrupted', created };
  return { type: 'error', created, error: errorData(e) };
}

function errorData(e: unknown): ErrorData {
  const details: Record<string, unknown> = {};
  if (typeof e === 'object' && e !== null) {
    for (const [k, v] of Object.entries(e)) {
      if (k === 'code' || k === 'name' || k === 'cause' || typeof v === 'function') continue;
      details[k] = v;
    }
  }
  const typed = e instanceof LegadoStoreError;
  const message = e instanceof FileExistsError ? e.cliMessage : e instanceof Error ? e.message : String(e);
  const code = (e as { code?: unknown } | null)?.code;
  return { typed, name: e instanceof Error ? e.name : 'Error', message, details, ...(typeof code === 'string' ? { code } : {}) };
}

if (parentPort) run(workerData as ImportRequest, (m) => parentPort!.postMessage(m));
