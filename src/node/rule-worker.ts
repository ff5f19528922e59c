// The rule thread (rule-thread.ts starts it): parses book files and applies replace rules, telling
// its parent, before each stretch of matching, which rule runs and for how long it may, so the
// parent can stop this thread inside a match. Messages go out on the port it was given; each one
// also bumps a shared counter, which wakes a parent blocked in Atomics.wait.
import { workerData, type MessagePort } from 'node:worker_threads';
import { watchRules } from '../localbook/regex-guard.js';
import { formatFor } from '../localbook/formats.js';
import { replaceChapter, type ChapterReplace } from '../localbook/replace.js';
import type { BookFile } from '../localbook/format.js';
import type { TxtParseOptions } from '../localbook/txt/index.js';
import { diskFile } from './localbook-files.js';

export type RuleJob =
  | { readonly type: 'parse'; readonly fileName: string; readonly path?: string; readonly bytes?: Uint8Array; readonly options: TxtParseOptions }
  | { readonly type: 'replace'; readonly job: ChapterReplace };

export interface ErrorData {
  readonly className: string;
  readonly props: Record<string, unknown>;
}

export type RuleMessage =
  | { readonly type: 'stage'; readonly rule: import('../localbook/errors.js').RuleRef | undefined; readonly limitMs: number }
  | { readonly type: 'done'; readonly result: unknown }
  | { readonly type: 'failed'; readonly error: ErrorData };

const { port, signal } = workerData as { port: MessagePort; signal: SharedArrayBuffer };
const counter = new Int32Array(signal);

function send(message: RuleMessage): void {
  port.postMessage(message);
  Atomics.add(counter, 0, 1);
  Atomics.notify(counter, 0);
}

watchRules((rule, limitMs) => send({ type: 'stage', rule, limitMs }));

function run(job: RuleJob): unknown {
  if (job.type === 'replace') return replaceChapter(job.job);
  const bytes = job.bytes;
  const file: BookFile = bytes
    ? { fileName: job.fileName, size: bytes.length, read: (start, end) => bytes.subarray(Math.min(start, bytes.length), Math.min(end, bytes.length)) }
    : diskFile(job.path ?? '', job.fileName);
  return formatFor(job.fileName)!.parse(file, job.options);
}

/** An error as data the parent rebuilds into its class (own fields kept). */
function errorData(e: unknown): ErrorData {
  if (!(e instanceof Error)) return { className: 'Error', props: { message: String(e) } };
  const props: Record<string, unknown> = { message: e.message, name: e.name, stack: e.stack };
  for (const key of Object.keys(e)) props[key] = (e as unknown as Record<string, unknown>)[key];
  return { className: e.constructor.name, props };
}

port.on('message', (job: RuleJob) => {
  let message: RuleMessage;
  try {
    message = { type: 'done', result: run(job) };
  } catch (e) {
    message = { type: 'failed', error: errorData(e) };
  }
  try {
    send(message);
  } catch (e) {
    // A field that cannot cross threads: the class and message are enough.
    const error = message.type === 'failed' ? { className: message.error.className, props: { message: message.error.props['message'] } } : errorData(e);
    send({ type: 'failed', error });
  }
});

// Started: a parent blocked in Atomics.wait learns that this thread runs (one that fails to start would leave it waiting).
Atomics.add(counter, 0, 1);
Atomics.notify(counter, 0);
