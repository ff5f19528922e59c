// Durability: a reader's store survives a restart of the Worker with the same persist folder
// (workerd keeps each object's SQLite database there), and is gone with a fresh folder.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, test } from 'node:test';
import { envelopeText } from '../helpers/serve.js';
import { basic, startWorker, stateDir } from './helpers.js';

const state = stateDir('legado-worker-durable-');
const fresh = stateDir('legado-worker-fresh-');
after(() => {
  rmSync(state, { recursive: true, force: true });
  rmSync(fresh, { recursive: true, force: true });
});

const USERS = ['--var', 'LEGADO_USERS:ann:pw'];
const auth = basic('ann', 'pw');

test('a saved book and its progress are there after wrangler dev restarts on the same persist folder', async () => {
  const first = await startWorker(['--persist-to', state, ...USERS]);
  try {
    const saved = await fetch(first.url + 'saveBook', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...auth },
      body: JSON.stringify({ bookUrl: 'https://b/keep', name: '留存', author: '某', origin: 'local', tocUrl: '', durChapterIndex: 7 }),
    });
    assert.equal(saved.status, 200);
  } finally {
    await first.stop();
  }
  const second = await startWorker(['--persist-to', state, ...USERS]);
  try {
    const shelf = JSON.parse(await (await fetch(second.url + 'getBookshelf', { headers: auth })).text()) as {
      data: { name: string; durChapterIndex: number }[];
    };
    assert.deepEqual(
      shelf.data.map((b) => [b.name, b.durChapterIndex]),
      [['留存', 7]],
    );
  } finally {
    await second.stop();
  }
  const other = await startWorker(['--persist-to', fresh, ...USERS]);
  try {
    assert.equal(await (await fetch(other.url + 'getBookshelf', { headers: auth })).text(), envelopeText(false, '还没有添加小说'));
  } finally {
    await other.stop();
  }
});
