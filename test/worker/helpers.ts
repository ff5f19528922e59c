// wrangler dev on 127.0.0.1 with a free port, offline, for the Worker tests: started through the
// same launcher as `npm run worker:dev` (worker/dev.ts), stopped after the file's tests.
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWrangler } from '../../worker/dev.js';

export interface RunningWorker {
  readonly url: string;
  readonly port: number;
  /** Stops wrangler and workerd (their process group) and waits for them to exit. */
  stop(): Promise<void>;
  /** What wrangler printed so far. */
  output(): string;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Starts wrangler dev with `args` (--port is added) and waits until it serves. */
export async function startWorker(args: readonly string[], config?: string): Promise<RunningWorker> {
  const port = await freePort();
  const child = startWrangler(['--port', String(port), ...args], config);
  let text = '';
  child.stdout!.on('data', (d: Buffer) => (text += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (text += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        /* already gone */
      }
      const forced = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* gone */
        }
      }, 10_000);
      await exited;
      clearTimeout(forced);
    }
  };
  // Bounded: wrangler starts in seconds here; two minutes covers a slow shared machine.
  const deadline = Date.now() + 120_000;
  while (!/Ready on http/.test(text)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`wrangler dev did not start:\n${text}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url: `http://127.0.0.1:${port}/`, port, stop, output: () => text };
}

export const basic = (name: string, password: string): Record<string, string> => ({
  Authorization: `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`,
});

/** A fresh folder for a Worker's persisted state (removed by the caller's `after`). */
export function stateDir(prefix = 'legado-worker-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
