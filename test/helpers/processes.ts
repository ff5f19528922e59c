// Child processes for the lock tests: start one, wait until it says it is ready.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const helper = (name: string): string => fileURLToPath(new URL(`./${name}.js`, import.meta.url));

/** Starts `node <helper> ...args` and resolves once it printed `ready` (a line), with its exit as a promise. */
export function startChild(
  name: string,
  args: readonly string[],
  ready: string,
): Promise<{ child: ChildProcess; exited: Promise<number | null>; output: () => string }> {
  const child = spawn(process.execPath, [helper(name), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.split('\n').includes(ready)) resolve({ child, exited, output: () => out + err });
    });
    void exited.then((code) => reject(new Error(`${name} exited (${code}) before "${ready}": ${out}${err}`)));
  });
}
