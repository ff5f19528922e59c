// What one run of the command line reads and writes: passed to main() so the CLI can run inside
// another program (the tests run it in-process), and so nothing happens on import.
import type { Readable, Writable } from 'node:stream';

/** An output stream; `isTTY` decides whether progress bars are drawn. */
export type CliOut = Writable & { readonly isTTY?: boolean };

export interface CliIo {
  readonly stdout: CliOut;
  readonly stderr: CliOut;
  /** Read only to ask for a password on a terminal (`isTTY`, `setRawMode`). */
  readonly stdin: Readable & { readonly isTTY?: boolean; setRawMode?(mode: boolean): unknown };
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** One run: its streams, and the exit code a command sets when it ends without throwing. */
export interface CliRun extends CliIo {
  exitCode: number | undefined;
}

/** The process's own streams and environment: what the `legado-store` binary passes. */
export const processIo = (): CliIo => ({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env });
