// Exit codes and option conventions shared by every command.
import { constants } from 'node:os';
import { Option } from 'commander';
import { SUPPORTED_VERSIONS, isSupportedVersion, type SchemaVersion } from '../schema/index.js';

/** 0 done; 1 the operation failed (a typed error, printed as `CODE: message`); 2 bad usage. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** The signals a long command answers (Ctrl-C, and `kill`'s default). */
export const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/** The shell's code for a process ended by `signal`: 128 + its number (130, 143). */
export const signalExitCode = (signal: NodeJS.Signals): number => 128 + constants.signals[signal];

/** Bad arguments that commander itself cannot see (a value out of range, say). */
export class UsageError extends Error {}

export function parseSchemaOption(value: string): SchemaVersion {
  const v = Number(value);
  if (/^\d+$/.test(value) && isSupportedVersion(v)) return v;
  const all = SUPPORTED_VERSIONS;
  throw new UsageError(`--schema must be a version from ${all[0]} to ${all[all.length - 1]}, not ${JSON.stringify(value)}`);
}

/**
 * `--force`, for every command that writes a file: without it an existing file is refused
 * (FILE_EXISTS); with it the new file is written beside and renamed over the old one.
 */
export const forceOption = (what = 'the output file'): Option =>
  new Option('--force', `replace ${what} if it exists (written to a temporary file, then renamed over it)`);

/** True when the command line asks for JSON output (errors are then JSON objects on stdout). */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}
