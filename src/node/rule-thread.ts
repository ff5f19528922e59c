// The users' TOC and replace rules on Node (and Bun): run on worker threads this process can stop.
// A JS regex cannot be interrupted inside a match, but its thread can be terminated: the worker
// (rule-worker.ts) says before each stretch of matching which rule runs and its limit, and a
// stretch that outlasts it ends the thread and the job with RuleTimeoutError naming the rule.
// Two runners: `ruleThreads()` for the synchronous API and the CLI (the caller blocks in
// Atomics.wait, woken by each message), `asyncRuleThreads()` for the server (its thread keeps
// serving). Work with no user regex in it (no TOC rules, an EPUB, plain replace rules) stays on
// the caller's thread: a thread costs tens of ms to start.
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { inThread, type AsyncRuleRunner, type RuleRunner } from '../localbook/api.js';
import type { BookFile, ParsedBook } from '../localbook/format.js';
import type { ChapterReplace, ChapterReplaced } from '../localbook/replace.js';
import type { TxtParseOptions } from '../localbook/txt/index.js';
import { RuleThreadError, RuleTimeoutError } from '../localbook/errors.js';
import * as errors from '../errors.js';
import * as backupErrors from '../backup/errors.js';
import * as bookErrors from '../localbook/errors.js';
import * as epubErrors from '../localbook/epub/errors.js';
import * as regex from '../text/java-regex.js';
import type { ErrorData, RuleJob, RuleMessage } from './rule-worker.js';

interface Slot {
  readonly worker: Worker;
  readonly port: MessagePort;
  readonly counter: Int32Array;
}

/** Error classes a worker's failure is rebuilt into, by name (so `instanceof` holds across the thread). */
const CLASSES = new Map<string, new (...args: never[]) => Error>(
  [errors, backupErrors, bookErrors, epubErrors, regex].flatMap((m) =>
    Object.values(m).flatMap((v) => (typeof v === 'function' && v.prototype instanceof Error ? [[v.name, v as new (...args: never[]) => Error] as const] : [])),
  ),
);

function rebuilt(data: ErrorData): Error {
  const cls = CLASSES.get(data.className);
  const e = cls ? (Object.create(cls.prototype) as Error) : new Error(String(data.props['message']));
  return Object.assign(e, data.props);
}

/** The job of a parse: a file on disk by its path (the worker reads it), else a copy of its bytes. */
function parseJob(file: BookFile, options: TxtParseOptions): { job: RuleJob; transfer: ArrayBuffer[] } {
  const path = (file as { path?: unknown }).path;
  if (typeof path === 'string') return { job: { type: 'parse', fileName: file.fileName, path, options }, transfer: [] };
  const bytes = file.read(0, file.size).slice();
  return { job: { type: 'parse', fileName: file.fileName, bytes, options }, transfer: [bytes.buffer as ArrayBuffer] };
}

/** Whether a parse runs a user's regex: a TXT with a rule to try. */
const parseRunsRules = (file: BookFile, options: TxtParseOptions): boolean =>
  /\.txt$/i.test(file.fileName) && (Boolean(options.tocUrl) || (options.tocRules?.length ?? 0) > 0);
const replaceRunsRules = (job: ChapterReplace): boolean => [...job.rules, ...(job.titleRules ?? [])].some((r) => r.isRegex && r.pattern !== '');

/** How long a new thread may take to start before a blocking caller gives up (a loaded machine takes ~0.1 s). */
const START_MS = 30_000;

export interface RuleThreadOptions {
  /**
   * Longest silence of a thread outside a rule's stretch before a blocking caller gives up on it
   * (ms, default 120,000): a thread that died there (out of memory) sends nothing, and a caller
   * blocked in Atomics.wait cannot see its exit. Our own work between rules (decoding, cutting)
   * takes seconds at most.
   */
  readonly quietMs?: number;
}

class Pool {
  private readonly idle: Slot[] = [];
  private closed = false;

  /** An idle thread, else a new one; `blocking`: waits here until it has started (the caller will block on it). */
  take(blocking: boolean): Slot {
    const slot = this.idle.pop();
    if (slot) return slot;
    const counter = new Int32Array(new SharedArrayBuffer(4));
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(new URL('./rule-worker.js', import.meta.url), {
      workerData: { port: port2, signal: counter.buffer },
      transferList: [port2],
    });
    worker.unref();
    if (blocking && Atomics.wait(counter, 0, 0, START_MS) === 'timed-out') {
      void worker.terminate();
      throw new RuleThreadError(`did not start within ${START_MS / 1000} s`);
    }
    return { worker, port: port1, counter };
  }

  give(slot: Slot): void {
    if (this.closed || this.idle.length >= 2) void slot.worker.terminate();
    else this.idle.push(slot);
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.all(this.idle.splice(0).map((s) => s.worker.terminate())).then(() => undefined);
  }
}

/** Runs jobs with the caller blocked until the answer or the running rule's limit. */
class SyncThreads implements RuleRunner {
  private readonly pool: Pool;
  private readonly quietMs: number;
  constructor(options: RuleThreadOptions = {}) {
    this.pool = new Pool();
    this.quietMs = options.quietMs ?? 120_000;
  }

  parse(file: BookFile, options: TxtParseOptions): ParsedBook {
    if (!parseRunsRules(file, options)) return inThread.parse(file, options);
    const { job, transfer } = parseJob(file, options);
    return this.run(job, transfer) as ParsedBook;
  }

  replace(job: ChapterReplace): ChapterReplaced {
    if (!replaceRunsRules(job)) return inThread.replace(job);
    return this.run({ type: 'replace', job }, []) as ChapterReplaced;
  }

  private run(job: RuleJob, transfer: ArrayBuffer[]): unknown {
    const slot = this.pool.take(true);
    slot.port.postMessage(job, transfer);
    let stage: Extract<RuleMessage, { type: 'stage' }> | undefined;
    let end = Date.now() + this.quietMs;
    for (;;) {
      const seen = Atomics.load(slot.counter, 0);
      for (let got = receiveMessageOnPort(slot.port); got; got = receiveMessageOnPort(slot.port)) {
        const m = got.message as RuleMessage;
        if (m.type === 'stage') {
          stage = m.rule ? m : undefined;
          end = Date.now() + (m.rule ? m.limitMs : this.quietMs);
        } else {
          this.pool.give(slot);
          if (m.type === 'done') return m.result;
          throw rebuilt(m.error);
        }
      }
      const left = end - Date.now();
      if (left <= 0) {
        void slot.worker.terminate();
        if (stage?.rule) throw new RuleTimeoutError(stage.rule, stage.limitMs);
        throw new RuleThreadError(`sent nothing for ${this.quietMs} ms outside a rule (it may have run out of memory)`);
      }
      Atomics.wait(slot.counter, 0, seen, left);
    }
  }
}

/** Runs jobs while the caller's thread goes on; the answer is a promise. */
class AsyncThreads implements AsyncRuleRunner {
  private readonly pool = new Pool();

  parse(file: BookFile, options: TxtParseOptions): Promise<ParsedBook> {
    if (!parseRunsRules(file, options)) return Promise.resolve().then(() => inThread.parse(file, options));
    const { job, transfer } = parseJob(file, options);
    return this.run(job, transfer) as Promise<ParsedBook>;
  }

  replace(job: ChapterReplace): Promise<ChapterReplaced> {
    if (!replaceRunsRules(job)) return Promise.resolve().then(() => inThread.replace(job));
    return this.run({ type: 'replace', job }, []) as Promise<ChapterReplaced>;
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private run(job: RuleJob, transfer: ArrayBuffer[]): Promise<unknown> {
    const slot = this.pool.take(false);
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = (keep: boolean): void => {
        clearTimeout(timer);
        slot.port.off('message', onMessage);
        slot.worker.off('exit', onExit);
        slot.port.unref();
        if (keep) this.pool.give(slot);
        else void slot.worker.terminate();
      };
      const onMessage = (m: RuleMessage): void => {
        if (m.type === 'stage') {
          clearTimeout(timer);
          const rule = m.rule;
          if (rule)
            timer = setTimeout(() => {
              finish(false);
              reject(new RuleTimeoutError(rule, m.limitMs));
            }, m.limitMs);
        } else {
          finish(true);
          if (m.type === 'done') resolve(m.result);
          else reject(rebuilt(m.error));
        }
      };
      const onExit = (code: number): void => {
        finish(false);
        reject(new RuleThreadError(`stopped without an answer (exit code ${code}; out of memory, or ended)`));
      };
      slot.port.on('message', onMessage);
      slot.port.ref();
      slot.worker.once('exit', onExit);
      slot.port.postMessage(job, transfer);
    });
  }
}

let shared: SyncThreads | undefined;

/** The process's runner for the synchronous API (one pool, threads kept for the next job); with options, a runner of its own. */
export function ruleThreads(options?: RuleThreadOptions): RuleRunner {
  if (options) return new SyncThreads(options);
  shared ??= new SyncThreads();
  return shared;
}

/** A runner for a server (a thread started at its first rule, kept for the next); close() ends its threads. */
export function asyncRuleThreads(): AsyncRuleRunner & { close(): Promise<void> } {
  return new AsyncThreads();
}
