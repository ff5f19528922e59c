// GET /api/database of a Durable Object store of several MB, streamed from SQLite WASM memory:
// the file a Node SQLite reads back exactly (integrity, counts, a row's bytes), of the length
// its Content-Length says. The store is filled through /api/import with a backup of 20,000
// books (the Worker has no route that writes chapters).
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { openDb } from '../helpers/engine.js';
import { basic, startWorker, stateDir, type RunningWorker } from './helpers.js';

let worker: RunningWorker;
const state = stateDir('legado-worker-database-');
before(async () => {
  worker = await startWorker(['--persist-to', state, '--var', 'LEGADO_USERS:big:pw-big']);
});
after(async () => {
  await worker?.stop();
  rmSync(state, { recursive: true, force: true });
});

const N = 20_000;
/** A book with a 200-character intro of its own (Chinese text: 3 bytes a character). */
const bookOf = (i: number) => ({
  bookUrl: `https://book.example/${i}`,
  tocUrl: `https://book.example/${i}/toc`,
  origin: 'https://source.example',
  originName: '源',
  name: `书名${i}`,
  author: `作者${i % 97}`,
  intro: `第${i}本：${'简介文字'.repeat(50)}`,
  type: 0,
  durChapterIndex: i % 300,
  durChapterTime: 1_700_000_000_000 + i,
});

test('a store of several MB downloads whole, streamed, and reads back exactly', async () => {
  const auth = basic('big', 'pw-big');
  const zip = zipSync({ 'bookshelf.json': strToU8(JSON.stringify(Array.from({ length: N }, (_, i) => bookOf(i)))) });
  const imported = await fetch(`${worker.url}api/import`, { method: 'POST', body: zip, headers: auth });
  assert.equal(imported.status, 200, await imported.clone().text());

  const res = await fetch(`${worker.url}api/database`, { headers: auth });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/vnd.sqlite3');
  const length = Number(res.headers.get('content-length'));
  // Read as the stream it is, piece by piece.
  const pieces: Uint8Array[] = [];
  for await (const piece of res.body!) pieces.push(piece);
  const bytes = Buffer.concat(pieces);
  assert.equal(bytes.byteLength, length, 'Content-Length is exact');
  assert.ok(length > 5_000_000, `a file of several MB: ${length}`);
  assert.ok(pieces.length > 1, `streamed in pieces: ${pieces.length}`);

  const dir = stateDir('legado-worker-database-file-');
  try {
    const file = join(dir, 'legado.db');
    writeFileSync(file, bytes);
    const db = openDb(file, { readonly: true });
    try {
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
      assert.equal(db.pragma('user_version', { simple: true }), 75);
      assert.equal(db.prepare('SELECT count(*) FROM books').pluck().get(), N);
      assert.equal(db.prepare('SELECT count(DISTINCT author) FROM books').pluck().get(), 97);
      // One row's bytes: its intro as stored, byte for byte.
      const row = db.prepare("SELECT name, intro, durChapterIndex, durChapterTime FROM books WHERE bookUrl = 'https://book.example/12345'").get() as Record<
        string,
        unknown
      >;
      const want = bookOf(12345);
      assert.deepEqual(
        { ...row, durChapterTime: Number(row.durChapterTime) },
        { name: want.name, intro: want.intro, durChapterIndex: want.durChapterIndex, durChapterTime: want.durChapterTime },
      );
      assert.equal(
        db.prepare("SELECT hex(intro) FROM books WHERE bookUrl = 'https://book.example/12345'").pluck().get(),
        Buffer.from(want.intro).toString('hex').toUpperCase(),
      );
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // A download given up after its first piece frees the image; the next one is whole again.
  const cut = await fetch(`${worker.url}api/database`, { headers: auth });
  const reader = cut.body!.getReader();
  await reader.read();
  await reader.cancel();
  const again = await fetch(`${worker.url}api/database`, { headers: auth });
  assert.equal((await again.arrayBuffer()).byteLength, length);
});
