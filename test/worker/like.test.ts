// Searches and the app's cache deletion with texts past a Durable Object's 50-byte LIKE pattern
// limit, on the Durable Object engine inside workerd (wrangler dev, offline): the rows LIKE's
// meaning gives, spelled out here, where the engine refuses the pattern as LIKE itself.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { rmSync } from 'node:fs';
import { ROOT } from '../../worker/dev.js';
import { startWorker, stateDir, type RunningWorker } from './helpers.js';

let worker: RunningWorker;
const state = stateDir('legado-worker-like-');
before(async () => {
  worker = await startWorker(['--persist-to', state], join(ROOT, 'test', 'worker', 'like-wrangler.jsonc'));
});
after(async () => {
  await worker?.stop();
  rmSync(state, { recursive: true, force: true });
});

test('a 100-character search and a 200-character source URL on the Durable Object engine', async () => {
  const key = `${'Ab%_\\'.repeat(10)}${'Ä书'.repeat(25)}`; // `%`, `_` and `\` meant literally
  assert.equal(key.length, 100);
  const asciiLower = key.replace(/[A-Z]/g, (c) => c.toLowerCase());
  // b0 contains it; b1 is it in ASCII lower case; b2 misses its first character; b3 has a
  // character changed; b4 has ä for Ä (LIKE folds ASCII only); b5 starts with it.
  const books = [`前${key}后`, asciiLower, key.slice(1), `${key.slice(0, 50)}x${key.slice(51)}`, key.toLowerCase(), `${key}尾`];
  const group = `分组${'g_%'.repeat(20)}`;
  const groups = [group, `${group},x`, `x,${group}`, `x,${group},y`, `x${group}`, `${group}x,y`, `X,${group.toUpperCase()}`];
  const url = `https://Source_${'a'.repeat(173)}.example/x_y`;
  assert.equal(url.length, 200);
  const cacheKeys = [
    `v_${url}_k`,
    `vX${url}Yk`,
    `V_${url.toUpperCase()}_`,
    `v_${url}`,
    `v_${url.replace('Source_', 'Source')}_k`,
    `userInfo_${url}`,
    `loginHeader_${url}`,
    `sourceVariable_${url}`,
    `userInfo_${url}x`,
    'v_other_k',
  ];
  const res = await fetch(`${worker.url}?object=long-like`, { method: 'POST', body: JSON.stringify({ key, books, group, groups, url, cacheKeys }) });
  const r = (await res.json()) as Record<string, unknown>;
  assert.equal(res.status, 200, JSON.stringify(r));
  assert.equal(r.capability, 50);
  assert.match(String(r.refused), /LIKE or GLOB pattern too complex/);
  assert.deepEqual(r.books, ['b0', 'b1', 'b5']);
  assert.deepEqual(r.chapters, ['c0', 'c1', 'c5']);
  // list() with the app's kind of pattern (`_` for each of `%`, `_`, `\`): b1 (ASCII case) and b5.
  assert.deepEqual(r.prefix, ['b1', 'b5']);
  // Exactly the group, or one `,`-separated item of the list, ASCII case folded (s6).
  assert.deepEqual(r.byGroup, ['s0', 's1', 's2', 's3', 's6']);
  // Name, group, URL or comment containing it: every group list with it inside.
  assert.deepEqual(r.sourceSearch, ['s0', 's1', 's2', 's3', 's4', 's5', 's6']);
  // v_<url>_%: its variable, `_` as any character, ASCII case folded; not v_<url> (the last `_`
  // needs a character) nor a key one character short; and the three exact keys.
  assert.equal(r.removed, 6);
  assert.deepEqual(r.cacheLeft, [`userInfo_${url}x`, `v_${url}`, `v_${url.replace('Source_', 'Source')}_k`, 'v_other_k'].sort());
});
