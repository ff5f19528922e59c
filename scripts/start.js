// `npm start`: serve a demo store on 127.0.0.1 with our own page. The demo store
// (legado-demo.db) is made once, when missing; arguments after `--` go to `serve`.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const MAIN = new URL('../dist/src/cli/bin.js', import.meta.url).pathname;
const STORE = 'legado-demo.db';
if (!existsSync(STORE)) {
  const made = spawnSync(process.execPath, [MAIN, 'demo', STORE], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (made.status !== 0) process.exit(made.status ?? 1);
}
process.argv = [process.argv[0], MAIN, 'serve', STORE, ...process.argv.slice(2)];
await import(MAIN);
