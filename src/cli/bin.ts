#!/usr/bin/env node
// The `legado-store` binary: main() on this process's arguments, streams and environment.
import { main } from './main.js';
import { processIo } from './io.js';

// Output piped into a reader that stopped early (`| head`): stop quietly, as other tools do. The
// command is not cut short here: row output stops at the next write (rows-output.ts) and the
// command closes its store, so nothing is left beside it.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') return;
  throw e;
});

process.exitCode = await main(process.argv.slice(2), processIo());
