// The fixture site on 127.0.0.1 in a worker thread, for benchmarks that time a client against it:
// the site's own work stays off the measured thread, as a remote site's would. The parent gets
// `{ url }` once it listens, sends 'hits' for `{ hits }` (the requests answered so far) and
// 'close' to stop it. `latencyMs` delays every answer, as a remote site's round trip would.
import { parentPort, workerData } from 'node:worker_threads';
import { startFixtureSite } from '../test/helpers/fixture-site/node.js';

const { seed, latencyMs = 0 } = workerData as { seed: number; latencyMs?: number };
const site = await startFixtureSite(seed, { latencyMs });
parentPort!.postMessage({ url: site.url });
const answered = (): number => [...site.site.hits.values()].reduce((a, b) => a + b, 0);
parentPort!.on('message', async (m: unknown) => {
  if (m === 'hits') return void parentPort!.postMessage({ hits: answered() });
  if (m !== 'close') return;
  await site.close();
  process.exit(0);
});
