// Runs the built command-line tool as a user would, capturing exit code and output.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

export function cli(...args: string[]): { code: number | null; stdout: string; stderr: string } {
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
export function machineCli(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(MACHINE_NODE, [CLI, ...args], { encoding: 'utf8', env: machineEnv() });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
