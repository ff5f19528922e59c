// `npm run worker:dev -- --port P [--persist-to DIR] [--var LEGADO_USERS:name:password,...]`:
// the Worker on workerd through `wrangler dev`, offline, on 127.0.0.1, its objects' storage kept
// in the persist folder (default .wrangler/state beside the config). Other arguments go to
// wrangler as given. wrangler 4 needs Node 22.12 or later: on an older Node it runs on Node 22
// from the npm registry (npx's cache), as test/runtimes does.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeWorkerEntry } from './build.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The command (and its first arguments) that runs JavaScript on a Node wrangler accepts. */
export function wranglerNode(): string[] {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 12) ? [process.execPath] : ['npx', '-y', '-p', 'node@22', 'node'];
}

/**
 * The environment wrangler runs in: no metrics, no colours, and no fetch of Cloudflare's cf.json
 * (miniflare's request.cf data, fetched from workers.cloudflare.com at every start unless
 * CLOUDFLARE_CF_FETCH_ENABLED is false): the dev server and the tests stay offline.
 */
export function wranglerEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...base, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', CI: base['CI'] ?? '', NO_COLOR: '1', FORCE_COLOR: '0' };
}

/** Starts `wrangler dev` with `args` for the config `config` (default the Worker's); its output is piped. */
export function startWrangler(args: readonly string[], config = join(ROOT, 'worker', 'wrangler.jsonc')): ChildProcess {
  writeWorkerEntry(ROOT);
  const wrangler = join(dirname(createRequire(import.meta.url).resolve('wrangler/package.json')), 'bin', 'wrangler.js');
  const [cmd, ...first] = wranglerNode();
  const hasIp = args.includes('--ip');
  return spawn(cmd!, [...first, wrangler, 'dev', '-c', config, ...(hasIp ? [] : ['--ip', '127.0.0.1']), ...args], {
    cwd: ROOT,
    env: wranglerEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: process.platform !== 'win32',
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const child = startWrangler(process.argv.slice(2));
  child.stdout!.pipe(process.stdout);
  child.stderr!.pipe(process.stderr);
  const stop = (): void => {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  child.once('exit', (code) => process.exit(code ?? 0));
}
