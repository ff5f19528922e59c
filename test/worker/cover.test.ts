// The Worker's /cover on workerd (wrangler dev, offline, 127.0.0.1) goes through the network
// policy with workerd's fetch: a cover URL naming loopback in any spelling is answered with the
// default cover, and the fixture servers on 127.0.0.1 and ::1 never see a request (workerd under
// wrangler dev does reach them: before the policy this same request got the fixture's picture).
// 10.x, 169.254.169.254, fd00:: and metadata names are checked inside workerd without sending
// anything (net-policy.test.ts): a failure here would send traffic off the loopback.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { after, before, test } from 'node:test';
import { DEFAULT_COVER } from '../../src/server/cover.js';
import { countingServer } from '../helpers/net.js';
import { loopbackUrls } from '../helpers/net-spellings.js';
import { basic, startWorker, stateDir, type RunningWorker } from './helpers.js';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 5, 5]);
const image = (_req: unknown, res: ServerResponse): void => void res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG);
// At the top level, not in before(): their after() hooks then run when the file's tests end.
const v4 = await countingServer('127.0.0.1', image);
const v6 = await countingServer('::1', image);
let worker: RunningWorker;
const state = stateDir('legado-worker-cover-');

before(async () => {
  worker = await startWorker(['--persist-to', state, '--var', 'LEGADO_USERS:alice:pw-a']);
});
after(async () => {
  await worker?.stop();
  rmSync(state, { recursive: true, force: true });
});

test('/cover on workerd: every spelling of loopback gets the default cover, and the fixtures are never reached', async () => {
  const paths = loopbackUrls(v4.port, v6.port);
  for (const p of paths) {
    const res = await fetch(`${worker.url}cover?path=${encodeURIComponent(p)}`, { headers: basic('alice', 'pw-a') });
    assert.equal(res.status, 200, p);
    assert.equal(res.headers.get('content-type'), 'image/svg+xml', p);
    assert.equal(await res.text(), DEFAULT_COVER, p);
  }
  assert.deepEqual([v4.hits, v6.hits], [[], []]);
});
