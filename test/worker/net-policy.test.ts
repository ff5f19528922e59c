// The network policy inside workerd (wrangler dev, offline): every spelling of a refused address
// judged with workerd's own URL parser, to the same reasons as on Node, and redirects from a
// public URL to 10.x, 169.254.169.254, fd00:: or loopback refused before the host fetch is asked
// for them (net-worker.ts records it; no request leaves the Worker, so none reaches a network).
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT } from '../../worker/dev.js';
import { ALLOWED, REFUSED } from '../helpers/net-spellings.js';
import { startWorker, stateDir, type RunningWorker } from './helpers.js';

let worker: RunningWorker;
const state = stateDir('legado-worker-net-');
before(async () => {
  worker = await startWorker(['--persist-to', state], join(ROOT, 'test', 'worker', 'net-wrangler.jsonc'));
});
after(async () => {
  await worker?.stop();
  rmSync(state, { recursive: true, force: true });
});

const TARGETS = [
  'http://10.0.0.1/c.png',
  'http://169.254.169.254/latest/meta-data/',
  'http://[fd00::1]/c.png',
  'http://[fd00:ec2::254]/latest/meta-data/',
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://127.0.0.1/admin',
  'http://2130706433/',
  'http://0x7f000001/',
  'http://[::ffff:127.0.0.1]/',
  'http://localhost:1122/api/database',
  '//localhost/x',
];

test('inside workerd: every spelling refused for the same reason as on Node; redirects to refused places never asked for', async () => {
  const res = await fetch(worker.url, { method: 'POST', body: JSON.stringify({ urls: [...REFUSED.map(([u]) => u), ...ALLOWED], redirects: TARGETS }) });
  assert.equal(res.status, 200, await res.clone().text());
  const got = (await res.json()) as { judged: string[][]; followed: { target: string; result: string; asked: string[] }[] };
  const expected = [...REFUSED.map(([, reason]) => `ADDRESS_REFUSED:${reason}`), ...ALLOWED.map(() => 'allowed')];
  assert.deepEqual(
    got.judged.map((j, i) => [REFUSED[i]?.[0] ?? ALLOWED[i - REFUSED.length], j[0]]),
    expected.map((e, i) => [REFUSED[i]?.[0] ?? ALLOWED[i - REFUSED.length], e]),
  );
  for (const f of got.followed) {
    assert.equal(f.result, `ADDRESS_REFUSED:${f.result.split(':')[1]}`, f.target);
    assert.deepEqual(f.asked, ['https://covers.example.com/a.jpg'], f.target);
  }
  assert.equal(got.followed.length, TARGETS.length);
});
