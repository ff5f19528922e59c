// `npm run worker:dev` and the Worker tests start wrangler through worker/dev.ts. Miniflare
// (wrangler's local runtime) fetches Cloudflare's cf.json from the network at every start unless
// CLOUDFLARE_CF_FETCH_ENABLED is false (miniflare's getCfFetchEnabledFromEnv, default true): the
// environment it gets must say false, whatever the caller's environment holds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { wranglerEnv } from '../worker/dev.js';

test("wrangler runs with CLOUDFLARE_CF_FETCH_ENABLED=false (no cf.json fetch), the caller's other variables kept", () => {
  for (const base of [{}, { CLOUDFLARE_CF_FETCH_ENABLED: 'true', PATH: '/bin' }]) {
    const env = wranglerEnv(base);
    assert.equal(env['CLOUDFLARE_CF_FETCH_ENABLED'], 'false');
    assert.equal(env['WRANGLER_SEND_METRICS'], 'false');
  }
  assert.equal(wranglerEnv({ PATH: '/bin' })['PATH'], '/bin');
});
