// The command-line tool in two ways: in-process (main() with captured streams: what most tests
// use) and as a real process of the built bin file (for exit codes from signals, kills,
// terminals, pipes, and the bin itself).
import { spawnSync } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';

export const CLI = fileURLToPath(new URL('../../src/cli/bin.js', import.meta.url));

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A stream that keeps what is written to it. */
function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** `legado-store <args>` run in this process, `env` added to this process's environment. */
export async function cliWith(env: Readonly<Record<string, string | undefined>>, ...args: string[]): Promise<CliResult> {
  const out = collector();
  const err = collector();
  const code = await main(args, { stdout: out.stream, stderr: err.stream, stdin: Readable.from([]), env: { ...process.env, ...env } });
  return { code, stdout: out.text(), stderr: err.text() };
}

/** `legado-store <args>` run in this process, with its output captured. */
export const cli = (...args: string[]): Promise<CliResult> => cliWith({}, ...args);

/** `legado-store <args>` as a process of this runtime (the built bin file). */
export function cliProcess(...args: string[]): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * The CLI as a user runs it on this machine: the machine's `node` with its default engine,
 * whatever runtime or engine the suite itself runs on (Bun, SQLite WASM, which has no file
 * system for a command-line tool's files).
 */
export const MACHINE_NODE = 'node';
export function machineEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env['LEGADO_STORE_DRIVER'];
  return env;
}
export function machineCli(...args: string[]): CliResult {
  const r = spawnSync(MACHINE_NODE, [CLI, ...args], { encoding: 'utf8', env: machineEnv() });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
