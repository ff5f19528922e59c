// How every command reports a failure: `legado-store: CODE: message` on stderr, or with --json
// a JSON object on stdout ({ ok: false, error: { code, message, ... } }), and exit code 1.
import { FileExistsError, LegadoStoreError } from '../errors.js';
import { fsError } from '../io/fs-errors.js';
import type { CliIo } from './io.js';
import { printable } from './printable.js';

export interface ErrorJson {
  readonly code: string;
  readonly message: string;
  readonly [detail: string]: unknown;
}

/** The error as a plain object: code, message and the error's own details (path, table, ...). */
export function errorJson(e: unknown): ErrorJson {
  const typed = asTyped(e);
  if (!(typed instanceof LegadoStoreError)) {
    return { code: 'UNEXPECTED', message: typed instanceof Error ? typed.message : String(typed) };
  }
  const details: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(typed)) {
    if (k === 'code' || k === 'name' || k === 'cause' || k === 'result' || typeof v === 'function') continue;
    details[k] = v;
  }
  // The command line's words where the API's differ (--force, not overwrite: true).
  const message = typed instanceof FileExistsError ? typed.cliMessage : typed.message;
  return { code: typed.code, message, ...jsonSafe(details) };
}

/** Writes the error the way the command line reports failures. */
export function printError(io: CliIo, e: unknown, json: boolean): void {
  const j = errorJson(e);
  if (json) {
    io.stdout.write(JSON.stringify({ ok: false, error: j }, null, 2) + '\n');
  } else {
    // A message may quote a name from outside (a file, a server's answer): escaped for the terminal.
    io.stderr.write(`legado-store: ${j.code}: ${printable(j.message.replace(/\s*\n\s*/g, ' '))}\n`);
  }
}

/**
 * A file-system error that escaped a command, as the typed error it stands for. A failed
 * write(2) (ENOSPC, EIO, ...) carries no path: it is named as the file being written.
 */
function asTyped(e: unknown): unknown {
  if (e instanceof LegadoStoreError) return e;
  const path = (e as { path?: unknown } | null)?.path;
  if (typeof path === 'string') return fsError(path, e);
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code) ? fsError('the file being written', e) : e;
}

function jsonSafe(o: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(o, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))) as Record<string, unknown>;
}
