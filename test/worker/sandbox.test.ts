// Book sources' scripts in the QuickJS sandbox inside workerd (wrangler dev, offline): the
// completion value, a synchronous-looking java.ajax, nothing of the host, and a script that loops
// forever or allocates without end stopped with its typed error, the next call working.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT } from '../../worker/dev.js';
import { type RunningWorker, startWorker } from './helpers.js';

let worker: RunningWorker;
before(async () => {
  worker = await startWorker([], join(ROOT, 'test', 'worker', 'sandbox-wrangler.jsonc'));
});
after(async () => {
  await worker?.stop();
});

async function run(code: string, limits?: Record<string, number>): Promise<{ value?: unknown; code?: string; message?: string }> {
  const res = await fetch(worker.url, { method: 'POST', body: JSON.stringify({ code, limits }) });
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as { value?: unknown; code?: string; message?: string };
}

const works = async (): Promise<void> => assert.deepEqual(await run('[1, 2, 3].map((x) => x * 2).join("-")'), { value: '2-4-6' });

test('the completion value, and 20 java.ajax calls in a loop in order', async () => {
  assert.deepEqual(await run('result = "第12章"; result.replace(/第(\\d+)章/, "Chapter $1")'), { value: 'Chapter 12' });
  const expected = Array.from({ length: 20 }, (_, i) => `got u${i}`).join(';');
  assert.deepEqual(await run('var out = []; for (var i = 0; i < 20; i++) out.push(java.ajax("u" + i)); out.join(";")'), { value: expected });
});

test('no host objects, directly or through eval', async () => {
  const names = ['process', 'require', 'fetch', 'WebAssembly', 'setTimeout', 'caches', 'crypto', 'navigator', 'console'];
  const probe = `[${names.map((n) => `typeof ${n}`).join(', ')}].join()`;
  const none = names.map(() => 'undefined').join();
  assert.deepEqual(await run(probe), { value: none });
  assert.deepEqual(await run(`eval(${JSON.stringify(probe)})`), { value: none });
});

test('a loop forever is SCRIPT_TIMEOUT (workerd stops the clock while code runs), and the next call works', async () => {
  const out = await run('while (true) {}', { timeMs: 200 });
  assert.equal(out.code, 'SCRIPT_TIMEOUT', JSON.stringify(out));
  await works();
});

test('allocating without end is SCRIPT_MEMORY, and the next call works', async () => {
  const out = await run('var a = []; while (true) a.push(new ArrayBuffer(1 << 20))', { timeMs: 60_000, wallMs: 60_000 });
  assert.equal(out.code, 'SCRIPT_MEMORY', JSON.stringify(out));
  await works();
});
